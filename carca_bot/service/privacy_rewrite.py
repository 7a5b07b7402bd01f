"""What an erasure does to each row about the user: pure functions over the rows found.

Driven by `carca_bot.store.privacy_map.TABLES`: a row with the user's id in an OWNER
column is deleted, and so is every row of the user's own games (records they imported
to study, `Found.own_games`); ID columns take the pseudonym's id (`former:7`), NAME columns the
pseudonym ("Former player 7") in the language of the row's game, event or server,
CLEAR columns NULL; JSON columns go through their rewriter (below) and TEXT columns
have the user's names replaced where they stand as whole words; a VERSION column is
bumped when its row, or for a game anything of the game, changed.

The rewriters know the documents they rewrite, and touch only the places that name a
player, so nothing else in them changes (a tile named like the player stays a tile):

- `record_action`: an action of a carca-record/1 log names its player in `by`;
- `told_lines`: the outbox's items (service/outbox.py): a note's params name players
  (a name, or a list of names); an item from before notes was a plain sentence;
- `event_data`: a carca-event/1 event names players by id everywhere (entrants,
  groups, seats, results) and by name in its entrant and in rulings' notes.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from carca_bot.store.privacy import Change, Found, Row, key_of
from carca_bot.store.privacy_map import TABLES, Use, holds
from carca_bot.store.rows import LIVE_STATUSES

DEFAULT_LANGUAGE = "en"
Pseudonym = Callable[[int, str], str]  # (number, language) -> "Former player 7"


def pseudonym_id(number: int) -> str:
    """The id an erased user's rows carry instead of theirs: never a Discord id."""
    return f"former:{number}"


@dataclass(frozen=True)
class Context:
    """What a rewriter replaces in one row: the user's id and the names they may have
    there, and what stands for them instead."""

    user_id: str
    names: frozenset[str]
    new_id: str
    new_name: str


def _words(text: str, ctx: Context) -> str:
    """Free text with each of the user's names, where it stands as a whole word, made
    the pseudonym (longest names first, so "Ana Maria" goes before "Ana")."""
    for name in sorted(ctx.names, key=len, reverse=True):
        if name:
            text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", lambda _: ctx.new_name, text)
    return text


def _deep(value: Any, swap: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return swap(value)
    if isinstance(value, list):
        return [_deep(v, swap) for v in value]
    if isinstance(value, dict):
        return {k: _deep(v, swap) for k, v in value.items()}
    return value


def record_action(action: Any, ctx: Context) -> Any:
    if isinstance(action, dict) and action.get("by") in ctx.names:
        return {**action, "by": ctx.new_name}
    return action


def told_lines(lines: Any, ctx: Context) -> Any:
    def swap(text: str) -> str:
        if text in ctx.names:
            return ctx.new_name
        return ctx.new_id if text == ctx.user_id else text

    def item(value: Any) -> Any:
        if isinstance(value, str):
            return _words(value, ctx)
        if isinstance(value, dict) and isinstance(value.get("note"), dict):
            note = value["note"]
            return {**value, "note": {**note, "params": _deep(note.get("params", {}), swap)}}
        return value

    return [item(v) for v in lines] if isinstance(lines, list) else lines


def event_data(data: Any, ctx: Context) -> Any:
    if not isinstance(data, dict):
        return data
    out = _deep(data, lambda s: ctx.new_id if s == ctx.user_id else s)
    for entrant in out.get("entrants", []):
        if isinstance(entrant, dict) and entrant.get("player") == ctx.new_id:
            entrant["name"] = ctx.new_name
    for round_ in out.get("rounds", []):
        for match in round_.get("matches", []) if isinstance(round_, dict) else []:
            for ruling in match.get("rulings", []) if isinstance(match, dict) else []:
                if isinstance(ruling, dict) and isinstance(ruling.get("note"), str):
                    ruling["note"] = _words(ruling["note"], ctx)
    return out


def event_news(data: Any, ctx: Context) -> Any:
    """An event's announcement: the players it names by id, and the organiser's note."""
    if not isinstance(data, dict):
        return data
    out = _deep(data, lambda s: ctx.new_id if s == ctx.user_id else s)
    if isinstance(out.get("note"), str):
        out["note"] = _words(out["note"], ctx)
    return out


REWRITERS: dict[str, Callable[[Any, Context], Any]] = {
    "event_news": event_news,
    "record_action": record_action,
    "told_lines": told_lines,
    "event_data": event_data,
}


def dumps(value: Any) -> str:
    """JSON as the store writes it (store.store._dumps)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def entrant_names(found: Found) -> dict[int, set[str]]:
    """The user's name as an entrant, per event of theirs."""
    out: dict[int, set[str]] = {}
    for row in found.rows.get("league_events", []):
        try:
            entrants = json.loads(row["data"]).get("entrants", [])
        except (ValueError, AttributeError):
            continue
        out[int(row["id"])] = {str(e.get("name")) for e in entrants if isinstance(e, dict)
                               and e.get("player") == found.user_id and e.get("name")}
    return out


class Rewrite:
    """The changes an erasure makes to the rows found, for one pseudonym number."""

    def __init__(self, found: Found, number: int, pseudonym: Pseudonym) -> None:
        self.found = found
        self.new_id = pseudonym_id(number)
        self.number = number
        self.pseudonym = pseudonym
        self.all_names = frozenset(found.names().union(*entrant_names(found).values()))
        self.seat_names: dict[int, set[str]] = {}
        for table in ("seats", "game_results"):
            for row in found.rows.get(table, []):
                if row["user_id"] == found.user_id:
                    self.seat_names.setdefault(int(row["game_id"]), set()).add(
                        str(row["display_name"]))
        self.event_names = entrant_names(found)
        self.game_language = {int(r["id"]): _language(r["options"])
                              for r in found.rows.get("games", [])}
        self.event_language = {int(r["id"]): _language(r["options"])
                               for r in found.rows.get("league_events", [])}
        self._names: dict[str, str] = {}  # the pseudonym, by language

    def changes(self) -> list[Change]:
        out: list[Change] = []
        for table, rows in self.found.rows.items():
            if table in ("games", "league_events"):
                continue  # their versions depend on the rest: below
            out += filter(None, (self.row(table, r) for r in rows))
        touched = {int(c.old[TABLES[c.table].game or ""]) for c in out
                   if TABLES[c.table].game}
        for table, ids in (("games", touched), ("league_events", set())):
            for row in self.found.rows.get(table, []):
                change = self.row(table, row, bump=int(row["id"]) in ids)
                if change is not None:
                    out.append(change)
        return out

    def language(self, table: str, row: Row) -> str:
        spec = TABLES[table]
        if spec.game is not None and int(row[spec.game]) in self.game_language:
            return self.game_language[int(row[spec.game])]
        if spec.event is not None and int(row[spec.event]) in self.event_language:
            return self.event_language[int(row[spec.event])]
        if spec.server is not None and spec.server_when is None:
            return self.found.guild_languages.get(str(row[spec.server]), DEFAULT_LANGUAGE)
        return DEFAULT_LANGUAGE

    def context(self, table: str, row: Row, every_name: bool = False) -> Context:
        spec = TABLES[table]
        names: Iterable[str] = self.all_names
        if not every_name and spec.game is not None:
            names = self.seat_names.get(int(row[spec.game]), set())
        elif not every_name and spec.event is not None:
            names = self.event_names.get(int(row[spec.event]), set())
        language = self.language(table, row)
        if language not in self._names:
            self._names[language] = self.pseudonym(self.number, language)
        return Context(self.found.user_id, frozenset(names), self.new_id, self._names[language])

    def row(self, table: str, row: Row, bump: bool = False) -> Change | None:
        """The change to one row (None: it stays as it is)."""
        spec, user = TABLES[table], self.found.user_id
        if spec.game is not None and int(row[spec.game]) in self.found.own_games:
            return Change(table, key_of(table, row), None, row)
        new: dict[str, Any] = {}
        for name, col in spec.columns.items():
            value, use = row[name], col.use
            if use is Use.PLAIN or use is Use.VERSION:
                continue
            if use is Use.OWNER and value == user and holds(col.when, row):
                return Change(table, key_of(table, row), None, row)
            if use is Use.ID and value == user:
                new[name] = self.new_id
            elif use is Use.CLEAR and col.of is not None and row[col.of] == user:
                new[name] = None
            elif use is Use.NAME and col.of is not None and row[col.of] == user:
                new[name] = self.context(table, row).new_name
            elif use is Use.JSON and col.rewriter is not None and value is not None:
                new[name] = self._json(col.rewriter, value, self.context(table, row))
            elif use is Use.TEXT and isinstance(value, str):
                new[name] = _words(value, self.context(table, row, every_name=True))
        changed = {k: v for k, v in new.items() if v != row[k]}
        if not changed and not bump:
            return None
        for name in spec.uses(Use.VERSION):
            changed[name] = int(row[name]) + 1
        return Change(table, key_of(table, row), tuple(changed.items()), row)

    @staticmethod
    def _json(rewriter: str, text: str, ctx: Context) -> str:
        try:
            value = json.loads(text)
        except ValueError:
            return text
        rewritten = REWRITERS[rewriter](value, ctx)
        return text if rewritten == value else dumps(rewritten)


def _language(options: object) -> str:
    try:
        data = json.loads(str(options))
    except ValueError:
        return DEFAULT_LANGUAGE
    language = data.get("language") if isinstance(data, Mapping) else None
    return language if isinstance(language, str) else DEFAULT_LANGUAGE


def shown(table: str, row: Row) -> dict[str, Any]:
    """A row as `/carc-privacy show` gives it: JSON columns decoded; a live game's
    secrets (its seed, an unconfirmed turn) left out, as null."""
    out: dict[str, Any] = {}
    live = row.get("status") in LIVE_STATUSES
    for name, col in TABLES[table].columns.items():
        value = row[name]
        if col.secret and live:
            value = None
        elif col.json and isinstance(value, str):
            with contextlib.suppress(ValueError):
                value = json.loads(value)
            if live and col.secret_keys and isinstance(value, dict):
                value = {k: None if k in col.secret_keys else v for k, v in value.items()}
        out[name] = value
    return out
