"""«Тише едешь — дальше будешь» in the bot: lobby variant, move wording, the board picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from bot.games.common import Html, SwitchVariantUI, ThrowLog, Tr
from bot.games.places import in_ranking_order
from bot.games.spec import GameSpec, Variant, of_kinds
from engines.base import Action, Event, Outcome
from engines.tishe import (
    ENGINE,
    HOME,
    OFF,
    PHASE_CHOOSE,
    RULE_ONE,
    RULE_SEVEN,
    RULE_SEVENTEEN,
    RULE_ZERO,
    TisheState,
    land,
)
from engines.tishe_ai import AI, LEVELS
from render import covers
from render import tishe as render_tishe

# Events that add to the throw's line, and the locale key of each (the rest get their own line).
_PART_KEYS = {"no_move": "tishe-ev-no-move", "choose": "tishe-ev-choose", "home": "tishe-ev-home",
              "win": "tishe-ev-win", "again": "tishe-ev-again", "again_lost": "tishe-ev-again-lost"}


def _where(pos: int, tr: Tr) -> str:
    if pos == OFF:
        return tr("tishe-pos-off")
    return tr("tishe-pos-home") if pos == HOME else str(pos)


class TisheUI(SwitchVariantUI):
    """Presentation of the `tishe` engine."""

    code = "tishe"
    switch, variants = "both_home", ("first", "both")

    def locale_keys(self) -> frozenset[str]:
        return super().locale_keys() | {
            *(f"action-tishe-{kind}" for kind in ("roll", "enter", "move")),
            *(f"tishe-result-{v}" for v in self.variants), *(f"tishe-ev-{kind}" for kind in ("enter", "move")),
            *(f"tishe-ev-land-{rule}" for rule in (RULE_ZERO, RULE_ONE, RULE_SEVEN, RULE_SEVENTEEN))}

    def button_args(self, state: TisheState, actions: Sequence[Action], tr: Tr) -> list[dict[str, Any]]:
        """A move past 100 says it bounces (rule 9): «Фишка 1: 95 → 100 ↩ 95», not «95 → 95»."""
        steps = sum(state.dice)  # the throw waiting for the choice (move buttons show only then)

        def bounced(action: Action) -> bool:
            return action.kind == "move" and land(int(action.args["start"]), steps).bounced

        return [{**action.args, "bounced": int(bounced(action))} for action in actions]

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """The throw and what it did on one line («Оля: 6–2 → вводит фишку 1: 8»); skips below."""
        log = ThrowLog(tr, "tishe-ev-line")
        for event in events:
            data, name = event.data, names[event.seat or 0]
            kind = event.kind
            if kind == "starter":
                log.own(tr("tishe-ev-starter", name=name))
            elif kind == "roll":
                log.start(tr("tishe-ev-roll", name=name, dice="–".join(str(d) for d in data["dice"])))
            elif kind in ("enter", "move"):
                log.head_or(tr("tishe-ev-chooser", name=name))
                log.part(tr(f"tishe-ev-{kind}", checker=data["checker"] + 1, start=data["from"], to=data["to"],
                            bounced=int(bool(data.get("bounced")))))
            elif kind == "land":
                log.part(tr(f"tishe-ev-land-{data['rule']}", at=data["at"], to=data["to"]))
            elif kind == "bump":
                log.part(tr("tishe-ev-bump", name=name, checker=data["checker"] + 1, at=data["at"]))
            elif kind == "double_circle":
                log.part(tr("tishe-ev-double-circle", at=data["at"], turns=data["turns"]))
            elif kind == "skip":
                log.own(tr("tishe-ev-skip", name=name, left=data["left"]))
            elif kind in _PART_KEYS:
                log.part(tr(_PART_KEYS[kind], checker=int(data.get("checker", 0)) + 1))
        return log.lines()

    def status_lines(self, state: TisheState, names: Sequence[str], tr: Html) -> list[Markup]:
        players = []
        for seat in range(state.seats):
            first, second = (_where(p, tr) for p in state.of(seat))
            players.append(tr("tishe-status-player", name=names[seat], first=first, second=second,
                              missed=state.missed[seat]))
        lines = [Markup(" · ").join(players)]
        if state.phase == PHASE_CHOOSE and not state.finished:
            lines.append(tr("tishe-status-choose", dice="–".join(str(d) for d in state.dice), total=sum(state.dice)))
        return lines

    def result_lines(self, state: TisheState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        (seat,) = outcome.winners
        return [tr(f"tishe-result-{self.variant_key(state.options)}", name=names[seat])]


UI = TisheUI()

SPEC = GameSpec(
    replay_moment=of_kinds("bump", "home", "win"),
    cover_art=covers.tishe_art,  # its lobby's title card
    engine=ENGINE, ui=UI, render_board=render_tishe.render_board, label_keys=render_tishe.LABEL_KEYS,
    dice_per_roll=2, policy=AI, levels=LEVELS, variant_option="both_home", places=in_ranking_order,
    variants=(Variant("", {"both_home": False}),
              Variant("", {"both_home": True}, drawn=False, played_through=False)),
)
