"""Captions and keyboards of the lobby and the table message (HTML, within Telegram's limits).

HTML is composed with markupsafe: a catalogue's message is markup, every string put into it is
escaped once on the way in (``html_words``), and what is already markup stays as it is.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import callback_data as cb
from bot import phone
from bot.games.common import GameUI, Html, Tr, html_words, option_label, option_limits, option_type, option_words
from bot.games.places import place_lines
from bot.ratings import Change
from bot.store import GameRow, Seat, TallyRow
from bot.turns import is_bot
from engines.base import Event, OptionsError, Outcome, seed_commitment

if TYPE_CHECKING:
    from bot.flow.context import Game
    from bot.flow.table_settings import TableSettings
    from bot.games.spec import GameSpec

CAPTION_LIMIT = 1024
RESULT_TALLY_LINES = 10  # payers listed under a pub result (the whole tally is /tally)
TALLY_LINES = 60  # payers /tally lists: 60 lines of 32-character names fit one message
NAME_LIMIT = 32
SHORT_LABEL = 14  # move labels up to this many characters may share a row (as many as fit a phone)
_TAG = re.compile(r"<[^>]+>")


# dropped from names: controls (a newline or tab is a space first), format characters (the
# bidi overrides and isolates, zero-width spaces and joiners: an emoji sequence joined by U+200D shows
# as its emoji side by side, still readable, while a joiner kept anywhere would let «А», U+200D, «ня»
# pass for «Аня») and lone surrogates (UTF-8 cannot carry one to Telegram); unassigned code points
# stay, as they are tomorrow's emoji to this Python
DROPPED = frozenset({"Cc", "Cf", "Cs"})
# letters and symbols that print nothing, the usual «invisible» Telegram name: cleaned as spaces
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # the Hangul fillers, the empty braille cell


@functools.lru_cache(maxsize=4096)  # every redraw names every seat, once per logged action too: the same few names
def clean_name(text: str) -> str:
    """A person's name as the bot shows it anywhere: controls and format characters dropped, every run of
    whitespace one space, NFC, trimmed, at most NAME_LIMIT characters («…» at the end of a longer one);
    empty if nothing of it is left (:func:`shown_name` says «Игрок N» then). Cleaning a clean name
    changes nothing."""
    kept = "".join(" " if ch.isspace() or ch in BLANKS else "" if unicodedata.category(ch) in DROPPED else ch
                   for ch in text)
    name = " ".join(unicodedata.normalize("NFC", kept).split())
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1].rstrip() + "…"


def display_name(first: str, last: str | None = None) -> str:
    """A Telegram user's name as it is kept for a seat: cleaned (:func:`clean_name`); empty if nothing
    of it was text, then shown as «Игрок N» (:func:`shown_name`)."""
    return clean_name(" ".join(p for p in (first, last) if p))


def unnamed(tr: Tr, seat: int | None = None, user_id: int = 0) -> str:
    """What the chat calls a person whose name is empty once cleaned: «Игрок 2» at seat 1; with no seat
    (/stats, /top, /tally), the last four digits of their Telegram id, «Игрок 4821», which tell people apart
    where a seat number cannot (given as text: a number would be grouped, «4 821»)."""
    return tr("player-unnamed", n=seat + 1 if seat is not None else str(abs(user_id))[-4:])


def shown_name(name: str, tr: Tr, seat: int | None = None, user_id: int = 0) -> str:
    """A name as it is shown, never empty: cleaned again (a name stored before names were cleaned may
    hold anything; a clean one stays as it is), or «Игрок N» (:func:`unnamed`) in the chat's language."""
    return clean_name(name) or unnamed(tr, seat, user_id)


def seat_names(seats: Sequence[Seat], tr: Tr, at: int | None = None) -> list[str]:
    """The names by seat as shown (at action ``at``: the person until a computer took their seat)."""
    return [shown_name(s.name if at is None else s.name_at(at), tr, s.seat) for s in seats]


def result_name(name: str, left_name: str | None, tr: Tr, seat: int) -> str:
    """A seat's name in a result (the result message, /history): a seat the computer finished for a person
    who left, was skipped or timed out (``left_name``) is theirs with «(доигрывал компьютер)», so that its
    medal does not read as theirs alone while their rating counts them last (bot/ratings/)."""
    if left_name is None:
        return shown_name(name, tr, seat)
    return tr("finished-by-computer", name=shown_name(left_name, tr, seat))


def result_names(seats: Sequence[Seat], tr: Tr) -> list[str]:
    """The names by seat as a result shows them (:func:`result_name`)."""
    return [result_name(s.name, s.left_name, tr, s.seat) for s in seats]


def visible_length(text: str) -> int:
    """What Telegram counts of an HTML caption against its limits: the text once tags are removed
    and entities decoded, in UTF-16 code units (an emoji such as 🤖 counts two)."""
    return _utf16_len(Markup(_TAG.sub("", text)).unescape())


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _cut(text: str, units: int) -> str:
    """The longest start of ``text`` that is at most ``units`` UTF-16 code units long."""
    while _utf16_len(text) > units:
        text = text[: max(0, len(text) - (_utf16_len(text) - units + 1) // 2)]
    return text


def mention(user_id: int, name: str) -> Markup:
    """The name, linked to the person's account so the caption notifies them (not a computer player)."""
    if user_id < 0:  # a computer player has no Telegram account to link to
        return escape(name)
    return Markup('<a href="tg://user?id={}">{}</a>').format(int(user_id), name)


def fit_caption(head: Sequence[Markup], log: Sequence[Markup], tail: Sequence[Markup]) -> Markup:
    """Join head, log and tail, dropping the oldest log lines until the caption fits."""
    log = list(log)
    while True:
        text = Markup("\n").join([*head, *log, *tail])
        if visible_length(text) <= CAPTION_LIMIT:
            return text
        if log:
            log.pop(0)
        else:  # never exceed the limit, whatever the names are
            return escape(_cut(Markup(_TAG.sub("", text)).unescape(), CAPTION_LIMIT - 1)) + "…"


def option_error(exc: OptionsError, code: str, options: Any, tr: Tr) -> str:
    """Why a setting of the game ``code`` is refused, in the chat's words: the option's
    name and what it takes («Фишки: от 5 до 30», «Бросающий не платит: вкл или выкл»), or, for an
    option the game does not have, the ones it has with the /set key to type. Plain text: an alert
    shows it as it is, a message escapes it once."""
    found = option_type(options, exc.key)
    if found is None and exc.key != "players":
        names = [tr("option-named", label=option_label(code, f.name, tr), key=f.name)
                 for f in dataclasses.fields(options)]
        if not names:
            return tr("option-unknown-none", key=exc.key[:24])
        return tr("option-unknown", key=exc.key[:24], options=", ".join(names))
    label = option_label(code, exc.key, tr)
    if found is not None and found[0] is bool:  # in the words the lobby's button shows («да», «нет»)
        return tr("option-choice", label=label,
                  values=or_list([quoted(option_words(code, options, exc.key, v, tr), tr) for v in (True, False)], tr))
    known = exc if exc.limits else OptionsError(exc.key, "its limits", **option_limits(options, exc.key))
    low, high, allowed = known.min, known.max, known.allowed
    if allowed:  # the values in words, then what /set takes (the words may be several)
        words = or_list([quoted(option_words(code, options, exc.key, v, tr), tr) for v in allowed], tr)
        return "\n".join((tr("option-choice", label=label, values=words),
                          tr("option-type", key=exc.key, codes=" | ".join(map(str, allowed)))))
    if low is not None and low == high:  # «Игроки: ровно 2», not «от 2 до 2»
        return tr("option-exact", label=label, count=low)
    if low is not None and high is not None:
        auto = found is not None and found[1]
        kind = "option-range-off" if "off" in known.limits else "option-range-auto" if auto else "option-range"
        return tr(kind, label=label, min=low, max=high)
    return tr("option-bad", label=label)


def ignored_option(spec: GameSpec[Any, Any], options: Any, key: str, tr: Tr) -> str | None:
    """Why the option ``key`` is not set, when the variant ``options`` play ignores it («Башня» in
    «наоборот»): where it applies and how to switch there; None when the variant plays with it."""
    applies, variant = spec.only_in_variants.get(key), spec.variant_option
    if not applies or variant is None or getattr(options, variant) in applies:
        return None
    code = spec.code
    return tr("option-ignored", label=option_label(code, key, tr), count=len(applies), key=variant, code=applies[0],
              variants=or_list([quoted(option_words(code, options, variant, v, tr), tr) for v in applies], tr),
              variant=option_words(code, options, variant, getattr(options, variant), tr))


def quoted(words: str, tr: Tr) -> str:
    """«words» in Russian, “words” in English: the chat's own quotation marks."""
    return tr("option-quoted", words=words)


def or_list(items: Sequence[str], tr: Tr) -> str:
    """«a, b или c»: the choices, the last one joined by the chat's «или»."""
    if len(items) < 2:
        return "".join(items)
    return tr("option-or", first=", ".join(items[:-1]), last=items[-1])


def commitment_line(game: GameRow, tr: Tr) -> Markup:
    """«🔒 Кости заверены: …»: the start of the SHA-256 of the game's secret seed (``seed_commitment``), shown
    before any roll; the chat's only line of hex of the game (the full check is «🔎 Проверить кости»)."""
    return html_words(tr)("fair-commitment", digest=seed_commitment(game.seed))


def title(game: Game, tr: Tr, mark: str | None = None) -> Markup:
    """The game's name as the head of its messages, after its mark (or ``mark``): «🎲 <b>Людо</b>»."""
    return Markup("{} <b>{}</b>").format(mark or game.spec.mark, tr(f"game-{game.spec.code}"))


def picker_keyboard(codes: Iterable[str], tr: Tr) -> InlineKeyboardMarkup:
    """/newgame's list: a game a row, by its name."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr(f"game-{code}"), callback_data=cb.picker(code))]
                                 for code in codes])


def lobby_caption(game: Game, tr: Tr, table: TableSettings | None = None) -> Markup:
    """The lobby's caption: the game, its options, how its table plays (``table``: ⏱, 🔔, 🎲 and the
    computer's level once it plays), the host, the dice commitment, the players and what to press."""
    html, row, engine = html_words(tr), game.row, game.spec.engine
    names = seat_names(row.seats, tr)
    lines = [title(game, tr), *game.spec.ui.lobby_lines(game.options, len(row.seats), html)]
    if table is not None:
        lines.append(table_line(game, table, html))
    host = next((names[i] for i, s in enumerate(row.seats) if s.user_id == row.host_id), "?")
    lines.append(html("lobby-host", name=host))
    if game.spec.dice_per_roll:  # a game without dice has nothing to commit to
        lines.append(commitment_line(row, tr))  # above the players: a long list can never cut it off
    lines.append(Markup())
    seated = game.spec.ui.lobby_seats(game.options, names, html)  # a game's own words: its sides
    if seated is None:
        lines.append(html("lobby-players", count=len(row.seats), max=engine.max_players))
        lines.extend(Markup("{}. {}").format(s.seat + 1, name) for s, name in zip(row.seats, names, strict=True))
    else:
        lines.extend(seated)
    if game.spec.ui.is_pub(game.options) and any(is_bot(s.user_id) for s in row.seats):
        lines.append(html("lobby-pub-computer"))  # a computer never buys the round (docs/rules, «Pub rounds»)
    lines.append(Markup())
    if engine.min_players == engine.max_players:  # «нужны 2 игрока», not «от 2 до 2»
        lines.append(html("lobby-hint-exact", count=engine.min_players))
    else:
        lines.append(html("lobby-hint", min=engine.min_players, max=engine.max_players))
    return fit_caption(lines, [], [])


def table_line(game: Game, table: TableSettings, html: Html) -> Markup:
    """«⏱ 3 мин на ход · 🔔 напомнит через 30 с · 🎲 быстрый стол · 🤖 уровень: Средний»: what the lobby's
    ⏱, 🔔, 🎲 Стол and 🤖 Уровень set, for everyone to see before the game starts."""
    parts = [html("lobby-timer", minutes=table.turn_timer), html("lobby-ping", seconds=table.ping)]
    if game.spec.fast_table:
        parts.append(html("lobby-pace", pace=table.pace))
    if level_offered(game):
        parts.append(html("lobby-level", level=html(f"level-{table.level}")))
    return Markup(" · ").join(parts)


def level_offered(game: Game) -> bool:
    """Whether the lobby offers the computer's level: once a computer sits at the table, or, in a game for
    two, beside «🤖 Играть с ботом», which seats it and starts the game in one press."""
    row, spec = game.row, game.spec
    if not spec.levels or spec.policy is None:
        return False
    seated = any(is_bot(s.user_id) for s in row.seats)
    return seated or (spec.engine.max_players == 2 and len(row.seats) < 2)


def lobby_keyboard(game: Game, tr: Tr, table: TableSettings | None = None) -> InlineKeyboardMarkup:
    """Join/leave, the game's settings, the computer players (if the game has them: «🤖 Играть с
    ботом» in a two-player game, «🤖 Добавить бота» / «Убрать бота» otherwise, and their level if the
    game offers levels), the game's turn timer, turn ping and pace (from ``table``), start/cancel."""
    row, engine = game.row, game.spec.engine
    rows = [[
        InlineKeyboardButton(tr("btn-join"), callback_data=cb.lobby(row.id, "join")),
        InlineKeyboardButton(tr("btn-leave"), callback_data=cb.lobby(row.id, "leave")),
    ]]
    for buttons in game.spec.ui.lobby_buttons(game.options, len(row.seats), tr):
        rows.append([InlineKeyboardButton(b.text, callback_data=cb.lobby(row.id, "set", b.key, b.value))
                     for b in buttons])
    if game.spec.policy is not None:
        seated = str(len(row.seats))  # drawn for this many seats: a second delivery, or a double tap, adds none
        bots = [InlineKeyboardButton(tr("btn-add-bot"), callback_data=cb.lobby(row.id, "bot", cb.SEATS, seated))]
        if engine.max_players == 2:  # one press to a game against the computer
            bots = [InlineKeyboardButton(tr("btn-play-ai"), callback_data=cb.lobby(row.id, "ai"))]
        if len(row.seats) >= engine.max_players:
            bots = []
        seated_bot = any(s.user_id < 0 for s in row.seats)
        if engine.max_players > 2 and seated_bot:
            bots.append(InlineKeyboardButton(tr("btn-remove-bot"),
                                             callback_data=cb.lobby(row.id, "unbot", cb.SEATS, seated)))
        if bots:
            rows.append(bots)
        if table is not None and level_offered(game):
            level = tr(f"level-{table.level}")  # a press moves it to the next level
            after = table.after("level", tuple(game.spec.levels))
            rows.append([InlineKeyboardButton(tr("btn-level", level=level),
                                              callback_data=cb.lobby(row.id, "level", cb.TO, after))])
    if table is not None:  # the game's turn timer and ping; a press sets the next choice, which the button carries
        def cycle(command: str, key: str) -> str:
            return cb.lobby(row.id, command, cb.TO, str(table.after(key)))

        rows.append([InlineKeyboardButton(tr("btn-timer", minutes=table.turn_timer),
                                          callback_data=cycle("timer", "turn_timer"))])
        rows.append([InlineKeyboardButton(tr("btn-ping", seconds=table.ping), callback_data=cycle("ping", "ping"))])
        if game.spec.fast_table:
            rows.append([InlineKeyboardButton(tr("btn-pace", pace=table.pace), callback_data=cycle("pace", "pace"))])
    last = [InlineKeyboardButton(tr("btn-cancel"), callback_data=cb.lobby(row.id, "cancel"))]
    if engine.min_players <= len(row.seats) <= engine.max_players:
        last.insert(0, InlineKeyboardButton(tr("btn-start"), callback_data=cb.lobby(row.id, "start")))
    rows.append(last)
    return InlineKeyboardMarkup(phone.fitted(rows))  # a row a phone would cut is split


FLOW_EVENTS = {"timeout": "log-timeout", "replaced": "log-replaced"}  # events the bot adds, not the engine


def event_lines(ui: GameUI, events: Sequence[Event], names: Sequence[str], tr: Tr) -> list[Markup]:
    html = html_words(tr)
    own = [html(FLOW_EVENTS[e.kind], name=names[e.seat] if e.seat is not None else "", count=e.data.get("count", 0))
           for e in events if e.kind in FLOW_EVENTS]
    return own + ui.describe([e for e in events if e.kind not in FLOW_EVENTS], names, html)


def table_caption(game: Game, log: Sequence[Markup], tr: Tr, stopped: str | None = None,
                  notice: str | None = None) -> Markup:
    """The table message's caption: title, the last actions' log, status, whose turn (or the end);
    ``notice``, a line that says why the table is posted anew («table-restored»), right after the log.

    The first table caption of a game (the lobby turned table, or a rematch's new table) repeats
    the lobby's commitment line, if the game has dice; once the table has been shown (``shown_version``
    ≥ 0) it is gone.
    """
    row, ui, state, outcome = game.row, game.spec.ui, game.state, game.outcome()
    assert state is not None, "a table is a dealt game's"
    names, html = seat_names(row.seats, tr), html_words(tr)
    head = [Markup("{} · {}").format(title(game, tr), ui.variant(state.options, tr))]
    tail = [Markup(), *([html(notice)] if notice else []), *ui.status_lines(state, names, html)]
    if stopped is not None:  # the line that says how: «table-stopped», «table-abandoned»
        tail.append(html(stopped))
    elif outcome is not None:
        tail.extend(ui.result_lines(state, outcome, names, html))
    elif state.current_player is not None:
        seat = row.seats[state.current_player]
        tail.append(html("table-turn", name=mention(seat.user_id, names[state.current_player])))
    if row.shown_version < 0 and outcome is None and stopped is None and game.spec.dice_per_roll:
        head.append(commitment_line(row, tr))
        if visible_length(Markup("\n").join([*head, *tail])) > CAPTION_LIMIT:  # never at the cost of «Ходит:»
            head.pop()
    return fit_caption(head, log, tail)


def table_keyboard(game: Game, tr: Tr) -> InlineKeyboardMarkup | None:
    markup, state = _action_keyboard(game, tr), game.state
    assert state is not None, "a table is a dealt game's"
    seat = state.current_player
    if markup is None or seat is None or not game.row.timeouts.get(str(seat)):
        return markup
    # the player to move has let the timer run out before: the host may skip them for good
    kick = InlineKeyboardButton(tr("btn-kick"), callback_data=cb.kick(game.id, state.version))
    return InlineKeyboardMarkup([*markup.inline_keyboard, [kick]])


def confirm_keyboard(game: Game, tr: Tr, code: str, kind: str) -> InlineKeyboardMarkup | None:
    """The table's keyboard with the row of action ``code`` (of ``kind``) asking first (lions.md: one stray
    tap must not lose the game): «Да, сдаюсь» / «Отмена» in its place, both for this version only, so
    any move (or a timeout) leaves them stale."""
    markup, state = table_keyboard(game, tr), game.state
    if markup is None or state is None:
        return markup
    asked = cb.move(game.id, state.version, code)
    question = [InlineKeyboardButton(tr(f"confirm-{game.spec.code}-{kind}"),
                                     callback_data=cb.confirm(game.id, state.version, code)),
                InlineKeyboardButton(tr("btn-confirm-cancel"), callback_data=cb.unconfirm(game.id, state.version))]
    return InlineKeyboardMarkup(phone.fitted([question if any(b.callback_data == asked for b in row) else list(row)
                                              for row in markup.inline_keyboard]))


def _action_keyboard(game: Game, tr: Tr) -> InlineKeyboardMarkup | None:
    state, code = game.state, game.spec.code
    assert state is not None, "a table is a dealt game's"
    actions = game.spec.engine.legal_actions(state)
    if not actions:
        return None
    words = game.spec.ui.button_args(state, actions, tr)
    buttons = [(a.kind, InlineKeyboardButton(tr(f"action-{code}-{a.kind}", **args),
                                             callback_data=cb.move(game.id, state.version, a.code)))
               for a, args in zip(actions, words, strict=True)]
    groups = game.spec.row_groups
    if groups is None:
        # long labels («Фишка 1: 23 → 31 ⏩ 34») read best a row each; short ones share rows, as many as a
        # 390-px phone shows whole («1: 10 → 13 ⚔» two or three, «🦁 1» four)
        flat = [b for _, b in buttons][:96]
        n = 1 if any(len(b.text) > SHORT_LABEL for b in flat) else phone.per_row([b.text for b in flat])
        return InlineKeyboardMarkup([flat[i:i + n] for i in range(0, len(flat), n)])
    rows: list[list[InlineKeyboardButton]] = []
    last_group = None
    for kind, button in buttons[:96]:  # a game that lays out its own rows: kinds of one group share rows
        group, per_row = groups.get(kind, (kind, 1))
        if group != last_group or len(rows[-1]) >= per_row:
            rows.append([])
        rows[-1].append(button)
        last_group = group
    return InlineKeyboardMarkup(phone.fitted(rows))  # a row whose labels a phone would cut is split


def tally_lines(tally: Sequence[TallyRow], shown: int, tr: Tr) -> list[Markup]:
    """The pub tally's title and its first ``shown`` payers (a message holds 4096 characters)."""
    html = html_words(tr)
    lines = [html("pub-tally-title"),
             *(html("pub-tally-line", name=shown_name(t.name, tr, user_id=t.user_id), count=t.rounds)
               for t in tally[:shown])]
    if len(tally) > shown:
        lines.append(html("pub-tally-more", count=len(tally) - shown))
    return lines


def rating_lines(changes: Sequence[Change], tr: Tr, seats: Mapping[str, int] | None = None) -> list[Markup]:
    """Each person's new rating and its change («Аня 1 512 ▲ +23»); computer levels are rated, not shown.
    ``seats``: the person's seat by player key, for a name empty once cleaned («Игрок 2», as the result says)."""
    html, seats = html_words(tr), seats or {}
    people = [c for c in changes if not c.computer]
    if not people:
        return []
    kind = {1: "up", -1: "down", 0: "same"}
    return [html("result-ratings"),
            *(html(f"result-rating-{kind[(c.delta > 0) - (c.delta < 0)]}", rating=c.after, change=abs(c.delta),
                   name=shown_name(c.name, tr, seats.get(c.player), int(c.player) if c.player.isdigit() else 0))
              for c in people)]


def player_seats(row: GameRow) -> dict[str, int]:
    """Each person's seat by player key (bot/ratings/): whoever sits there, and whoever left it."""
    left = {str(s.left_user_id): s.seat for s in row.seats if s.left_user_id is not None}
    return {**left, **{str(s.user_id): s.seat for s in row.seats}}


def result_lines(game: Game, outcome: Outcome, names: Sequence[str], html: Html) -> list[Markup]:
    """The game's own words for who won or paid; a pub round a computer seat lost is bought by nobody
    (a computer never pays: docs/rules, «Pub rounds»), and its result says so plainly."""
    losers = [game.row.seats[s] for s in outcome.losers]
    if game.spec.ui.is_pub(game.options) and losers and is_bot(losers[0].user_id):
        return [html("result-pub-computer", name=names[losers[0].seat])]
    return game.spec.ui.result_lines(game.state, outcome, names, html)


def result_message(game: Game, outcome: Outcome, tally: Sequence[TallyRow], tr: Tr,
                   changes: Sequence[Change] = ()) -> Markup:
    """Who won (or paid), every place where the rules rank everyone, the rating changes and the pub
    tally; the seed is told only by «🔎 Проверить кости» (/verify)."""
    html, row = html_words(tr), game.row
    names = result_names(row.seats, tr)
    lines = [title(game, tr, "🏁"), *result_lines(game, outcome, names, html)]
    places = place_lines(game.spec.places, outcome.to_json(), names, html, "result-place")
    if places:
        lines.append(Markup())
        lines.extend(places)
    if ratings := rating_lines(changes, tr, player_seats(row)):
        lines.append(Markup())
        lines.extend(ratings)
    if tally:
        lines.append(Markup())
        lines.extend(tally_lines(tally, RESULT_TALLY_LINES, tr))
    return Markup("\n").join(lines)


def result_keyboard(game: Game, tr: Tr) -> InlineKeyboardMarkup:
    """«🔁 Ещё раунд» and, in a game with dice, «🔎 Проверить кости» beside it; «🎬 Повтор» below."""
    buttons = [InlineKeyboardButton(tr("btn-rematch"), callback_data=cb.rematch(game.id))]
    if game.spec.dice_per_roll:
        buttons.append(InlineKeyboardButton(tr("btn-check-dice"), callback_data=cb.check_dice(game.id)))
    return InlineKeyboardMarkup([buttons, [InlineKeyboardButton(tr("btn-replay"), callback_data=cb.replay(game.id))]])
