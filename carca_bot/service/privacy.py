"""Players' data: what is stored about a user, erasing it, and forgetting a server.

`privacy_export(user)`: every row an erasure would delete or rewrite, as one JSON
document (`/carc-privacy show`, `carca-bot export-user`).

Erasing is two calls, so the front end can show what will happen and ask first:
`erase_plan(user)` says which lobbies the user leaves, which running games they resign
from, which of their analysis games are cancelled and which events they withdraw from,
with a `token`; `erase_user(user, token, pseudonym)` does it, refused with
`erase_plan_changed` if the plan changed meanwhile (they joined a game: ask again).
Then, in one transaction (store/privacy.py, service/privacy_rewrite.py), rows that are
theirs alone go (preferences, vacations, notification settings, reminders, usage, the
last turn ping sent to them, votes to expel them), and everywhere else their id becomes
the pseudonym's (`former:7`) and their name the pseudonym ("Former player 7", from
`pseudonym(number, language)`: the front end's words, `carca_bot.words.privacy`), so
finished games replay and every other player's ratings, history and standings stay as
they were. The front end then deletes the Discord messages `Erased.messages` names.

A server: `guild_left(guild)` when the bot is removed schedules the deletion of the
server's games, events, settings and messages `PrivacySettings.guild_grace` later;
`guild_back(guild)` (it was added again, or is there at start-up) cancels it;
`guilds_present(ids)` does both from the list of servers the bot is in. The timers
(`check_timers`) carry out what is due; `forget_guild(guild)` does it at once (the
operator's `carca-bot forget-guild`). With `PrivacySettings.keep_finished` set, the
timers also delete games over for longer than that, with their records.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from carca_bot.engine.limits import name_problem
from carca_bot.league import LeagueError, event_from_json
from carca_bot.service import errors
from carca_bot.service.core import log
from carca_bot.service.errors import BadInput, NotNow
from carca_bot.service.league_ops import Actor, LeagueOps
from carca_bot.service.live import Live
from carca_bot.service.model import LANGUAGES, Note, Where
from carca_bot.service.privacy_rewrite import Pseudonym, Rewrite, pseudonym_id, shown
from carca_bot.service.privacy_servers import PrivacySettings, ServerDataOps, SettingError
from carca_bot.store.privacy import Change, Found
from carca_bot.store.privacy_map import TABLES

FORMAT = "carca-privacy/1"
MAX_USER_ID = 64


STEP_ACTIONS = ("leave", "cancel", "resign", "delete")


@dataclass(frozen=True)
class GameStep:
    """A game an erasure changes: `action` is one of `STEP_ACTIONS`: leave (a lobby they
    sit in), cancel (a lobby they host without a seat), resign (a running game), or
    delete (the user's own game: a record they imported to study, in any state)."""

    game_id: int
    where: Where
    action: str


@dataclass(frozen=True)
class EventStep:
    """An event the user withdraws from (taking sign-ups or running)."""

    event_id: int
    guild: str
    title: str


@dataclass(frozen=True)
class ErasePlan:
    """What erasing the user does, to show before they confirm."""

    user_id: str
    games: tuple[GameStep, ...]
    events: tuple[EventStep, ...]
    rows: int  # rows stored now that the erasure deletes or rewrites
    token: str  # `erase_user` must be given this: the plan that was confirmed


@dataclass(frozen=True)
class MessageRef:
    """A Discord message the bot posted that the front end should delete."""

    channel_id: str
    message_id: str


@dataclass(frozen=True)
class Erased:
    number: int  # of the pseudonym
    pseudonym_id: str
    plan: ErasePlan
    deleted: int  # rows
    rewritten: int
    messages: tuple[MessageRef, ...]


def check_user_id(user_id: object) -> str:
    """A user id as the service stores them; BadInput("bad_user_id") if it is none."""
    if (not isinstance(user_id, str) or not user_id or len(user_id) > MAX_USER_ID
            or not user_id.isprintable() or user_id != user_id.strip()
            or user_id.startswith("former:")):
        raise BadInput("bad_user_id")
    return user_id


def _token(games: Sequence[GameStep], events: Sequence[EventStep]) -> str:
    text = json.dumps([[(g.game_id, g.action) for g in games], [e.event_id for e in events]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _messages(changes: Iterable[Change]) -> tuple[MessageRef, ...]:
    """Messages whose row goes, or whose columns are cleared, by these changes."""
    out: list[MessageRef] = []
    for change in changes:
        cleared = {c for c, v in change.new or () if v is None}
        for channel, message in TABLES[change.table].messages:
            gone = change.new is None or {channel, message} <= cleared
            if gone and change.old[channel] is not None and change.old[message] is not None:
                out.append(MessageRef(str(change.old[channel]), str(change.old[message])))
    return tuple(dict.fromkeys(out))


class PrivacyOps(ServerDataOps, LeagueOps):
    """A user's data: shown, and erased; a server's, forgotten (see the module's docstring)."""

    async def privacy_export(self, user_id: str) -> dict[str, Any]:
        """Everything stored about the user: each row an erasure would delete or
        rewrite, per table, JSON columns decoded; sorted, so two exports compare."""
        check_user_id(user_id)
        found = await self.store.privacy_rows(user_id)
        changes = await self._dry_run(found)
        tables = await self._workers.run(lambda: _tables(changes))
        return {"format": FORMAT, "user_id": user_id, "made_at": self.clock(), "tables": tables}

    async def _rewrite(self, found: Found, number: int, pseudonym: Pseudonym) -> list[Change]:
        """The erasure's changes, worked out in a worker thread (thousands of rows for
        a player of many games: not on the event loop)."""
        return await self._workers.run(lambda: Rewrite(found, number, pseudonym).changes())

    async def _dry_run(self, found: Found) -> list[Change]:
        """The rows an erasure would change now (with a stand-in pseudonym)."""
        return await self._rewrite(found, 0, lambda number, language: "-")

    async def erase_plan(self, user_id: str) -> ErasePlan:
        """What `erase_user` would do now: the games and events it changes first, and
        how many stored rows it deletes or rewrites."""
        check_user_id(user_id)
        found = await self.store.privacy_rows(user_id)
        seats = {int(r["game_id"]): r for r in found.rows.get("seats", [])
                 if r["user_id"] == user_id}
        games: list[GameStep] = []
        for row in sorted(found.rows.get("games", []), key=lambda r: int(r["id"])):
            seat, game_id = seats.get(int(row["id"])), int(row["id"])
            where = Where(str(row["guild_id"]), str(row["channel_id"]))
            if game_id in found.own_games:
                games.append(GameStep(game_id, where, "delete"))
            elif row["status"] == "lobby":
                games.append(GameStep(game_id, where, "leave" if seat else "cancel"))
            elif row["status"] == "active" and seat is not None and not seat["resigned"]:
                games.append(GameStep(game_id, where, "resign"))
        events = [EventStep(int(r["id"]), str(r["guild_id"]), str(r["title"]))
                  for r in sorted(found.rows.get("league_events", []), key=lambda r: r["id"])
                  if r["status"] in ("signup", "running") and _entered(r["data"], user_id)]
        return ErasePlan(user_id, tuple(games), tuple(events), len(await self._dry_run(found)),
                         _token(games, events))

    async def erase_user(self, user_id: str, token: str, pseudonym: Pseudonym) -> Erased:
        """Erase the user, if `erase_plan` still gives `token` (NotNow
        "erase_plan_changed" if not: show the new plan and ask again)."""
        plan = await self.erase_plan(user_id)
        if plan.token != token:
            raise NotNow("erase_plan_changed")
        for language in LANGUAGES:
            if name_problem(pseudonym(1, language)) is not None:
                raise ValueError(f"the pseudonym in {language} is no player's name")
        for event in plan.events:
            try:
                await self.withdraw(event.event_id, Actor(user_id, ""))
            except (errors.ServiceError, LeagueError) as exc:  # withdrawn meanwhile
                log.warning("event %s: withdrawing an erased user: %s", event.event_id, exc)
        for step in plan.games:
            await self._step_out(step, user_id)
        number, changes = await self.store.privacy_erase(
            user_id, self.clock(), lambda found, n: self._rewrite(found, n, pseudonym),
            lambda n: [pseudonym(n, language) for language in LANGUAGES])
        for change in changes:
            if change.table == "games":
                self._cache.pop(int(change.old["id"]), None)
        deleted = sum(c.new is None for c in changes)
        return Erased(number, pseudonym_id(number), plan, deleted, len(changes) - deleted,
                      _messages(changes))

    async def _step_out(self, step: GameStep, user_id: str) -> None:
        """Leave a lobby or resign from a running game, if it still needs it (a
        withdrawal may have done it)."""
        async def body(live: Live) -> None:
            seat = live.seat_of(user_id)
            if live.row.status == "lobby" and seat is not None:
                self._remove(live, seat, Note("left", {"name": seat.name}))
            elif live.row.status == "active" and seat is not None and not seat.resigned:
                self._resign(live, seat, Note("resigned", {"name": seat.name}))

        if step.action == "delete":
            return  # with the rest, in the erasure's transaction
        with contextlib.suppress(errors.NoGameHere):
            await self._act_on(step.game_id, None, body)


def _tables(changes: Iterable[Change]) -> dict[str, list[dict[str, Any]]]:
    """The rows the changes start from, as an export shows them, per table, sorted."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for change in changes:
        tables.setdefault(change.table, []).append(shown(change.table, change.old))
    return {t: sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))
            for t, rows in sorted(tables.items())}


def _entered(data: object, user_id: str) -> bool:
    """Whether the user is an entrant of the event, not withdrawn."""
    try:
        event = event_from_json(json.loads(str(data)))
    except (ValueError, KeyError, TypeError, LeagueError):
        return False
    return any(e.player == user_id and not e.withdrawn for e in event.entrants)


__all__ = ["FORMAT", "ErasePlan", "Erased", "EventStep", "GameStep", "MessageRef",
           "PrivacyOps", "PrivacySettings", "SettingError", "check_user_id"]
