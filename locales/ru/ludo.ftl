## «Людо»

game-ludo = Людо
game-ludo-tagline = Один кубик, четыре фишки, крест с дворами · 2–4 игрока

ludo-variant-classic = классика
ludo-variant-bonuses = с бонусами

action-ludo-roll = 🎲 Бросить
action-ludo-exit = 🐣 Вывести фишку
action-ludo-move = Фишка { $piece }: { $start } → { $effect ->
        [2] 🏁
       *[other] { $to }
    }{ $effect ->
        [1] {" "}⚔
        [3] {" "}🛡
       *[other] {""}
    }

ludo-lobby-variant = Вариант: { $variant }
ludo-option-bonuses = Вариант
ludo-option-bonuses-on = { ludo-variant-bonuses }
ludo-option-bonuses-off = { ludo-variant-classic }

ludo-ev-starter = Жребий: начинает { $name }.
ludo-ev-roll = { $name }: 🎲 { $die }
ludo-ev-chooser = { $name }
ludo-ev-line = { $head } → { $parts }
ludo-ev-exit = выводит фишку { $piece }
ludo-ev-move = фишка { $piece }: { $start } → { $to }
ludo-ev-capture = рубит фишку { $piece } ({ $name }) — во двор
ludo-ev-centre = фишка { $piece } в центре
ludo-ev-again = шестёрка — бросает ещё
ludo-ev-again-bonus = бонус — бросает ещё
ludo-ev-no-move = хода нет
ludo-ev-choose = выбирает фишку
ludo-ev-third-six = третья шестёрка подряд — ход сгорает
ludo-ev-win = победа!

ludo-pos-yard = двор
ludo-pos-centre = 🏁

ludo-status-player = { $name }: двор { $yard }, центр { $centre }/4
ludo-status-choose = 🎲 { $die }: выберите фишку

ludo-result = 🏆 { $name } заводит все четыре фишки в центр и побеждает!

rules-ludo =
    <b>Людо</b> — 2–4 игрока, один кубик, по четыре фишки, крест 15 × 15 с дворами в углах.
    Фишка выходит со двора только на 6 — на свою стартовую клетку. Дальше — по часовой стрелке на выпавшее число; обойдя круг (51 клетка), фишка сворачивает на свою дорожку из пяти клеток к центру, куда чужие не заходят. В центр — только точным броском.
    Шестёрка — ещё бросок, но третья шестёрка подряд — ход сгорает.
    Встали на одиночную чужую фишку — она идёт во двор. Кроме безопасных клеток: стартовых и звёзд, там разные цвета стоят вместе.
    Если ход есть — ходить обязательно. Побеждает тот, кто первым заведёт в центр все четыре фишки.
    <b>С бонусами:</b> ещё бросок за срубленную фишку и за фишку в центре; две свои фишки на клетке — блок: чужие не встают на него и не проходят сквозь.

## Подписи на картинке стола
board-safe_cells = ★ и старт — здесь не рубят
board-yard = Двор
