## «Спички»

game-spichki = Спички
game-spichki-tagline = Две пары костей и куча спичек · 2–8 игроков

action-spichki-target = 🎯 Бросить на цель
action-spichki-chase = 🎲 Бросить

spichki-variant = до { $count } { $count ->
        [one] спички
       *[other] спичек
    }

spichki-lobby-goal = Играем до { $count } { $count ->
        [one] спички
       *[other] спичек
    }
spichki-lobby-pile = В куче: по { $count } { $count ->
        [one] спичке
       *[other] спичек
    } на игрока
spichki-lobby-double-hit = Дубль числа цели: +{ $count } { $count ->
        [one] спичка
        [few] спички
       *[many] спичек
    }
spichki-lobby-goal-too-big = ⚠️ При { $players } игроках в куче всего { $pile }: уменьшите цель или добавьте спичек.

spichki-btn-goal = До победы { $delta }
spichki-btn-per_player = Куча { $delta }
spichki-option-goal = До победы
spichki-option-per_player = Спичек в кучу от игрока
spichki-option-double_hit = Дубль числа цели
spichki-option-double_hit-1 = +1 спичка
spichki-option-double_hit-2 = +2 спички

spichki-ev-starter = Жребий: начинает { $name }. В куче { $pile } { $pile ->
        [one] спичка
        [few] спички
       *[many] спичек
    }.
spichki-ev-set = Цель ставится · { $name }: { $dice }
spichki-ev-chase = Цель: { $a } и { $b } · { $name }: { $dice }
spichki-ev-line = { $throw } → { $effects }
spichki-ev-take-double = дубль: +{ $count } { $count ->
        [one] спичка
        [few] спички
       *[many] спичек
    }
spichki-ev-take-exact = в точку! +{ $count } { $count ->
        [one] спичка
        [few] спички
       *[many] спичек
    }
spichki-ev-take-double-hit = +{ $count } { $count ->
        [one] спичка
        [few] спички
       *[many] спичек
    }
spichki-ev-take-one = +{ $count } { $count ->
        [one] спичка
        [few] спички
       *[many] спичек
    }
spichki-ev-target = новая цель { $a } и { $b }
spichki-ev-miss = мимо
spichki-ev-pass = бросает { $name }
spichki-ev-again = бросает ещё
spichki-ev-again-target = ставит новую цель
spichki-ev-win = набрано { $count } — победа!
spichki-ev-pile-empty = куча пуста

spichki-status-target = 🎯 Цель: { $a } и { $b }
spichki-status-no-target = 🎯 Цель ставится
spichki-status-pile = в куче { $count }
spichki-status-goal = играем до { $count }
spichki-status-held = { $name }: { $count }

spichki-result-goal = 🏆 { $name } набирает { $count } { $count ->
        [one] спичку
        [few] спички
       *[many] спичек
    } и побеждает!
spichki-result-pile = 🏆 Куча пуста. Побеждает { $name } — больше всех спичек: { $count }.
spichki-result-draw = 🤝 Куча пуста — ничья: { $names }, у каждого { $count } { $count ->
        [one] спичка
        [few] спички
       *[many] спичек
    }.

rules-spichki =
    <b>Спички</b> — 2–8 игроков, четыре кости (в игре две пары), куча спичек: по 10 на игрока.
    <b>Цель.</b> Бросающий кидает две кости. Дубль — берёт 2 спички и бросает снова. Два разных числа становятся целью: эти кости остаются в центре, а другая пара переходит к следующему игроку.
    <b>Погоня.</b> Игрок бросает две свободные кости; цель — числа a и b:
    • выпали ровно a и b (в любом порядке) — 3 спички, и этот же игрок ставит новую цель;
    • дубль числа a или b — 2 спички (по настройке 1) и бросок ещё раз;
    • одна кость совпала с a или b — 1 спичка и бросок ещё раз;
    • ничего не совпало (и дубль другого числа) — кости переходят к следующему, цель та же.
    Кто первым набрал 11 спичек — побеждает сразу. Больше, чем осталось в куче, не взять; если куча кончилась раньше, побеждает тот, у кого спичек больше всех, а при равенстве — ничья.
    Настройки в лобби: до скольки играть, сколько спичек на игрока в куче, сколько даёт дубль числа цели.

## Подписи на картинке стола
board-target = Цель
board-no_target = Цель ставится
board-throw = Бросок
board-pile = Куча
board-goal = Играем до
board-draw = Ничья
