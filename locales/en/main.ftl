## Bot texts (English)

cmd-newgame = New game
cmd-rules = Rules of the game
cmd-stop = Stop the game (host or admin)
cmd-lang = Chat language: ru or en
cmd-tally = Who has paid how many rounds
cmd-set = Lobby setting: /set chips 17
cmd-help = Help

help-text =
    🎲 <b>Board games for the whole group</b>
    /newgame — pick a game, or open its lobby at once:
    { $games }
    /rules — rules of the current game (or <code>/rules spichki</code>)
    /table — show the game's table at the bottom of the chat (the old one goes)
    /stop — stop the game (host or admin)
    /leave — leave the running game: a bot plays on for you (in Lion Hunt, you resign)
    /kick — skip the player to move: a bot takes the seat (host or admin)
    /set — a lobby setting, e.g. <code>/set chips 17</code>
    /tally — rounds paid in the pub variants (<code>/tally reset</code> to reset, admins)
    /lang ru | en — chat language (admins)
    /settings — this chat's defaults for new lobbies: language, timer, table pace, game variants (admins)
    /stats — your results in this chat; /top — the leaderboard (<code>/top ludo</code>); /history — recent games
    /verify — check the dice of a finished game (<code>/verify 12</code>, or “🔎 Check the dice” under its result)
    /replay — a finished game as a short clip (<code>/replay 12</code>, or “🎬 Replay” under its result)
    Every move is a button under the table picture.
help-game = • { $name } — <code>/newgame { $code }</code>
start-private =
    Hi! I run dice board games right inside a group chat.
    Add me to a group, send /newgame there, everyone taps “Play”, and the host taps “Start”.
btn-add-to-group = ➕ Add to a group
groups-only = Games are played in groups only: add me to a group chat.
picker-title = What shall we play?
unknown-game = No such game. Available: { $codes }
rules-which = Rules of which game? { $commands }
game-exists = “{ $game }” is already on in this chat. Wait for the end or ask the host to send /stop.
no-game = There is no game in this chat. Start one: /newgame
stop-denied = Only the host or a chat admin can stop the game.
stopped = The game “{ $game }” has been stopped.
admins-only = Only chat admins can do this.
too-many-commands = Too many commands — please wait a minute.
anonymous-cannot-play = An anonymous admin can’t take a seat: send /newgame as yourself.
lang-usage = Usage: /lang { $langs }
lang-set = Chat language: English.
set-no-lobby = Settings change in the lobby, before the game starts. Start one: /newgame
set-usage = Usage: /set &lt;option&gt; &lt;value&gt;, e.g. /set chips 17
option-range = { $label }: { $min } to { $max }
option-range-auto = { $label }: { $min } to { $max }, or “auto”
option-range-off = { $label }: { $min } to { $max }, or “off”
option-exact = { $label }: exactly { $count }
option-choice = { $label }: { $values }
option-type = Type: /set { $key } { $codes }
option-bad = { $label }: that value won’t do
option-or = { $first } or { $last }
option-quoted = “{ $words }”
option-off = off
option-auto = auto
# a setting and its value now: what its lobby button shows and a press answers («Chips: 20»)
option-state = { $label }: { $value }
option-named = { $label } — { $key }
option-unknown = There is no setting “{ $key }”. This game’s settings: { $options }
option-unknown-none = There is no setting “{ $key }”. This game has no settings.
# /set of a setting the chosen variant does not use (the tower in «reverse»): nothing changes
option-ignored = { $label } applies only in { $count ->
        [one] the variant
       *[other] the variants
    } { $variants }, and this lobby plays “{ $variant }”: nothing changed. To switch: /set { $key } { $code }
option-players = Players

lobby-host = Host: { $name }
lobby-players = Players ({ $count }/{ $max }):
lobby-hint = Tap “Play” to take a seat. The host starts when there are { $min } to { $max } players.
lobby-hint-exact = Tap “Play” to take a seat: { $count ->
        [one] { $count } player is needed
       *[other] { $count } players are needed
    }.
# how this lobby's table plays (its ⏱, 🔔, 🎲 Table and 🤖 Level buttons), on one line joined by « · »
lobby-timer = { $minutes ->
        [0] ⏱ no turn timer
       *[other] ⏱ { $minutes } min a turn
    }
lobby-ping = { $seconds ->
        [0] 🔔 no reminders
       *[other] 🔔 reminder after { $seconds } s
    }
lobby-pace = { $pace ->
        [classic] 🎲 classic table
       *[fast] 🎲 fast table
    }
lobby-level = 🤖 level: { $level }
lobby-cancelled = Lobby closed.
lobby-expired = 💤 Lobby closed: nobody touched it for 15 minutes. A new one: /newgame

btn-join = ✋ Play
btn-leave = 🚪 Leave
btn-start = ▶️ Start
btn-cancel = ✖️ Cancel
btn-rematch = 🔁 One more round
btn-play-ai = 🤖 Play the bot
# a person whose name is nothing once cleaned (invisible and control characters only): the seat number from 1, with no seat the end of their Telegram id
player-unnamed = Player { $n }

table-turn = To move: { $name }
table-stopped = ⏹ The game was stopped.
table-abandoned = 💤 Game abandoned: nobody has played it for a long time.
# a table ahead of the store (it lost its last commits): posted again from the store
table-restored = ⚠️ The last move was not saved — the table is restored.
# the result: every player's place where the rules rank everyone (first home, then by pieces home and progress)
result-place = { $place ->
        [1] 🥇
        [2] 🥈
        [3] 🥉
       *[other] { $place }.
    } { $name }
# the rating after the game (bot/ratings.py): the new value and the change
result-ratings = 📈 Rating:
result-rating-up = { $name } { $rating } ▲ +{ $change }
result-rating-down = { $name } { $rating } ▼ −{ $change }
result-rating-same = { $name } { $rating } ＝

result-pub-computer = 🍺 { $name } loses — nobody buys this round: a computer never pays.
lobby-pub-computer = 🍺 A computer at the table never pays: if it loses, nobody buys the round.
pub-tally-title = 🍺 Rounds paid in this chat:
pub-tally-line = { $name } — { $count } { $count ->
        [one] round
       *[other] rounds
    }
pub-tally-more = …and { $count } { $count ->
    [one] more
   *[other] more
} — the whole tally: /tally
pub-tally-empty = Nobody has paid a round yet.
pub-tally-reset = The round tally is reset.

toast-already-joined = You are already seated.
toast-lobby-full = No seats left: { $max } at most.
toast-joined = You are seated!
toast-not-in-lobby = You are not at this table.
toast-left = You left the table.
toast-host-only = Only the host (or an admin) can do this.
toast-cancelled = Lobby closed.
toast-need-players = { $min } to { $max } players are needed.
toast-need-players-exact = { $count ->
        [one] { $count } player is needed.
       *[other] { $count } players are needed.
    }
toast-stale = This button is out of date.
toast-restored = The last move was not saved — the table is posted again.
toast-started = Here we go!
toast-game-over = This game is over.
toast-paused = The game is paused: I’m not allowed to post in this chat right now. It goes on once an admin gives me the rights back.
toast-not-your-turn = It is { $name }’s turn.
toast-illegal = That move is not possible now.
toast-confirm = Sure? Confirm with the button under the table.
toast-not-your-question = That is for { $name } to decide.
btn-confirm-cancel = ↩️ Cancel
toast-dice = 🎲 { $dice }
toast-not-a-player = Only the players of that game can start another round.
toast-game-exists = A game is already on in this chat.
toast-ai-seats-taken = Both seats are taken — no room for the bot.
toast-lobby-open = Lobby open!
toast-rematch-host = A new lobby with the same players: the host, { $name }, starts it.
toast-rematch-lobby = A new lobby: the seat of whoever left is free — anyone may take it with “Play”.
lobby-post-failed = I can’t post the table picture. Allow me to send photos in this chat and try /newgame again.
storage-error = ⚠️ That didn’t work: my database is unavailable right now. Nothing has changed — please try again in a moment.
btn-add-bot = 🤖 Add a bot
btn-remove-bot = ➖ Remove a bot
bot-name = { $n ->
    [1] 🤖 Robo-Ann
    [2] 🤖 Robo-Bob
    [3] 🤖 Robo-Cat
    [4] 🤖 Robo-Dan
    [5] 🤖 Robo-Eve
    [6] 🤖 Robo-Fox
    [7] 🤖 Robo-Gus
   *[other] 🤖 Bot { $n }
}
toast-bot-added = A bot took a seat.
toast-bot-removed = A bot left the table.
btn-level = 🤖 Bot level: { $level }
toast-level = The bot plays at level “{ $level }”.
level-easy = Easy
level-medium = Medium
level-strong = Strong
btn-timer = { $minutes ->
    [0] ⏱ Turn timer: off
   *[other] ⏱ Turn timer: { $minutes } min
}
toast-timer = { $minutes ->
    [0] Turn timer off.
   *[other] { $minutes } min a turn; whoever runs out of time, a bot moves for them.
}
btn-ping = { $seconds ->
    [0] 🔔 Turn reminder: off
   *[other] 🔔 Turn reminder: after { $seconds } s
}
toast-ping = { $seconds ->
    [0] No turn reminders.
   *[other] Whoever waits { $seconds } s on their turn gets a reminder.
}
btn-pace = { $pace ->
    [classic] 🎲 Table: classic
   *[fast] 🎲 Table: fast
}
toast-pace = { $pace ->
    [classic] Classic table: every roll is a press.
   *[fast] Fast table: the bot rolls for the players and makes the only move itself.
}
turn-ping = { $name }, your turn in “{ $game }”
bot-instead = 🤖 { $name }
# in the result and /history: a seat the computer finished for a person who left, was skipped or timed out three
# times (the seat's medal is theirs, while their rating counts them last)
finished-by-computer = { $name } (finished by the computer)
log-only-move = the only move
log-idle-throws = 🎲 no move: { $throws }
log-idle-throw = { $name } { $dice }
log-timeout = ⏱ { $name } ran out of time — a bot moved for them ({ $count } of 3).
log-replaced = 🤖 { $name }: three timeouts in a row — a bot plays this seat from now on.
cmd-leave = Leave the running game (a bot plays on for you)
cmd-table = Show the game's table at the bottom of the chat
table-too-soon = The table was just posted again — once more in { $seconds } s.
cmd-kick = Skip the player to move: a bot takes the seat (host or admin)
leave-no-game = No game is running.
left-bot = { $name } has left — the computer plays on for them.
kicked-bot = { $by } skips { $name } — the computer takes their seat.
kick-by-anonymous-admin = A chat admin
left-resigned = 🏳 { $name } leaves the game and resigns.
kick-nobody = A bot is to move — nobody to skip.
leave-not-a-player = You are not playing in this game.
leave-already-left = You have left this game — the computer plays on for you.
kick-denied = Only the host or a chat admin can skip a player.
btn-kick = ⏭ Skip this player
game-broken = Game #{ $id } is damaged and has been stopped; start a new one: /newgame
toast-game-broken = This game is damaged and has been stopped.
