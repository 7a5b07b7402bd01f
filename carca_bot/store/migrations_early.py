"""The schema's first migrations, V1 to V6: games, seats and the action log; the outbox
and usage limits; language overrides; clocks; community play (results, ratings,
events). Released, so never edited: a database holds their result (see the contract at
the top of schema.py). Later migrations, and the list that is applied: migrations.py.
"""

from __future__ import annotations

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
