## «Шиш-беш»

game-shishbesh = Шиш-беш
game-shishbesh-tagline = Крест, два кубика, прыжки с углов, избушки · 2–4 игрока

shishbesh-board-standard = обычное поле
shishbesh-board-long = длинное поле
shishbesh-shelters-opposite = друг напротив друга
shishbesh-shelters-staggered = через один
shishbesh-start-six = на шестёрку
shishbesh-start-double = на дубль
shishbesh-start-six_or_double = на шестёрку или дубль

action-shishbesh-roll = 🎲 Бросить
action-shishbesh-enter = [{ $die }] 🐣 Вывести фишку → { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-shishbesh-step = [{ $die }] Фишка { $piece } → { $target }{ $effect ->
        [1] {" "}⚔
        [2] {" "}🛖
        [3] {" "}🏠
       *[other] {""}
    }
action-shishbesh-jump_forward = [{ $die }] Фишка { $piece }: прыжок ↷ { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-shishbesh-jump_back = [{ $die }] Фишка { $piece }: прыжок назад ↶ { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }
action-shishbesh-jump_diagonal = [{ $die }] Фишка { $piece }: по диагонали ⤧ { $target }{ $effect ->
        [1] {" "}⚔
       *[other] {""}
    }

shishbesh-lobby-board = Поле: { $board }
shishbesh-lobby-shelters = Избушки: { $shelters }
shishbesh-lobby-start = Выход из парка: { $start }
shishbesh-lobby-charge-on = Быстрый заряд: три броска на выход
shishbesh-lobby-charge-off = Быстрый заряд: нет
# настройки: название и значения — так их показывают кнопки лобби («Поле: обычное»), ответы на нажатие и /set
shishbesh-option-board = Поле
shishbesh-option-board-standard = обычное
shishbesh-option-board-long = длинное
shishbesh-option-shelters = Избушки
shishbesh-option-shelters-opposite = напротив
shishbesh-option-shelters-staggered = через один
shishbesh-option-start = Выход из парка
shishbesh-option-start-six = { shishbesh-start-six }
shishbesh-option-start-double = { shishbesh-start-double }
shishbesh-option-start-six_or_double = { shishbesh-start-six_or_double }
shishbesh-option-fast_charge = Быстрый заряд
shishbesh-option-fast_charge-on = да
shishbesh-option-fast_charge-off = нет

shishbesh-ev-starter = Жребий: начинает { $name }.
shishbesh-ev-roll = { $name }: 🎲 { $dice }
shishbesh-ev-chooser = { $name }
shishbesh-ev-line = { $head } → { $parts }
shishbesh-ev-enter = выводит фишку { $piece }
shishbesh-ev-step = фишка { $piece }: { $start } → { $to }
shishbesh-ev-jump-forward = фишка { $piece } прыгает { $start } ↷ { $to }
shishbesh-ev-jump-back = фишка { $piece } прыгает назад { $start } ↶ { $to }
shishbesh-ev-jump-diagonal = фишка { $piece } прыгает по диагонали { $start } ⤧ { $to }
shishbesh-ev-capture = рубит фишку { $piece } ({ $name }) — в парк
shishbesh-ev-hut = фишка { $piece } прячется в избушке
shishbesh-ev-home = фишка { $piece } дома
shishbesh-ev-no-move = хода нет
shishbesh-ev-choose = выбирает ход
shishbesh-ev-again = дубль — бросает ещё
shishbesh-ev-again-capture = за рубку — бросает ещё
shishbesh-ev-charge = быстрый заряд: ещё { $left } { $left ->
        [one] бросок
        [few] броска
       *[many] бросков
    }
shishbesh-ev-win = победа!

shishbesh-status-player = { $name }: парк { $park }, домик { $home }/4
shishbesh-status-choose = 🎲 осталось { $dice }: выберите ход

shishbesh-result = 🏆 { $name } заводит все четыре фишки в домик и побеждает!

rules-shishbesh =
    <b>Шиш-беш</b> — 2–4 игрока, два кубика, по четыре фишки, поле-крест: круг из 48 клеток (на длинном поле — 56), ход против часовой стрелки.
    Фишки ждут в парке; выходят на шестёрку на своё стартовое поле (по настройке — на дубль или на то и другое). Каждый кубик — отдельный ход в любом порядке; если кубиком можно сходить — ходить обязательно (и обоими, если получается).
    Встали на чужую фишку — она идёт в парк, а вы бросаете ещё. Дубль — тоже ещё бросок. Две свои фишки на одной клетке не стоят.
    <b>Углы:</b> стоя на углу, кубиком «1» можно прыгнуть на соседний угол (вперёд или назад), кубиком «3» — по диагонали. Прыжок назад с первого угла к своему лучу — срез: сразу ко входу в домик. Прыжки рубят.
    <b>Избушки</b> на 3-м поле каждой дорожки: фишка в избушке неуязвима; если избушка занята, пришедшая встаёт на поле и её можно срубить, а фишка в избушке заперта, пока поле занято.
    В домик — только точным броском, не перепрыгивая свои фишки. Побеждает тот, кто первым заведёт домой все четыре.
    <b>Быстрый заряд:</b> пока на круге нет ваших фишек, на выход даётся три броска подряд; ход внутри домика заряд не прерывает.

## Подписи на картинке стола
board-park = Парк
board-hut = избушка — не рубят
board-jump = углы: 1 — к соседнему, 3 — по диагонали
# ходы на выбор: буква у каждого места, куда можно пойти; кнопка хода называет её (без широких Ж, Ш, Щ, Ю, Ы: им не хватит кружка)
board-targets = А Б В Г Д Е И К Л М Н П Р С Т У Ф Х Ц Ч
