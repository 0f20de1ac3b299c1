## Результаты: /stats, /top, /history

cmd-stats = Моя статистика в этом чате
cmd-top = Лучшие игроки чата: /top или /top sosedi
cmd-history = Последние игры чата

stats-title = 📊 <b>{ $name }</b> — ваши игры в этом чате:
stats-line = { $game }: { $count } { $count ->
        [one] партия
        [few] партии
       *[many] партий
    }, { $wins } { $wins ->
        [one] победа
        [few] победы
       *[many] побед
    } ({ $percent }%)
stats-total = <b>Всего</b>: { $count } { $count ->
        [one] партия
        [few] партии
       *[many] партий
    }, { $wins } { $wins ->
        [one] победа
        [few] победы
       *[many] побед
    } ({ $percent }%)
stats-pub = 🍺 не платил { $free } из { $rounds }{ $paid ->
        [0] {""}
       *[other] , платил { $paid } { $paid ->
            [one] раз
            [few] раза
           *[many] раз
        }
    }
stats-empty = { $name }, у вас пока нет законченных игр в этом чате. Начать: /newgame
stats-chart-title = { $name }: игры и победы
stats-chart-played = сыграно
stats-chart-won = выиграно

top-title = 🏆 <b>Лучшие игроки</b> · { $game }
top-all-games = все игры
top-line = { $place }. { $name } — { $wins } { $wins ->
        [one] победа
        [few] победы
       *[many] побед
    } из { $count } { $count ->
        [one] партии
       *[many] партий
    } ({ $percent }%)
top-line-rated = { $place }. { $name } — <b>{ $rating }</b> · { $wins } { $wins ->
        [one] победа
        [few] победы
       *[many] побед
    } из { $count } ({ $percent }%)
top-rule = Места — по числу побед, затем по доле побед и числу партий. В таблице — сыгравшие от { $count } { $count ->
        [one] партии
       *[many] партий
    }. Рейтинг — в таблице одной игры: /top &lt;код игры&gt;.
top-rule-rated = Места — по рейтингу (оценка умения по всем местам всех партий, с запасом на случайность: новичок начинает с { $base }), затем по победам. В таблице — сыгравшие от { $count } { $count ->
        [one] партии
       *[many] партий
    }.
top-empty = В таблицу попадают сыгравшие от { $count } { $count ->
        [one] партии
       *[many] партий
    } — таких игроков пока нет. Играть: /newgame
top-usage = Использование: /top или /top &lt;код игры&gt;. Коды: { $codes }
top-chart-title = Победы · { $game }
top-chart-title-rated = Рейтинг · { $game }

history-title = 📜 <b>Последние игры в этом чате</b> · время: { $zone }
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
history-paid = 🍺 проставляется { $names }
history-nobody-paid = 🍺 проиграл { $name } — раунд никто не ставил
history-draw = 🤝 ничья
history-stopped = ⏹ остановлена
history-abandoned = 💤 брошена: никто не ходил
history-broken = ⚠️ повреждена: остановлена ботом
history-empty = В этом чате ещё нет сыгранных игр. Начать: /newgame
