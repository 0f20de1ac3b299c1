"""«Помоги своему соседу» in the bot: lobby settings, event wording, the table picture."""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from bot.games.common import Button, Html, Tr, UIBase, option_word_keys, toggle
from bot.games.spec import GameSpec, Variant, of_kinds
from engines.base import BestScorePolicy, Event, Outcome
from engines.sosedi import CHIPS_RANGE, DICE, ENGINE, MODES, TOWER_RANGE, SosediOptions, SosediState
from render import covers
from render import sosedi as render_sosedi

STEP = 5


def _names(seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(names[s] for s in seats)


class SosediUI(UIBase):
    """Presentation of the `sosedi` engine."""

    code = "sosedi"

    def locale_keys(self) -> frozenset[str]:
        return frozenset({"action-sosedi-roll", "game-sosedi-tagline-tower", *(f"sosedi-mode-{m}" for m in MODES),
                          *(f"sosedi-btn-{key}" for key in ("chips", "tower")),
                          *(f"sosedi-lobby-immune{tower}-{on}" for tower in ("", "-tower") for on in ("on", "off")),
                          *(f"sosedi-ev-{kind}" for kind in ("pay", "take", "put")),
                          *option_word_keys("sosedi", "mode", str, MODES),
                          *option_word_keys("sosedi", "roller_immune", bool)})

    def variant(self, options: SosediOptions, tr: Tr) -> str:
        return tr(f"sosedi-mode-{options.mode}")

    def is_pub(self, options: SosediOptions) -> bool:
        return options.mode in ("reverse", "tower")

    def lobby_lines(self, options: SosediOptions, seats: int, tr: Html) -> list[Markup]:
        lines = [tr("sosedi-lobby-mode", mode=self.variant(options, tr))]
        if options.mode == "tower":
            if options.tower is None:
                lines.append(tr("sosedi-lobby-tower-auto", count=options.tower_size(max(seats, 2))))
            else:
                lines.append(tr("sosedi-lobby-tower", count=options.tower))
        else:
            lines.append(tr("sosedi-lobby-chips", count=options.chips))
        # the tower's roller takes and puts back coasters for their own numbers: nobody pays there
        tower = "-tower" if options.mode == "tower" else ""
        lines.append(tr(f"sosedi-lobby-immune{tower}-{'on' if options.roller_immune else 'off'}"))
        return lines

    def lobby_buttons(self, options: SosediOptions, seats: int, tr: Tr) -> list[list[Button]]:
        """«Вариант: классика» (a press: the next one), the chips' or the tower's «−5» and «+5» (the tower's
        «Авто» once it is a number), «Бросающий: платит»: each toggle shows what is set now."""
        rows = [[toggle(self.code, options, "mode", MODES, tr)]]
        if options.mode == "tower":
            key, size, (lo, hi) = "tower", options.tower_size(max(seats, 2)), TOWER_RANGE
        else:
            key, size, (lo, hi) = "chips", options.chips, CHIPS_RANGE
        row = [Button(tr(f"sosedi-btn-{key}", delta=f"{d:+d}".replace("-", "−")), key, str(size + d))
               for d in (-STEP, STEP) if lo <= size + d <= hi]
        if options.mode == "tower" and options.tower is not None:
            row.append(Button(tr("sosedi-btn-tower-auto"), "tower", "auto"))
        rows.append(row)
        rows.append([toggle(self.code, options, "roller_immune", (False, True), tr)])
        return [r for r in rows if r]

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        """One line per throw («Вера бросает 1 · 1 · 5: Аня берёт 2 подставки (у себя 6)»),
        then a line for each turn of the game it caused; the result itself is in the caption."""
        lines: list[Markup] = []
        effects: dict[tuple[int, str], dict[str, int]] = {}  # (seat, kind) -> count, last holding
        roll = Markup()
        for event in events:
            data = event.data
            if event.kind == "roll":
                roll = tr("sosedi-ev-roll", name=names[event.seat or 0],
                          dice=" · ".join(str(d) for d in data["dice"]))
            elif event.kind in ("pay", "take", "put"):
                seat = event.seat or 0
                entry = effects.setdefault((seat, event.kind), {"count": 0, "held": 0})
                entry["count"] += int(data.get("count", 1))
                entry["held"] = int(data.get("left", data.get("held", 0)))
            elif event.kind == "starter":
                lines.append(tr("sosedi-ev-starter", name=names[event.seat or 0]))
            elif event.kind == "void":
                seats = data.get("seats", [])
                lines.append(tr("sosedi-ev-void", name=names[event.seat or 0], many=len(seats),
                                who=_names(seats, names)))
            elif event.kind == "tower_down":
                safe = data.get("safe", [])
                lines.append(tr("sosedi-ev-tower-down", who=_names(safe, names), count=len(safe)))
            elif event.kind == "safe":
                lines.append(tr("sosedi-ev-safe", name=names[event.seat or 0]))
        if roll:
            parts = [tr(f"sosedi-ev-{kind}", name=names[seat], count=v["count"], held=v["held"])
                     for (seat, kind), v in effects.items()]
            if parts:
                summary = Markup("; ").join(parts)
            else:  # a void throw says so on its own line
                summary = Markup() if any(e.kind == "void" for e in events) else tr("sosedi-ev-nothing")
            lines.insert(0, tr("sosedi-ev-throw", roll=roll, effects=summary) if summary else roll)
        return lines

    def status_lines(self, state: SosediState, names: Sequence[str], tr: Html) -> list[Markup]:
        if state.options.mode == "tower":
            return self._tower_status(state, names, tr)
        chips = [tr("sosedi-status-chips", name=names[s], count=state.chips[s]) for s in range(state.seats)]
        return [tr("sosedi-status-bowl", count=state.bowl), Markup(" · ").join(chips)]

    def _tower_status(self, state: SosediState, names: Sequence[str], tr: Html) -> list[Markup]:
        """A line of the phase, then who holds how many coasters («на руках: Борис 3 · Аня 1», names as they
        are: the bot declines none). The tower's count only while it stands (rule 7): once it is used up,
        ``state.tower`` counts the coasters put back, not a tower anyone takes from."""
        head = tr("sosedi-status-tower", count=state.tower) if state.phase == 1 else tr("sosedi-status-tower-down")
        hands = [tr("sosedi-status-held", name=names[s], count=state.chips[s])
                 for s in range(state.seats) if not state.safe[s]]
        return [head, tr("sosedi-status-hands", hands=Markup(" · ").join(hands))]

    def result_lines(self, state: SosediState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        if outcome.kind == "win":
            (seat,) = outcome.winners
            return [tr("sosedi-result-win", name=names[seat], bowl=state.bowl)]
        (seat,) = outcome.losers
        key = "sosedi-result-tower" if state.options.mode == "tower" else "sosedi-result-reverse"
        return [tr(key, name=names[seat])]


UI = SosediUI()

SPEC = GameSpec(
    replay_moment=of_kinds("pay", "tower_down", "win", "lose"),
    cover_art=covers.sosedi_art,  # its lobby's title card
    variant_covers={"tower": covers.sosedi_tower_art},  # «Башня» is played with beer coasters, not chips
    engine=ENGINE, ui=UI, render_board=render_sosedi.render_board, label_keys=render_sosedi.LABEL_KEYS,
    dice_per_roll=DICE, policy=BestScorePolicy(ENGINE), variant_option="mode", roll_is_the_turn=True,
    only_in_variants={"tower": ("tower",), "chips": ("classic", "reverse")},  # rule 7: the tower has no chips
    variants=(Variant("classic", {"mode": "classic"}),
              Variant("reverse", {"mode": "reverse"}, timed=False),
              Variant("reverse", {"mode": "reverse", "roller_immune": True}, drawn=False, played_through=False),
              Variant("tower", {"mode": "tower"})),
)
