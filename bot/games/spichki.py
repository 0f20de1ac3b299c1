"""«Спички» in the bot: lobby settings, event wording, the table picture."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from bot.games.common import Button, Html, Tr, UIBase, option_word_keys, toggle
from bot.games.places import by_score
from bot.games.spec import GameSpec, Variant, of_kinds
from engines.base import BestScorePolicy, Event, Outcome
from engines.spichki import (
    DOUBLE_HIT_VALUES,
    ENGINE,
    GOAL_RANGE,
    PER_PLAYER_RANGE,
    WHY_DOUBLE,
    WHY_DOUBLE_HIT,
    WHY_EXACT,
    WHY_ONE,
    SpichkiOptions,
    SpichkiState,
)
from render import covers
from render import spichki as render_spichki


def dice_text(dice: Sequence[int]) -> str:
    """A pair of dice as players say it: «4–5»."""
    return "–".join(str(d) for d in dice)


def _delta_buttons(tr: Tr, key: str, value: int, limits: tuple[int, int]) -> list[Button]:
    lo, hi = limits
    return [Button(tr(f"spichki-btn-{key}", delta=f"{d:+d}".replace("-", "−")), key, str(value + d))
            for d in (-1, 1) if lo <= value + d <= hi]


class SpichkiUI(UIBase):
    """Presentation of the `spichki` engine."""

    code = "spichki"

    def locale_keys(self) -> frozenset[str]:
        takes = (WHY_DOUBLE, WHY_EXACT, WHY_DOUBLE_HIT, WHY_ONE)
        return frozenset({"action-spichki-target", "action-spichki-chase",
                          *(f"spichki-btn-{key}" for key in ("goal", "per_player")),
                          *(f"spichki-ev-take-{why.replace('_', '-')}" for why in takes),
                          *option_word_keys(self.code, "double_hit", int, DOUBLE_HIT_VALUES)})

    def variant(self, options: SpichkiOptions, tr: Tr) -> str:
        return tr("spichki-variant", count=options.goal)


    def lobby_lines(self, options: SpichkiOptions, seats: int, tr: Html) -> list[Markup]:
        lines = [tr("spichki-lobby-goal", count=options.goal),
                 tr("spichki-lobby-pile", count=options.per_player),
                 tr("spichki-lobby-double-hit", count=options.double_hit)]
        pile = options.per_player * seats
        if seats >= 2 and options.goal > pile:  # the game would not start: say why before the host tries
            lines.append(tr("spichki-lobby-goal-too-big", pile=pile, players=seats))
        return lines

    def lobby_buttons(self, options: SpichkiOptions, seats: int, tr: Tr) -> list[list[Button]]:
        return [
            _delta_buttons(tr, "goal", options.goal, GOAL_RANGE),
            _delta_buttons(tr, "per_player", options.per_player, PER_PLAYER_RANGE),
            [toggle(self.code, options, "double_hit", DOUBLE_HIT_VALUES, tr)],
        ]

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """One line per throw: «Цель: 2 и 4 · Оля: 4–5 → +1 спичка, бросает ещё»."""
        lines: list[Markup] = []
        head = Markup()
        effects: list[Markup] = []
        for event in events:
            data, name = event.data, names[event.seat or 0]
            if event.kind == "starter":
                lines.append(tr("spichki-ev-starter", name=name, pile=data.get("pile", 0)))
            elif event.kind == "throw":
                target, dice = data.get("target") or [], dice_text(data["dice"])
                head = (tr("spichki-ev-chase", name=name, dice=dice, a=target[0], b=target[1]) if target
                        else tr("spichki-ev-set", name=name, dice=dice))
            elif event.kind == "take":
                why = str(data.get("why", WHY_ONE)).replace("_", "-")
                effects.append(tr(f"spichki-ev-take-{why}", count=data["count"]))
            elif event.kind == "target":
                a, b = data["dice"]
                effects.append(tr("spichki-ev-target", a=a, b=b))
            elif event.kind == "pass":
                if not effects:
                    effects.append(tr("spichki-ev-miss"))
                effects.append(tr("spichki-ev-pass", name=name))
            elif event.kind == "again":  # after an exact hit the same player now sets a new target
                exact = any(e.kind == "take" and e.data.get("why") == WHY_EXACT for e in events)
                effects.append(tr("spichki-ev-again-target" if exact else "spichki-ev-again"))
            elif event.kind == "win":
                effects.append(tr("spichki-ev-win", count=data["matches"]))
            elif event.kind == "pile_empty":
                effects.append(tr("spichki-ev-pile-empty"))
        if head:
            lines.insert(0, tr("spichki-ev-line", throw=head, effects=Markup(", ").join(effects)))
        return lines

    def status_lines(self, state: SpichkiState, names: Sequence[str], tr: Html) -> list[Markup]:
        if state.target:
            a, b = state.target
            target = tr("spichki-status-target", a=a, b=b)
        else:
            target = tr("spichki-status-no-target")
        head = Markup(" · ").join([target, tr("spichki-status-pile", count=state.pile),
                                   tr("spichki-status-goal", count=state.options.goal)])
        held = Markup(" · ").join(tr("spichki-status-held", name=names[s], count=state.matches[s])
                                  for s in range(state.seats))
        return [head, held]

    def result_lines(self, state: SpichkiState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        best = state.matches[outcome.winners[0]]
        if outcome.kind == "draw":
            who = ", ".join(names[s] for s in outcome.winners)
            return [tr("spichki-result-draw", names=who, count=best)]
        (seat,) = outcome.winners
        key = "spichki-result-goal" if best >= state.options.goal else "spichki-result-pile"
        return [tr(key, name=names[seat], count=best)]


UI = SpichkiUI()

SPEC = GameSpec(
    replay_moment=of_kinds("pile_empty", "win"),
    cover_art=covers.spichki_art,  # its lobby's title card
    engine=ENGINE, ui=UI, render_board=render_spichki.render_board, label_keys=render_spichki.LABEL_KEYS,
    dice_per_roll=2, policy=BestScorePolicy(ENGINE), roll_is_the_turn=True, places=by_score("matches"),
    variants=(Variant("", {"double_hit": 2}),
              Variant("", {"double_hit": 1}, seats=8, drawn=False, played_through=False)),
)
