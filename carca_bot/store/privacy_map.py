"""What every column of the database holds about people, and what becomes of it.

One table drives everything the bot does with players' data: what `/carc-privacy show`
lists, what an erasure deletes or rewrites, and what goes when a server is forgotten
(the bot was removed from it) or a finished game outlives the retention setting.
tests/privacy checks it against the migrated schema on SQLite and PostgreSQL, so a
column added by a later migration fails those tests until someone says here what it
holds (and docs/PRIVACY.md, checked the same way, tells the players).

How a column is treated when a user is erased (`Use`):

- OWNER: the user's id in a row that is theirs alone (a preference, a vacation): the
  row is deleted. `when` (column, value) narrows it to some rows (a language override
  of a user, not of a server).
- ID: a user's id in a row that stays (a seat, a rating): it becomes the pseudonym's
  id ("former:7"), so everything that counts by player (ratings, standings) counts the
  same.
- CLEAR: set to NULL when the column `of` holds the user's id (the last turn ping sent
  to them: where, which message, whom for).
- NAME: a display name, of the user when the column `of` holds their id: it becomes the
  pseudonym ("Former player 7", in the language of the game, event or server).
- JSON: a JSON document that names players; `rewriter` says how it is rewritten
  (`carca_bot.service.privacy_rewrite`), `names` whether it names them by display name
  (then rows of the user's games are looked at) and `ids` by user id (then rows whose
  text holds the id).
- TEXT: free text others wrote (an event's title): the user's names where they stand
  as whole words become the pseudonym, in rows already about the user.
- PLAIN: nothing that names a person by itself (a score, a time, a server id).
- VERSION: an optimistic-concurrency counter, bumped when the row (or, for a game,
  anything of the game) is rewritten, so other processes reload it.

Tables (`Table`): `key` picks one row; `game` is the column that names the game a row
belongs to (its rows go with the game); `event` the same for events; `server` the
column naming the Discord server a row belongs to (with `server_when` narrowing it),
for forgetting a server. A table with none of the three holds no server's data (a
user's own settings, bookkeeping). `messages`: (channel, message) column pairs naming
Discord messages the bot posted, for the front end to delete when the row goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from carca_bot.store.driver import Connection


class Use(Enum):
    OWNER = "owner"
    ID = "id"
    CLEAR = "clear"
    NAME = "name"
    JSON = "json"
    TEXT = "text"
    PLAIN = "plain"
    VERSION = "version"


@dataclass(frozen=True)
class Col:
    use: Use = Use.PLAIN
    of: str | None = None  # CLEAR, NAME: the column whose user id decides
    when: tuple[str, str] | None = None  # OWNER: only rows whose column holds this value
    rewriter: str | None = None  # JSON: the name of its rewriter
    names: bool = False  # JSON: names players by display name
    ids: bool = False  # JSON: names players by user id
    json: bool = False  # the value is JSON text (shown decoded)
    # Left out of an export while its game is live: the seed deals the tiles to come,
    # and a turn not yet confirmed is its player's alone. `secret_keys`: the same for
    # some keys of a JSON column (the seed among a game's options).
    secret: bool = False
    secret_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    key: tuple[str, ...]
    columns: dict[str, Col]
    game: str | None = None
    event: str | None = None
    server: str | None = None
    server_when: tuple[str, str] | None = None
    messages: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def uses(self, *uses: Use) -> list[str]:
        return [name for name, col in self.columns.items() if col.use in uses]


P = Col()
J = Col(json=True)

TABLES: dict[str, Table] = {
    "games": Table(("id",), {
        "id": P, "guild_id": P, "channel_id": P, "status": P, "host_id": Col(Use.ID),
        "options": Col(json=True, secret_keys=("seed",)), "seed": Col(secret=True),
        "created_at": P, "updated_at": P, "version": Col(Use.VERSION),
        "pending": Col(json=True, secret=True), "deadline": P, "outcome": P,
        "public_version": P, "posted_version": P, "clock": J, "alarm": P,
    }, game="id", server="guild_id"),
    "seats": Table(("game_id", "seat"), {
        "game_id": P, "seat": P, "user_id": Col(Use.ID),
        "display_name": Col(Use.NAME, of="user_id"), "colour": P, "resigned": P,
        "exit_score": P, "ai_level": P,
    }, game="game_id"),
    "actions": Table(("game_id", "seq"), {
        "game_id": P, "seq": P, "user_id": Col(Use.ID),
        "action": Col(Use.JSON, rewriter="record_action", names=True, json=True), "at": P,
    }, game="game_id"),
    "public_events": Table(("game_id", "version"), {
        "game_id": P, "version": P, "moves_before": P, "at": P,
        "lines": Col(Use.JSON, rewriter="told_lines", names=True, json=True),
    }, game="game_id"),
    "usage": Table((), {
        "guild_id": P, "user_id": Col(Use.OWNER), "kind": P, "at": P,
    }, server="guild_id"),
    "language_prefs": Table(("scope", "scope_id"), {
        "scope": P, "scope_id": Col(Use.OWNER, when=("scope", "user")), "language": P,
        "updated_at": P,
    }, server="scope_id", server_when=("scope", "guild")),
    "reminded": Table(("user_id",), {"user_id": Col(Use.OWNER), "at": P}),
    "vacations": Table(("user_id", "start"), {
        "user_id": Col(Use.OWNER), "start": P, "end": P,
    }),
    "game_results": Table(("game_id", "seat"), {
        "game_id": P, "seat": P, "guild_id": P, "user_id": Col(Use.ID),
        "display_name": Col(Use.NAME, of="user_id"), "score": P, "played_rank": P,
        "rank": P, "players": P, "ending": P, "rated": P, "left_game": P, "ended_at": P,
        "expansions": J,
    }, game="game_id", server="guild_id"),
    # Not `game`: a rating's history stays when a game is deleted for age.
    "rating_history": Table(("guild_id", "game_id", "user_id"), {
        "guild_id": P, "game_id": P, "user_id": Col(Use.ID), "pool": P, "ended_at": P,
        "rank": P, "players": P, "before_mu": P, "before_sigma": P, "after_mu": P,
        "after_sigma": P, "games": P,
    }, server="guild_id"),
    "ratings": Table(("guild_id", "pool", "user_id"), {
        "guild_id": P, "pool": P, "user_id": Col(Use.ID),
        "display_name": Col(Use.NAME, of="user_id"), "mu": P, "sigma": P, "games": P,
    }, server="guild_id"),
    "league_events": Table(("id",), {
        "id": P, "guild_id": P, "channel_id": P, "title": Col(Use.TEXT), "status": P,
        "data": Col(Use.JSON, rewriter="event_data", ids=True, json=True), "options": J,
        "version": Col(Use.VERSION), "created_by": Col(Use.ID), "created_at": P,
        "updated_at": P, "series": Col(Use.TEXT), "season": P, "division": P,
        "reminded_round": P, "announced_round": P, "digest_at": P,
    }, event="id", server="guild_id"),
    "event_games": Table(("event_id", "match_id", "game_index"), {
        "event_id": P, "match_id": P, "game_index": P, "game_id": P,
    }, game="game_id", event="event_id"),
    "organiser_roles": Table(("guild_id",), {
        "guild_id": P, "role_id": P, "updated_at": P,
    }, server="guild_id"),
    "hints": Table(("game_id", "number"), {
        "game_id": P, "number": P, "seq": P, "seat": P, "user_id": Col(Use.ID), "at": P,
        "steps": J,
    }, game="game_id"),
    "takebacks": Table(("game_id", "seq"), {
        "game_id": P, "seq": P, "upto": P, "proposer": Col(Use.ID), "seat": P,
        "accepted": J, "state": P, "answers": P, "opened_at": P, "closed_at": P,
    }, game="game_id"),
    # An expulsion vote's `ref` is the user voted on: its message goes with them.
    "vote_messages": Table(("game_id", "kind", "ref"), {
        "game_id": P, "kind": P, "ref": Col(Use.OWNER, when=("kind", "expel")),
        "channel_id": P, "message_id": P,
    }, game="game_id", messages=(("channel_id", "message_id"),)),
    "game_messages": Table(("game_id",), {
        "game_id": P, "card_channel": P, "card_id": P,
        "ping_channel": Col(Use.CLEAR, of="ping_user"),
        "ping_id": Col(Use.CLEAR, of="ping_user"),
        "ping_user": Col(Use.CLEAR, of="ping_user"),
        "ping_moves": Col(Use.CLEAR, of="ping_user"),
    }, game="game_id", messages=(("card_channel", "card_id"), ("ping_channel", "ping_id"))),
    "notify_prefs": Table(("user_id",), {
        "user_id": Col(Use.OWNER), "mode": P, "early": P, "updated_at": P,
    }),
    "leases": Table(("name",), {"name": P, "holder": P, "expires": P}),
    # Each public message sent for a game (exactly-once posts): names no player.
    "post_deliveries": Table(("game_id", "kind", "version"), {
        "game_id": P, "kind": P, "version": P, "channel_id": P, "holder": P, "began_at": P,
        "attempts": P, "message_id": P, "sent_at": P,
    }, game="game_id", messages=(("channel_id", "message_id"),)),
    # Events' announcements until told: the players they name by id, an organiser's note.
    "event_news": Table(("id",), {
        "id": P, "event_id": P, "kind": P,
        "data": Col(Use.JSON, rewriter="event_news", ids=True, json=True), "created_at": P,
        "told_at": P,
    }, event="event_id"),
    "owed_reminders": Table(("user_id", "game_id", "seq"), {
        "user_id": Col(Use.OWNER), "game_id": P, "seq": P, "due_at": P, "deadline": P,
        "told_at": P,
    }, game="game_id"),
    "event_timeouts": Table(("game_id", "user_id", "at"), {
        "event_id": P, "user_id": Col(Use.OWNER), "game_id": P, "at": P,
    }, event="event_id"),
    # A void stays (others' ratings were worked out without those games), under the
    # pseudonym; so does the admin's id who voided them.
    "rating_voids": Table(("guild_id", "user_id"), {
        "guild_id": P, "user_id": Col(Use.ID), "cutoff": P, "voided_by": Col(Use.ID),
        "voided_at": P,
    }, server="guild_id"),
    "erasures": Table(("number",), {"number": P, "erased_at": P}),
    "guild_departures": Table(("guild_id",), {
        "guild_id": P, "left_at": P, "delete_at": P,
    }, server="guild_id"),
}

# Tables a database holds that are the backend's own, not the bot's data.
BACKEND_TABLES = frozenset({"carca_schema", "sqlite_sequence", "sqlite_stat1"})


def holds(when: tuple[str, str] | None, row: dict[str, object]) -> bool:
    """Whether a row is one a `when` (column, value) picks (every row for None)."""
    return when is None or row.get(when[0]) == when[1]


def condition(when: tuple[str, str] | None) -> str:
    """A `when` as SQL to add to a WHERE clause: "" or " AND column = 'value'" (the
    values are the map's own constants, never a user's)."""
    if when is None:
        return ""
    column, value = when
    assert "'" not in value
    return f" AND {quoted(column)} = '{value}'"


def quoted(column: str) -> str:
    """A column as SQL names it (`vacations.end` is a reserved word: always quoted)."""
    return f'"{column}"' if column == "end" else column


def select_list(table: str) -> str:
    return ", ".join(quoted(c) for c in TABLES[table].columns)


async def live_columns(db: Connection, kind: str) -> dict[str, tuple[str, ...]]:
    """Every table of the database (but the backend's own) and its columns, as the
    migrations made them: SQLite's catalogue or PostgreSQL's information schema. The
    one place outside the migrations that reads the catalogue (tests and checks)."""
    if kind == "sqlite":
        names = [str(r[0]) for r in await db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        found = {}
        for name in names:
            rows = await db.execute_fetchall(f"SELECT name FROM pragma_table_info('{name}')")
            found[name] = tuple(str(r[0]) for r in rows)
    else:
        rows = await db.execute_fetchall(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
        grouped: dict[str, list[str]] = {}
        for table, column in rows:
            grouped.setdefault(str(table), []).append(str(column))
        found = {t: tuple(c) for t, c in grouped.items()}
    return {t: c for t, c in found.items() if t not in BACKEND_TABLES}


def unclassified(schema: dict[str, tuple[str, ...]]) -> list[str]:
    """Columns of `schema` that TABLES does not classify, and classified ones it lacks,
    as "table.column" lines (empty when the two agree)."""
    have = {(t, c) for t, cols in schema.items() for c in cols}
    known = {(t, c) for t, table in TABLES.items() for c in table.columns}
    return sorted([f"unclassified: {t}.{c}" for t, c in have - known]
                  + [f"not in the database: {t}.{c}" for t, c in known - have])
