## «Охота на львов»

game-lions = Охота на львов
game-lions-tagline = Львы против охотников, поле из кругов и линий, без костей · 2 игрока (или против бота)

lions-variant = поле восстановлено по описанию
action-lions-pick = { $side ->
        [lions] 🦁
       *[hunters] 🏹
    } { $circle }
action-lions-step = → { $to }
action-lions-done = ✅ Готово
action-lions-undo = ↩️ Отменить шаг
action-lions-pass = ⏭ Пас (ходов нет)
action-lions-offer = 🤝 Предложить ничью
action-lions-resign = 🏳 Сдаться
confirm-lions-resign = 🏳 Да, сдаюсь
confirm-lions-offer = 🤝 Да, предложить ничью
action-lions-accept = ✅ Принять ничью
action-lions-decline = ❌ Играем дальше

lions-lobby-sides = 🦁 Львы: { $lions } · 🏹 Охотники: { $hunters }
lions-lobby-free = ждём игрока
lions-lobby-ai = Нет соперника? «🤖 Играть с ботом».
lions-btn-swap = ⇄ Поменять стороны
lions-option-lions_seat = Львами играет
lions-option-lions_seat-0 = первый за столом
lions-option-lions_seat-1 = второй за столом
lions-option-quiet_draw = Ничья без взятий
lions-lobby-quiet = 🤝 Ничья после { $turns } { $turns ->
        [one] хода
       *[other] ходов
    } подряд без взятий (/set quiet_draw 100 или выкл)
lions-lobby-quiet-off = 🤝 Ничьей по затишью нет, только при двух фигурах и меньше (/set quiet_draw 100)

lions-ev-starter = Жребий: первыми ходят { $side ->
        [lions] львы
       *[hunters] охотники
    } ({ $name }).
lions-ev-turn = { $name } ({ $side ->
        [lions] 🦁
       *[hunters] 🏹
    }): { $moves }{ $count ->
        [0] {""}
       *[other] {" "}· { $taken }
    }
lions-ev-no-move = пас
lions-ev-taken = { $side ->
        [lions] 🦁 взят лев
       *[hunters] 🏹 взят охотник
    } на { $circle }
lions-ev-isolated = 🧱 Стороны разделились — с этого хода действует правило «в затылок».
lions-ev-pushed = ⚠ { $name }: в затылок — должна отойти фигура с { $circles }.
lions-ev-draw-offered = 🤝 { $name } предлагает ничью.
lions-ev-draw-declined = { $name } играет дальше.
lions-ev-draw-agreed = 🤝 { $name } принимает ничью.
lions-ev-resign = 🏳 { $name } сдаётся.
lions-ev-draw-quiet = { $turns } ходов без взятий.

lions-status-sides = 🦁 { $lions }: { $lions_left }/6 · 🏹 { $hunters }: { $hunters_left }/6
lions-status-push-on = 🧱 Действует правило «в затылок».
lions-status-quiet = Ходов без взятий: { $turns } из { $limit }
lions-status-offer = 🤝 { $name } предлагает ничью — { $other }, принимаете?
lions-status-building = Ход: { $moves } · { $left ->
        [0] шагов больше нет — «Готово»
        [one] остался { $left } шаг
        [few] осталось { $left } шага
       *[other] осталось { $left } шагов
    }
lions-status-must = ⚠ Первой ходит фигура с { $circles } (в затылок).

lions-result-all-taken = 🏆 { $name } ({ $side ->
        [lions] львы
       *[hunters] охотники
    }) берёт все фигуры противника и побеждает!
lions-result-resign = 🏆 { $name } ({ $side ->
        [lions] львы
       *[hunters] охотники
    }) побеждает: соперник сдался.
lions-result-draw-agreed = 🤝 Ничья по согласию.
lions-result-draw-quiet = 🤝 Ничья: { $turns } ходов подряд без взятий.

rules-lions =
    <b>Охота на львов</b> — двое: шесть львов против шести охотников. Костей нет. Поле восстановлено по описанию (рисунок оригинала утерян).
    Львы стоят у входа в гроты на кругах 1–6, охотники — в лагере на А–Е. Кто начинает — по жребию. За кругом Д — убежище из восьми кругов (5, 6, +1, +4, +5, +7, +8, 19) с одним входом: лев на Д запирает его, и лев на +8 может ходить там сколько угодно. Простые круги пронумерованы с 9, чтобы их не путать с +7 и +8.
    За ход двигают одну, две или три свои фигуры по линиям, всего не больше чем на три круга: одну на 1–3, или одну на 1 и другую на 2, или три по одному. Через фигуры не перепрыгивают и не возвращаются по своему следу. Ход собирается по шагам: фигура → круг → … → «Готово»; шаг можно отменить.
    Фигура, которой некуда сдвинуться, а рядом есть враг, сразу снимается. Проверяется там, где фигура остановилась: сначала чужие, потом свои. Одной фигурой можно взять несколько. Пройти мимо — не взять.
    Если стороны разделились (свободные круги одних недостижимы для других), вводится правило «в затылок»: три фигуры подряд по прямой в затылок чужой фигуре заставляют её отойти первым же ходом.
    Побеждает тот, кто возьмёт все фигуры противника. Когда у кого-то осталось две фигуры или меньше, 60 ходов подряд без взятий — ничья; а при любом числе фигур ничья после 100 ходов подряд без взятий (настройка quiet_draw, можно выключить). Можно предложить ничью или сдаться.

board-lions = Львы
board-hunters = Охотники
board-push = в затылок
