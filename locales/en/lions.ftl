## Lion Hunt

game-lions = Lion Hunt
game-lions-tagline = Lions against hunters on circles and lines, no dice · 2 players (or against the bot)

lions-variant = board rebuilt from the description
action-lions-pick = { $side ->
        [lions] 🦁
       *[hunters] 🏹
    } { $circle }
action-lions-step = → { $to }
action-lions-done = ✅ Done
action-lions-undo = ↩️ Undo step
action-lions-pass = ⏭ Pass (no moves)
action-lions-offer = 🤝 Offer a draw
action-lions-resign = 🏳 Resign
confirm-lions-resign = 🏳 Yes, I resign
confirm-lions-offer = 🤝 Yes, offer a draw
action-lions-accept = ✅ Accept the draw
action-lions-decline = ❌ Play on

lions-lobby-sides = 🦁 Lions: { $lions } · 🏹 Hunters: { $hunters }
lions-lobby-free = waiting for a player
lions-lobby-ai = No opponent? “🤖 Play the bot”.
lions-btn-swap = ⇄ Swap sides
lions-option-lions_seat = Lions are played by
lions-option-lions_seat-0 = the first at the table
lions-option-lions_seat-1 = the second at the table
lions-option-quiet_draw = Draw without captures
lions-lobby-quiet = 🤝 A draw after { $turns } { $turns ->
        [one] turn
       *[other] turns
    } in a row without a capture
lions-lobby-quiet-off = 🤝 No draw for a standoff, only at two pieces or fewer

lions-ev-starter = By lot the { $side ->
        [lions] lions
       *[hunters] hunters
    } ({ $name }) move first.
lions-ev-turn = { $name } ({ $side ->
        [lions] 🦁
       *[hunters] 🏹
    }): { $moves }{ $count ->
        [0] {""}
       *[other] {" "}· { $taken }
    }
lions-ev-no-move = pass
lions-ev-taken = { $side ->
        [lions] 🦁 lion taken
       *[hunters] 🏹 hunter taken
    } on { $circle }
lions-ev-isolated = 🧱 The sides are cut off from each other — the push rule is on from now.
lions-ev-pushed = ⚠ { $name }: pushed from behind — the piece on { $circles } must move away.
lions-ev-draw-offered = 🤝 { $name } offers a draw.
lions-ev-draw-declined = { $name } plays on.
lions-ev-draw-agreed = 🤝 { $name } accepts the draw.
lions-ev-resign = 🏳 { $name } resigns.
lions-ev-draw-quiet = { $turns } turns without a capture.

lions-status-sides = 🦁 { $lions }: { $lions_left }/6 · 🏹 { $hunters }: { $hunters_left }/6
lions-status-push-on = 🧱 The push rule is on.
lions-status-quiet = Turns without a capture: { $turns } of { $limit }
lions-status-offer = 🤝 { $name } offers a draw — { $other }, do you accept?
lions-status-building = Turn: { $moves } · { $left ->
        [0] no steps left — press “Done”
        [one] { $left } step left
       *[other] { $left } steps left
    }
lions-status-must = ⚠ The piece on { $circles } must move first (pushed from behind).

lions-result-all-taken = 🏆 { $name } ({ $side ->
        [lions] lions
       *[hunters] hunters
    }) takes every enemy piece and wins!
lions-result-resign = 🏆 { $name } ({ $side ->
        [lions] lions
       *[hunters] hunters
    }) wins: the opponent resigned.
lions-result-draw-agreed = 🤝 Draw by agreement.
lions-result-draw-quiet = 🤝 Draw: { $turns } turns in a row without a capture.

rules-lions =
    <b>Lion Hunt</b> — two players: six lions against six hunters. No dice. The board is rebuilt from the description (the original figure is lost).
    Lions start at the cave mouths on circles 1–6, hunters in the camp on А–Е. Who starts is drawn by lot. Behind circle Д lies a refuge of eight circles (5, 6, +1, +4, +5, +7, +8, 19) with one way in: a lion on Д locks it, and a lion on +8 can walk there for as long as it likes. Plain circles are numbered from 9, so they are not mistaken for +7 and +8.
    On a turn move one, two or three of your pieces along the lines, three circles in all at most: one piece 1–3, or one 1 and another 2, or three pieces 1 each. No jumping over pieces and no going back over your own track. A turn is built step by step: piece → circle → … → “Done”; a step can be undone.
    A piece with no free circle next to it and an enemy beside it is taken at once. This is checked where a piece stops: the enemy's pieces first, then your own. One piece can take several. Passing by takes nothing.
    Once the sides are cut off from each other (neither can reach the other's free circles), the push rule comes in: three pieces in a straight row behind an enemy piece make it move away on its next turn.
    Whoever takes all enemy pieces wins. Once a side has two pieces or fewer, 60 turns in a row without a capture is a draw; and with any number of pieces, 100 turns in a row without a capture is a draw (a lobby button turns it off). You can offer a draw or resign.

board-lions = Lions
board-hunters = Hunters
board-push = push rule
