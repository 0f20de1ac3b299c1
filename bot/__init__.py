"""The Telegram side: handlers, lobby, table message, storage and app wiring."""
