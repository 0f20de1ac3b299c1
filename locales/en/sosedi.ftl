## Help Your Neighbour

game-sosedi = Help Your Neighbour
game-sosedi-tagline = Three dice, chips and a bowl · 2–6 players
# under the name on the lobby card of «Tower» (it shows a tower of beer coasters)
game-sosedi-tagline-tower = Tower: three dice and beer coasters · 2–6 players

sosedi-mode-classic = classic
sosedi-mode-reverse = reverse
sosedi-mode-tower = Tower

action-sosedi-roll = 🎲 Roll

sosedi-lobby-mode = Variant: { $mode }
sosedi-lobby-chips = Chips each: { $count }
sosedi-lobby-tower = Tower: { $count } { $count ->
        [one] coaster
       *[other] coasters
    }
sosedi-lobby-tower-auto = Tower: { $count } (5 per player)
sosedi-lobby-immune-on = The roller never pays for their own numbers
sosedi-lobby-immune-off = The roller pays for their own numbers too
# «Tower»: nobody pays; coasters are taken and put back
sosedi-lobby-immune-tower-on = The roller never takes or puts back coasters for their own numbers
sosedi-lobby-immune-tower-off = The roller takes and puts back coasters for their own numbers too

sosedi-btn-chips = Chips { $delta }
sosedi-btn-tower = Tower { $delta }
# sets the tower to “auto” (5 coasters per player); stands beside «Tower −5» and «Tower +5»
sosedi-btn-tower-auto = Auto
sosedi-option-mode = Variant
sosedi-option-mode-classic = { sosedi-mode-classic }
sosedi-option-mode-reverse = { sosedi-mode-reverse }
sosedi-option-mode-tower = { sosedi-mode-tower }
sosedi-option-chips = Chips
sosedi-option-tower = Tower
sosedi-option-roller_immune = Roller
# in «Tower» ($mode = tower) nobody pays: the roller takes coasters (or does not)
sosedi-option-roller_immune-on = { $mode ->
        [tower] doesn't take
       *[other] immune
    }
sosedi-option-roller_immune-off = { $mode ->
        [tower] takes
       *[other] pays
    }

sosedi-ev-starter = Drawn by lot: { $name } starts.
sosedi-ev-roll = { $name } rolls { $dice }
sosedi-ev-throw = { $roll }: { $effects }
sosedi-ev-pay = { $name } puts { $count } { $count ->
        [one] chip
       *[other] chips
    } into the bowl ({ $held ->
        [0] none left
       *[other] { $held } left
    })
sosedi-ev-void = The roll is void: { $many ->
        [0] everyone would get out at once, and someone must buy the round
       *[other] { $who } would lose their last chips at once
    }. { $name } rolls again.
sosedi-ev-nothing = nobody is hit
sosedi-ev-take = { $name } takes { $count } { $count ->
        [one] coaster
       *[other] coasters
    } (holding { $held })
sosedi-ev-tower-down = 🏚 The tower falls! { $count ->
        [0] Everyone holds coasters — put them back.
       *[other] Safe with no coasters: { $who }.
    }
sosedi-ev-put = { $name } puts back { $count } { $count ->
        [one] coaster
       *[other] coasters
    } (holding { $held })
sosedi-ev-safe = ✅ { $name } has no coasters left — safe.

sosedi-status-bowl = Bowl: { $count } { $count ->
        [one] chip
       *[other] chips
    }
sosedi-status-chips = { $name }: { $count }
# «Tower» while it stands: coasters are taken from it for your numbers
sosedi-status-tower = 🗼 { $count } { $count ->
        [one] coaster
       *[other] coasters
    } in the tower — take them
# «Tower» used up: coasters go back (how many it held no longer matters)
sosedi-status-tower-down = 🏚 The tower fell — put the coasters back
# who holds how many coasters: «In hand: Boris 3 · Anya 1»
sosedi-status-hands = In hand: { $hands }
sosedi-status-held = { $name } { $count }

sosedi-result-win = 🏆 { $name } wins and takes the bowl: { $bowl } { $bowl ->
        [one] chip
       *[other] chips
    }!
sosedi-result-reverse = 🍺 { $name } pays: out of chips first!
sosedi-result-tower = 🍺 { $name } buys the round: still holding coasters!

rules-sosedi =
    <b>Help Your Neighbour</b> — 2–6 players, three dice.
    Each player owns numbers: with two, 1–3 and 4–6; with three, two each (1–2, 3–4, 5–6); with four or five the spare numbers are dead; with six, one each.
    On your turn roll all three dice; for every die the owner of that number puts a chip into the bowl (a number twice costs two). The roller pays for their own numbers too.
    <b>Classic:</b> the first to put in their last chip wins and takes the bowl.
    <b>Reverse:</b> the first to run out of chips loses and pays. A common agreement: the roller never pays for their own numbers.
    <b>Tower:</b> a tower of coasters stands in the middle (5 per player). While it stands, your number makes you take a coaster; once it is used up, whoever holds none is safe, and the others put one back for each of their numbers. Whoever puts back their last is safe. The last one holding coasters buys the round.
    A roll that would empty two players at once (in Tower: free everyone at once) is void and the roller rolls again.

## Labels on the table picture
board-bowl = Bowl
board-tower = Tower
board-turn = To move
board-safe = Safe
board-dead = unowned
board-immune = own
board-phase1 = Taking
board-phase2 = Giving back
board-winner = Winner
board-loser = Pays
board-void = Void — roll again
