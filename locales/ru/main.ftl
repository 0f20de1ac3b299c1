## Общие тексты бота (русский — основной язык)

cmd-newgame = Новая игра
cmd-rules = Правила игры
cmd-stop = Остановить игру (хост или админ)
cmd-lang = Язык чата: ru или en
cmd-tally = Кто сколько раундов проставился
cmd-set = Настройка лобби: /set chips 17
cmd-help = Помощь

help-text =
    🎲 <b>Настольные игры для всей группы</b>
    /newgame — выбрать игру или сразу открыть лобби:
    { $games }
    /rules — правила текущей игры (или <code>/rules spichki</code>)
    /table — показать стол игры внизу чата (старый уходит)
    /stop — остановить игру (хост или админ)
    /leave — выйти из идущей игры: за вас доиграет бот (в «Охоте на львов» — сдаться)
    /kick — пропустить того, кто ходит: его место займёт бот (хост или админ)
    /set — настройка лобби, например <code>/set chips 17</code>
    /tally — счёт раундов в пивных вариантах (<code>/tally reset</code> — сбросить, админы)
    /lang ru | en — язык чата (админы)
    /settings — настройки чата для новых лобби: язык, таймер, темп стола, варианты игр (админы)
    /stats — ваши результаты в этом чате; /top — таблица лидеров (<code>/top ludo</code>); /history — последние игры
    /verify — проверить кости законченной игры (<code>/verify 12</code>; или кнопка «🔎 Проверить кости» под итогами)
    /replay — повтор сыгранной игры роликом (<code>/replay 12</code>; или кнопка «🎬 Повтор» под итогами)
    Все ходы — кнопками под картинкой стола.
help-game = • { $name } — <code>/newgame { $code }</code>
start-private =
    Привет! Я веду настольные игры в кости прямо в группе.
    Добавьте меня в группу, напишите там /newgame, все желающие жмут «Играю», хост — «Начать».
btn-add-to-group = ➕ Добавить в группу
groups-only = Играть можно только в группе: добавьте меня в групповой чат.
picker-title = Во что играем?
unknown-game = Такой игры нет. Доступные: { $codes }
rules-which = Правила какой игры? { $commands }
game-exists = В этом чате уже идёт «{ $game }». Дождитесь конца или попросите хоста написать /stop.
no-game = Сейчас в чате нет игры. Начать: /newgame
stop-denied = Остановить игру может только хост или администратор чата.
stopped = Игра «{ $game }» остановлена.
admins-only = Это могут только администраторы чата.
too-many-commands = Слишком много команд — подождите минуту.
anonymous-cannot-play = Анонимный администратор не может сесть за стол: напишите /newgame от своего имени.
lang-usage = Использование: /lang { $langs }
lang-set = Язык чата: русский.
set-no-lobby = Настройки меняются в лобби, до начала игры. Начать: /newgame
set-usage = Использование: /set &lt;настройка&gt; &lt;значение&gt;, например /set chips 17
option-range = { $label }: от { $min } до { $max }
option-range-auto = { $label }: от { $min } до { $max } или «авто»
option-range-off = { $label }: от { $min } до { $max } или «выкл»
option-exact = { $label }: ровно { $count }
option-choice = { $label }: { $values }
option-type = Набрать: /set { $key } { $codes }
option-bad = { $label }: такое значение не подходит
option-or = { $first } или { $last }
option-quoted = «{ $words }»
option-off = выкл
option-auto = авто
# настройка и её значение сейчас: так показывает её кнопка лобби и так отвечает нажатие («Фишки: 20»)
option-state = { $label }: { $value }
option-named = { $label } — { $key }
option-unknown = Такой настройки нет: «{ $key }». Настройки этой игры: { $options }
option-unknown-none = Такой настройки нет: «{ $key }». У этой игры настроек нет.
# /set настройки, которую выбранный вариант не использует (башня в «наоборот»): ничего не меняется
option-ignored = { $label } — только { $count ->
        [one] в варианте
       *[other] в вариантах
    } { $variants }, а сейчас «{ $variant }»: ничего не изменено. Сменить вариант: /set { $key } { $code }
option-players = Игроки

lobby-host = Хост: { $name }
lobby-players = Игроки ({ $count }/{ $max }):
lobby-hint = Жмите «Играю», чтобы сесть за стол. Хост начинает, когда игроков от { $min } до { $max }.
lobby-hint-exact = Жмите «Играю», чтобы сесть за стол: { $count ->
        [one] нужен { $count } игрок
        [few] нужны { $count } игрока
       *[many] нужно { $count } игроков
    }.
# как играет стол этого лобби (кнопки ⏱, 🔔, 🎲 Стол и 🤖 Уровень), одной строкой через « · »
lobby-timer = { $minutes ->
        [0] ⏱ без таймера хода
       *[other] ⏱ { $minutes } мин на ход
    }
lobby-ping = { $seconds ->
        [0] 🔔 без напоминаний
       *[other] 🔔 напомнит через { $seconds } с
    }
lobby-pace = { $pace ->
        [classic] 🎲 классический стол
       *[fast] 🎲 быстрый стол
    }
lobby-level = 🤖 уровень: { $level }
lobby-cancelled = Лобби закрыто.
lobby-expired = 💤 Лобби закрыто: 15 минут никто его не трогал. Новое: /newgame

btn-join = ✋ Играю
btn-leave = 🚪 Выйти
btn-start = ▶️ Начать
btn-cancel = ✖️ Отмена
btn-rematch = 🔁 Ещё раунд
btn-play-ai = 🤖 Играть с ботом
# игрок, от имени которого ничего не осталось (одни невидимые и управляющие символы): номер места с 1, без места — конец его id в Telegram
player-unnamed = Игрок { $n }

table-turn = Ходит: { $name }
table-stopped = ⏹ Игра остановлена.
table-abandoned = 💤 Игра брошена: в ней давно никто не ходил.
# стол, шедший впереди базы (она потеряла последние коммиты): показан заново из базы
table-restored = ⚠️ Последний ход не сохранился — стол восстановлен.
# итоги: место каждого игрока, где правила ранжируют всех (первый пришедший, затем по фишкам дома и продвижению)
result-place = { $place ->
        [1] 🥇
        [2] 🥈
        [3] 🥉
       *[other] { $place }.
    } { $name }
# рейтинг после партии (bot/ratings.py): новое значение и изменение
result-ratings = 📈 Рейтинг:
result-rating-up = { $name } { $rating } ▲ +{ $change }
result-rating-down = { $name } { $rating } ▼ −{ $change }
result-rating-same = { $name } { $rating } ＝

result-pub-computer = 🍺 Проигрывает { $name } — раунд никто не ставит: компьютер не платит.
lobby-pub-computer = 🍺 Компьютер за столом не платит: проиграет он — раунд никто не ставит.
pub-tally-title = 🍺 Счёт раундов в этом чате:
pub-tally-line = { $name } — { $count } { $count ->
        [one] раунд
        [few] раунда
       *[many] раундов
    }
pub-tally-more = …и ещё { $count } { $count ->
    [one] человек
    [few] человека
   *[many] человек
} — весь счёт: /tally
pub-tally-empty = Пока никто не проставлялся.
pub-tally-reset = Счёт раундов обнулён.

toast-already-joined = Вы уже за столом.
toast-lobby-full = Мест нет: максимум { $max }.
toast-joined = Вы за столом!
toast-not-in-lobby = Вас нет за этим столом.
toast-left = Вы вышли из-за стола.
toast-host-only = Это может только хост (или админ).
toast-cancelled = Лобби закрыто.
toast-need-players = Нужно от { $min } до { $max } игроков.
toast-need-players-exact = { $count ->
        [one] Нужен { $count } игрок.
        [few] Нужны { $count } игрока.
       *[many] Нужно { $count } игроков.
    }
toast-stale = Кнопка устарела.
toast-restored = Последний ход не сохранился — стол показан заново.
toast-started = Поехали!
toast-game-over = Эта игра уже закончена.
toast-paused = Игра на паузе: боту сейчас нельзя писать в этот чат. Она продолжится, когда администратор вернёт боту права.
toast-not-your-turn = Сейчас ходит { $name }.
toast-illegal = Такой ход сейчас невозможен.
toast-confirm = Точно? Подтвердите кнопкой под столом.
toast-not-your-question = Это решает { $name }.
btn-confirm-cancel = ↩️ Отмена
toast-dice = 🎲 { $dice }
toast-not-a-player = Ещё раунд могут начать только игроки этой партии.
toast-game-exists = В чате уже идёт игра.
toast-ai-seats-taken = За столом уже двое — бот не нужен.
toast-lobby-open = Лобби открыто!
toast-rematch-host = Новое лобби с теми же игроками: начнёт хост, { $name }.
toast-rematch-lobby = Новое лобби: место того, кто вышел, свободно — любой может сесть, нажав «Играю».
lobby-post-failed = Не получается отправить картинку стола. Разрешите мне отправлять фото в этом чате и попробуйте /newgame ещё раз.
storage-error = ⚠️ Не получилось: база данных бота сейчас недоступна. Ничего не изменилось — попробуйте ещё раз чуть позже.
btn-add-bot = 🤖 Добавить бота
btn-remove-bot = ➖ Убрать бота
bot-name = { $n ->
    [1] 🤖 Кеша
    [2] 🤖 Дуся
    [3] 🤖 Федя
    [4] 🤖 Муся
    [5] 🤖 Гоша
    [6] 🤖 Нюша
    [7] 🤖 Стёпа
   *[other] 🤖 Бот { $n }
}
toast-bot-added = Бот сел за стол.
toast-bot-removed = Бот встал из-за стола.
btn-level = 🤖 Уровень бота: { $level }
toast-level = Бот играет на уровне «{ $level }».
level-easy = Лёгкий
level-medium = Средний
level-strong = Сильный
btn-timer = { $minutes ->
    [0] ⏱ Таймер хода: выкл.
   *[other] ⏱ Таймер хода: { $minutes } мин
}
toast-timer = { $minutes ->
    [0] Таймер хода выключен.
   *[other] На ход — { $minutes } мин; кто не успеет, за того сходит бот.
}
btn-ping = { $seconds ->
    [0] 🔔 Напоминание о ходе: выкл.
   *[other] 🔔 Напоминание о ходе: через { $seconds } с
}
toast-ping = { $seconds ->
    [0] Напоминаний о ходе не будет.
   *[other] Кто задумается на { $seconds } с, тому бот напомнит о ходе.
}
btn-pace = { $pace ->
    [classic] 🎲 Стол: классический
   *[fast] 🎲 Стол: быстрый
}
toast-pace = { $pace ->
    [classic] Классический стол: каждый бросок — нажатие.
   *[fast] Быстрый стол: бот бросает за игроков и делает единственный ход сам.
}
turn-ping = { $name }, ваш ход в «{ $game }»
bot-instead = 🤖 { $name }
# в итогах и /history: место, которое компьютер доиграл за ушедшего, пропущенного или трижды не сходившего игрока
# (медаль места — его, а рейтинг считает его последним)
finished-by-computer = { $name } (доигрывал компьютер)
log-only-move = единственный ход
log-idle-throws = 🎲 хода нет: { $throws }
log-idle-throw = { $name } { $dice }
log-timeout = ⏱ { $name }: время вышло — ход сделал бот ({ $count } из 3).
log-replaced = 🤖 { $name }: три пропуска подряд — дальше за этого игрока играет бот.
cmd-leave = Выйти из идущей игры (за вас доиграет бот)
cmd-table = Показать стол игры внизу чата
table-too-soon = Стол только что показан заново — ещё раз можно через { $seconds } с.
cmd-kick = Пропустить того, кто ходит: его место займёт бот (хост или админ)
leave-no-game = Сейчас нет идущей игры.
left-bot = { $name } вышел — за него доигрывает компьютер.
kicked-bot = { $by } пропускает игрока { $name } — его место занимает компьютер.
kick-by-anonymous-admin = Администратор чата
left-resigned = 🏳 { $name } выходит из игры и сдаётся.
kick-nobody = Сейчас ходит бот — пропускать некого.
leave-not-a-player = Вы не играете в этой партии.
leave-already-left = Вы уже вышли из этой партии — за вас доигрывает компьютер.
kick-denied = Пропускать игроков может только хост или администратор чата.
btn-kick = ⏭ Пропустить игрока
game-broken = Игра #{ $id } повреждена и остановлена; начните новую: /newgame
toast-game-broken = Эта игра повреждена и остановлена.
