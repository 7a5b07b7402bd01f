"""What the operations commands report, for either database (`ops` for SQLite files,
`pgops` for PostgreSQL): exit statuses, the check's report, a stored game's problem,
a finished file moved into place, a URL fit to print."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from carca_bot.store import GameData

OK, PROBLEMS, CANNOT = 0, 1, 2
MAX_LISTED = 20  # integrity errors listed one per line; the rest are counted


class OpsError(Exception):
    """The operation could not be done at all: no such file, not a database, no room."""


def _integrity_lines(integrity: list[str]) -> list[str]:
    if integrity == ["ok"]:
        return ["integrity: ok"]
    if not integrity:  # PostgreSQL: the server's own business
        return ["integrity of the storage: PostgreSQL's own (pg_amcheck checks it)"]
    shown = integrity[:MAX_LISTED]
    more = len(integrity) - len(shown)
    return (["integrity: DAMAGED"] + [f"  {line}" for line in shown]
            + ([f"  ... and more ({more}+)"] if more else []))


def _publish(partial: Path, dest: Path, overwrite: bool) -> None:
    """Move the finished copy into place; without `overwrite`, never over another file."""
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    if overwrite:
        os.replace(partial, dest)
        return
    try:
        os.link(partial, dest)  # fails if dest appeared meanwhile, unlike a rename
    except FileExistsError:
        raise OpsError(f"{dest} already exists: choose another name, or allow "
                       "overwriting") from None
    except OSError:  # a filesystem without hard links
        if dest.exists():
            raise OpsError(f"{dest} already exists") from None
        os.replace(partial, dest)


@dataclass(frozen=True)
class GameProblem:
    """A stored game that does not rebuild: a bug or a damaged file, never a player's doing."""

    game_id: int
    guild_id: str
    channel_id: str
    status: str
    error: str

    def line(self) -> str:
        return (f"game {self.game_id} (guild {self.guild_id}, channel {self.channel_id}, "
                f"{self.status}): {self.error}")


@dataclass(frozen=True)
class CheckReport:
    path: Path | str  # a SQLite file, or a PostgreSQL URL without its password
    quick: bool
    integrity: list[str]  # SQLite's integrity check; [] on PostgreSQL (not ours to check)
    schema_version: int
    games: int = 0  # games looked at (replayed, unless quick)
    problems: list[GameProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # problems that belong to no one game
    info: list[str] = field(default_factory=list)  # said for information, not problems

    @property
    def ok(self) -> bool:
        return self.integrity in (["ok"], []) and not self.problems and not self.notes

    @property
    def status(self) -> int:
        return OK if self.ok else PROBLEMS

    def lines(self) -> list[str]:
        kind = "quick check" if self.quick else "check"
        out = [f"{kind} of {self.path}: {'ok' if self.ok else 'PROBLEMS FOUND'}",
               *_integrity_lines(self.integrity),
               f"schema version {self.schema_version}", *self.info, *self.notes]
        if self.quick and self.schema_version > 0:
            out.append(f"games stored: {self.games}")
        elif self.schema_version > 0:
            out.append(f"games replayed: {self.games}, failing: {len(self.problems)}")
        out += [p.line() for p in self.problems]
        return out


def game_error(data: GameData) -> str | None:
    """Why this stored game would not come back after a restart (or its record would not
    replay), if it would not; the same for either database."""
    from carca_bot.engine.errors import RecordError
    from carca_bot.engine.record import check_action, replay_text, write_record
    from carca_bot.service.live import rebuild, started
    from carca_bot.service.model import GameOptions

    try:
        game_row, seats, actions = data.game, data.seats, data.actions
        if [s.seat for s in seats] != list(range(len(seats))):
            return f"seat numbers {[s.seat for s in seats]} are not 0 to {len(seats) - 1}"
        if game_row.version < len(actions):
            return f"version {game_row.version} is below the {len(actions)} moves logged"
        for index, logged in enumerate(actions):
            try:
                check_action(logged.action, index)
            except RecordError as exc:
                return f"stored move {index} is malformed: {exc}"
        GameOptions.from_json(game_row.options)  # every view of the game reads them
        live = rebuild(data)
        if not started(game_row):
            if actions:
                return f"not started, yet {len(actions)} moves are logged"
            return None
        game = live.game
        assert game is not None
        if game_row.status == "active" and game.finished:
            return "marked active, but its log plays to the end of the game"
        if game_row.outcome == "complete" and not game.finished:
            return "marked complete, but its log stops before the end of the game"
        if game_row.pending is not None and live.pending is None:
            return "its unconfirmed turn no longer applies to the log"
        # read back by the bounded reader every door uses (`carca-bot replay`, imports)
        status, result = replay_text(json.dumps(write_record(game)))
        if status != 0:
            return f"its exported record does not replay (exit {status}): {result['error']}"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def shown(url: str) -> str:
    """A database URL fit to print: without its password."""
    return re.sub(r"(//[^:/@]*):[^@/]*@", r"\1:***@", url)
