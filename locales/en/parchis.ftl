## Parchís

game-parchis = Parchís
game-parchis-tagline = Spanish parchís: 68 cells, barriers, +20 · 2–4 players

parchis-variant = Spanish rules

action-parchis-roll = 🎲 Roll
action-parchis-exit = 🐣 Bring a piece out{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-parchis-move = { $bonus ->
        [0] { $piece }: { $start_where ->
            [2] c{ $start }
           *[other] { $start }
        }
       *[other] +{ $bonus }: piece { $piece }
    } → { $to_where ->
        [2] c{ $to }
        [3] 🏁
       *[other] { $to }
    }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }

parchis-lobby = 4 pieces, out on a 5, bonuses +20 and +10, barriers.

parchis-ev-starter = Drawn by lot: { $name } starts.
parchis-ev-roll = { $name }: 🎲 { $die }
parchis-ev-chooser = { $name }
parchis-ev-bonus = { $name }: bonus +{ $count }
parchis-ev-line = { $head } → { $parts }
parchis-ev-exit = brings piece { $piece } out to { $to }
parchis-ev-move = piece { $piece }: { $start } → { $to }
parchis-ev-capture = captures piece { $piece } ({ $name }) — home, +20
parchis-ev-centre = piece { $piece } is in the centre, +10
parchis-ev-choose = chooses a piece
parchis-ev-choose-bonus = chooses what to move +{ $count }
parchis-ev-bonus-lost = the +{ $count } bonus is lost: nothing can move
parchis-ev-no-move = no move
parchis-ev-six-as-seven = the six counts as 7
parchis-ev-third-six = a third six in a row — { $piece ->
        [0] the turn is lost
       *[other] piece { $piece } goes home
    }
parchis-ev-win = a win!

parchis-pos-home = home
parchis-pos-cell = { $n }
parchis-pos-corridor = c{ $n }
parchis-pos-centre = 🏁

parchis-status-player = { $name }: home { $home }, centre { $centre }/4
parchis-status-choose = 🎲 { $count }: choose a piece
parchis-status-bonus = Bonus +{ $count }: choose a piece

parchis-result = 🏆 { $name } brings all four pieces to the centre and wins!

rules-parchis =
    <b>Parchís</b> (Spanish rules) — 2–4 players, one die, four pieces each, 68 numbered cells, play goes counter-clockwise.
    A piece comes out on a 5 (onto its exit, 5, 22, 39 or 56) — compulsory when a piece is at home and the exit is not held by two of your own. An opponent on your exit is captured (of two, the one that came last).
    A six rolls again; with nobody at home it counts as 7. A third six in a row sends the piece moved last home (unless it is in its corridor).
    Landing on a lone opposing piece sends it home and you move +20 with any piece; reaching the centre gives +10. A bonus nothing can use is lost.
    No captures on the 12 seguros: two colours may share them. At most two pieces on a cell.
    Two pieces of one colour are a barrier: nobody passes it. On a six you must open your barrier if you can.
    The centre needs an exact count through your corridor of seven cells. The first to bring all four pieces in wins.

## Labels on the table picture
board-seguro = seguro — no captures
board-home = Home
board-barrier = barrier — no passing
board-corridor = c3 — corridor cell 3
board-centre = in the centre — finished
