"""What only SQLite says this way: its schema (forward migrations, applied in order, each once),
its connection settings, and the bot's three compound writes.

A move stores the game, appends to its log, may hand a seat to a computer player, count a pub
round and record results. Here each compound write is one ``INSERT`` into a temporary view whose
``INSTEAD OF`` trigger does all of it: a single statement, so it is atomic on its own, and one hop
to the database thread, so the writes of many chats follow each other there without a lock held
across hops (a transaction of awaited statements would have to hold one, and each hop waits for a
busy event loop). A server database does the same in a transaction of its own. The statements
every database understands are in :mod:`bot.store.sql`.
"""

from __future__ import annotations

from bot.store import sql

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        locale TEXT,
        settings TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        code TEXT NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        shown_version INTEGER NOT NULL DEFAULT -1,
        status TEXT NOT NULL,
        host_id INTEGER NOT NULL,
        message_id INTEGER,
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active ON games(chat_id) WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        seat INTEGER,
        code TEXT NOT NULL,
        dice TEXT NOT NULL,
        events TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE pub_tally (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        rounds INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    """,
    # 2: turn timers: the running game's deadline for the player to move, and each
    # seat's timeouts in a row (JSON {"seat": count})
    """
    ALTER TABLE games ADD COLUMN deadline REAL;
    ALTER TABLE games ADD COLUMN timeouts TEXT NOT NULL DEFAULT '{}'
    """,
    # 3: a running game is paused while the bot cannot post in its chat (kicked, or no right to
    # send): no turn timer runs, and the game goes on once the bot is back
    """
    ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0
    """,
    # 4: results: one row per person seated at a finished game, written by the save
    # that finishes it; /stats, /top and /history read them. Games finished before this
    # migration are filled in from their stored result (kind win: the winners won; kind lose:
    # the first loser paid the round); computer players (negative ids) have no row.
    """
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        code TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        won INTEGER NOT NULL,
        paid INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_chat_code ON results(chat_id, code);
    CREATE INDEX games_chat ON games(chat_id);
    INSERT INTO results(game_id, chat_id, code, user_id, name, won, paid, finished_at)
    SELECT g.id, g.chat_id, g.code, s.user_id, s.name,
           COALESCE(json_extract(g.result, '$.kind') = 'win'
                    AND EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') WHERE value = s.seat), 0),
           COALESCE(json_extract(g.result, '$.kind') = 'lose' AND json_extract(g.result, '$.losers[0]') = s.seat, 0),
           g.updated_at
    FROM games g JOIN seats s ON s.game_id = g.id
    WHERE g.status = 'finished' AND g.result IS NOT NULL AND s.user_id > 0
    """,
    # 5: the person a computer player took a seat from (they left, were skipped or
    # timed out for good): their game still counts for them, played and not won. And the seed of
    # «Ещё раунд», drawn when a game finishes, so its SHA-256 is shown before any of its rolls.
    """
    ALTER TABLE seats ADD COLUMN left_user_id INTEGER;
    ALTER TABLE seats ADD COLUMN left_name TEXT;
    ALTER TABLE games ADD COLUMN next_seed TEXT
    """,
    # 6: when a person last acted in a running game (a press, the deal), so a game
    # nobody plays is stopped as abandoned; the sweep that finds them reads the active games only
    """
    ALTER TABLE games ADD COLUMN acted_at REAL;
    UPDATE games SET acted_at = updated_at WHERE status IN ('lobby', 'running');
    CREATE INDEX games_active_since ON games(status, updated_at) WHERE status IN ('lobby', 'running')
    """,
    # 7: forum topics. A lobby and its game live in the topic where /newgame was typed
    # (0: General, or a chat that is not a forum): one active game per topic, so a forum runs several
    """
    ALTER TABLE games ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0;
    DROP INDEX games_one_active;
    CREATE UNIQUE INDEX games_one_active ON games(chat_id, thread_id) WHERE status IN ('lobby', 'running')
    """,
    # 8: the action number from which a computer player plays a seat it took from a
    # person, so the log's earlier lines still name that person (NULL: handed over before this)
    """
    ALTER TABLE seats ADD COLUMN left_at INTEGER
    """,
    # 9: skill ratings per chat and game (bot/ratings/), derived from the finished games:
    # each person's (or computer level's) current rating, and each rated game's changes as the result
    # message showed them. Games finished before this are rated when the bot starts (Ratings.catch_up).
    """
    CREATE TABLE ratings (
        chat_id INTEGER NOT NULL,
        code TEXT NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (chat_id, code, player)
    );
    CREATE TABLE rated_games (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        changes TEXT NOT NULL
    )
    """,
    # 10: a finished game's replay clip, once sent, by Telegram's file_id (sent again by it)
    """
    CREATE TABLE replays (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        file_id TEXT NOT NULL
    )
    """,
    # 11: the ids of the updates that changed something (bot/store/claims.py), kept a few days so that
    # Telegram delivering one again (after a restart, a lost webhook answer) changes nothing
    """
    CREATE TABLE handled_updates (
        update_id INTEGER PRIMARY KEY,
        at REAL NOT NULL
    );
    CREATE INDEX handled_updates_at ON handled_updates(at)
    """,
    # 12: a pub round («наоборот», «Башня») is marked (``pub``) so /stats and /top can say it in the pub's
    # words, and not paying it is its win (docs/rules/sosedi.md, «Pub rounds»): the rounds finished
    # before are credited to everyone still seated who did not pay; a computer never pays, so the
    # tally's computer rows go
    """
    ALTER TABLE results ADD COLUMN pub INTEGER NOT NULL DEFAULT 0;
    UPDATE results SET pub = 1
        WHERE game_id IN (SELECT id FROM games WHERE json_extract(result, '$.kind') = 'lose');
    UPDATE results SET won = 1 WHERE pub = 1 AND paid = 0
        AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = results.game_id AND s.user_id = results.user_id);
    DELETE FROM pub_tally WHERE user_id <= 0
    """,
)

# per connection: settings (a write never waits here for another process's write lock: see SQLiteStore._patiently),
# and the temporary views whose triggers make the compound writes
CONNECTION_SETUP: tuple[str, ...] = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=0",  # a write waits for another process's lock in SQLiteStore._patiently
    # a move: the version it starts from must still be stored (else «stale version», nothing written);
    # actions is a JSON array of {seat, code, dice, events}, numbered from ``first``; ``seat`` goes to
    # (seat_user_id, seat_name), a computer player, keeping the person who sat there and the version
    # from which the computer plays; payer_* pays the pub round; a finished game records a results row
    # per person seated at the end or whose seat a computer player took (they played it and did not
    # win it), won by the seats in ``winners`` (in a pub round: everyone who does not pay), a pub round
    # when the result's kind is «lose»; at
    # the deal, ``seating`` (a JSON array of [seat, user id, name]) and ``host_id`` replace the lobby's;
    # ``by_person``: a person's press made it (the game is not idle)
    """CREATE TEMP VIEW moves AS SELECT 0 AS game_id, 0 AS expected_version, '' AS state, 0 AS version,
        '' AS status, NULL AS result, 0.0 AS at, NULL AS deadline, NULL AS timeouts, NULL AS next_seed,
        '[]' AS actions, 0 AS first, NULL AS seat, NULL AS seat_user_id, NULL AS seat_name,
        NULL AS payer_id, NULL AS payer_name, '[]' AS winners, NULL AS seating, NULL AS host_id,
        0 AS by_person, NULL AS update_id WHERE 0""",
    """CREATE TEMP TRIGGER save_move INSTEAD OF INSERT ON moves BEGIN
        INSERT INTO handled_updates(update_id, at) SELECT NEW.update_id, NEW.at WHERE NEW.update_id IS NOT NULL;
        SELECT RAISE(ABORT, 'stale version') WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id
            AND version = NEW.expected_version AND status IN ('lobby', 'running'));
        DELETE FROM seats WHERE game_id = NEW.game_id AND NEW.seating IS NOT NULL;
        INSERT INTO seats(game_id, seat, user_id, name)
            SELECT NEW.game_id, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
            FROM json_each(COALESCE(NEW.seating, '[]'));
        UPDATE games SET state = NEW.state, version = NEW.version, status = NEW.status, result = NEW.result,
            updated_at = NEW.at, deadline = NEW.deadline, timeouts = COALESCE(NEW.timeouts, timeouts),
            next_seed = NEW.next_seed, host_id = COALESCE(NEW.host_id, host_id),
            acted_at = CASE WHEN NEW.by_person THEN NEW.at ELSE acted_at END WHERE id = NEW.game_id;
        UPDATE seats SET user_id = NEW.seat_user_id, name = NEW.seat_name,
            left_user_id = CASE WHEN user_id > 0 THEN user_id ELSE left_user_id END,
            left_name = CASE WHEN user_id > 0 THEN name ELSE left_name END,
            left_at = CASE WHEN user_id > 0 THEN NEW.version ELSE left_at END
            WHERE game_id = NEW.game_id AND seat = NEW.seat;
        INSERT INTO actions(game_id, n, seat, code, dice, events, at)
            SELECT NEW.game_id, NEW.first + key, json_extract(value, '$.seat'), json_extract(value, '$.code'),
                   json_extract(value, '$.dice'), json_extract(value, '$.events'), NEW.at
            FROM json_each(NEW.actions);
        INSERT INTO pub_tally(chat_id, user_id, name, rounds)
            SELECT chat_id, NEW.payer_id, NEW.payer_name, 1 FROM games
            WHERE id = NEW.game_id AND NEW.payer_id IS NOT NULL
            ON CONFLICT(chat_id, user_id) DO UPDATE SET rounds = pub_tally.rounds + 1, name = excluded.name;
        INSERT INTO results(game_id, chat_id, code, user_id, name, won, paid, pub, finished_at)
            SELECT g.id, g.chat_id, g.code,
                   CASE WHEN s.user_id > 0 THEN s.user_id ELSE s.left_user_id END,
                   CASE WHEN s.user_id > 0 THEN s.name ELSE s.left_name END,
                   s.user_id > 0 AND s.seat IN (SELECT value FROM json_each(NEW.winners)),
                   COALESCE((CASE WHEN s.user_id > 0 THEN s.user_id ELSE s.left_user_id END) = NEW.payer_id, 0),
                   COALESCE(json_extract(NEW.result, '$.kind') = 'lose', 0),
                   NEW.at
            FROM games g JOIN seats s ON s.game_id = g.id
            WHERE g.id = NEW.game_id AND NEW.status = 'finished' AND (s.user_id > 0 OR s.left_user_id > 0)
            ON CONFLICT DO NOTHING;
    END""",
    # a new lobby with its seats, a JSON array of [seat, user id, name]
    """CREATE TEMP VIEW new_games AS SELECT 0 AS chat_id, 0 AS thread_id, '' AS code, '' AS options, '' AS seed,
        0 AS host_id, 0.0 AS at, '[]' AS seats WHERE 0""",
    """CREATE TEMP TRIGGER create_game INSTEAD OF INSERT ON new_games BEGIN
        INSERT INTO games(chat_id, thread_id, code, options, seed, status, host_id, created_at, updated_at)
            VALUES (NEW.chat_id, NEW.thread_id, NEW.code, NEW.options, NEW.seed, 'lobby', NEW.host_id, NEW.at,
                    NEW.at);
        INSERT INTO seats(game_id, seat, user_id, name)
            SELECT (SELECT id FROM games WHERE chat_id = NEW.chat_id AND thread_id = NEW.thread_id
                    AND status = 'lobby'),
                   json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
            FROM json_each(NEW.seats);
    END""",
    # a lobby's seats (a JSON array of [user id, name], in join order), host and options
    """CREATE TEMP VIEW lobby_seatings AS SELECT 0 AS game_id, 0 AS host_id, '' AS options, 0.0 AS at,
        '[]' AS seats WHERE 0""",
    """CREATE TEMP TRIGGER set_lobby INSTEAD OF INSERT ON lobby_seatings BEGIN
        DELETE FROM seats WHERE game_id = NEW.game_id;
        INSERT INTO seats(game_id, seat, user_id, name)
            SELECT NEW.game_id, key, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(NEW.seats);
        UPDATE games SET host_id = NEW.host_id, options = NEW.options, updated_at = NEW.at
            WHERE id = NEW.game_id AND status = 'lobby';
    END""",
)
SAVE_MOVE = ("INSERT INTO moves(game_id, expected_version, state, version, status, result, at, deadline, timeouts, "
             "next_seed, actions, first, seat, seat_user_id, seat_name, payer_id, payer_name, winners, seating, "
             "host_id, by_person, update_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
CREATE_GAME = ("INSERT INTO new_games(chat_id, thread_id, code, options, seed, host_id, at, seats) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
# the topic's one active game
NEW_GAME_ID = "SELECT id FROM games WHERE chat_id = ? AND thread_id = ? AND status = 'lobby' AND seed = ?"
# several games by id (a JSON array), several tables shown (a JSON array of [id, version]): store/batches.py
GAMES_BY_IDS = sql.GAME_COLUMNS + "WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id, s.seat"
# a table shown at a version never lowers what is stored, unless what is stored is beyond the game's own
# version (the store lost its last commits); never a version the game has not reached (store/protocol.py)
SET_SHOWN_VERSIONS = ("UPDATE games SET shown_version = v.shown "
                      "FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS shown "
                      "FROM json_each(?)) AS v "
                      "WHERE games.id = v.id AND v.shown <= games.version "
                      "AND (games.shown_version < v.shown OR games.shown_version > games.version)")
SET_LOBBY = "INSERT INTO lobby_seatings(game_id, host_id, options, at, seats) VALUES (?, ?, ?, ?, ?)"

BEGIN, COMMIT, ROLLBACK = "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"
