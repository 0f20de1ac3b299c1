## Slow and Steady

game-tishe = Slow and Steady
game-tishe-tagline = Two dice, two checkers each, circles to 100 · 2–6 players

tishe-variant-first = first checker to 100
tishe-variant-both = both checkers to 100

action-tishe-roll = 🎲 Roll
action-tishe-enter = ➕ Bring in → { $to }{ $effect ->
        [1] {" "}⏩ { $final }
        [2] {" "}⏪ { $final }
        [3] {" "}✖
       *[other] {""}
    }{ $double ->
        [1] {" "}⏸
       *[other] {""}
    }
action-tishe-move = Checker { $checker }: { $start } → { $bounced ->
        [1] 100 ↩{" "}
       *[other] {""}
    }{ $to }{ $effect ->
        [1] {" "}⏩ { $final }
        [2] {" "}⏪ { $final }
        [3] {" "}✖
        [4] {" "}🏁
       *[other] {""}
    }{ $double ->
        [1] {" "}⏸
       *[other] {""}
    }

tishe-lobby-variant = Winner: { $variant }
tishe-option-both_home = Variant
tishe-option-both_home-on = { tishe-variant-both }
tishe-option-both_home-off = { tishe-variant-first }

tishe-ev-starter = Drawn by lot: { $name } starts.
tishe-ev-roll = { $name }: { $dice }
tishe-ev-chooser = { $name }
tishe-ev-line = { $head } → { $parts }
tishe-ev-enter = brings in checker { $checker } to { $to }
tishe-ev-move = checker { $checker }: { $start } → { $to }{ $bounced ->
        [1] {" "}(counted back from 100)
       *[other] {""}
    }
tishe-ev-land-zero = { $at } has a 0 — the checker is taken off
tishe-ev-land-one = { $at } has a 1 — 3 forward, { $to }
tishe-ev-land-seven = { $at } has a 7 — 3 back, { $to }
tishe-ev-land-seventeen = { $at }: a 1 and a 7 — it stays
tishe-ev-bump = { $name } loses checker { $checker } from { $at }
tishe-ev-double-circle = { $at } is a double number: { $turns } { $turns ->
        [one] turn
       *[other] turns
    } missed
tishe-ev-no-move = no move
tishe-ev-choose = chooses a checker
tishe-ev-home = checker { $checker } is home
tishe-ev-win = a win!
tishe-ev-again = a double — rolls again
tishe-ev-again-lost = the double is lost
tishe-ev-skip = ⏸ { $name } misses a turn{ $left ->
        [0] {""}
       *[other] {" "}({ $left } more)
    }

tishe-pos-off = —
tishe-pos-home = 🏁
tishe-status-player = { $name }: { $first }, { $second }{ $missed ->
        [0] {""}
       *[other] {" "}⏸{ $missed }
    }
tishe-status-choose = 🎲 { $dice } ({ $total }): choose a checker

tishe-result-first = 🏆 { $name } is first to bring a checker to 100 and wins!
tishe-result-both = 🏆 { $name } brings both checkers to 100 and wins!

rules-tishe =
    <b>Slow and Steady</b> — 2–6 players, two dice, two checkers each, a board of circles 1–100.
    A checker comes in only when one die shows a 6: it starts from zero and moves by the sum of the dice. After that one checker moves by the sum of both dice (no splitting); with a checker on the board and a 6 you choose: bring in the other one or move. Moving is compulsory.
    Where it lands (direct landings only, never looked at twice):
    • a number with a 0 — taken off, comes in again with a 6;
    • 17 and 71 — it stays;
    • a number with a 1 — 3 forward; with a 7 — 3 back (73 → 70 stays on the board);
    • a double number (11, 22 … 99) — miss two turns.
    Two checkers never share a number with a 5: the one there first is taken off (your own too).
    A double on the dice rolls again, even when it could not be played (nothing on the board and no 6); unless you landed on a double number.
    100 exactly: extra points count back (98 and 8 → 94). The first checker on 100 wins; in the variant, the first to bring both.

## Labels on the table picture
board-cell_zero = 0 — taken off
board-cell_one = 1 — 3 forward
board-cell_seven = 7 — 3 back (17 and 71 stay)
board-cell_five = 5 — one checker only
board-cell_double = 11, 22… — miss 2 turns
board-off_board = Off the board
board-finish = Finish
board-missed = misses
