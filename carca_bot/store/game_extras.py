"""What a game keeps beside its action log: the hints its players asked the AI for (and
which running games have AI seats), take-back votes and the messages showing votes, its
card and its turn ping (`Store` inherits these methods: `GameExtras`).

A take-back accepted changes the log itself, so it is written like any change of a
game: its version bumped (`_bump`) and its public change recorded, in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from carca_bot.store.driver import Connection
from carca_bot.store.errors import Conflict
from carca_bot.store.methods import StoreMethods, dumps
from carca_bot.store.rows import GameMessages, HintRow, PublicChange, TakebackRow


class GameExtras(StoreMethods):
    """Mixed into `Store`: the rows a running game keeps besides its seats and its log."""

    # -- AI players and hints (schema version 6) ---------------------------------

    async def ai_games(self) -> list[int]:
        """Running games with a seat the AI plays (to resume their turns after a restart)."""
        rows = await self._rows(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.status = 'active' AND s.ai_level IS NOT NULL ORDER BY g.id")
        return [int(r[0]) for r in rows]

    async def add_hint(self, game_id: int, seq: int, seat: int, user_id: str, at: float,
                       steps: list[Any]) -> int:
        """Keep one hint; returns its number within the game (1 for the first)."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(
                "SELECT coalesce(max(number), 0) FROM hints WHERE game_id = ?", (game_id,)))
            number = int(rows[0][0]) + 1
            await db.execute(
                "INSERT INTO hints (game_id, number, seq, seat, user_id, at, steps) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, number, seq, seat, user_id, at, dumps(steps)))
        return number

    async def hints(self, game_id: int) -> list[HintRow]:
        """Every hint of the game, oldest first."""
        rows = await self._rows(
            "SELECT number, seq, seat, user_id, at, steps FROM hints WHERE game_id = ? "
            "ORDER BY number", (game_id,))
        return [HintRow(int(n), int(q), int(s), str(u), float(a), json.loads(t))
                for n, q, s, u, a, t in rows]

    # -- take-back votes (schema version 6) ---------------------------------------

    @staticmethod
    def _takeback_row(row: Sequence[Any]) -> TakebackRow:
        return TakebackRow(int(row[0]), int(row[1]), int(row[2]), str(row[3]), int(row[4]),
                           tuple(int(s) for s in json.loads(row[5])), str(row[6]),
                           int(row[7]), float(row[8]),
                           None if row[9] is None else float(row[9]))

    async def takeback(self, game_id: int) -> TakebackRow | None:
        """The game's newest take-back request (open or decided), if any."""
        rows = await self._rows(
            "SELECT game_id, seq, upto, proposer, seat, accepted, state, answers, opened_at, "
            "closed_at FROM takebacks WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
            (game_id,))
        return self._takeback_row(rows[0]) if rows else None

    async def open_takeback(self, game_id: int, seq: int, upto: int, proposer: str,
                            seat: int, now: float) -> None:
        """Ask to take back move `seq`. A move refused, or being voted on, is not asked
        about again (Conflict: a double click, or a race); one withdrawn may be, and so
        may a new move at the same place in the log (the old one was taken back, or the
        log moved on and came back)."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO takebacks (game_id, seq, upto, proposer, seat, accepted, state, "
                "answers, opened_at) VALUES (?, ?, ?, ?, ?, '[]', 'open', 0, ?) "
                "ON CONFLICT (game_id, seq) DO UPDATE SET upto = excluded.upto, "
                "accepted = '[]', state = 'open', answers = takebacks.answers + 1, "
                "opened_at = excluded.opened_at, closed_at = NULL "
                "WHERE takebacks.state IN ('withdrawn', 'accepted', 'closed')",
                (game_id, seq, upto, proposer, seat, now))
            if cursor.rowcount != 1:
                raise Conflict(f"game {game_id}: move {seq} was already asked about")

    @staticmethod
    async def _answer(db: Connection, game_id: int, seq: int, answers: int,
                      accepted: Sequence[int], state: str, now: float) -> None:
        cursor = await db.execute(
            "UPDATE takebacks SET accepted = ?, state = ?, answers = answers + 1, "
            "closed_at = ? WHERE game_id = ? AND seq = ? AND answers = ? AND state = 'open'",
            (dumps(list(accepted)), state, None if state == "open" else now, game_id, seq,
             answers))
        if cursor.rowcount != 1:
            raise Conflict(f"game {game_id}: the take-back of move {seq} changed meanwhile")

    async def answer_takeback(self, game_id: int, seq: int, answers: int,
                              accepted: Sequence[int], state: str, now: float) -> None:
        """Record an answer (or a withdrawal, or the close), if the request is still open
        and was written `answers` times; Conflict if not."""
        async with self._transaction() as db:
            await self._answer(db, game_id, seq, answers, accepted, state, now)

    async def apply_takeback(self, game_id: int, version: int, now: float, seq: int,
                             answers: int, accepted: Sequence[int],
                             changes: Mapping[str, Any], public: PublicChange) -> int:
        """The accepted take-back, in one transaction: the game's version bumped (if it is
        still `version`), its log cut back to `seq` actions, `changes` made, the request
        closed as accepted (if it was written `answers` times) and the public change
        recorded. Returns the new version."""
        async with self._transaction() as db:
            await self._bump(db, game_id, version, now, changes)
            await db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?",
                             (game_id, seq))
            await self._answer(db, game_id, seq, answers, accepted, "accepted", now)
            await db.execute("UPDATE games SET public_version = ? WHERE id = ?",
                             (version + 1, game_id))
            await self._insert_public(db, game_id, version + 1, public, now)
        return version + 1

    async def add_vote_message(self, game_id: int, kind: str, ref: str, channel_id: str,
                               message_id: str) -> None:
        """Remember the message showing an open vote (the newest one wins)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO vote_messages (game_id, kind, ref, channel_id, message_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind, ref) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id",
                (game_id, kind, ref, channel_id, message_id))

    async def vote_messages(self, game_id: int) -> list[tuple[str, str, str, str]]:
        """The game's remembered vote messages: kind, ref, channel id, message id."""
        rows = await self._rows(
            "SELECT kind, ref, channel_id, message_id FROM vote_messages WHERE game_id = ? "
            "ORDER BY kind, ref", (game_id,))
        return [(str(k), str(r), str(c), str(m)) for k, r, c, m in rows]

    async def forget_vote_message(self, game_id: int, kind: str, ref: str) -> None:
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM vote_messages WHERE game_id = ? AND kind = ? AND ref = ?",
                (game_id, kind, ref))

    # -- a game's card and turn ping ------------------------------------------------------

    async def game_messages(self, game_id: int) -> GameMessages:
        rows = await self._rows(
            "SELECT card_channel, card_id, ping_channel, ping_id, ping_user, ping_moves "
            "FROM game_messages WHERE game_id = ?", (game_id,))
        if not rows:
            return GameMessages()
        cc, ci, pc, pi, pu, pm = rows[0]
        return GameMessages(cc, ci, pc, pi, pu, None if pm is None else int(pm))

    async def set_card_message(self, game_id: int, channel: str | None,
                               message: str | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO game_messages (game_id, card_channel, card_id) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET card_channel = excluded.card_channel, "
                "card_id = excluded.card_id", (game_id, channel, message))

    async def set_ping_message(self, game_id: int, channel: str | None, message: str | None,
                               user_id: str | None, moves: int | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO game_messages (game_id, ping_channel, ping_id, ping_user, "
                "ping_moves) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "ping_channel = excluded.ping_channel, ping_id = excluded.ping_id, "
                "ping_user = excluded.ping_user, ping_moves = excluded.ping_moves",
                (game_id, channel, message, user_id, moves))
