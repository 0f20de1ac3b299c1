"""«Людо» in the bot: lobby variant, move wording, the board picture."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from bot.games.common import Html, SwitchVariantUI, ThrowLog, Tr
from bot.games.places import in_ranking_order
from bot.games.spec import GameSpec, Variant, of_kinds
from engines.base import Event, Outcome
from engines.ludo import CENTRE, ENGINE, PHASE_MOVE, YARD, LudoState
from engines.ludo_ai import AI, LEVELS
from render import covers
from render import ludo as render_ludo

_PARTS = {"no_move": "ludo-ev-no-move", "choose": "ludo-ev-choose", "third_six": "ludo-ev-third-six",
          "win": "ludo-ev-win"}


def where(progress: int, tr: Tr) -> str:
    """A piece's place in words: the yard, steps from the start (1..51), the lane, the centre."""
    if progress == YARD:
        return tr("ludo-pos-yard")
    if progress == CENTRE:
        return tr("ludo-pos-centre")
    return str(progress + 1)


class LudoUI(SwitchVariantUI):
    """Presentation of the `ludo` engine."""

    code = "ludo"
    switch, variants = "bonuses", ("classic", "bonuses")

    def locale_keys(self) -> frozenset[str]:
        return super().locale_keys() | {f"action-ludo-{kind}" for kind in ("roll", "exit", "move")}

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """The throw and what it did on one line («Оля: 🎲 6 → выводит фишку 1, бросает ещё»)."""
        log = ThrowLog(tr, "ludo-ev-line")
        for event in events:
            data, name = event.data, names[event.seat or 0]
            if event.kind == "starter":
                log.own(tr("ludo-ev-starter", name=name))
            elif event.kind == "roll":
                log.start(tr("ludo-ev-roll", name=name, die=data["die"]))
            elif event.kind == "exit":
                log.head_or(tr("ludo-ev-chooser", name=name))
                log.part(tr("ludo-ev-exit", piece=data["piece"] + 1))
            elif event.kind == "move":
                log.head_or(tr("ludo-ev-chooser", name=name))
                log.part(tr("ludo-ev-move", piece=data["piece"] + 1, start=where(data["from"], tr),
                            to=where(data["to"], tr)))
            elif event.kind == "capture":
                log.part(tr("ludo-ev-capture", name=name, piece=data["piece"] + 1))
            elif event.kind == "centre":
                log.part(tr("ludo-ev-centre", piece=data["piece"] + 1))
            elif event.kind == "again":
                log.part(tr("ludo-ev-again-bonus" if data.get("bonus") else "ludo-ev-again"))
            elif event.kind in _PARTS:
                log.part(tr(_PARTS[event.kind]))
        return log.lines()

    def status_lines(self, state: LudoState, names: Sequence[str], tr: Html) -> list[Markup]:
        players = [tr("ludo-status-player", name=names[s], yard=state.of(s).count(YARD),
                      centre=state.of(s).count(CENTRE)) for s in range(state.seats)]
        lines = [Markup(" · ").join(players)]
        if state.phase == PHASE_MOVE and not state.finished:
            lines.append(tr("ludo-status-choose", die=state.die))
        return lines

    def result_lines(self, state: LudoState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        (seat,) = outcome.winners
        return [tr("ludo-result", name=names[seat])]


UI = LudoUI()

SPEC = GameSpec(
    replay_moment=of_kinds("capture", "centre", "win"),
    cover_art=covers.ludo_art,  # its lobby's title card
    engine=ENGINE, ui=UI, render_board=render_ludo.render_board, label_keys=render_ludo.LABEL_KEYS,
    dice_per_roll=1, policy=AI, levels=LEVELS, variant_option="bonuses", places=in_ranking_order,
    variants=(Variant("", {"bonuses": False}), Variant("", {"bonuses": True}, drawn=False, played_through=False)),
)
