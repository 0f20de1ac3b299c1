"""Captions and keyboards of the lobby and the table message (HTML, within Telegram's limits)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callback_data as cb
from bot.games.common import GameUI, Tr
from bot.storage import GameRow
from engines.base import Engine, Event, OptionsError, Outcome, seed_digest

CAPTION_LIMIT = 1024
RESULT_TALLY_LINES = 10  # payers listed under a pub result: the seed and /verify must still fit (4096)
TALLY_LINES = 60  # payers /tally lists: 60 lines of 32-character names fit one message
NAME_LIMIT = 32
SHORT_LABEL = 14  # button labels up to this many characters may share a row
_TAG = re.compile(r"<[^>]+>")


def display_name(first: str, last: str | None = None) -> str:
    """A user's name as shown in games, trimmed to fit captions and buttons."""
    name = " ".join(p for p in (first, last) if p).strip() or "?"
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


def visible_length(text: str) -> int:
    """Characters Telegram counts in an HTML caption (tags removed, entities decoded)."""
    return len(html.unescape(_TAG.sub("", text)))


def mention(user_id: int, name: str) -> str:
    if user_id < 0:  # a computer player has no Telegram account to link to
        return html.escape(name)
    return f'<a href="tg://user?id={int(user_id)}">{html.escape(name)}</a>'


def fit_caption(head: Sequence[str], log: Sequence[str], tail: Sequence[str]) -> str:
    """Join head, log and tail, dropping the oldest log lines until the caption fits."""
    log = list(log)
    while True:
        text = "\n".join([*head, *log, *tail])
        if visible_length(text) <= CAPTION_LIMIT:
            return text
        if log:
            log.pop(0)
        else:  # never exceed the limit, whatever the names are
            return html.escape(html.unescape(_TAG.sub("", text))[: CAPTION_LIMIT - 1]) + "…"


def escaped_tr(tr: Tr) -> Tr:
    """A translator that HTML-escapes every string argument (player names)."""

    def wrapped(key: str, /, **args: Any) -> str:
        safe = {k: html.escape(v) if isinstance(v, str) else v for k, v in args.items()}
        return tr(key, **safe)

    return wrapped


def option_error(exc: OptionsError, tr: Tr, escape: bool = True) -> str:
    """Why a setting is refused, with the allowed limits («Допустимо: min=5, max=16»)."""
    limits = ", ".join(f"{k}={v}" for k, v in exc.limits.items())
    key = exc.key[:24]
    if escape:  # HTML messages; alerts are plain text
        key, limits = html.escape(key), html.escape(limits)
    return tr("set-bad", key=key, limits=limits)


def commitment_line(game: GameRow, tr: Tr) -> str:
    """«🔒 Кости: sha256 …»: the SHA-256 of the game's secret seed, shown before any roll."""
    return tr("fair-commitment", digest=seed_digest(game.seed))


def lobby_caption(game: GameRow, ui: GameUI, engine: Engine[Any, Any], options: Any, tr: Tr) -> str:
    etr = escaped_tr(tr)
    lines = [f"🎲 <b>{html.escape(tr(f'game-{game.code}'))}</b>", *ui.lobby_lines(options, len(game.seats), etr)]
    host = next((s.name for s in game.seats if s.user_id == game.host_id), "?")
    lines.append(etr("lobby-host", name=host))
    lines.append(commitment_line(game, tr))  # above the players: a long list can never cut it off
    lines.append("")
    lines.append(tr("lobby-players", count=len(game.seats), max=engine.max_players))
    lines.extend(f"{s.seat + 1}. {html.escape(s.name)}" for s in game.seats)
    lines.append("")
    lines.append(tr("lobby-hint", min=engine.min_players, max=engine.max_players))
    return fit_caption(lines, [], [])


def lobby_keyboard(game: GameRow, ui: GameUI, engine: Engine[Any, Any], options: Any, tr: Tr,
                   vs_ai: bool = False, timer: int | None = None) -> InlineKeyboardMarkup:
    """Join/leave, the game's settings, the computer players (``vs_ai``: the game has them;
    «🤖 Играть с ботом» in a two-player game, «🤖 Добавить бота» / «Убрать бота» otherwise),
    start/cancel."""
    rows = [[
        InlineKeyboardButton(tr("btn-join"), callback_data=cb.lobby(game.id, "join")),
        InlineKeyboardButton(tr("btn-leave"), callback_data=cb.lobby(game.id, "leave")),
    ]]
    for row in ui.lobby_buttons(options, len(game.seats), tr):
        rows.append([InlineKeyboardButton(b.text, callback_data=cb.lobby(game.id, "set", b.key, b.value))
                     for b in row])
    if vs_ai:
        bots = [InlineKeyboardButton(tr("btn-add-bot"), callback_data=cb.lobby(game.id, "bot"))]
        if engine.max_players == 2:  # one press to a game against the computer
            bots = [InlineKeyboardButton(tr("btn-play-ai"), callback_data=cb.lobby(game.id, "ai"))]
        if len(game.seats) >= engine.max_players:
            bots = []
        if engine.max_players > 2 and any(s.user_id < 0 for s in game.seats):
            bots.append(InlineKeyboardButton(tr("btn-remove-bot"), callback_data=cb.lobby(game.id, "unbot")))
        if bots:
            rows.append(bots)
    if timer is not None:  # the chat's turn timer; a press moves it to the next choice
        rows.append([InlineKeyboardButton(tr("btn-timer", minutes=timer), callback_data=cb.lobby(game.id, "timer"))])
    last = [InlineKeyboardButton(tr("btn-cancel"), callback_data=cb.lobby(game.id, "cancel"))]
    if engine.min_players <= len(game.seats) <= engine.max_players:
        last.insert(0, InlineKeyboardButton(tr("btn-start"), callback_data=cb.lobby(game.id, "start")))
    rows.append(last)
    return InlineKeyboardMarkup(rows)


FLOW_EVENTS = {"timeout": "log-timeout", "replaced": "log-replaced"}  # events the bot adds, not the engine


def event_lines(ui: GameUI, events: Sequence[Event], names: Sequence[str], tr: Tr) -> list[str]:
    etr = escaped_tr(tr)
    own = [etr(FLOW_EVENTS[e.kind], name=names[e.seat] if e.seat is not None else "", count=e.data.get("count", 0))
           for e in events if e.kind in FLOW_EVENTS]
    return own + ui.describe([e for e in events if e.kind not in FLOW_EVENTS], names, etr)


def table_caption(
    game: GameRow,
    ui: GameUI,
    state: Any,
    log: Sequence[str],
    outcome: Outcome | None,
    tr: Tr,
    stopped: bool = False,
) -> str:
    """The table message's caption: title, the last actions' log, status, whose turn (or the end).

    The first table caption of a game (the lobby turned table, or a rematch's new table) repeats
    the lobby's commitment line; once the table has been shown (``shown_version`` ≥ 0) it is gone.
    """
    names = game.names
    etr = escaped_tr(tr)
    head = [f"🎲 <b>{html.escape(tr(f'game-{game.code}'))}</b> · {html.escape(ui.variant(state.options, tr))}"]
    tail = ["", *ui.status_lines(state, names, etr)]
    if stopped:
        tail.append(tr("table-stopped"))
    elif outcome is not None:
        tail.extend(ui.result_lines(state, outcome, names, etr))
    elif state.current_player is not None:
        seat = game.seats[state.current_player]
        tail.append(tr("table-turn", name=mention(seat.user_id, seat.name)))
    if game.shown_version < 0 and outcome is None and not stopped:
        head.append(commitment_line(game, tr))
        if visible_length("\n".join([*head, *tail])) > CAPTION_LIMIT:  # never at the cost of «Ходит:»
            head.pop()
    return fit_caption(head, log, tail)


def table_keyboard(game: GameRow, ui: GameUI, engine: Engine[Any, Any], state: Any,
                   tr: Tr) -> InlineKeyboardMarkup | None:
    markup = _action_keyboard(game, ui, engine, state, tr)
    seat = state.current_player
    if markup is None or seat is None or not game.timeouts.get(str(seat)):
        return markup
    # the player to move has let the timer run out before: the host may skip them for good
    kick = InlineKeyboardButton(tr("btn-kick"), callback_data=cb.kick(game.id, state.version))
    return InlineKeyboardMarkup([*markup.inline_keyboard, [kick]])


def _action_keyboard(game: GameRow, ui: GameUI, engine: Engine[Any, Any], state: Any,
                     tr: Tr) -> InlineKeyboardMarkup | None:
    actions = engine.legal_actions(state)
    if not actions:
        return None
    buttons = [(a.kind, InlineKeyboardButton(tr(f"action-{game.code}-{a.kind}", **_action_args(a)),
                                             callback_data=cb.move(game.id, state.version, a.code)))
               for a in actions]
    groups = getattr(ui, "row_groups", None)
    if groups is None:
        # long labels («Фишка 1: 23 → 31 ⏩ 34») would be cut off on a phone if they shared a row
        per_row = 1 if any(len(b.text) > SHORT_LABEL for _, b in buttons) else 4
        flat = [b for _, b in buttons]
        return InlineKeyboardMarkup([flat[i:i + per_row] for i in range(0, min(len(flat), 96), per_row)])
    rows: list[list[InlineKeyboardButton]] = []
    last_group = None
    for kind, button in buttons[:96]:  # a game that lays out its own rows: kinds of one group share rows
        group, per_row = groups.get(kind, (kind, 1))
        if group != last_group or len(rows[-1]) >= per_row:
            rows.append([])
        rows[-1].append(button)
        last_group = group
    return InlineKeyboardMarkup(rows)


def _action_args(action: Any) -> dict[str, Any]:
    return dict(action.args)


def tally_lines(tally: Sequence[tuple[str, int]], shown: int, tr: Tr) -> list[str]:
    """The pub tally's title and its first ``shown`` payers (a message holds 4096 characters)."""
    etr = escaped_tr(tr)
    lines = [tr("pub-tally-title"), *(etr("pub-tally-line", name=name, count=count) for name, count in tally[:shown])]
    if len(tally) > shown:
        lines.append(tr("pub-tally-more", count=len(tally) - shown))
    return lines


def result_message(game: GameRow, ui: GameUI, state: Any, outcome: Outcome, tally: Sequence[tuple[str, int]],
                   tr: Tr) -> str:
    etr = escaped_tr(tr)
    lines = [f"🏁 <b>{html.escape(tr(f'game-{game.code}'))}</b>", *ui.result_lines(state, outcome, game.names, etr)]
    if tally:
        lines.append("")
        lines.extend(tally_lines(tally, RESULT_TALLY_LINES, tr))
    # the game is over, so its seed may be told: anyone can now re-derive every roll (/verify)
    lines.append("")
    lines.append(etr("fair-seed", seed=game.seed))
    lines.append(etr("fair-check", id=str(game.id)))  # text, not a number: Fluent would group 1234 as «1 234»
    if game.next_seed is not None:  # «Ещё раунд» is committed to before any of its rolls, too
        lines.append(tr("fair-next", digest=seed_digest(game.next_seed)))
    return "\n".join(lines)


def game_keyboard(rows: Sequence[Sequence[tuple[str, str]]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d) for t, d in row] for row in rows])
