"""«Охота на львов» in the bot: sides in the lobby, turn wording, the rebuilt board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from bot.games.common import Button, Html, Tr, UIBase, toggle
from bot.games.spec import GameSpec, Variant
from engines.base import Event, Outcome
from engines.lions import (
    ENGINE,
    FEW_PIECES,
    HUNTERS,
    LIONS,
    MAX_STEPS,
    QUIET_DRAW,
    QUIET_DRAW_OFF,
    LionsOptions,
    LionsState,
    bits,
    build,
)
from engines.lions import pushed as pushed_pieces
from engines.lions import sides as sides_of
from engines.lions_ai import AI, LEVELS
from engines.lions_board import label
from render import covers
from render import lions as render_lions

PIECES = 6


def path_text(path: Sequence[int]) -> str:
    return " → ".join(label(c) for c in path)


class LionsUI(UIBase):
    """Presentation of the `lions` engine."""

    code = "lions"

    def locale_keys(self) -> frozenset[str]:
        actions = ("pick", "step", "done", "undo", "pass", "offer", "resign", "accept", "decline")
        return frozenset({*(f"action-lions-{kind}" for kind in actions),
                          *(f"lions-ev-{kind}" for kind in ("draw-offered", "draw-declined", "draw-agreed", "resign")),
                          *(f"lions-result-{end}" for end in ("all-taken", "resign", "draw-agreed", "draw-quiet")),
                          "confirm-lions-resign", "confirm-lions-offer"})

    def variant(self, options: LionsOptions, tr: Tr) -> str:
        return tr("lions-variant")

    def lobby_lines(self, options: LionsOptions, seats: int, tr: Html) -> list[Markup]:
        quiet = (tr("lions-lobby-quiet", turns=options.quiet_draw) if options.quiet_draw != QUIET_DRAW_OFF
                 else tr("lions-lobby-quiet-off"))
        return [quiet, tr("lions-lobby-ai")]

    def lobby_seats(self, options: LionsOptions, names: Sequence[str], tr: Html) -> list[Markup]:
        """«🦁 Львы: Аня · 🏹 Охотники: Борис»: who plays which side (rule 1), a free seat awaited."""
        def at(seat: int) -> str | Markup:
            return names[seat] if seat < len(names) else tr("lions-lobby-free")

        return [tr("lions-lobby-sides", lions=at(options.lions_seat), hunters=at(1 - options.lions_seat))]

    def lobby_buttons(self, options: LionsOptions, seats: int, tr: Tr) -> list[list[Button]]:
        """Swap the sides; rule 8's standoff draw, shown as it is now, switched off or back on at its default
        (a button, so that no player has to type the option's internal name)."""
        return [[Button(tr("lions-btn-swap"), "lions_seat", str(1 - options.lions_seat))],
                [toggle(self.code, options, "quiet_draw", (QUIET_DRAW, QUIET_DRAW_OFF), tr)]]

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """One line per sent turn («Оля (львы): 6 → +1 → +4 · взят охотник на +1»), and the game's news."""
        lines: list[Markup] = []
        for event in events:
            data, name = event.data, names[event.seat or 0]
            if event.kind == "starter":
                lines.append(tr("lions-ev-starter", name=name, side=data["side"]))
            elif event.kind == "turn":
                lines.append(self._turn_line(name, data, tr))
                if data["isolated"]:
                    lines.append(tr("lions-ev-isolated"))
            elif event.kind == "pushed":
                lines.append(tr("lions-ev-pushed", name=name, circles=", ".join(label(c) for c in data["circles"])))
            elif event.kind in ("draw_offered", "draw_declined", "draw_agreed", "resign"):
                lines.append(tr(f"lions-ev-{event.kind.replace('_', '-')}", name=name))
            elif event.kind == "draw_quiet":
                lines.append(tr("lions-ev-draw-quiet", turns=data["turns"]))
        return lines

    @staticmethod
    def _turn_line(name: str, data: Any, tr: Html) -> Markup:
        side = data["side"]
        moves = "; ".join(path_text(p) for p in data["paths"]) or tr("lions-ev-no-move")
        other = HUNTERS if side == LIONS else LIONS
        taken = [tr("lions-ev-taken", side=side if own else other, circle=label(c)) for c, own in data["taken"]]
        return tr("lions-ev-turn", name=name, side=side, moves=moves, taken=Markup(", ").join(taken), count=len(taken))

    def status_lines(self, state: LionsState, names: Sequence[str], tr: Html) -> list[Markup]:
        lions, hunters = state.seat_of(LIONS), state.seat_of(HUNTERS)
        lines = [tr("lions-status-sides", lions=names[lions], hunters=names[hunters],
                    lions_left=len(state.lions), hunters_left=len(state.hunters))]
        if state.finished:  # the rules of a game still going (push, the count to a draw) have nothing left to say
            return lines
        if state.push_on:
            lines.append(tr("lions-status-push-on"))
        fewest = min(len(state.lions), len(state.hunters))
        limit = state.options.quiet_limit(fewest)
        if limit is not None and (fewest <= FEW_PIECES or state.quiet >= limit // 2):  # rule 8's count, once it nears
            lines.append(tr("lions-status-quiet", turns=state.quiet, limit=limit))
        if state.draw_offer is not None:
            lines.append(tr("lions-status-offer", name=names[state.draw_offer], other=names[1 - state.draw_offer]))
            return lines
        built = build(state)
        paths = [p for p in state.segments if len(p) > 1]
        if paths:
            lines.append(tr("lions-status-building", moves="; ".join(path_text(p) for p in paths),
                            left=MAX_STEPS - built.steps))
        elif state.push_on and (must := pushed_pieces(*sides_of(state))):
            lines.append(tr("lions-status-must", circles=", ".join(label(c) for c in bits(must))))
        return lines

    def result_lines(self, state: LionsState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        if outcome.kind == "draw":
            return [tr(f"lions-result-draw-{state.end}", turns=state.quiet)]
        (seat,) = outcome.winners
        return [tr(f"lions-result-{state.end.replace('_', '-')}", name=names[seat], side=state.side_of(seat),
                   left=len(state.lions if state.side_of(seat) == LIONS else state.hunters))]


UI = LionsUI()

def replay_moment(event: Event) -> bool:
    """A replay lingers on a turn that took pieces (rule 5), and on a resignation or an agreed draw."""
    return event.kind in ("resign", "draw_agreed") or (event.kind == "turn" and bool(event.data.get("taken")))


SPEC = GameSpec(
    replay_moment=replay_moment,
    cover_art=covers.lions_art,  # its lobby's title card
    engine=ENGINE, ui=UI, render_board=render_lions.render_board, label_keys=render_lions.LABEL_KEYS,
    dice_per_roll=0, policy=AI, levels=LEVELS, resign=ENGINE.resign_code, mark="🦁",
    confirm=frozenset({"resign", "offer"}),  # rule 9 with lions.md: one stray tap must not lose or offer
    # the opponent's whole turn stays in the log while the next one is built step by step
    log_actions=12,
    row_groups={
        "step": ("step", 4), "pick": ("pick", 4),
        "done": ("send", 2), "undo": ("send", 2), "pass": ("send", 2),
        "accept": ("answer", 2), "decline": ("answer", 2),
        "offer": ("meta", 2), "resign": ("meta", 2),
    },
    variants=(Variant(seats=2),),
    # a random player never offers a draw, resigns or takes a step back (it would end or stall the game)
    random_skips=frozenset({"offer", "resign", "undo"}),
)
