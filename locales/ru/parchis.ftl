## «Парчис»

game-parchis = Парчис
game-parchis-tagline = Испанский парчис: 68 клеток, барьеры, +20 · 2–4 игрока

parchis-variant = испанские правила

action-parchis-roll = 🎲 Бросить
action-parchis-exit = 🐣 Вывести фишку{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-parchis-move = { $bonus ->
        [0] { $piece }: { $start_where ->
            [2] к{ $start }
           *[other] { $start }
        }
       *[other] +{ $bonus }: фишка { $piece }
    } → { $to_where ->
        [2] к{ $to }
        [3] 🏁
       *[other] { $to }
    }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }

parchis-lobby = 4 фишки, выход на 5, бонусы +20 и +10, барьеры.

parchis-ev-starter = Жребий: начинает { $name }.
parchis-ev-roll = { $name }: 🎲 { $die }
parchis-ev-chooser = { $name }
parchis-ev-bonus = { $name }: бонус +{ $count }
parchis-ev-line = { $head } → { $parts }
parchis-ev-exit = выводит фишку { $piece } на { $to }
parchis-ev-move = фишка { $piece }: { $start } → { $to }
parchis-ev-capture = рубит фишку { $piece } ({ $name }) — домой, +20
parchis-ev-centre = фишка { $piece } в центре, +10
parchis-ev-choose = выбирает фишку
parchis-ev-choose-bonus = выбирает, чем сходить на +{ $count }
parchis-ev-bonus-lost = бонус +{ $count } пропал: ходить нечем
parchis-ev-no-move = хода нет
parchis-ev-six-as-seven = шестёрка идёт за 7
parchis-ev-third-six = третья шестёрка подряд — { $piece ->
        [0] ход сгорает
       *[other] фишка { $piece } идёт домой
    }
parchis-ev-win = победа!

parchis-pos-home = дом
parchis-pos-cell = { $n }
parchis-pos-corridor = к{ $n }
parchis-pos-centre = 🏁

parchis-status-player = { $name }: дома { $home }, центр { $centre }/4
parchis-status-choose = 🎲 { $count }: выберите фишку
parchis-status-bonus = Бонус +{ $count }: выберите фишку

parchis-result = 🏆 { $name } заводит все четыре фишки в центр и побеждает!

rules-parchis =
    <b>Парчис</b> (испанские правила) — 2–4 игрока, один кубик, по четыре фишки, 68 клеток с номерами, ход против часовой стрелки.
    Фишка выходит из дома на 5 (на свою клетку выхода 5, 22, 39 или 56) — и это обязательно, если есть кого выводить и выход не занят двумя своими. Чужую фишку на выходе срубают (из двух — пришедшую последней).
    Шестёрка — ещё бросок; когда дома никого нет, она идёт за 7. Третья шестёрка подряд — фишка, ходившая последней, возвращается домой (если не в коридоре).
    Встали на одиночную чужую фишку — она идёт домой, а вы ходите +20 любой своей фишкой; дошли до центра — +10. Если бонусом сходить нечем, он пропадает.
    На 12 клетках-сегуро не рубят: там могут стоять два разных цвета. На клетке не больше двух фишек.
    Две фишки одного цвета — барьер: сквозь него не проходит никто. Выпала шестёрка — свой барьер обязан разбить, если можно.
    В центр — точным счётом через свой коридор из семи клеток. Побеждает тот, кто первым заведёт все четыре фишки.

## Подписи на картинке стола
board-seguro = сегуро — здесь не рубят
board-home = Дом
board-barrier = барьер — не пройти
board-corridor = к3 — клетка 3 коридора
board-centre = в центре — фишка дошла
