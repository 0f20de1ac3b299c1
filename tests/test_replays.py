"""Replays: which boards a clip shows and for how long, the clip itself (H.264,
≤ 40 s, ≤ 3 MB, as the fake server reads it like Telegram), and «🎬 Повтор» / ``/replay`` through the
fake Bot API: refused on a running game, made once, then sent by file_id, one clip per chat at a time."""

from __future__ import annotations

import asyncio
import io
import os
import random
import re
from pathlib import Path
from typing import Any

import av
import pytest
from PIL import Image
from telegram import InputFile
from telegram.error import BadRequest

from bot import callback_data as cb
from bot.clip import FPS, MAX_BYTES, ClipTooBig, Shot, encode_clip, render_clip
from bot.drawing import DrawingError
from bot.fake_telegram import StoredMessage
from bot.fake_telegram.parsing import inspect_mp4
from bot.games import GAMES
from bot.replay import END_TICKS, MAX_TICKS, MOMENT_TICKS, START_TICKS, STEP_TICKS, evenly, fitted, shots_of, ticks
from engines.base import Event, LogEntry
from engines.playout import at_random, playout
from locales import Translator
from tests.bot_harness import CHAT_ID, flow_of, game_id_of, group_world
from tests.result_steps import open_for, play_out
from tests.sosedi_steps import open_lobby, play_to_end


def labels_of(code: str) -> dict[str, str]:
    translator = Translator.load(strict=True)
    return {key: translator.t("ru", f"board-{key}") for key in GAMES[code].label_keys}


def random_game(code: str, seats: int, seed: int) -> tuple[Any, list[LogEntry], str]:
    """A game of ``code`` played to its end at random: its options, log and seed."""
    engine = GAMES[code].engine
    options, seed_hex = engine.options_from_json({}), f"{seed:064x}"
    start, _ = engine.new_game(options, seats, seed_hex)
    log = [entry for *_, entry in playout(engine, start, at_random(random.Random(seed), GAMES[code].random_skips),
                                          limit=5000)]
    return options, log, seed_hex


# which boards, how long ---------------------------------------------------------------


def test_a_short_game_shows_every_action_and_lingers_on_its_moments_and_end() -> None:
    spec = GAMES["sosedi"]
    options, log, seed = random_game("sosedi", 3, 5)
    shots = shots_of(spec.engine, options, 3, seed, log, spec.replay_moment)
    assert len(shots) == len(log) + 1 and ticks(shots) <= MAX_TICKS
    assert shots[0].ticks == START_TICKS and shots[-1].ticks == END_TICKS and shots[-1].state.finished
    for shot in shots[1:-1]:
        moment = any(map(spec.replay_moment, shot.events))
        assert shot.ticks == (MOMENT_TICKS if moment else STEP_TICKS)
    assert any(s.ticks == MOMENT_TICKS for s in shots)  # a pub round is paid: a moment


@pytest.mark.parametrize("code", ["ludo", "lions"])
def test_a_long_game_fits_in_forty_seconds_keeping_its_moments_start_and_end(code: str) -> None:
    spec = GAMES[code]
    seats = 4 if code == "ludo" else 2
    options, log, seed = random_game(code, seats, 7)
    full = shots_of(spec.engine, options, seats, seed, log, spec.replay_moment, max_ticks=10**9)
    shots = fitted(full, MAX_TICKS)
    assert shots == shots_of(spec.engine, options, seats, seed, log, spec.replay_moment)
    assert ticks(full) > MAX_TICKS >= ticks(shots) > MAX_TICKS - 8  # cut, and the room is used
    assert shots[0] is full[0] and shots[-1] is full[-1]
    moments = [s for s in full[1:-1] if s.ticks == MOMENT_TICKS]
    assert moments and all(any(s.state is m.state for s in shots) for m in moments)  # every moment stays
    positions = [next(i for i, f in enumerate(full) if f.state is s.state) for s in shots]
    assert positions == sorted(positions)  # in the order they were played


@pytest.mark.parametrize("code", list(GAMES))
def test_every_game_has_moments_a_replay_lingers_on(code: str) -> None:
    spec = GAMES[code]
    seats = 2 if code in ("lions", "shishbesh") else 4
    for seed in range(3):
        options, log, seed_hex = random_game(code, seats, seed)
        shots = shots_of(spec.engine, options, seats, seed_hex, log, spec.replay_moment, max_ticks=10**9)
        assert any(s.ticks == MOMENT_TICKS for s in shots) or spec.replay_moment(shots[-1].events[-1]), seed


@pytest.mark.parametrize(("code", "arrival"), [("ludo", "centre"), ("parchis", "centre"), ("shishbesh", "home"),
                                               ("tishe", "home")])
def test_every_piece_reaching_home_is_a_moment(code: str, arrival: str) -> None:
    spec = GAMES[code]
    options, log, seed = random_game(code, 2, 1)
    shots = shots_of(spec.engine, options, 2, seed, log, spec.replay_moment, max_ticks=10**9)
    arrivals = [s for s in shots[1:-1] if any(e.kind == arrival for e in s.events)]  # the last shot: the end's
    assert all(s.ticks == MOMENT_TICKS for s in arrivals) and shots[-1].ticks == END_TICKS
    winner = spec.engine.outcome(shots[-1].state).winners[0]
    homes = sum(e.kind == arrival and e.seat == winner for s in shots for e in s.events)
    # each of the winner's pieces once, three of four before the end («Тише едешь»: one checker, at the end)
    assert homes == (1 if code == "tishe" else 4) and (code == "tishe" or len(arrivals) >= 3)


def test_a_lions_turn_that_takes_pieces_is_a_moment_and_one_that_takes_none_is_not() -> None:
    moment = GAMES["lions"].replay_moment
    assert moment(Event("turn", 0, {"side": "lions", "paths": [[1, 2]], "taken": [[5, False]], "isolated": False}))
    assert not moment(Event("turn", 0, {"side": "lions", "paths": [[1, 2]], "taken": [], "isolated": False}))
    assert moment(Event("resign", 1)) and not moment(Event("step", 1, {"to": 3}))


def test_too_many_moments_are_thinned_too_and_evenly() -> None:
    shots = [Shot(i, (), MOMENT_TICKS) for i in range(200)]
    cut = fitted(shots, 60)
    assert ticks(cut) <= 60 and cut[0] == shots[0] and cut[-1] == shots[-1] and len(cut) > 10
    assert evenly(list(range(10)), 5) == [1, 3, 5, 7, 9] and evenly([1, 2], 5) == [1, 2] and evenly([1], 0) == []


# the clip ---------------------------------------------------------------


def test_the_clip_is_a_silent_h264_mp4_of_its_ticks_within_the_limits() -> None:
    spec = GAMES["ludo"]
    options, log, seed = random_game("ludo", 4, 3)
    shots = shots_of(spec.engine, options, 4, seed, log, spec.replay_moment)
    names, labels = ["Аня", "Борис", "Вера", "Глеб"], labels_of("ludo")
    clip = render_clip(spec.render_board, shots, names, labels)
    info = inspect_mp4(clip)
    assert info is not None and (info.codec, info.has_sound) == ("avc1", False)
    assert len(clip) <= MAX_BYTES and info.duration == pytest.approx(ticks(shots) / FPS) and info.duration <= 40
    assert info.width >= 432 and info.width % 2 == info.height % 2 == 0
    with av.open(io.BytesIO(clip)) as container:
        frames = list(container.decode(video=0))
    assert len(frames) == ticks(shots)
    # x264 writes its settings into the stream: one thread, so a clip never takes every core from the bot
    assert re.search(rb" threads=(\d+) ", clip) is not None and re.search(rb" threads=(\d+) ", clip)[1] == b"1"
    last = frames[-1].to_image()  # the end as the board drew it (within H.264's loss)
    drawn = Image.open(io.BytesIO(spec.render_board(shots[-1].state, names, labels, shots[-1].events)))
    drawn = drawn.convert("RGB").resize(last.size)
    difference = sum(abs(a - b) for a, b in zip(last.tobytes(), drawn.tobytes(), strict=True)) / len(drawn.tobytes())
    assert difference < 8


def test_a_clip_over_the_limit_is_made_smaller_or_refused() -> None:
    noise = [(Image.frombytes("RGB", (640, 640), random.Random(i).randbytes(640 * 640 * 3)), 1) for i in range(6)]
    first = encode_clip(noise, max_bytes=10**9)  # the first try: full width, the usual quality
    small = encode_clip(noise, max_bytes=len(first) - 1)
    assert len(small) < len(first) and (info := inspect_mp4(small)) is not None and info.duration == 1.5
    with pytest.raises(ClipTooBig):
        encode_clip(noise, max_bytes=5_000)


# through Telegram ---------------------------------------------------------------


def animations(messages: list[StoredMessage]) -> list[StoredMessage]:
    return [m for m in messages if m.animation is not None]


def _opened(fifo: str) -> bytes:
    """A clip that is made only when the test lets it: reads a named pipe until its writer closes it."""
    with open(fifo, "rb") as gate:
        return gate.read()


async def test_a_game_is_drawn_while_a_clip_is_being_made(tmp_path: Path) -> None:
    """Clips have a drawing worker of their own: with one table worker, a whole game is drawn while
    a clip is still being made (sharing the worker, every table would wait behind the clip)."""
    async with group_world(tmp_path, first_seed=7, draw_processes=1) as (tg, runner, users):
        flow = flow_of(runner)
        fifo = tmp_path / "gate"
        os.mkfifo(fifo)
        clip = asyncio.create_task(flow.clips.draw(_opened, str(fifo)))
        lobby = await open_lobby(runner, users)
        await runner.press(users["anya"], lobby, "Начать")
        await asyncio.wait_for(play_to_end(runner, users, runner.table()), timeout=25)  # below the clip's 30 s
        assert not clip.done()  # still waiting for the gate
        drawn = [r for r in tg.requests if r.method == "editMessageMedia" and r.ok]
        assert len(drawn) > 3 and {r.params.get("chat_id") for r in drawn} == {CHAT_ID}
        with open(fifo, "wb") as gate:
            gate.write(b"clip")
        assert await clip == b"clip"


async def test_replay_a_finished_game_once_then_by_file_id_and_never_a_running_one(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=240, count=4) as (tg, runner, users):
        anya, boris, vera, gleb = (users[k] for k in ("anya", "boris", "vera", "gleb"))
        table = await open_for(runner, users, "tishe", ("anya", "boris", "vera"))
        game_id = game_id_of(table)
        await runner.say(gleb, f"/replay {game_id}")
        assert tg.last_bot_message(CHAT_ID).text == f"Игра #{game_id} ещё идёт — повтор будет, когда она закончится."
        await play_out(runner, users, table, seed=3)
        result = next(m for m in reversed(tg.bot_messages(CHAT_ID)) if m.has_button("Повтор"))
        assert result.buttons[-1][0] == "🎬 Повтор"

        # the first press makes the clip; a second press while it is being made is told to wait
        flow = flow_of(runner)
        gate = asyncio.Event()
        draw = flow.clips.draw

        async def held(render: Any, *args: Any) -> bytes:
            await gate.wait()
            return await draw(render, *args)

        flow.clips.draw = held  # type: ignore[method-assign]
        answer = await runner.press(gleb, result, "Повтор")
        assert answer["text"] == f"🎬 Готовлю повтор игры #{game_id}…"
        assert (await runner.press(anya, result, "Повтор"))["text"].startswith("Повтор уже готовится")
        gate.set()
        await flow.replays.settled()
        await runner.handled()
        (clip,) = animations(tg.bot_messages(CHAT_ID))
        assert clip.reply_to is not None and clip.reply_to.message_id == result.message_id
        assert clip.caption == f"🎬 Повтор игры #{game_id} · Тише едешь — дальше будешь"
        assert clip.animation is not None and clip.animation.mime_type == "video/mp4"
        assert 0 < clip.animation.duration <= 40 and len(clip.animation.data) <= MAX_BYTES
        assert tg.animation_uploads == 1

        # asked again, by command: the same clip by its file_id, nothing made or uploaded
        await runner.say(boris, f"/replay #{game_id}")
        await flow.replays.settled()
        await runner.handled()
        again = animations(tg.bot_messages(CHAT_ID))
        assert len(again) == 2 and again[1].animation is clip.animation and tg.animation_uploads == 1
        assert await flow.store.replay_file(game_id) == clip.animation.file_id

        # bad requests: a clear line each, nothing made
        for text, said in ((f"/replay {game_id + 50}", f"В этом чате нет игры #{game_id + 50}."),
                           ("/replay", "Использование: /replay <номер игры>"),
                           ("/replay twelve", "Использование: /replay <номер игры>"),
                           (f"/replay {game_id} {game_id}", "Использование: /replay <номер игры>")):
            await runner.say(vera, text)
            assert tg.last_bot_message(CHAT_ID).text.startswith(said), text
        await runner.say(vera, "/newgame spichki")
        closed = game_id_of(runner.table())
        await runner.say(vera, "/stop")
        await runner.say(vera, f"/replay {closed}")
        assert tg.last_bot_message(CHAT_ID).text == f"Игра #{closed} так и не началась — показывать нечего."
        await flow.replays.settled()
        assert len(animations(tg.bot_messages(CHAT_ID))) == 2 and tg.animation_uploads == 1


def making_lines(tg: Any, game_id: int) -> list[StoredMessage]:
    """«🎬 Готовлю повтор игры #N…» lines the bot posted in the chat, deleted ones too."""
    return [m for m in tg.messages[CHAT_ID].values()
            if m.from_bot and m.text == f"🎬 Готовлю повтор игры #{game_id}…"]


async def test_replay_commands_line_goes_when_the_clip_comes_or_turns_into_the_failure(tmp_path: Path) -> None:
    """/replay's «Готовлю повтор…» is deleted once the clip is in the chat (after it, as Telegram saw the
    calls), and where the clip fails it is edited into the failure instead of staying beside it."""
    async with group_world(tmp_path, first_seed=243, count=2) as (tg, runner, users):
        table = await open_for(runner, users, "tishe", ("anya", "boris"))
        game_id = game_id_of(table)
        await play_out(runner, users, table, seed=5)
        flow = flow_of(runner)
        draw = flow.clips.draw

        async def broken(render: Any, *args: Any) -> bytes:
            raise DrawingError("the worker could not draw")

        flow.clips.draw = broken  # type: ignore[method-assign]
        await runner.say(users["boris"], f"/replay {game_id}")
        await flow.replays.settled()
        await runner.handled()
        failed = tg.last_bot_message(CHAT_ID)
        posted = next(r for r in tg.requests if r.method == "sendMessage" and r.ok
                      and r.response["result"]["message_id"] == failed.message_id)
        assert posted.params["text"] == f"🎬 Готовлю повтор игры #{game_id}…"  # the line posted first …
        assert failed.text == f"Повтор игры #{game_id} не получился. Попробуйте ещё раз чуть позже."  # … edited
        assert failed.edit_count == 1 and failed.reply_to is not None and failed.reply_to.text == f"/replay {game_id}"
        assert not making_lines(tg, game_id) and not animations(tg.bot_messages(CHAT_ID))

        gate = asyncio.Event()

        async def held(render: Any, *args: Any) -> bytes:
            await gate.wait()
            return await draw(render, *args)

        flow.clips.draw = held  # type: ignore[method-assign]
        await runner.say(users["anya"], f"/replay {game_id}")
        await tg.wait_for(lambda tg: len(making_lines(tg, game_id)) == 1)
        (making,) = making_lines(tg, game_id)
        command = making.reply_to
        assert command is not None and command.text == f"/replay {game_id}" and not making.deleted
        gate.set()
        await flow.replays.settled()
        await runner.handled()
        (clip,) = animations(tg.bot_messages(CHAT_ID))
        assert clip.reply_to is command and making.deleted and making.edit_count == 0
        calls = [(r.method, r.params.get("message_id")) for r in tg.requests
                 if r.ok and r.method in ("sendAnimation", "deleteMessage")]
        assert calls == [("sendAnimation", None), ("deleteMessage", making.message_id)]
        assert tg.violations == []


async def test_another_chats_game_is_never_replayed_by_command_or_forged_press(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=241, count=3) as (tg, runner, users):
        table = await open_for(runner, users, "tishe", ("anya", "boris"))
        game_id = game_id_of(table)
        await play_out(runner, users, table, seed=4)
        other = CHAT_ID - 7
        tg.add_chat(other, "supergroup", "Другой клуб", creator=users["anya"].id)
        runner.chat_id = other
        await runner.say(users["anya"], f"/replay {game_id}")
        reply = tg.last_bot_message(other)
        assert reply.text == f"В этом чате нет игры #{game_id}."
        answer = await runner.press_data(users["boris"], reply, cb.replay(game_id))  # data never shown here
        assert answer["text"] == "Кнопка устарела."
        await flow_of(runner).replays.settled()
        assert not animations(tg.bot_messages(other)) and tg.animation_uploads == 0


async def test_the_fake_server_takes_only_what_telegram_plays_as_an_animation(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=242, count=2) as (tg, runner, _):
        bot = flow_of(runner).messages.bot
        picture = Image.new("RGB", (64, 64), "white")
        noisy = encode_clip([(picture, 2)])
        sent = await bot.send_animation(CHAT_ID, InputFile(noisy, filename="a.mp4"))
        assert sent.animation is not None and sent.animation.duration == 0 and sent.animation.width == 720
        again = await bot.send_animation(CHAT_ID, sent.animation.file_id)
        assert again.animation is not None and again.animation.file_id == sent.animation.file_id
        for junk in (b"not a video at all", b"\x00\x00\x00\x08ftyp"):
            with pytest.raises(BadRequest):
                await bot.send_animation(CHAT_ID, InputFile(junk, filename="b.mp4"))
        with pytest.raises(BadRequest):
            await bot.send_animation(CHAT_ID, "no-such-file-id")
        assert tg.animation_uploads == 1
        # each refusal is a rule the bot broke, as the fake server records them: expected here, so cleared
        assert [v.split(": ", 2)[2].split(" (")[0] for v in tg.violations] == [
            "wrong type of the web page content"] * 2 + ["wrong file identifier/HTTP URL specified"]
        tg.violations.clear()


async def test_ten_clips_asked_at_once_in_ten_chats_all_arrive(tmp_path: Path) -> None:
    """One clip worker, ten chats asking at once: each clip waits its turn there, and its timeout counts only
    its own drawing, so every clip arrives (a timeout that counted the wait killed the worker under them)."""
    async with group_world(tmp_path, first_seed=250, count=2, draw_processes=1) as (tg, runner, users):
        chats = [CHAT_ID - 1 - k for k in range(11)]
        games = {}
        for k, chat_id in enumerate(chats):
            tg.add_chat(chat_id, "supergroup", f"Клуб {k}", creator=1)
            runner.chat_id = chat_id
            table = await open_for(runner, users, "sosedi", ("anya", "boris"))
            games[chat_id] = game_id_of(table)
            await play_out(runner, users, table, seed=k)
        flow, loop = flow_of(runner), asyncio.get_running_loop()
        first, *ten = chats
        runner.chat_id, started = first, loop.time()  # one clip alone: what one costs on this machine
        await runner.say(users["anya"], f"/replay {games[first]}")
        await flow.replays.settled()
        # ample for any one clip, short of the wait of the last of ten behind each other
        flow.clips.timeout_s = max(0.5, 2 * (loop.time() - started))
        for chat_id in ten:
            runner.chat_id = chat_id
            await runner.say(users["anya"], f"/replay {games[chat_id]}")
        await flow.replays.settled()
        await runner.handled()
        runner.chat_id = CHAT_ID
        for chat_id in chats:
            (clip,) = animations(tg.bot_messages(chat_id))
            assert clip.caption is not None and clip.caption.startswith(f"🎬 Повтор игры #{games[chat_id]}")
            assert not [m for m in tg.bot_messages(chat_id) if "не получился" in (m.text or "")]
        assert tg.animation_uploads == 11
