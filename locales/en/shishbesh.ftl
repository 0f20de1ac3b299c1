## Shish-besh

game-shishbesh = Shish-besh
game-shishbesh-tagline = A cross, two dice, corner jumps, huts · 2–4 players

shishbesh-board-standard = standard board
shishbesh-board-long = long board
shishbesh-shelters-opposite = facing each other
shishbesh-shelters-staggered = staggered
shishbesh-start-six = on a six
shishbesh-start-double = on a double
shishbesh-start-six_or_double = on a six or a double

action-shishbesh-roll = 🎲 Roll
action-shishbesh-enter = [{ $die }] 🐣 Bring a piece out → { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-shishbesh-step = [{ $die }] Piece { $piece } → { $target }{ $effect ->
        [1] {" "}⚔
        [2] {" "}🛖
        [3] {" "}🏠
       *[other] {""}
    }
action-shishbesh-jump_forward = [{ $die }] Piece { $piece }: jump ↷ { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-shishbesh-jump_back = [{ $die }] Piece { $piece }: jump back ↶ { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-shishbesh-jump_diagonal = [{ $die }] Piece { $piece }: diagonal ⤧ { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }

shishbesh-lobby-board = Board: { $board }
shishbesh-lobby-shelters = Huts: { $shelters }
shishbesh-lobby-start = Out of the park: { $start }
shishbesh-lobby-charge-on = Fast charge: three throws to get out
shishbesh-lobby-charge-off = Fast charge: off
# settings: the name and the values as the lobby's buttons show them («Board: standard»), the toasts and /set
shishbesh-option-board = Board
shishbesh-option-board-standard = standard
shishbesh-option-board-long = long
shishbesh-option-shelters = Huts
shishbesh-option-shelters-opposite = { shishbesh-shelters-opposite }
shishbesh-option-shelters-staggered = { shishbesh-shelters-staggered }
shishbesh-option-start = Out of the park
shishbesh-option-start-six = { shishbesh-start-six }
shishbesh-option-start-double = { shishbesh-start-double }
shishbesh-option-start-six_or_double = { shishbesh-start-six_or_double }
shishbesh-option-fast_charge = Fast charge
shishbesh-option-fast_charge-on = on
shishbesh-option-fast_charge-off = off

shishbesh-ev-starter = Drawn by lot: { $name } starts.
shishbesh-ev-roll = { $name }: 🎲 { $dice }
shishbesh-ev-chooser = { $name }
shishbesh-ev-line = { $head } → { $parts }
shishbesh-ev-enter = brings piece { $piece } out
shishbesh-ev-step = piece { $piece }: { $start } → { $to }
shishbesh-ev-jump-forward = piece { $piece } jumps { $start } ↷ { $to }
shishbesh-ev-jump-back = piece { $piece } jumps back { $start } ↶ { $to }
shishbesh-ev-jump-diagonal = piece { $piece } jumps across { $start } ⤧ { $to }
shishbesh-ev-capture = captures piece { $piece } ({ $name }) — back to the park
shishbesh-ev-hut = piece { $piece } hides in the hut
shishbesh-ev-home = piece { $piece } is home
shishbesh-ev-no-move = no move
shishbesh-ev-choose = chooses a move
shishbesh-ev-again = a double — rolls again
shishbesh-ev-again-capture = for the capture — rolls again
shishbesh-ev-charge = fast charge: { $left } more { $left ->
        [one] throw
       *[other] throws
    }
shishbesh-ev-win = a win!

shishbesh-status-player = { $name }: park { $park }, home { $home }/4
shishbesh-status-choose = 🎲 left { $dice }: choose a move

shishbesh-result = 🏆 { $name } brings all four pieces home and wins!

rules-shishbesh =
    <b>Shish-besh</b> — 2–4 players, two dice, four pieces each, a cross: a circuit of 48 cells (56 on the long board), played counter-clockwise.
    Pieces wait in the park and come out on a six onto their start field (by setting: on a double, or either). Each die is a separate move, in any order; a die that can be played must be (both, when possible).
    Landing on an opposing piece sends it to its park and you roll again. A double rolls again too. Two own pieces never share a cell.
    <b>Corners:</b> standing on a corner, a 1 jumps to the next corner (forward or back), a 3 jumps across. Jumping back from the first corner to your own arm is the shortcut: straight to the door of your home. Jumps capture.
    <b>Huts</b> on the 3rd cell of each lane: a piece in a hut cannot be captured; if the hut is taken, the newcomer stands on the cell and can be captured, and the hut's piece is locked while the cell is taken.
    Home only by an exact count, never jumping over your own pieces. The first to bring all four home wins.
    <b>Fast charge:</b> while none of your pieces is on the circuit, you get three throws in a row to get out; a step inside the home does not end the charge.

## Labels on the table picture
board-park = Park
board-hut = hut — no captures
board-jump = corners: 1 — next, 3 — across
# the moves on offer: a letter at each place a piece may go; the move's button names it (no I, O, Q: they read as 1 and 0; no wide W)
board-targets = A B C D E F G H J K L M N P R S T U V X
