"""Pillow renderers: pure functions from a game state (plus names and labels) to PNG bytes.

``render`` imports only PIL, the standard library, ``engines`` and itself. It never writes
to disk and carries no user-facing words: every word arrives in a ``labels`` mapping that
the bot fills from ``locales``; player names arrive as plain strings.

One module per game draws its board (``sosedi``, ``spichki``, ``tishe``, ``shishbesh``, ``ludo``,
``parchis``, ``lions``; ``stats`` the /stats and /top charts). Where the cells are is a module of
its own for «Парчис», «Шиш-беш» and «Охота на львов» (``<game>_geometry``), and so is Шиш-беш's
empty board (``shishbesh_board``). They all draw with a kit that knows no game: ``theme``
(colours, seat styles), ``canvas`` (pasting, masks), ``typeset`` (fonts, fitting text, pills,
labels), ``dice``, ``pieces`` (markers, tokens, chips), ``marks`` (rings, veils, crosses, arrows),
``cards`` (felt, wood, player cards, turn lines), ``places`` (the places once a game is over), ``png``
(palettes, encoding) and ``cover`` (the lobby's title card).
"""
