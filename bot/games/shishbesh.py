"""«Шиш-беш» in the bot: lobby settings, move wording, the cross board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from bot.games.common import Button, Html, ThrowLog, Tr, UIBase, option_word_keys, toggle
from bot.games.places import in_ranking_order
from bot.games.spec import GameSpec, Variant, of_kinds
from engines.base import Action, Event, Outcome
from engines.shishbesh import BOARDS, ENGINE, PARK, PHASE_MOVE, SHELTER_MODES, STARTS, ShishbeshOptions, ShishbeshState
from engines.shishbesh import position as shishbesh_position
from engines.shishbesh_ai import AI, LEVELS
from render import covers
from render import shishbesh as render_shishbesh
from render.shishbesh_targets import offered, target_letter

_MOVES = ("enter", "step", "jump_forward", "jump_back", "jump_diagonal")
_PARTS = {"no_move": "shishbesh-ev-no-move", "choose": "shishbesh-ev-choose", "win": "shishbesh-ev-win"}


class ShishbeshUI(UIBase):
    """Presentation of the `shishbesh` engine."""

    code = "shishbesh"

    def locale_keys(self) -> frozenset[str]:
        moves = ("enter", "step", "jump_forward", "jump_back", "jump_diagonal")
        return frozenset({"action-shishbesh-roll", *(f"action-shishbesh-{kind}" for kind in moves),
                          *(f"shishbesh-ev-{kind.replace('_', '-')}" for kind in moves),
                          *(f"shishbesh-board-{v}" for v in BOARDS),
                          *(f"shishbesh-shelters-{v}" for v in SHELTER_MODES),
                          *(f"shishbesh-start-{v}" for v in STARTS),
                          *option_word_keys(self.code, "board", str, BOARDS),
                          *option_word_keys(self.code, "shelters", str, SHELTER_MODES),
                          *option_word_keys(self.code, "start", str, STARTS),
                          *option_word_keys(self.code, "fast_charge", bool)})

    def variant(self, options: ShishbeshOptions, tr: Tr) -> str:
        return tr(f"shishbesh-board-{options.board}")


    def lobby_lines(self, options: ShishbeshOptions, seats: int, tr: Html) -> list[Markup]:
        return [tr("shishbesh-lobby-board", board=self.variant(options, tr)),
                tr("shishbesh-lobby-shelters", shelters=tr(f"shishbesh-shelters-{options.shelters}")),
                tr("shishbesh-lobby-start", start=tr(f"shishbesh-start-{options.start}")),
                tr("shishbesh-lobby-charge-on" if options.fast_charge else "shishbesh-lobby-charge-off")]

    def lobby_buttons(self, options: ShishbeshOptions, seats: int, tr: Tr) -> list[list[Button]]:
        """Each option as it is now («Поле: обычное», «Быстрый заряд: нет»); a press sets the next value.
        The two short ones share a row; «Избушки: через один» and «Выход из парка: …» need one each."""
        return [[toggle(self.code, options, "board", BOARDS, tr),
                 toggle(self.code, options, "fast_charge", (False, True), tr)],
                [toggle(self.code, options, "shelters", SHELTER_MODES, tr)],
                [toggle(self.code, options, "start", STARTS, tr)]]

    def button_args(self, state: ShishbeshState, actions: Sequence[Action], tr: Tr) -> list[dict[str, Any]]:
        """A move's button names the letter its landing place carries on the picture («[3] Фишка 1 → Б»)."""
        place, letters = offered(state).place, tr("board-targets")
        return [{**action.args, "target": target_letter(letters, place[action.code])} if action.code in place
                else dict(action.args) for action in actions]

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """The throw (or the choice) and everything it did on one line."""
        log = ThrowLog(tr, "shishbesh-ev-line")
        for event in events:
            data, name = event.data, names[event.seat or 0]
            if event.kind == "starter":
                log.own(tr("shishbesh-ev-starter", name=name))
            elif event.kind == "roll":
                log.start(tr("shishbesh-ev-roll", name=name, dice=" · ".join(str(d) for d in data["dice"])))
            elif event.kind in _MOVES:
                log.head_or(tr("shishbesh-ev-chooser", name=name))
                log.part(tr(f"shishbesh-ev-{event.kind.replace('_', '-')}", piece=data["piece"] + 1,
                            start=data["from"], to=data["to"], die=data["die"]))
            elif event.kind == "capture":
                log.part(tr("shishbesh-ev-capture", name=name, piece=data["piece"] + 1))
            elif event.kind in ("hut", "home"):
                log.part(tr(f"shishbesh-ev-{event.kind}", piece=data["piece"] + 1))
            elif event.kind == "again":
                log.part(tr("shishbesh-ev-again-capture" if data.get("capture") else "shishbesh-ev-again"))
            elif event.kind == "charge":
                log.part(tr("shishbesh-ev-charge", left=data["left"]))
            elif event.kind in _PARTS:
                log.part(tr(_PARTS[event.kind]))
        return log.lines()

    def status_lines(self, state: ShishbeshState, names: Sequence[str], tr: Html) -> list[Markup]:
        home = state.options.geometry.home
        players = [tr("shishbesh-status-player", name=names[s], park=state.of(s).count(PARK),
                      home=sum(p in home for p in state.of(s))) for s in range(state.seats)]
        lines = [Markup(" · ").join(players)]
        if state.phase == PHASE_MOVE and state.dice and not state.finished:
            lines.append(tr("shishbesh-status-choose", dice=" · ".join(str(d) for d in state.dice)))
        return lines

    def result_lines(self, state: ShishbeshState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        (seat,) = outcome.winners
        return [tr("shishbesh-result", name=names[seat])]


UI = ShishbeshUI()

SPEC = GameSpec(
    replay_moment=of_kinds("capture", "home", "win"),
    cover_art=covers.shishbesh_art,  # its lobby's title card
    engine=ENGINE, ui=UI, render_board=render_shishbesh.render_board, label_keys=render_shishbesh.LABEL_KEYS,
    dice_per_roll=2, policy=AI, levels=LEVELS, variant_option="board", places=in_ranking_order,
    position=shishbesh_position,
    variants=(Variant("standard"),
              Variant("long", {"board": "long"}, timed=False, played_through=False),
              Variant("long", {"board": "long", "shelters": "staggered", "start": "six_or_double", "fast_charge": True},
                      drawn=False, played_through=False)),
)
