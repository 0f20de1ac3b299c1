## Matches

game-spichki = Matches
game-spichki-tagline = Two pairs of dice and a pile of matches · 2–8 players

action-spichki-target = 🎯 Roll for a target
action-spichki-chase = 🎲 Roll

spichki-variant = first to { $count }

spichki-lobby-goal = First to { $count } { $count ->
        [one] match
       *[other] matches
    } wins
spichki-lobby-pile = Pile: { $count } { $count ->
        [one] match
       *[other] matches
    } per player
spichki-lobby-double-hit = A double of a target number: +{ $count } { $count ->
        [one] match
       *[other] matches
    }
spichki-lobby-goal-too-big = ⚠️ With { $players } players the pile holds only { $pile }: lower the goal or add matches.

spichki-btn-goal = Goal { $delta }
spichki-btn-per_player = Pile { $delta }
spichki-option-goal = Goal
spichki-option-per_player = Matches per player in the pile
spichki-option-double_hit = A double of a target number
spichki-option-double_hit-1 = +1 match
spichki-option-double_hit-2 = +2 matches

spichki-ev-starter = Drawn by lot: { $name } starts. The pile holds { $pile } { $pile ->
        [one] match
       *[other] matches
    }.
spichki-ev-set = Setting a target · { $name }: { $dice }
spichki-ev-chase = Target: { $a } and { $b } · { $name }: { $dice }
spichki-ev-line = { $throw } → { $effects }
spichki-ev-take-double = a double: +{ $count } { $count ->
        [one] match
       *[other] matches
    }
spichki-ev-take-exact = bullseye! +{ $count } { $count ->
        [one] match
       *[other] matches
    }
spichki-ev-take-double-hit = +{ $count } { $count ->
        [one] match
       *[other] matches
    }
spichki-ev-take-one = +{ $count } { $count ->
        [one] match
       *[other] matches
    }
spichki-ev-target = new target { $a } and { $b }
spichki-ev-miss = a miss
spichki-ev-pass = { $name } rolls next
spichki-ev-again = rolls again
spichki-ev-again-target = sets a new target
spichki-ev-win = { $count } in hand — a win!
spichki-ev-pile-empty = the pile is empty

spichki-status-target = 🎯 Target: { $a } and { $b }
spichki-status-no-target = 🎯 Setting a target
spichki-status-pile = pile { $count }
spichki-status-goal = first to { $count }
spichki-status-held = { $name }: { $count }

spichki-result-goal = 🏆 { $name } collects { $count } { $count ->
        [one] match
       *[other] matches
    } and wins!
spichki-result-pile = 🏆 The pile is empty. { $name } holds the most matches ({ $count }) and wins!
spichki-result-draw = 🤝 The pile is empty — a draw: { $names }, { $count } { $count ->
        [one] match
       *[other] matches
    } each.

rules-spichki =
    <b>Matches</b> — 2–8 players, four dice (two pairs in play), a pile of 10 matches per player.
    <b>The target.</b> The roller throws two dice. A double takes 2 matches and throws again. Two different numbers become the target: those dice stay in the middle and the other pair passes to the next player.
    <b>The chase.</b> The player throws the two free dice; the target is the numbers a and b:
    • exactly a and b (either order) — 3 matches, and the same player sets a new target;
    • a double of a or b — 2 matches (1 by setting) and throw again;
    • one die shows a or b — 1 match and throw again;
    • nothing matches (a double of another number too) — the dice pass on, the target stays.
    The first to hold 11 matches wins at once. You can't take more than the pile holds; if the pile runs out first, the most matches wins, and a tie for the most is a draw.
    Lobby settings: the goal, matches per player in the pile, and what a double of a target number pays.

## Labels on the table picture
board-target = Target
board-no_target = Setting a target
board-throw = Throw
board-pile = Pile
board-goal = First to
board-draw = Draw
