## Честные кости: обязательство в лобби, зерно в итогах, /verify (issue #11)

fair-commitment = 🔒 Кости: sha256 <code>{ $digest }</code>
fair-seed = 🔑 Зерно костей: <code>{ $seed }</code>
fair-check = Проверить все броски: <code>/verify { $id }</code>
fair-next = 🔒 Кости следующего раунда («Ещё раунд»): sha256 <code>{ $digest }</code>

cmd-verify = Проверить кости сыгранной игры: /verify 12
verify-usage = Использование: <code>/verify &lt;номер игры&gt;</code>, например <code>/verify 12</code> — номер есть в сообщении с итогами. Можно добавить sha256, записанный в лобби: <code>/verify 12 &lt;sha256&gt;</code>
verify-unknown = В этом чате нет игры #{ $id }.
verify-not-over = Игра #{ $id } ещё идёт. Зерно костей откроется, когда она закончится, — тогда её и можно будет проверить.
verify-not-started = Игра #{ $id } так и не началась: бросков не было.
verify-ok = ✅ Игра #{ $id }: { $count ->
        [0] бросков в ней нет, а жребий, кто начинает, совпадает с зерном.
        [one] { $count } бросок из журнала совпадает с тем, что даёт зерно, и жребий, кто начинает, — тоже.
        [few] { $count } броска из журнала совпадают с тем, что даёт зерно, и жребий, кто начинает, — тоже.
       *[many] { $count } бросков из журнала совпадают с тем, что даёт зерно, и жребий, кто начинает, — тоже.
    }
verify-bad-dice = ❌ Игра #{ $id }: бросок { $roll } (ход { $action }, { $name }): в журнале { $logged }, а зерно даёт { $derived }.
verify-bad-seat = ❌ Игра #{ $id }: ход { $action }: в журнале ходит { $name }, а по зерну — { $expected }.
verify-bad-code = ❌ Игра #{ $id }: ход { $action } ({ $name }): в журнале «{ $code }», но так сходить там было нельзя.
verify-bad-end = ❌ Игра #{ $id }: броски совпадают, но журнал не доходит до сохранённой позиции — ходы пропали или лишние.
verify-commitment-ok = ✅ Ваш sha256 совпадает с sha256 зерна.
verify-commitment-bad = ❌ Ваш sha256 не совпадает с sha256 зерна.
verify-seed = 🔑 Зерно: <code>{ $seed }</code>
verify-digest = 🔒 sha256 зерна: <code>{ $digest }</code> — та же строка была в лобби до первого броска.
verify-how = Проверить самому: README, раздел «Fair dice».
