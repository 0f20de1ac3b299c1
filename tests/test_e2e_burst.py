"""Players pressing faster than a group's budget: edits coalesce, no 429, the last picture is the latest."""

from __future__ import annotations

import itertools
from pathlib import Path

from bot import callback_data as cb
from bot.fake_telegram import FakeTelegram
from bot.fake_telegram.methods import RATE_LIMITED
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, game_id_of

PER_PERIOD, PERIOD = 4, 1  # Telegram's 20 a minute, shrunk so the test runs in seconds


async def test_a_burst_of_presses_is_coalesced_within_the_groups_budget(tmp_path: Path) -> None:
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        users = [tg.add_user(i + 1, name) for i, name in enumerate(("Аня", "Борис", "Вера"))]
        by_name = {u.first_name: u for u in users}
        tg.add_chat(CHAT_ID, "supergroup", creator=1)
        tg.enforce_group_rate(PER_PERIOD, period=PERIOD)
        runner = BotRunner(tg, tmp_path / "bot.sqlite3", group_rate=(PER_PERIOD, PERIOD))
        await runner.start()
        seeds = (f"{i:064x}" for i in itertools.count(7))
        assert runner.app is not None
        flow = runner.app.bot_data["flow"]
        flow.seed_factory = lambda: next(seeds)
        try:
            await runner.say(users[0], "/newgame sosedi")
            lobby = runner.table()
            for user in users[1:]:
                await runner.press(user, lobby, "Играю")
            await runner.press(users[0], lobby, "Начать")
            table = runner.table()
            # the player the table names presses its first button the moment their last press is
            # answered, whether or not the picture has caught up: most presses find it stale
            answers: list[str] = []
            coalesced = False
            while table.buttons and len(answers) < 60:
                mover = by_name[current_player_name(table.caption)]
                handle = await tg.press(mover, CHAT_ID, table.message_id, table.buttons[0][1])
                answers.append((await tg.wait_answer(handle)).get("text", ""))
                coalesced = coalesced or flow.outbox.waiting(CHAT_ID) > 0
            await runner.handled()
            game = await flow.store.game(game_id_of(lobby))
        finally:
            await runner.stop()
        assert tg.violations == [] and not tg.unanswered_callbacks()
        assert [r for r in tg.requests if r.error_code == 429] == []  # never over the server's limit
        assert coalesced  # edits did wait for the budget while presses went on being answered
        stale = [a for a in answers if "устарела" in a]
        edits = [r for r in tg.requests if r.method == "editMessageMedia" and r.ok]
        assert stale and len(edits) < len(answers)  # each stale press asked for a redraw; they merged
        # the last picture shows the stored state: its buttons carry the current version
        assert game is not None and game.shown_version == game.version
        if table.buttons:
            parsed = cb.parse(table.buttons[0][1])
            assert parsed is not None and parsed.version == game.version
        else:  # the game ended in the burst: the result comes after the final table
            assert game.status == "finished"
            result = tg.last_bot_message(CHAT_ID)
            assert result.photo is None and result.message_id > table.message_id
            last_edit = max(i for i, r in enumerate(tg.requests) if r.method == "editMessageMedia" and r.ok)
            assert any(r.method == "sendMessage" for r in tg.requests[last_edit:])
        # and no window of the period ever held more than the budget (as the server stamped them)
        times = sorted(r.at for r in tg.requests if r.method in RATE_LIMITED and r.ok)
        assert len(times) > PER_PERIOD
        assert all(later - earlier > PERIOD * 0.9 for earlier, later in zip(times, times[PER_PERIOD:], strict=False))
