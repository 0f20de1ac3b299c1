# «Race»: a game that lives only in the tests (tests/race_game.py)
game-race = Race
game-race-tagline = One die, first to the goal · 2–4 players
rules-race =
    <b>Race</b>: take turns to throw the die and move that many cells. The first to reach the goal wins.
race-variant = to { $goal }
race-lobby-goal = Goal: cell { $goal }
race-btn-goal = Goal → { $goal }
race-option-goal = Goal
action-race-roll = 🎲 Roll
race-ev-starter = { $name } goes first
race-ev-roll = { $name } throws { $die } → cell { $at }
race-status = { $name }: { $at }
race-result = 🏁 { $name } reached the goal first!
