## Fair dice: the commitment in the lobby (one line), the check by a button under the result or /verify

fair-commitment = 🔒 Dice sealed: <code>{ $digest }</code>
btn-check-dice = 🔎 Check the dice
toast-dice-check = The dice check follows, as a reply to the result.
toast-dice-checked = This game's check was just posted — it is right above.

cmd-verify = Check the dice of a finished game: /verify 12
verify-usage = Usage: <code>/verify &lt;game number&gt;</code>, e.g. <code>/verify 12</code> — the number is in /history. You may add the 32 digits of 🔒 noted in the lobby, or the whole sha256: <code>/verify 12 &lt;sha256&gt;</code>
verify-no-dice = Game #{ $id } ({ $game }) has no dice — there is nothing to check.
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
verify-bad-code = ❌ Game #{ $id }: action { $action } ({ $name }): logged “{ $code }”, which was not a legal move there.
verify-bad-end = ❌ Game #{ $id }: the rolls match, but the log does not lead to the stored position — actions are missing or extra.
verify-commitment-ok = ✅ Your sha256 matches the seed's sha256.
verify-commitment-bad = ❌ Your sha256 does not match the seed's sha256.
verify-seed = 🔑 Seed: <code>{ $seed }</code>
verify-digest = 🔒 The seed's sha256: <code>{ $digest }</code> — the lobby showed its first 32 digits before the first roll.
verify-how = To check it yourself: the seed's sha256 must start with the 🔒 from the lobby. Throw number n (0 is the draw, then every throw in order) is the bytes of HMAC-SHA256 keyed with the seed over the text "n": a byte b gives the face b mod 6 + 1 (on a die of k faces, b mod k + 1; bytes from 252, for k faces from 256 − 256 mod k, are skipped).
