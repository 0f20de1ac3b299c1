# «Гонка»: a game that lives only in the tests (tests/race_game.py)
game-race = Гонка
game-race-tagline = Один кубик, кто первым дойдёт до цели · 2–4 игрока
rules-race =
    <b>Гонка</b>: по очереди бросайте кубик и идите на выпавшее число клеток. Кто первым дойдёт до цели, тот и выиграл.
race-variant = до { $goal }
race-lobby-goal = Цель: клетка { $goal }
race-btn-goal = Цель → { $goal }
race-option-goal = Цель
action-race-roll = 🎲 Бросить
race-ev-starter = Первым ходит { $name }
race-ev-roll = { $name } бросает { $die } → клетка { $at }
race-status = { $name }: { $at }
race-result = 🏁 { $name } первым дошёл до цели!
