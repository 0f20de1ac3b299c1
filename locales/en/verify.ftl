## Fair dice: the commitment in the lobby, the seed in the result, /verify (issue #11)

fair-commitment = 🔒 Dice: sha256 <code>{ $digest }</code>
fair-seed = 🔑 Dice seed: <code>{ $seed }</code>
fair-check = Check every roll: <code>/verify { $id }</code>
fair-next = 🔒 Dice of the next round (“One more round”): sha256 <code>{ $digest }</code>

cmd-verify = Check the dice of a finished game: /verify 12
verify-usage = Usage: <code>/verify &lt;game number&gt;</code>, e.g. <code>/verify 12</code> — the number is in the result message. You may add the sha256 noted in the lobby: <code>/verify 12 &lt;sha256&gt;</code>
verify-unknown = There is no game #{ $id } in this chat.
verify-not-over = Game #{ $id } is still going. Its dice seed is revealed once it is over — check it then.
verify-not-started = Game #{ $id } never started: there were no rolls.
verify-ok = ✅ Game #{ $id }: { $count ->
        [0] it has no rolls, and the draw of who starts matches the seed.
        [one] the { $count } logged roll matches what the seed gives, and so does the draw of who starts.
       *[other] all { $count } logged rolls match what the seed gives, and so does the draw of who starts.
    }
verify-bad-dice = ❌ Game #{ $id }: roll { $roll } (action { $action }, { $name }): logged { $logged }, the seed gives { $derived }.
verify-bad-seat = ❌ Game #{ $id }: action { $action }: logged for { $name }, the seed gives { $expected }.
verify-bad-code = ❌ Game #{ $id }: action { $action } ({ $name }): logged «{ $code }», which was not a legal move there.
verify-bad-end = ❌ Game #{ $id }: the rolls match, but the log does not lead to the stored position — actions are missing or extra.
verify-commitment-ok = ✅ Your sha256 matches the seed's sha256.
verify-commitment-bad = ❌ Your sha256 does not match the seed's sha256.
verify-seed = 🔑 Seed: <code>{ $seed }</code>
verify-digest = 🔒 The seed's sha256: <code>{ $digest }</code> — the same line the lobby showed before the first roll.
verify-how = Check it yourself: README, section «Fair dice».
