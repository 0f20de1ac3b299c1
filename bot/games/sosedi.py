"""«Помоги своему соседу» in the bot: lobby settings, event wording, the table picture."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.common import Button, Tr
from engines.base import Event, Outcome
from engines.sosedi import CHIPS_RANGE, MODES, TOWER_RANGE, SosediOptions, SosediState
from render import sosedi as render_sosedi

STEP = 5


def _names(seats: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(names[s] for s in seats)


class SosediUI:
    """Presentation of the `sosedi` engine."""

    code = "sosedi"

    def variant(self, options: SosediOptions, tr: Tr) -> str:
        return tr(f"sosedi-mode-{options.mode}")

    def is_pub(self, options: SosediOptions) -> bool:
        return options.mode in ("reverse", "tower")

    def lobby_lines(self, options: SosediOptions, seats: int, tr: Tr) -> list[str]:
        lines = [tr("sosedi-lobby-mode", mode=self.variant(options, tr))]
        if options.mode == "tower":
            if options.tower is None:
                lines.append(tr("sosedi-lobby-tower-auto", count=options.tower_size(max(seats, 2))))
            else:
                lines.append(tr("sosedi-lobby-tower", count=options.tower))
        else:
            lines.append(tr("sosedi-lobby-chips", count=options.chips))
        lines.append(tr("sosedi-lobby-immune-on" if options.roller_immune else "sosedi-lobby-immune-off"))
        return lines

    def lobby_buttons(self, options: SosediOptions, seats: int, tr: Tr) -> list[list[Button]]:
        next_mode = MODES[(MODES.index(options.mode) + 1) % len(MODES)]
        rows = [[Button(tr("sosedi-btn-mode", mode=tr(f"sosedi-mode-{next_mode}")), "mode", next_mode)]]
        if options.mode == "tower":
            key, size, (lo, hi) = "tower", options.tower_size(max(seats, 2)), TOWER_RANGE
        else:
            key, size, (lo, hi) = "chips", options.chips, CHIPS_RANGE
        row = [Button(tr(f"sosedi-btn-{key}", delta=f"{d:+d}"), key, str(size + d))
               for d in (-STEP, STEP) if lo <= size + d <= hi]
        if options.mode == "tower" and options.tower is not None:
            row.append(Button(tr("sosedi-btn-tower-auto"), "tower", "auto"))
        rows.append(row)
        on = options.roller_immune
        rows.append([Button(tr("sosedi-btn-immune-off" if on else "sosedi-btn-immune-on"),
                            "roller_immune", "off" if on else "on")])
        return [r for r in rows if r]

    def describe(self, event: Event, names: Sequence[str], tr: Tr) -> str | None:
        name = names[event.seat] if event.seat is not None else ""
        data = event.data
        if event.kind == "starter":
            return tr("sosedi-ev-starter", name=name)
        if event.kind == "roll":
            return tr("sosedi-ev-roll", name=name, dice=" · ".join(str(d) for d in data["dice"]))
        if event.kind == "pay":
            return tr("sosedi-ev-pay", name=name, count=data["count"], left=data["left"])
        if event.kind == "void":
            return tr("sosedi-ev-void", name=name, who=_names(data.get("seats", []), names),
                      many=len(data.get("seats", [])))
        if event.kind == "nothing":
            return tr("sosedi-ev-nothing")
        if event.kind == "win":
            return tr("sosedi-ev-win", name=name, bowl=data["bowl"])
        if event.kind == "lose":
            return tr("sosedi-ev-lose", name=name)
        if event.kind == "take":
            return tr("sosedi-ev-take", name=name, held=data["held"])
        if event.kind == "tower_down":
            safe = data.get("safe", [])
            return tr("sosedi-ev-tower-down", who=_names(safe, names), count=len(safe))
        if event.kind == "put":
            return tr("sosedi-ev-put", name=name, held=data["held"])
        if event.kind == "safe":
            return tr("sosedi-ev-safe", name=name)
        return None

    def status_lines(self, state: SosediState, names: Sequence[str], tr: Tr) -> list[str]:
        if state.options.mode == "tower":
            head = tr("sosedi-status-tower", count=state.tower, phase=state.phase)
            holders = [tr("sosedi-status-held", name=names[s], count=state.chips[s])
                       for s in range(state.seats) if not state.safe[s]]
        else:
            head = tr("sosedi-status-bowl", count=state.bowl)
            holders = [tr("sosedi-status-chips", name=names[s], count=state.chips[s])
                       for s in range(state.seats)]
        return [head, " · ".join(holders)]

    def result_lines(self, state: SosediState, outcome: Outcome, names: Sequence[str], tr: Tr) -> list[str]:
        if outcome.kind == "win":
            (seat,) = outcome.winners
            return [tr("sosedi-result-win", name=names[seat], bowl=state.bowl)]
        (seat,) = outcome.losers
        key = "sosedi-result-tower" if state.options.mode == "tower" else "sosedi-result-reverse"
        return [tr(key, name=names[seat])]

    def label_keys(self) -> Sequence[str]:
        return render_sosedi.LABEL_KEYS

    def render(self, state: SosediState, names: Sequence[str], labels: Mapping[str, str],
               events: Sequence[Event]) -> bytes:
        return render_sosedi.render_board(state, names, labels, events)


UI = SosediUI()
