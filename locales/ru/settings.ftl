## /settings (issue #11): умолчания чата для каждого нового лобби

cmd-settings = Настройки чата: язык, таймер, стол, варианты (админы)
settings-groups-only = Настройки есть только у групп: напишите /settings в группе.
settings-title = ⚙️ <b>Настройки чата</b> — с ними открывается каждое новое лобби.
settings-lang-self = русский
settings-lang = 🌐 Язык: { $lang }
settings-variant = { $game }: { $variant }
settings-hint = Кнопка показывает, что выбрано сейчас; нажатие — следующий вариант. Менять могут только администраторы чата.
# кнопка варианта игры: как строка выше, длинное название игры короче, чтобы кнопка влезла в телефон
settings-btn-variant = { $code ->
        [tishe] Тише едешь
       *[other] { $game }
    }: { $variant }
settings-quoted = «{ $game }»
settings-tidy = 🧹 Убирать за собой: { $state ->
        [on] вкл.
       *[off] выкл.
    }
# часовой пояс чата (issue #24): в нём /history показывает время; названия — по коду пояса из /settings
settings-zone = 🕒 Часовой пояс: { $zone }
settings-zone-label = { $name } (UTC{ $offset })
zone-name = { $zone ->
        [europe-kaliningrad] Калининград
        [europe-moscow] Москва
        [europe-samara] Самара
        [asia-yekaterinburg] Екатеринбург
        [asia-novosibirsk] Новосибирск
        [asia-vladivostok] Владивосток
        [utc] UTC
        [europe-london] Лондон
        [europe-berlin] Берлин
        [america-new_york] Нью-Йорк
       *[other] { $zone }
    }
settings-tidy-about = «Убирать за собой»: отказы бота и напоминания о ходе удаляются через минуту, а с правом удалять сообщения — и команда, на которую был отказ. После игры остаются её последний стол и итоги.
# темп стола: быстрый (бот бросает за игрока и делает единственный ход) или классический
settings-pace = 🎲 Стол: { $pace ->
        [classic] классический
       *[fast] быстрый
    }
settings-pace-about = «Быстрый стол»: бот сам бросает кости за игрока и сам делает ход, если он единственный, — кнопки появляются, только когда есть выбор. «Классический»: каждый бросок — нажатие. В играх { $games } бросок — это весь ход, там кнопка броска остаётся.
