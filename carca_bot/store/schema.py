"""The database schema and its forward migrations, the same on SQLite and PostgreSQL.

The schema version is the number of migrations applied (SQLite: `PRAGMA user_version`,
as files have always had it; PostgreSQL: the one-row table `carca_schema`). Each
migration runs in its own transaction together with the version bump, so a start-up
interrupted half way leaves the database at one version or the next, never between;
it runs under the database's write lock (PostgreSQL: an advisory lock), so of two
processes starting at once only one migrates. A database newer than this program is
refused rather than guessed at.

Portable SQL: the contract for every statement here and in `store.py`
-----------------------------------------------------------------------
Migrations and Store methods are written once, in the subset below, and run on both
backends; `postgres_sql.py` rewrites only placeholders and types. The store test suite
(tests/store) runs every test on both, so a test there proves a new statement.

- Placeholders `?` (values in a sequence) or `:name` (a mapping), never both in one
  statement. A value must sit where PostgreSQL can tell its type (compared with or
  stored into a column); else write `CAST(? AS TEXT)`. Pass the column's Python type:
  str for TEXT (PostgreSQL refuses an int there), int for INTEGER, float or int for REAL.
- Column types INTEGER (64-bit), REAL (64-bit float) and TEXT only. Booleans are
  INTEGER 0/1, tested as `col = 0` / `col = 1`, never `NOT col`. JSON is TEXT.
- An id column is `id INTEGER PRIMARY KEY` (becomes an identity column); no
  AUTOINCREMENT in new tables; read new ids with `INSERT ... RETURNING id` through
  `execute_fetchall`, never `lastrowid` or `rowid`.
- `INSERT ... ON CONFLICT (cols) DO UPDATE SET col = excluded.col` or `DO NOTHING`;
  no `INSERT OR REPLACE/IGNORE`, no `REPLACE INTO`.
- No SQL reserved words as names (end, user, order, group, from, to, ...); the one
  old column named so, `vacations.end`, is always written quoted: "end".
- Strings in 'single quotes' only ("double" quotes name columns on PostgreSQL).
- Functions both have: count, sum, min and max (aggregates only: the two-argument
  scalar max(a, b) / min(a, b) are SQLite's; write CASE WHEN a > b THEN a ELSE b END),
  coalesce, abs, length, lower, upper, substr, replace, round, nullif. Not ifnull,
  iif, printf, group_concat, json_*, strftime, datetime, random, total.
- A subquery in FROM has an alias: `FROM (SELECT ...) AS t`. Every selected column
  that is not aggregated is in GROUP BY.
- NULLs sort first on SQLite and last on PostgreSQL: where a sorted value can be NULL,
  say `NULLS FIRST` or `NULLS LAST`. Text sorts by the server's collation on
  PostgreSQL; LIKE is case-sensitive there (use lower(col) LIKE lower(?)).
- No PRAGMA, no sqlite_master, no ATTACH, no temporary triggers.
- An IntegrityError (store.errors) ends the transaction on PostgreSQL: raise out of
  it, do not go on with more statements. A Store method may be run again whole when
  PostgreSQL could not serialize it with a concurrent one (`errors.Retry`): make each
  public method one transaction (plus reads), so running it again is harmless.
- A migration is a tuple of such statements appended as the next `V<n>`; ALTER TABLE
  ... ADD COLUMN with a constant DEFAULT, CREATE [UNIQUE] INDEX (partial ones too) and
  UPDATE are fine. Never edit one already released: a database holds its result.
"""

from __future__ import annotations

from carca_bot.store.driver import Database

# Version 1: games, seats and the action log.
V1 = (
    """
    CREATE TABLE games (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        status     TEXT NOT NULL
                   CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        host_id    TEXT NOT NULL,
        options    TEXT NOT NULL,
        seed       INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
    # At most one lobby or running game per channel or thread.
    """
    CREATE UNIQUE INDEX games_live_channel ON games (guild_id, channel_id)
        WHERE status IN ('lobby', 'active')
    """,
    "CREATE INDEX games_channel ON games (guild_id, channel_id, id)",
    """
    CREATE TABLE seats (
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        user_id      TEXT,
        display_name TEXT NOT NULL,
        colour       INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id),
        UNIQUE (game_id, display_name)
    )
    """,
    """
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        user_id TEXT,
        action  TEXT NOT NULL,
        at      REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    )
    """,
)

# Version 2: a version counter for optimistic writes, the unconfirmed turn,
# turn deadlines, resignations and how a game ended.
V2 = (
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN pending TEXT",
    "ALTER TABLE games ADD COLUMN deadline REAL",
    "ALTER TABLE games ADD COLUMN outcome TEXT",
    "ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0",
    "UPDATE games SET version = (SELECT count(*) FROM actions WHERE game_id = games.id)",
    "UPDATE games SET outcome = 'complete' WHERE status = 'finished'",
    # Version 1 did not say whether a cancelled game had been dealt; one without a
    # move is taken for a closed lobby (it has nothing to show either way).
    """
    UPDATE games SET outcome = CASE
        WHEN EXISTS (SELECT 1 FROM actions WHERE game_id = games.id) THEN 'cancelled'
        ELSE 'lobby_closed' END
    WHERE status = 'cancelled'
    """,
    "CREATE INDEX seats_user ON seats (user_id)",
    "CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active'",
)

# Version 3: the public-post outbox, usage counted for limits, and indexes for limits
# and lobby expiry. A game's `public_version` is the version of its last change that
# players must be told about in public (set with the change, in its transaction);
# `posted_version` the last one the front end confirmed it posted. Games already on
# disk count as posted: nobody is owed a post for moves made before the upgrade.
V3 = (
    "ALTER TABLE games ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0",
    "UPDATE games SET public_version = version, posted_version = version",
    "CREATE INDEX games_unposted ON games (id) WHERE public_version > posted_version",
    # What each public change said, kept until it is posted.
    """
    CREATE TABLE public_events (
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version      INTEGER NOT NULL,
        moves_before INTEGER NOT NULL,
        at           REAL NOT NULL,
        lines        TEXT NOT NULL,
        PRIMARY KEY (game_id, version)
    )
    """,
    # Things a user did that limits count over a rolling window.
    """
    CREATE TABLE usage (
        guild_id TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('thread', 'import')),
        at       REAL NOT NULL
    )
    """,
    "CREATE INDEX usage_user ON usage (user_id, kind, at)",
    "CREATE INDEX games_host ON games (host_id) WHERE status IN ('lobby', 'active')",
    "CREATE INDEX games_guild_live ON games (guild_id, status) "
    "WHERE status IN ('lobby', 'active')",
    "CREATE INDEX games_lobby_age ON games (created_at) WHERE status = 'lobby'",
)

# Version 4: language overrides. A server or a user may choose the language the bot
# speaks to them instead of the one their Discord client or server suggests; a row per
# override, none for "no override". (Each game's own language is in its options.)
V4 = (
    """
    CREATE TABLE language_prefs (
        scope      TEXT NOT NULL CHECK (scope IN ('guild', 'user')),
        scope_id   TEXT NOT NULL,
        language   TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (scope, scope_id)
    )
    """,
)

# Version 5: turn-based clocks (issue 15). A clock game keeps its clock in `clock`
# (JSON: each seat's time bank in seconds, when the current decision began, how many
# reminders it has had, an open vote to expel) and in `alarm` the next moment the
# timers must look at it (a reminder or the deadline); `deadline` stays the moment the
# player to act runs out of time. A game without a clock has NULL in both and keeps its
# per-decision timer. Per user: when they were last reminded (one reminder a day across
# all their games) and their vacations (their clock stands still in every clock game).
# And a seat's score when its player left a running game (resigned, kicked or voted
# out): their figures stay on the board but score nothing more.
V5 = (
    "ALTER TABLE seats ADD COLUMN exit_score INTEGER",
    "ALTER TABLE games ADD COLUMN clock TEXT",
    "ALTER TABLE games ADD COLUMN alarm REAL",
    "CREATE INDEX games_alarm ON games (alarm) WHERE status = 'active'",
    """
    CREATE TABLE reminded (
        user_id TEXT PRIMARY KEY,
        at      REAL NOT NULL
    )
    """,
    """
    CREATE TABLE vacations (
        user_id TEXT NOT NULL,
        start   REAL NOT NULL,
        "end"   REAL NOT NULL CHECK ("end" > start),
        PRIMARY KEY (user_id, start)
    )
    """,
)

# Version 6: community play (issue 18). `game_results`: one row per seat of every game
# that ended (finished, resigned out), with its final score and place, the place as
# played (`played_rank`) and as it counts (`rank`: an organiser's amended result);
# ratings are worked out from these. `rating_history`: a player's rating before and
# after each rated game, so an amended result is rated again from that game on;
# `ratings` the latest per server, pool and player. `league_events`: a tournament or
# league as carca-event/1 JSON with a version for optimistic writes and the game
# options its games get; `event_games` which game plays which match (and which game of
# a series); `organiser_roles` the role a server's admins chose to run events.
V6 = (
    """
    CREATE TABLE game_results (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        guild_id    TEXT NOT NULL,
        user_id     TEXT,
        display_name TEXT NOT NULL,
        score       INTEGER NOT NULL,
        played_rank INTEGER NOT NULL,
        rank        INTEGER NOT NULL,
        players     INTEGER NOT NULL,
        ending      TEXT NOT NULL,
        rated       INTEGER NOT NULL,
        left_game   INTEGER NOT NULL,
        ended_at    REAL NOT NULL,
        expansions  TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    """,
    "CREATE INDEX game_results_user ON game_results (guild_id, user_id)",
    "CREATE INDEX game_results_order ON game_results (guild_id, ended_at, game_id)",
    """
    CREATE TABLE rating_history (
        guild_id     TEXT NOT NULL,
        game_id      INTEGER NOT NULL,
        user_id      TEXT NOT NULL,
        pool         TEXT NOT NULL,
        ended_at     REAL NOT NULL,
        rank         INTEGER NOT NULL,
        players      INTEGER NOT NULL,
        before_mu    REAL NOT NULL,
        before_sigma REAL NOT NULL,
        after_mu     REAL NOT NULL,
        after_sigma  REAL NOT NULL,
        games        INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game_id, user_id)
    )
    """,
    "CREATE INDEX rating_history_order ON rating_history (guild_id, ended_at, game_id)",
    """
    CREATE TABLE ratings (
        guild_id     TEXT NOT NULL,
        pool         TEXT NOT NULL,
        user_id      TEXT NOT NULL,
        display_name TEXT NOT NULL,
        mu           REAL NOT NULL,
        sigma        REAL NOT NULL,
        games        INTEGER NOT NULL,
        PRIMARY KEY (guild_id, pool, user_id)
    )
    """,
    """
    CREATE TABLE league_events (
        id              INTEGER PRIMARY KEY,
        guild_id        TEXT NOT NULL,
        channel_id      TEXT NOT NULL,
        title           TEXT NOT NULL,
        status          TEXT NOT NULL
                        CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
        data            TEXT NOT NULL,
        options         TEXT NOT NULL,
        version         INTEGER NOT NULL,
        created_by      TEXT NOT NULL,
        created_at      REAL NOT NULL,
        updated_at      REAL NOT NULL,
        series          TEXT NOT NULL,
        season          INTEGER NOT NULL,
        division        INTEGER NOT NULL,
        reminded_round  INTEGER NOT NULL,
        announced_round INTEGER NOT NULL,
        digest_at       REAL NOT NULL
    )
    """,
    "CREATE INDEX league_events_guild ON league_events (guild_id, status)",
    """
    CREATE TABLE event_games (
        event_id   INTEGER NOT NULL REFERENCES league_events (id) ON DELETE CASCADE,
        match_id   TEXT NOT NULL,
        game_index INTEGER NOT NULL,
        game_id    INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
        PRIMARY KEY (event_id, match_id, game_index)
    )
    """,
    """
    CREATE TABLE organiser_roles (
        guild_id   TEXT PRIMARY KEY,
        role_id    TEXT NOT NULL,
        updated_at REAL NOT NULL
    )
    """,
)

# Version 7: AI players (issue 17). A seat played by the AI has no user and names its
# level in `ai_level` (NULL for a person's seat). Every hint a player asked for is kept
# in `hints`: the game's log length when it was asked, the seat and user, and the steps
# suggested (JSON), numbered per game; the game record has no place for hints.
V7 = (
    "ALTER TABLE seats ADD COLUMN ai_level TEXT",
    """
    CREATE TABLE hints (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number  INTEGER NOT NULL,
        seq     INTEGER NOT NULL,
        seat    INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        at      REAL NOT NULL,
        steps   TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    )
    """,
)

# Version 8: take-back votes (issue 15). After confirming a move, its player may ask to
# take it back; every other player still in must accept. One row per move asked about
# (the log index `seq` of the move), kept after it is decided: `state` is open,
# accepted, refused, withdrawn or closed (the game moved on). `upto` is the log length
# when it was asked (only automatic actions followed the move), `accepted` the JSON list
# of the seats that accepted, and `answers` counts the writes to the row, so two
# processes answering at once cannot both win (a write names the count it read).
V8 = (
    """
    CREATE TABLE takebacks (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq       INTEGER NOT NULL,
        upto      INTEGER NOT NULL,
        proposer  TEXT NOT NULL,
        seat      INTEGER NOT NULL,
        accepted  TEXT NOT NULL,
        state     TEXT NOT NULL
                  CHECK (state IN ('open', 'accepted', 'refused', 'withdrawn', 'closed')),
        answers   INTEGER NOT NULL DEFAULT 0,
        opened_at REAL NOT NULL,
        closed_at REAL,
        PRIMARY KEY (game_id, seq)
    )
    """,
    # The messages the front end posted for open votes (a take-back: `ref` is the move's
    # log index; an expulsion: the target's user id), so it can close them (remove
    # their buttons) once the game has moved on, even after a restart.
    """
    CREATE TABLE vote_messages (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL CHECK (kind IN ('takeback', 'expel')),
        ref        TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        PRIMARY KEY (game_id, kind, ref)
    )
    """,
)

# Version 9: the messages a front end keeps per game (the game card it edits in place,
# the last turn ping it deletes when the next one goes out), and how each user wants to
# hear that it is their turn.
V9 = (
    """
    CREATE TABLE game_messages (
        game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        card_channel TEXT,
        card_id      TEXT,
        ping_channel TEXT,
        ping_id      TEXT,
        ping_user    TEXT,
        ping_moves   INTEGER
    )
    """,
    """
    CREATE TABLE notify_prefs (
        user_id    TEXT PRIMARY KEY,
        mode       TEXT NOT NULL CHECK (mode IN ('channel', 'dm', 'none')),
        early      INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    )
    """,
)

# Version 10: leases, so that of several bot processes on one database only one does a
# piece of background work (a game's timer step, a game's owed post) at a time: the
# holder and until when it holds it (the service's clock).
V10 = (
    """
    CREATE TABLE leases (
        name    TEXT PRIMARY KEY,
        holder  TEXT NOT NULL,
        expires REAL NOT NULL
    )
    """,
)

# Version 11: events' news and clocks' owed reminders (issue 28). `event_news`: what an
# event command or timer has to announce in the event's channel (a result amended after
# the end, a match forfeited or a player expelled for running out of time) until the
# event timers hand it to the front end (`told_at`). `owed_reminders`: a clock game's
# reminder per player and decision (`seq`, the game's log length when it began) until
# it is told: one message a day per player carries every one owed. `event_timeouts`:
# each time a player of an event's game ran out of time (the event's escalation counts
# them).
V11 = (
    """
    CREATE TABLE event_news (
        id         INTEGER PRIMARY KEY,
        event_id   INTEGER NOT NULL REFERENCES league_events (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        data       TEXT NOT NULL,
        created_at REAL NOT NULL,
        told_at    REAL
    )
    """,
    "CREATE INDEX event_news_untold ON event_news (event_id) WHERE told_at IS NULL",
    """
    CREATE TABLE owed_reminders (
        user_id  TEXT NOT NULL,
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq      INTEGER NOT NULL,
        due_at   REAL NOT NULL,
        deadline REAL NOT NULL,
        told_at  REAL,
        PRIMARY KEY (user_id, game_id, seq)
    )
    """,
    "CREATE INDEX owed_reminders_untold ON owed_reminders (user_id) WHERE told_at IS NULL",
    """
    CREATE TABLE event_timeouts (
        event_id INTEGER NOT NULL REFERENCES league_events (id) ON DELETE CASCADE,
        user_id  TEXT NOT NULL,
        game_id  INTEGER NOT NULL,
        at       REAL NOT NULL,
        PRIMARY KEY (game_id, user_id, at)
    )
    """,
)

# Version 12: fair play (issue 26). `rating_voids`: a server admin voided a player's
# rated results: every rated game of theirs that ended at or before `cutoff` counts for
# nobody (ratings are worked out again without them). An index finds the lobbies closed
# before they started, which are deleted after a grace period.
V12 = (
    """
    CREATE TABLE rating_voids (
        guild_id  TEXT NOT NULL,
        user_id   TEXT NOT NULL,
        cutoff    REAL NOT NULL,
        voided_by TEXT NOT NULL,
        voided_at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    "CREATE INDEX games_closed_lobbies ON games (updated_at) "
    "WHERE status = 'cancelled' AND outcome = 'lobby_closed'",
)

# Version 13: players' data (issue 32). `erasures`: one row per erased user, only the
# number of their pseudonym ("Former player 7") and when; nothing that names them.
# `guild_departures`: servers the bot was removed from, and when their games, events and
# settings are deleted unless it comes back first.
V13 = (
    """
    CREATE TABLE erasures (
        number    INTEGER PRIMARY KEY,
        erased_at REAL NOT NULL
    )
    """,
    """
    CREATE TABLE guild_departures (
        guild_id  TEXT PRIMARY KEY,
        left_at   REAL NOT NULL,
        delete_at REAL NOT NULL
    )
    """,
    "CREATE INDEX guild_departures_due ON guild_departures (delete_at)",
)

# Version 14 (issue 30): each public message a front end sends for a game, recorded
# before it is sent and again once the channel has it, so that after a crash the next
# process knows the post may already be in the channel (and finds it, or edits it)
# instead of posting it again. `kind` says which message of the game ("post": a
# change's post; "card": the game's card, one per game), `version` the game's version
# it shows; `nonce` is the idempotency key sent with it (Discord's message nonce),
# `attempts` how many messages were made for it (a new one only when the last one is
# known gone), `message_id` the message once the channel confirmed it.
V14 = (
    """
    CREATE TABLE post_deliveries (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        version    INTEGER NOT NULL,
        channel_id TEXT NOT NULL,
        holder     TEXT NOT NULL,
        began_at   REAL NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 1,
        message_id TEXT,
        sent_at    REAL,
        PRIMARY KEY (game_id, kind, version)
    )
    """,
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12,
                                           V13, V14)
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(RuntimeError):
    """The file was written by a newer program; opening it could damage it."""


async def schema_version(db: Database) -> int:
    return await db.schema_version()


async def migrate(db: Database, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to `target`; returns the version found before."""
    found = await db.schema_version()
    if found > SCHEMA_VERSION:
        raise SchemaTooNew(f"the database has schema version {found}; this program knows "
                           f"versions up to {SCHEMA_VERSION}")
    while True:
        # Read the version again under the lock: another process may have migrated
        # since we looked.
        async with db.migrating() as locked:
            current = await db.schema_version(locked)
            if current >= target:
                return found
            for statement in MIGRATIONS[current]:
                await locked.execute(statement)
            await db.set_schema_version(locked, current + 1)
