## «Тише едешь — дальше будешь»

game-tishe = Тише едешь — дальше будешь
game-tishe-tagline = Две кости, по две фишки, круги до 100 · 2–6 игроков

tishe-variant-first = до 100 одной фишкой
tishe-variant-both = обе фишки до 100

action-tishe-roll = 🎲 Бросить
action-tishe-enter = ➕ Ввести фишку → { $to }{ $effect ->
        [1] {" "}⏩ { $final }
        [2] {" "}⏪ { $final }
        [3] {" "}✖
       *[other] {""}
    }{ $double ->
        [1] {" "}⏸
       *[other] {""}
    }
action-tishe-move = Фишка { $checker }: { $start } → { $bounced ->
        [1] 100 ↩{" "}
       *[other] {""}
    }{ $to }{ $effect ->
        [1] {" "}⏩ { $final }
        [2] {" "}⏪ { $final }
        [3] {" "}✖
        [4] {" "}🏁
       *[other] {""}
    }{ $double ->
        [1] {" "}⏸
       *[other] {""}
    }

tishe-lobby-variant = Побеждает: { $variant }
tishe-option-both_home = Вариант
tishe-option-both_home-on = { tishe-variant-both }
tishe-option-both_home-off = { tishe-variant-first }

tishe-ev-starter = Жребий: начинает { $name }.
tishe-ev-roll = { $name }: { $dice }
tishe-ev-chooser = { $name }
tishe-ev-line = { $head } → { $parts }
tishe-ev-enter = вводит фишку { $checker } на { $to }
tishe-ev-move = фишка { $checker }: { $start } → { $to }{ $bounced ->
        [1] {" "}(отсчёт назад от 100)
       *[other] {""}
    }
tishe-ev-land-zero = на { $at } ноль — фишка снята
tishe-ev-land-one = на { $at } единица — на 3 вперёд, { $to }
tishe-ev-land-seven = на { $at } семёрка — на 3 назад, { $to }
tishe-ev-land-seventeen = { $at }: единица и семёрка — стоит
tishe-ev-bump = { $name } теряет фишку { $checker } с { $at }
tishe-ev-double-circle = { $at } — двойное число: пропуск { $turns } { $turns ->
        [one] хода
       *[other] ходов
    }
tishe-ev-no-move = хода нет
tishe-ev-choose = выбирает фишку
tishe-ev-home = фишка { $checker } на финише
tishe-ev-win = победа!
tishe-ev-again = дубль — бросает ещё
tishe-ev-again-lost = дубль пропал
tishe-ev-skip = ⏸ { $name } пропускает ход{ $left ->
        [0] {""}
       *[other] {" "}(ещё { $left })
    }

tishe-pos-off = —
tishe-pos-home = 🏁
tishe-status-player = { $name }: { $first }, { $second }{ $missed ->
        [0] {""}
       *[other] {" "}⏸{ $missed }
    }
tishe-status-choose = 🎲 { $dice } (на { $total }): выберите фишку

tishe-result-first = 🏆 { $name } первым доводит фишку до 100 и побеждает!
tishe-result-both = 🏆 { $name } приводит обе фишки к 100 и побеждает!

rules-tishe =
    <b>Тише едешь — дальше будешь</b> — 2–6 игроков, две кости, у каждого две фишки, поле из кружков 1–100.
    Фишка входит в игру, только если на одной из костей 6: она идёт с нуля на сумму костей. Дальше одна фишка идёт на сумму обеих костей (делить нельзя); если на поле фишка и выпала 6 — выбираете: ввести вторую или ходить. Ходить обязательно.
    Куда встали (только при прямом попадании, второй раз не смотрим):
    • число с 0 — фишка снимается и входит снова с шестёркой;
    • 17 и 71 — стоит;
    • число с 1 — на 3 вперёд; число с 7 — на 3 назад (73 → 70: остаётся на поле);
    • двойное число (11, 22 … 99) — пропуск двух ходов.
    На числах с 5 двум фишкам не стоять: та, что была раньше, снимается (и своя тоже).
    Дубль на костях — бросок ещё раз, даже если ходить было нечем (на поле нет фишек и нет шестёрки); кроме попадания на двойное число.
    100 — ровно: лишние очки отсчитываются назад (98 и 8 → 94). Побеждает первая фишка на 100, а в варианте — тот, кто привёл обе.

## Подписи на картинке стола
board-cell_zero = 0 — снять с поля
board-cell_one = 1 — на 3 вперёд
board-cell_seven = 7 — на 3 назад (17 и 71 стоят)
board-cell_five = 5 — двоим не стоять
board-cell_double = 11, 22… — пропуск 2 ходов
board-off_board = Вне поля
board-finish = Финиш
board-missed = пропуск
