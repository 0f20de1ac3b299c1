"""«Парчис» in the bot: move and bonus wording, the board picture."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from bot.games.common import Button, Html, ThrowLog, Tr, UIBase
from bot.games.places import in_ranking_order
from bot.games.spec import GameSpec, of_kinds
from engines.base import Event, Outcome
from engines.parchis import CENTRE, COLOURS, ENGINE, HOME, PHASE_MOVE, ParchisOptions, ParchisState, describe_position
from engines.parchis_ai import AI, LEVELS
from render import covers
from render import parchis as render_parchis

_PARTS = {"no_move": "parchis-ev-no-move", "six_as_seven": "parchis-ev-six-as-seven", "win": "parchis-ev-win"}


def where(colour: int, progress: int, tr: Tr) -> str:
    """A piece's place in words: home, a cell number, a corridor cell, the centre."""
    kind, number = describe_position(colour, progress)
    return tr(f"parchis-pos-{('home', 'cell', 'corridor', 'centre')[kind]}", n=number)


class ParchisUI(UIBase):
    """Presentation of the `parchis` engine."""

    code = "parchis"

    def locale_keys(self) -> frozenset[str]:
        return frozenset({*(f"action-parchis-{kind}" for kind in ("roll", "exit", "move")),
                          *(f"parchis-pos-{where}" for where in ("home", "cell", "corridor", "centre"))})

    def variant(self, options: ParchisOptions, tr: Tr) -> str:
        return tr("parchis-variant")


    def lobby_lines(self, options: ParchisOptions, seats: int, tr: Html) -> list[Markup]:
        return [tr("parchis-lobby")]

    def lobby_buttons(self, options: ParchisOptions, seats: int, tr: Tr) -> list[list[Button]]:
        return []

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """One line per throw or choice («Оля: 🎲 5 → выводит фишку 1 на 5»); a bonus move says +20."""
        log = ThrowLog(tr, "parchis-ev-line")
        colours = COLOURS.get(len(names), (0, 1, 2, 3))
        for event in events:
            data, seat = event.data, event.seat or 0
            name = names[seat]
            if event.kind == "starter":
                log.own(tr("parchis-ev-starter", name=name))
            elif event.kind == "roll":
                log.start(tr("parchis-ev-roll", name=name, die=data["die"]))
            elif event.kind in ("exit", "move"):
                if data.get("bonus"):  # a bonus move is its own line
                    log.start(tr("parchis-ev-bonus", name=name, count=data["count"]))
                log.head_or(tr("parchis-ev-chooser", name=name))
                if event.kind == "exit":
                    log.part(tr("parchis-ev-exit", piece=data["piece"] + 1,
                                to=where(colours[seat], data["to"], tr)))
                else:
                    log.part(tr("parchis-ev-move", piece=data["piece"] + 1,
                                start=where(colours[seat], data["from"], tr),
                                to=where(colours[seat], data["to"], tr)))
            elif event.kind == "capture":
                log.part(tr("parchis-ev-capture", name=name, piece=data["piece"] + 1))
            elif event.kind == "centre":
                log.part(tr("parchis-ev-centre", piece=data["piece"] + 1))
            elif event.kind == "choose":
                key = "parchis-ev-choose-bonus" if data.get("bonus") else "parchis-ev-choose"
                log.part(tr(key, count=data["count"]))
            elif event.kind == "bonus_lost":
                log.part(tr("parchis-ev-bonus-lost", count=data["count"]))
            elif event.kind == "third_six":
                piece = data.get("piece")
                log.part(tr("parchis-ev-third-six", piece=0 if piece is None else piece + 1))
            elif event.kind in _PARTS:
                log.part(tr(_PARTS[event.kind]))
        return log.lines()

    def status_lines(self, state: ParchisState, names: Sequence[str], tr: Html) -> list[Markup]:
        players = [tr("parchis-status-player", name=names[s], home=state.of(s).count(HOME),
                      centre=state.of(s).count(CENTRE)) for s in range(state.seats)]
        lines = [Markup(" · ").join(players)]
        if state.phase == PHASE_MOVE and not state.finished:
            key = "parchis-status-bonus" if state.bonus else "parchis-status-choose"
            lines.append(tr(key, count=state.count))
        return lines

    def result_lines(self, state: ParchisState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        (seat,) = outcome.winners
        return [tr("parchis-result", name=names[seat])]


UI = ParchisUI()

SPEC = GameSpec(
    replay_moment=of_kinds("capture", "centre", "win"),
    cover_art=covers.parchis_art,  # its lobby's title card
    engine=ENGINE, ui=UI, render_board=render_parchis.render_board, label_keys=render_parchis.LABEL_KEYS,
    dice_per_roll=1, policy=AI, levels=LEVELS, places=in_ranking_order,
)
