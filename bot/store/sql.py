"""The bot's SQL statements that every database it supports understands as they are.

Placeholders are ``?`` (a server database's module turns them into its own, ``$1``…); JSON is
passed as text. What one database spells its own way (the schema, connection settings, the
compound writes of a move or a lobby) lives in that database's module, not here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

IDENTIFIER = re.compile(r"[a-z_]{1,63}")


def ident(name: str) -> str:
    """``name`` as a table's or column's name in a statement composed at run time (bot.migrate reads
    them off the schema): only lower-case letters and «_», else ValueError. Never a value."""
    if not IDENTIFIER.fullmatch(name):
        raise ValueError(f"not a plain identifier: {name!r}")
    return name


def idents(names: Sequence[str]) -> str:
    """Several :func:`ident` names, comma-separated."""
    return ", ".join(ident(name) for name in names)


def placeholders(count: int) -> str:
    """``count`` ``?`` placeholders, comma-separated: the values travel as parameters."""
    return ", ".join("?" * int(count))


@functools.cache
def numbered(statement: str) -> str:
    """``statement`` with its ``?`` placeholders numbered as PostgreSQL writes them ($1, $2, …); the
    statements here hold no ``?`` but those."""
    parts = statement.split("?")
    return parts[0] + "".join(f"${number}{part}" for number, part in enumerate(parts[1:], start=1))

# a game row with its seats, in one statement: one row per seat (a lobby always has one)
GAME_COLUMNS = ("SELECT g.*, s.seat AS s_seat, s.user_id AS s_user_id, s.name AS s_name, "
                "s.left_user_id AS s_left_user_id, s.left_name AS s_left_name, s.left_at AS s_left_at "
                "FROM games g LEFT JOIN seats s ON s.game_id = g.id ")
ACTIVE_GAME = (GAME_COLUMNS + "WHERE g.chat_id = ? AND g.thread_id = ? AND g.status IN ('lobby', 'running') "
               "ORDER BY s.seat")
ACTIVE_GAMES_OF_CHAT = (GAME_COLUMNS + "WHERE g.chat_id = ? AND g.status IN ('lobby', 'running') "
                        "ORDER BY g.id, s.seat")  # of every topic
GAMES_WITH_DEADLINES = (GAME_COLUMNS + "WHERE g.status = 'running' AND g.deadline IS NOT NULL "
                        "ORDER BY g.deadline, g.id, s.seat")
# a table behind its game, or ahead of it (the store lost its last commits: the table is posted anew)
GAMES_BEHIND = (GAME_COLUMNS + "WHERE g.paused = 0 AND ("
                "(g.shown_version <> g.version AND g.status IN ('running', 'finished') AND g.message_id IS NOT NULL) "
                "OR (g.message_id IS NULL AND g.status IN ('lobby', 'running'))) ORDER BY g.id, s.seat")
# lobbies nobody changed since the first time, running games in which no person acted since the second
IDLE_GAMES = (GAME_COLUMNS + "WHERE (g.status = 'lobby' AND g.updated_at < ?) "
              "OR (g.status = 'running' AND COALESCE(g.acted_at, g.updated_at) < ?) ORDER BY g.id, s.seat")

SCHEMA_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
SCHEMA_VERSION = "SELECT MAX(version) AS version FROM schema_version"
SCHEMA_DONE = "INSERT INTO schema_version(version) VALUES (?)"
STALE = "stale version"  # what a save says (its compound write refuses) when the version moved on

RUNNING_GAMES = "SELECT code, COUNT(*) AS games FROM games WHERE status = 'running' GROUP BY code"

CHAT = "SELECT locale, settings FROM chats WHERE chat_id = ?"
SET_CHAT_SETTINGS = ("INSERT INTO chats(chat_id, settings, created_at) VALUES (?, ?, ?) "
                     "ON CONFLICT(chat_id) DO UPDATE SET settings = excluded.settings")
SET_CHAT_LOCALE = ("INSERT INTO chats(chat_id, locale, created_at) VALUES (?, ?, ?) "
                   "ON CONFLICT(chat_id) DO UPDATE SET locale = excluded.locale")

SET_MESSAGE_ID = "UPDATE games SET message_id = ? WHERE id = ?"

# a seat goes to someone else (a computer player); the person who sat there first is kept, and the
# action number from which the computer plays (the game's version: past log lines keep the name)
HAND_SEAT = ("UPDATE seats SET user_id = ?, name = ?, "
             "left_user_id = CASE WHEN user_id > 0 THEN user_id ELSE left_user_id END, "
             "left_name = CASE WHEN user_id > 0 THEN name ELSE left_name END, "
             "left_at = CASE WHEN user_id > 0 THEN (SELECT g.version FROM games g WHERE g.id = seats.game_id) "
             "ELSE left_at END "
             "WHERE game_id = ? AND seat = ? AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running')")
STOP_GAME = ("UPDATE games SET status = 'stopped', result = ?, updated_at = ? "
             "WHERE id = ? AND status IN ('lobby', 'running')")
SEED_USED = "SELECT 1 FROM games WHERE seed = ? LIMIT 1"
PAUSE_GAME = "UPDATE games SET paused = 1, deadline = NULL WHERE id = ? AND status = 'running' AND paused = 0"
RESUME_GAME = ("UPDATE games SET paused = 0, deadline = ?, message_id = NULL "
               "WHERE id = ? AND status = 'running' AND paused = 1")

ACTIONS = "SELECT n, seat, code, dice, events FROM actions WHERE game_id = ? ORDER BY n"
RECENT_EVENTS = "SELECT n, events FROM actions WHERE game_id = ? ORDER BY n DESC LIMIT ?"

# a group became a supergroup (migrate_chat): a game begun there already wins, one active game per chat
NEW_CHAT_HAS_GAME = "SELECT 1 FROM games WHERE chat_id = ? AND status IN ('lobby', 'running')"
STOP_ACTIVE_OF_CHAT = ("UPDATE games SET status = 'stopped', result = ? "
                       "WHERE chat_id = ? AND status IN ('lobby', 'running')")
MOVE_GAMES = ("UPDATE games SET chat_id = ?, message_id = CASE WHEN status IN ('lobby', 'running') "
              "THEN NULL ELSE message_id END WHERE chat_id = ?")
COPY_CHAT = ("INSERT INTO chats(chat_id, locale, settings, created_at) "
             "SELECT ?, locale, settings, created_at FROM chats WHERE chat_id = ? "
             "ON CONFLICT(chat_id) DO UPDATE SET locale = COALESCE(chats.locale, excluded.locale)")
DELETE_CHAT = "DELETE FROM chats WHERE chat_id = ?"
COPY_TALLY = ("INSERT INTO pub_tally(chat_id, user_id, name, rounds) "
              "SELECT ?, user_id, name, rounds FROM pub_tally WHERE chat_id = ? "
              "ON CONFLICT(chat_id, user_id) DO UPDATE SET rounds = pub_tally.rounds + excluded.rounds")
MOVE_RESULTS = "UPDATE results SET chat_id = ? WHERE chat_id = ?"

PUB_TALLY = "SELECT user_id, name, rounds FROM pub_tally WHERE chat_id = ? AND rounds > 0 ORDER BY rounds DESC, name"
RESET_PUB_TALLY = "DELETE FROM pub_tally WHERE chat_id = ?"
PUB_ROUNDS = "SELECT COALESCE(SUM(paid), 0) AS rounds FROM results WHERE chat_id = ? AND user_id = ?"
USER_TOTALS = ("SELECT code, COUNT(*) AS games, SUM(won) AS wins, SUM(pub) AS pub, SUM(paid) AS paid "
               "FROM results WHERE chat_id = ? AND user_id = ? GROUP BY code ORDER BY games DESC, code")
# every person's totals, under the name of their latest game (of the game asked about)
PLAYER_TOTALS = (
    "SELECT r.user_id, COUNT(*) AS games, SUM(r.won) AS wins, SUM(r.pub) AS pub, SUM(r.paid) AS paid, "
    "(SELECT l.name FROM results l WHERE l.chat_id = r.chat_id AND l.user_id = r.user_id "
    "ORDER BY l.finished_at DESC LIMIT 1) AS name "
    "FROM results r WHERE r.chat_id = ? GROUP BY r.chat_id, r.user_id ORDER BY r.user_id")
PLAYER_TOTALS_OF_GAME = (
    "SELECT r.user_id, COUNT(*) AS games, SUM(r.won) AS wins, SUM(r.pub) AS pub, SUM(r.paid) AS paid, "
    "(SELECT l.name FROM results l WHERE l.chat_id = r.chat_id AND l.user_id = r.user_id AND l.code = r.code "
    "ORDER BY l.finished_at DESC LIMIT 1) AS name "
    "FROM results r WHERE r.chat_id = ? AND r.code = ? GROUP BY r.chat_id, r.code, r.user_id ORDER BY r.user_id")
# the chat's last games that were played and ended, newest first, with their players by seat and whom
# a computer took a seat from (one game at a time per chat, so the latest begun is the latest ended)
PAST_GAMES = (
    "SELECT g.id, g.code, g.status, g.result, g.updated_at, s.name, s.left_name, s.user_id FROM games g "
    "JOIN seats s ON s.game_id = g.id "
    "WHERE g.id IN (SELECT id FROM games WHERE chat_id = ? AND status IN ('finished', 'stopped') "
    "AND state IS NOT NULL ORDER BY id DESC LIMIT ?) ORDER BY g.id DESC, s.seat")

# ratings (bot/ratings/): the finished games not rated yet in the order they finished (a game's seats
# stay together: id breaks a tie of times), every rating of a chat's game, a game marked rated once
_UNRATED = ("g.status = 'finished' AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) "
            "ORDER BY g.updated_at, g.id, s.seat")
UNRATED_GAMES = GAME_COLUMNS + "WHERE " + _UNRATED
UNRATED_GAMES_OF_CHAT = GAME_COLUMNS + "WHERE g.chat_id = ? AND " + _UNRATED
RATINGS = "SELECT player, name, mu, sigma, games FROM ratings WHERE chat_id = ? AND code = ? ORDER BY player"
MARK_RATED = "INSERT INTO rated_games(game_id, chat_id, changes) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
SET_RATING = ("INSERT INTO ratings(chat_id, code, player, name, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?) "
              "ON CONFLICT(chat_id, code, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
              "sigma = excluded.sigma, games = excluded.games")
RATING_CHANGES = "SELECT changes FROM rated_games WHERE game_id = ?"
CLEAR_RATINGS = "DELETE FROM ratings"
CLEAR_RATED = "DELETE FROM rated_games"
# a group became a supergroup: its ratings go with its games; if the new chat has rated games of its
# own already, both chats' ratings are dropped and the next catch-up rates their games anew, together
NEW_CHAT_HAS_RATINGS = "SELECT 1 FROM rated_games WHERE chat_id = ? LIMIT 1"
MOVE_RATINGS = "UPDATE ratings SET chat_id = ? WHERE chat_id = ?"
MOVE_RATED = "UPDATE rated_games SET chat_id = ? WHERE chat_id = ?"
DROP_RATINGS_OF_CHATS = "DELETE FROM ratings WHERE chat_id IN (?, ?)"
DROP_RATED_OF_CHATS = "DELETE FROM rated_games WHERE chat_id IN (?, ?)"

# replay clips (bot/flow/replays.py): the file_id Telegram gave a game's clip; a newer one replaces it
REPLAY_FILE = "SELECT file_id FROM replays WHERE game_id = ?"
SAVE_REPLAY_FILE = ("INSERT INTO replays(game_id, file_id) VALUES (?, ?) "
                    "ON CONFLICT(game_id) DO UPDATE SET file_id = excluded.file_id")

# the updates handled (bot/store/claims.py): a change takes its update's claim; a claim already there
# (the update delivered again) changes no row, and the change is not made
HANDLED_UPDATES = "handled_updates"  # the table a refused claim's error names
CLAIM_UPDATE = "INSERT INTO handled_updates(update_id, at) VALUES (?, ?) ON CONFLICT DO NOTHING"
UPDATE_HANDLED = "SELECT 1 AS handled FROM handled_updates WHERE update_id = ?"
LATEST_UPDATE = "SELECT MAX(update_id) AS latest FROM handled_updates"
FORGET_UPDATES = "DELETE FROM handled_updates WHERE at < ?"
