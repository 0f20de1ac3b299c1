## Results: /stats, /top, /history

cmd-stats = My stats in this chat
cmd-top = The chat's best players: /top or /top sosedi
cmd-history = The chat's last games

stats-title = 📊 <b>{ $name }</b> — your games in this chat:
stats-line = { $game }: { $count } { $count ->
        [one] game
       *[other] games
    }, { $wins } { $wins ->
        [one] win
       *[other] wins
    } ({ $percent }%)
stats-total = <b>Total</b>: { $count } { $count ->
        [one] game
       *[other] games
    }, { $wins } { $wins ->
        [one] win
       *[other] wins
    } ({ $percent }%)
stats-pub = 🍺 didn't pay { $free } of { $rounds }{ $paid ->
        [0] {""}
        [one] , paid once
       *[other] , paid { $paid } times
    }
stats-empty = { $name }, you have no finished games in this chat yet. Start one: /newgame
stats-chart-title = { $name }: games and wins
stats-chart-played = played
stats-chart-won = won

top-title = 🏆 <b>Best players</b> · { $game }
top-all-games = all games
top-line = { $place }. { $name } — { $wins } { $wins ->
        [one] win
       *[other] wins
    } in { $count } { $count ->
        [one] game
       *[other] games
    } ({ $percent }%)
top-line-rated = { $place }. { $name } — <b>{ $rating }</b> · { $wins } { $wins ->
        [one] win
       *[other] wins
    } in { $count } ({ $percent }%)
top-rule = Places go by wins, then win rate, then games played. Listed: players with at least { $count } { $count ->
        [one] game
       *[other] games
    }. Ratings are per game: /top &lt;game code&gt;.
top-rule-rated = Places go by rating (skill judged from every place of every game, less a margin for luck: a newcomer starts at { $base }), then by wins. Listed: players with at least { $count } { $count ->
        [one] game
       *[other] games
    }.
top-empty = The table lists players with at least { $count } { $count ->
        [one] game
       *[other] games
    } — nobody yet. Play: /newgame
top-usage = Usage: /top or /top &lt;game code&gt;. Codes: { $codes }
top-chart-title = Wins · { $game }
top-chart-title-rated = Rating · { $game }

history-title = 📜 <b>Last games in this chat</b> · times: { $zone }
history-entry =
    <b>#{ $id }</b> · { $game } · { $when }
    { $players } — { $result }
history-won = 🏆 { $names }
history-places = { $places }
history-place = { $place ->
        [1] 🥇
        [2] 🥈
        [3] 🥉
       *[other] { $place }.
    } { $name }
history-paid = 🍺 { $names } pays
history-nobody-paid = 🍺 { $name } lost — nobody bought the round
history-draw = 🤝 draw
history-stopped = ⏹ stopped
history-abandoned = 💤 abandoned: nobody played
history-broken = ⚠️ damaged: stopped by the bot
history-empty = No games played in this chat yet. Start one: /newgame
