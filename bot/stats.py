"""/stats, /top and /history: the chat's results as short texts and small bar charts.

Results are written by the save that finishes a game (``Store.save_move``); here they are
only read, ranked and shown. A chart is drawn off the event loop like the boards are
(``flow.drawing``) and sent as one photo with the text as its caption.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from markupsafe import Markup
from telegram import Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.drawing import DrawingError, WorkerDied
from bot.flow import GameFlow
from bot.games.common import Tr, html_words
from bot.games.places import Places, place_lines
from bot.handlers import flow_of, group_command, send_reply
from bot.ratings import BASE, shown
from bot.store import GameTotals, PastGame, PlayerTotals, RatingRow
from bot.texts import CAPTION_LIMIT, display_name, result_name, shown_name, visible_length
from bot.zones import UTC, local_time, slug
from render.stats import render_mine, render_top

log = logging.getLogger(__name__)
MIN_GAMES = 3  # /top lists only players with at least this many games (of the game asked about)
TOP_SIZE = 10
HISTORY_SIZE = 10
MESSAGE_LIMIT = 4096  # characters of a text message
ARG_LIMIT = 32  # a game code longer than this is junk: it is not looked at further
# how /history says a stopped game ended, by its result's kind (a «broken» one could not be decoded any more)
STOPPED_LINES = {"abandoned": "history-abandoned", "broken": "history-broken"}


@dataclass(frozen=True, slots=True)
class Ranked:
    """A player's place on the leaderboard (equal players share it: 1, 1, 3), and their rating in the
    game asked about (None on the all-games board)."""

    place: int
    player: PlayerTotals
    rating: int | None = None


def percent(wins: int, games: int) -> int:
    """The win rate in whole percent, halves rounded up (0 when no games)."""
    return (200 * wins + games) // (2 * games) if games else 0


def _merit(p: PlayerTotals) -> tuple[int, Fraction, int]:
    """What places are decided by, best first when sorted descending: wins, win rate, games."""
    return p.wins, Fraction(p.wins, p.games), p.games


def ranking(players: Sequence[PlayerTotals], min_games: int = MIN_GAMES, limit: int = TOP_SIZE,
            ratings: Mapping[str, RatingRow] | None = None) -> list[Ranked]:
    """The leaderboard: players with at least ``min_games`` games, by their rating if ``ratings`` are
    given (one game's board), then by wins, then win rate, then games played; players equal on all of
    these share a place (competition ranking: 1, 1, 3), and their names only keep the listing stable.
    The first ``limit`` rows."""
    def rating(p: PlayerTotals) -> int | None:
        if ratings is None:
            return None
        row = ratings.get(str(p.user_id))  # not rated yet (its catch-up failed): a newcomer's number
        return shown(row.mu, row.sigma) if row else BASE

    def merit(p: PlayerTotals) -> tuple[int, int, Fraction, int]:
        return (rating(p) or 0, *_merit(p))

    eligible = [p for p in players if p.games >= min_games and p.games > 0]
    eligible.sort(key=lambda p: (p.name.casefold(), p.user_id))
    eligible.sort(key=merit, reverse=True)  # stable: equal merit keeps the name order
    ranked: list[Ranked] = []
    for index, player in enumerate(eligible[:limit]):
        tied = ranked and merit(ranked[-1].player) == merit(player)
        ranked.append(Ranked(ranked[-1].place if tied else index + 1, player, rating(player)))
    return ranked


def fit_lines(head: Sequence[Markup], body: Sequence[Markup], tail: Sequence[Markup],
              limit: int = CAPTION_LIMIT) -> Markup:
    """Join the lines, dropping the last body lines (for one «…») until the text fits ``limit``."""
    kept, cut = list(body), False
    while True:
        text = Markup("\n").join([*head, *kept, *([Markup("…")] if cut else []), *tail])
        if visible_length(text) <= limit or not kept:
            return text
        kept.pop()
        cut = True


def game_name(flow: GameFlow, tr: Tr, code: str) -> str:
    """A game's name in the chat's language (its code, if the bot no longer has that game)."""
    return tr(f"game-{code}") if code in flow.games else code


# /stats ------------------------------------------------------------------------


def pub_words(totals: GameTotals | PlayerTotals, tr: Tr) -> Markup:
    """The pub rounds in the pub's words («🍺 не платил 4 из 5, платил 1 раз»); empty without any."""
    if not totals.pub:
        return Markup()
    return html_words(tr)("stats-pub", free=totals.pub - totals.paid, rounds=totals.pub, paid=totals.paid)


def with_pub(line: Markup, totals: GameTotals | PlayerTotals, tr: Tr) -> Markup:
    """``line``, then its pub rounds in the pub's words, if it has any."""
    pub = pub_words(totals, tr)
    return Markup(" · ").join([line, pub]) if pub else line


def stats_text(name: str, totals: Sequence[GameTotals], names: dict[str, str], tr: Tr) -> Markup:
    """The caller's results in the chat: a line per game (its pub rounds in the pub's words), the total."""
    html = html_words(tr)
    head = [html("stats-title", name=name)]
    body = [with_pub(html("stats-line", game=names[t.code], count=t.games, wins=t.wins,
                          percent=percent(t.wins, t.games)), t, tr)
            for t in totals]
    tail = []
    if len(totals) > 1:
        games, wins = sum(t.games for t in totals), sum(t.wins for t in totals)
        tail.append(html("stats-total", count=games, wins=wins, percent=percent(wins, games)))
    return fit_lines(head, body, tail)


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stats: the caller's games played and won in this chat, per game, pub rounds in the pub's words."""
    if (cmd := await group_command(update, context)) is None:
        return
    chat, user, flow, tr = cmd.chat, cmd.user, cmd.flow, cmd.tr
    name = shown_name(display_name(user.first_name, user.last_name), tr, user_id=user.id)
    totals = await flow.user_totals(chat.id, user.id)
    if not totals:
        await send_reply(update, context, cmd.html("stats-empty", name=name))
        return
    names = {t.code: game_name(flow, tr, t.code) for t in totals}
    text = stats_text(name, totals, names, tr)
    rows = [(names[t.code], t.games, t.wins) for t in totals[:TOP_SIZE]]
    chart = await _draw(flow, render_mine, tr("stats-chart-title", name=name), rows,
                        tr("stats-chart-played"), tr("stats-chart-won")) if rows else None
    await _send(update, context, text, chart)


# /top --------------------------------------------------------------------------


def player_name(player: PlayerTotals, tr: Tr) -> str:
    """A player of the leaderboard by name, or by the end of their id if the name is empty once cleaned."""
    return shown_name(player.name, tr, user_id=player.user_id)


def top_text(ranked: Sequence[Ranked], title: str, tr: Tr) -> Markup:
    """The leaderboard's caption: the title, a line per player (with the rating on one game's board),
    how places are decided."""
    html = html_words(tr)
    rated = bool(ranked) and ranked[0].rating is not None
    body = [html("top-line-rated" if rated else "top-line", place=r.place, name=player_name(r.player, tr),
                 rating=r.rating or 0,
                 wins=r.player.wins, count=r.player.games, percent=percent(r.player.wins, r.player.games))
            for r in ranked]
    if rated:  # one game's board: its pub rounds in the pub's words (the all-games board counts them as wins)
        body = [with_pub(line, r.player, tr) for line, r in zip(body, ranked, strict=True)]
    rule = html("top-rule-rated" if rated else "top-rule", count=MIN_GAMES, base=BASE)
    return fit_lines([html("top-title", game=title)], body, [Markup(), rule])


async def top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/top [game]: this chat's leaderboard, of one game or of all games."""
    if (cmd := await group_command(update, context)) is None:
        return
    chat, flow, tr, args = cmd.chat, cmd.flow, cmd.tr, cmd.args
    codes = ", ".join(flow.games)
    if len(args) > 1:
        await send_reply(update, context, cmd.html("top-usage", codes=codes), transient=True)
        return
    code = args[0].lower()[:ARG_LIMIT] if args else None
    if code is not None and code not in flow.games:  # the argument is never echoed back
        await send_reply(update, context, cmd.html("unknown-game", codes=codes), transient=True)
        return
    # one game's board goes by the rating; ratings are per game, so all games' by wins
    ratings = await flow.ratings_of(chat.id, code) if code else None
    ranked = ranking(await flow.player_totals(chat.id, code), ratings=ratings)
    if not ranked:
        await send_reply(update, context, cmd.html("top-empty", count=MIN_GAMES))
        return
    title = game_name(flow, tr, code) if code else tr("top-all-games")
    rows = [(r.place, player_name(r.player, tr), r.player.wins if r.rating is None else r.rating) for r in ranked]
    chart_title = "top-chart-title" if ratings is None else "top-chart-title-rated"
    chart = await _draw(flow, render_top, tr(chart_title, game=title), rows)
    await _send(update, context, top_text(ranked, title, tr), chart)


# /history ----------------------------------------------------------------------


def when(timestamp: float, zone: str = UTC) -> str:
    """A moment as «01.12 05:07» in the time zone ``zone`` (the title names the zone)."""
    return local_time(timestamp, zone)


def outcome_text(game: PastGame, tr: Tr, places: Places | None = None) -> Markup:
    """How a past game ended: who won, who paid, a draw, or stopped; every place, best first, where
    the game ranks everyone (``places``) and its stored result has the ranking. A seat the computer
    finished for a person wins, pays or is placed under their name with «(доигрывал компьютер)»; a pub
    round a computer seat lost was bought by nobody, and says so."""
    html, kind = html_words(tr), game.result.get("kind")
    if game.status != "finished":  # stopped: by a person, for want of players, or unreadable (no stats either way)
        return html(STOPPED_LINES.get(str(kind), "history-stopped"))
    names = [result_name(name, game.left_name(seat), tr, seat) for seat, name in enumerate(game.names)]
    if placed := place_lines(places, game.result, names, html, "history-place"):
        return html("history-places", places=Markup(", ").join(placed))
    if kind == "draw":
        return html("history-draw")
    seats = [s for s in game.result.get("losers" if kind == "lose" else "winners") or []
             if isinstance(s, int) and 0 <= s < len(names)]
    if kind == "lose" and seats and seats[0] in game.computers:  # a computer never buys the round: nobody did
        return html("history-nobody-paid", name=names[seats[0]])
    return html("history-paid" if kind == "lose" else "history-won", names=", ".join(names[s] for s in seats) or "?")


def history_text(games: Sequence[PastGame], names: dict[str, str], tr: Tr, zone: str = UTC,
                 places: Mapping[str, Places | None] | None = None) -> Markup:
    """The chat's last games, newest first: number, game, when (in the chat's time ``zone``), players
    and how it ended (every place, for the games of ``places`` that rank everyone)."""
    html, places = html_words(tr), places or {}
    games = [replace(g, names=tuple(shown_name(n, tr, seat) for seat, n in enumerate(g.names))) for g in games]
    body = [html("history-entry", id=str(g.id), game=names[g.code], when=when(g.ended_at, zone),
                 players=", ".join(g.names), result=outcome_text(g, tr, places.get(g.code))) for g in games]
    return fit_lines([html("history-title", zone=tr("zone-name", zone=slug(zone)))], body, [], MESSAGE_LIMIT)


async def history(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/history: the chat's last games that were played and ended (finished or stopped)."""
    if (cmd := await group_command(update, context)) is None:
        return
    chat, flow, tr = cmd.chat, cmd.flow, cmd.tr
    games = await flow.past_games(chat.id, HISTORY_SIZE)
    if not games:
        await send_reply(update, context, cmd.html("history-empty"))
        return
    names = {g.code: game_name(flow, tr, g.code) for g in games}
    places = {g.code: flow.games[g.code].places if g.code in flow.games else None for g in games}
    zone = (await flow.chat(chat.id)).time_zone
    await send_reply(update, context, history_text(games, names, tr, zone, places))


# sending -----------------------------------------------------------------------


async def _draw(flow: GameFlow, render: Callable[..., bytes], *args: Any) -> bytes | None:
    """The chart, drawn off the event loop; None if drawing failed (the text goes alone)."""
    try:
        return await flow.drawing.draw(render, *args)
    except (DrawingError, WorkerDied) as exc:
        log.warning("a stats chart could not be drawn: %s", exc)
        return None


async def _send(update: Update, context: ContextTypes.DEFAULT_TYPE, caption: Markup, chart: bytes | None) -> None:
    """One photo with ``caption`` (HTML, ≤ 1024 characters), or the text alone without a chart."""
    chat, message = update.effective_chat, update.effective_message
    if chart is None or chat is None:
        await send_reply(update, context, caption)
        return
    reply_to, flow = message.message_id if message else None, flow_of(context)

    async def post() -> None:
        try:
            await context.bot.send_photo(chat.id, chart, caption=caption, parse_mode=ParseMode.HTML,
                                         reply_to_message_id=reply_to, allow_sending_without_reply=True)
        except TelegramError as exc:
            log.warning("chat %s: stats photo failed: %s", chat.id, exc)
            flow.chat_refused(chat.id, exc)

    await flow.outbox.reply(chat.id, ("chart", str(caption)), post)  # a courtesy, like every reply
