## Ludo

game-ludo = Ludo
game-ludo-tagline = One die, four pieces, the cross with yards · 2–4 players

ludo-variant-classic = classic
ludo-variant-bonuses = with bonuses

action-ludo-roll = 🎲 Roll
action-ludo-exit = 🐣 Bring a piece out
action-ludo-move = Piece { $piece }: { $start } → { $effect ->
        [2] 🏁
       *[other] { $to }
    }{ $effect ->
        [1] {" "}⚔
        [3] {" "}🛡
       *[other] {""}
    }

ludo-lobby-variant = Variant: { $variant }
ludo-option-bonuses = Variant
ludo-option-bonuses-on = { ludo-variant-bonuses }
ludo-option-bonuses-off = { ludo-variant-classic }

ludo-ev-starter = Drawn by lot: { $name } starts.
ludo-ev-roll = { $name }: 🎲 { $die }
ludo-ev-chooser = { $name }
ludo-ev-line = { $head } → { $parts }
ludo-ev-exit = brings piece { $piece } out
ludo-ev-move = piece { $piece }: { $start } → { $to }
ludo-ev-capture = captures piece { $piece } ({ $name }) — back to the yard
ludo-ev-centre = piece { $piece } is in the centre
ludo-ev-again = a six — rolls again
ludo-ev-again-bonus = a bonus — rolls again
ludo-ev-no-move = no move
ludo-ev-choose = chooses a piece
ludo-ev-third-six = a third six in a row — the turn is lost
ludo-ev-win = a win!

ludo-pos-yard = yard
ludo-pos-centre = 🏁

ludo-status-player = { $name }: yard { $yard }, centre { $centre }/4
ludo-status-choose = 🎲 { $die }: choose a piece

ludo-result = 🏆 { $name } brings all four pieces to the centre and wins!

rules-ludo =
    <b>Ludo</b> — 2–4 players, one die, four pieces each, a 15 × 15 cross with yards in the corners.
    A piece leaves the yard only on a 6, onto its start cell. Then it moves clockwise by the throw; after a full lap (51 cells) it turns into its own lane of five cells to the centre, where nobody else goes. The centre needs an exact throw.
    A six rolls again, but a third six in a row loses the turn.
    Landing on a lone opposing piece sends it to its yard — except on the safe cells (start cells and stars), where colours share.
    If a move exists, it must be made. The first to bring all four pieces to the centre wins.
    <b>With bonuses:</b> another throw for a capture and for a piece reaching the centre; two own pieces on a cell form a block that others can neither land on nor pass.

## Labels on the table picture
board-safe_cells = ★ and start — no captures
board-yard = Yard
