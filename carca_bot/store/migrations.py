"""The schema's migrations from V7 on, and `MIGRATIONS`, every migration in the order
`schema.migrate` applies them (V1 to V6 are in migrations_early.py).

A schema change is a new migration appended here as the next `V<n>`, in the portable SQL
of the contract at the top of schema.py, and added at the end of `MIGRATIONS`; one
already released is never edited.
"""

from __future__ import annotations

from carca_bot.store.migrations_early import V1, V2, V3, V4, V5, V6

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
