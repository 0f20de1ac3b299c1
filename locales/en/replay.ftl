## A finished game's replay as a short clip: the button under the result, or /replay

btn-replay = 🎬 Replay
cmd-replay = A finished game as a short clip: /replay 12
replay-usage = Usage: <code>/replay &lt;game number&gt;</code>, e.g. <code>/replay 12</code> — the number is in /history. Or the “🎬 Replay” button under a game's result.
replay-unknown = There is no game #{ $id } in this chat.
replay-running = Game #{ $id } is still being played — its replay comes once it is over.
replay-not-started = Game #{ $id } never started — there is nothing to show.
replay-busy = A replay is being made already — wait for it, then ask for the next.
replay-making = 🎬 Making the replay of game #{ $id }…
replay-caption = 🎬 Replay of game #{ $id } · { $game }
replay-failed = The replay of game #{ $id } could not be made. Try again a little later.
