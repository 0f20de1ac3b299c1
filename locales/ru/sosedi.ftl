## «Помоги своему соседу»

game-sosedi = Помоги своему соседу
game-sosedi-tagline = Три кости, фишки и чаша · 2–6 игроков
# под названием на карточке лобби «Башни» (на ней башня пивных подставок)
game-sosedi-tagline-tower = «Башня»: три кости и пивные подставки · 2–6 игроков

sosedi-mode-classic = классика
sosedi-mode-reverse = наоборот
sosedi-mode-tower = Башня

action-sosedi-roll = 🎲 Бросить

sosedi-lobby-mode = Вариант: { $mode }
sosedi-lobby-chips = Фишек у каждого: { $count }
sosedi-lobby-tower = В башне: { $count } { $count ->
        [one] подставка
        [few] подставки
       *[many] подставок
    }
sosedi-lobby-tower-auto = В башне: { $count } (по 5 на игрока)
sosedi-lobby-immune-on = Бросающий за свои числа не платит
sosedi-lobby-immune-off = Бросающий платит и за свои числа
# «Башня»: никто не платит, подставки берут и возвращают
sosedi-lobby-immune-tower-on = Бросающий за свои числа подставки не берёт и не возвращает
sosedi-lobby-immune-tower-off = Бросающий берёт и возвращает подставки и за свои числа

sosedi-btn-chips = Фишки { $delta }
sosedi-btn-tower = Башня { $delta }
# ставит башню «авто» (по 5 подставок на игрока); стоит рядом с «Башня −5» и «Башня +5»
sosedi-btn-tower-auto = Авто
sosedi-option-mode = Вариант
sosedi-option-mode-classic = { sosedi-mode-classic }
sosedi-option-mode-reverse = { sosedi-mode-reverse }
sosedi-option-mode-tower = { sosedi-mode-tower }
sosedi-option-chips = Фишки
sosedi-option-tower = Башня
sosedi-option-roller_immune = Бросающий
# в «Башне» ($mode = tower) никто не платит: бросающий подставки берёт (или не берёт)
sosedi-option-roller_immune-on = { $mode ->
        [tower] не берёт
       *[other] не платит
    }
sosedi-option-roller_immune-off = { $mode ->
        [tower] берёт
       *[other] платит
    }

sosedi-ev-starter = Жребий: начинает { $name }.
sosedi-ev-roll = { $name } бросает { $dice }
sosedi-ev-throw = { $roll }: { $effects }
sosedi-ev-pay = { $name } кладёт в чашу { $count } { $count ->
        [one] фишку
        [few] фишки
       *[many] фишек
    } ({ $held ->
        [0] больше нет
       *[other] осталось { $held }
    })
sosedi-ev-void = Бросок недействителен: { $many ->
        [0] спаслись бы все разом, а проставиться кому-то надо
       *[other] { $who } лишились бы последнего разом
    }. { $name } бросает ещё раз.
sosedi-ev-nothing = никого не задело
sosedi-ev-take = { $name } берёт { $count } { $count ->
        [one] подставку
        [few] подставки
       *[many] подставок
    } (у себя { $held })
sosedi-ev-tower-down = 🏚 Башня рухнула! { $count ->
        [0] Подставки на руках у всех — возвращаем.
       *[other] Без подставок и в безопасности: { $who }.
    }
sosedi-ev-put = { $name } возвращает { $count } { $count ->
        [one] подставку
        [few] подставки
       *[many] подставок
    } (у себя { $held })
sosedi-ev-safe = ✅ { $name } без подставок — в безопасности.

sosedi-status-bowl = В чаше: { $count } { $count ->
        [one] фишка
        [few] фишки
       *[many] фишек
    }
sosedi-status-chips = { $name }: { $count }
# «Башня», пока стоит: за свои числа подставки из неё берут
sosedi-status-tower = 🗼 В башне { $count } { $count ->
        [one] подставка
        [few] подставки
       *[many] подставок
    } — разбираем
# «Башня» кончилась: подставки возвращают (сколько в ней было, больше не важно)
sosedi-status-tower-down = 🏚 Башня рухнула — возвращаем подставки
# кто сколько подставок держит: «На руках: Борис 3 · Аня 1» (имена не склоняются)
sosedi-status-hands = На руках: { $hands }
sosedi-status-held = { $name } { $count }

sosedi-result-win = 🏆 { $name } побеждает и забирает чашу: { $bowl } { $bowl ->
        [one] фишку
        [few] фишки
       *[many] фишек
    }!
sosedi-result-reverse = 🍺 { $name } платит: фишки кончились первыми!
sosedi-result-tower = 🍺 { $name } проставляется: подставки так и остались на руках!

rules-sosedi =
    <b>Помоги своему соседу</b> — 2–6 игроков, три кости.
    Каждому игроку достаются числа: при двоих — 1–3 и 4–6, при троих — по два (1–2, 3–4, 5–6), при четверых и пятерых лишние числа «мёртвые», при шестерых — по одному.
    В свой ход бросаете три кости; за каждую кость хозяин выпавшего числа кладёт фишку в чашу (число дважды — две фишки), бросающий платит и за свои числа.
    <b>Классика:</b> первый, кто положит последнюю фишку, побеждает и забирает чашу.
    <b>Наоборот:</b> первый, кто останется без фишек, проигрывает и платит. По договорённости бросающий за свои числа не платит.
    <b>Башня:</b> в центре башня подставок (по 5 на игрока). Пока она стоит, ваше число — берёте подставку; когда кончится — у кого подставок нет, те в безопасности, а остальные за каждое своё число возвращают подставку. Кто вернул последнюю — спасён. Последний с подставками проставляется.
    Если бросок оставил бы без последнего сразу двоих (в Башне — спас бы всех сразу), он не считается и бросающий бросает снова.

## Подписи на картинке стола
board-bowl = Чаша
board-tower = Башня
board-turn = Ходит
board-safe = Спасён
board-dead = ничьё
board-immune = своё
board-phase1 = Берём
board-phase2 = Отдаём
board-winner = Победитель
board-loser = Платит
board-void = Не в счёт — ещё раз
