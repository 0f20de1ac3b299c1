"""Pillow renderers: pure functions from a game state (plus names and labels) to PNG bytes.

``render`` imports only PIL, the standard library, ``engines`` and itself. It never writes
to disk and carries no user-facing words: every word arrives in a ``labels`` mapping that
the bot fills from ``locales``; player names arrive as plain strings.
"""
