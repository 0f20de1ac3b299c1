## /settings: the chat's defaults for every new lobby

cmd-settings = Chat settings: language, timer, table, variants (admins)
settings-groups-only = Settings belong to groups: send /settings in a group.
settings-title = ⚙️ <b>Chat settings</b> — every new lobby starts with them.
settings-lang-self = English
settings-lang = 🌐 Language: { $lang }
settings-variant = { $game }: { $variant }
settings-hint = Each button shows what is chosen now; a press picks the next choice. Only the chat's admins may change them.
# a game's variant button: as its line above, a long game name shorter so that the button fits a phone
settings-btn-variant = { $code ->
       *[other] { $game }
    }: { $variant }
settings-quoted = “{ $game }”
settings-tidy = 🧹 Tidy up: { $state ->
        [on] on
       *[off] off
    }
# the chat's time zone: /history shows times in it; names by the zone's code in /settings
settings-zone = 🕒 Time zone: { $zone }
settings-zone-label = { $name } (UTC{ $offset })
zone-name = { $zone ->
        [europe-kaliningrad] Kaliningrad
        [europe-moscow] Moscow
        [europe-samara] Samara
        [asia-yekaterinburg] Yekaterinburg
        [asia-novosibirsk] Novosibirsk
        [asia-vladivostok] Vladivostok
        [utc] UTC
        [europe-london] London
        [europe-berlin] Berlin
        [america-new_york] New York
       *[other] { $zone }
    }
settings-tidy-about = “Tidy up”: the bot's refusals and turn reminders are deleted after a minute, and, where the bot may delete messages, so is the command it refused. What stays after a game is its last table and its result.
# the table's pace: fast (the bot rolls for a player and makes their only move) or classic
settings-pace = 🎲 Table: { $pace ->
        [classic] classic
       *[fast] fast
    }
settings-pace-about = “Fast table”: the bot rolls the dice for a player and makes their move when it is the only one, so buttons appear only when there is a choice. “Classic”: every roll is a press. In { $games } the roll is the whole turn, so the roll button stays there.
