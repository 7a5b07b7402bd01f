"""The automatic part of every command, and the moves the service makes for a player.

After each command's body (`ServiceCore._act_locked`), `_settle` plays what nobody needs
to decide: a resigned player's turn, a tile that fits nowhere. The timers' consequences
play for a player out of time: the AI stands in (`_stand_in`) when the service has it,
or the plainest legal move is made (`_auto`, `play_auto.auto_move`), or the turn is
skipped (`_skip`). Every move made here is staged like a player's (`_take_actions`)
and stored with the command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carca_bot.engine.game import Phase
from carca_bot.engine.moves import Discard, Draw
from carca_bot.service.ai_play import (
    STAND_IN_LEVEL,
    STAND_IN_SECONDS,
    Plan,
    Thinks,
    ai_seed,
    plan_within,
    play_plan,
)
from carca_bot.service.live import Live, Pending
from carca_bot.service.model import Note
from carca_bot.service.play_auto import auto_move
from carca_bot.store import SeatRow


class AutomaticMoves:
    """Mixed into `ServiceCore`, which provides the AI and the three methods below."""

    thinker: Thinks | None

    def _change(self, live: Live, changes: Mapping[str, Any],
                seats: list[SeatRow] | None = None) -> None:
        raise NotImplementedError

    def _set_pending(self, live: Live, pending: Pending | None) -> None:
        raise NotImplementedError

    def _take_actions(self, live: Live, user_id: str | None, carry_draw: bool = False,
                      decided: bool = True) -> None:
        raise NotImplementedError

    # -- the automatic part of every command ------------------------------------

    def _settle(self, live: Live) -> None:
        """Play what nobody needs to decide: resigned players' turns and unplaceable tiles."""
        game = live.game
        if live.row.status == "active" and game is not None and game.finished:
            # Only a log written by something else (an old version) can get here.
            self._change(live, {"status": "finished", "outcome": "complete",
                                "pending": None, "deadline": None})
        while live.row.status == "active" and game is not None and not game.finished:
            player = game.deciding
            assert player is not None
            if live.seats[player].resigned:
                self._auto(live, player, "played_for_resigned")
                continue
            tile = live.drawn_tile()
            if tile is None or live.next_tile()[1]:
                return
            carry = live.pending is not None and live.pending.drew
            game.push(Discard(tile))
            self._take_actions(live, None, carry_draw=carry, decided=False)

    def _auto(self, live: Live, player: int, why: str) -> None:
        """Play the deciding player's move for them plainly (`auto_move`); `why` is the
        note's code (`played_for_resigned`, `played_for_late`).

        A resigned player's turns are always played this way; a late player's with the
        AI when there is one (`_stand_in`), and this way if it fails.
        """
        game = live.game
        assert game is not None
        live.notes.append(Note(why, {"name": live.seats[player].name}))
        auto_move(game, player)
        self._take_actions(live, None)

    async def _stand_in(self, live: Live, player: int, why: str) -> None:
        """Play the decision of a player out of time (`why`: the note's code,
        `played_for_late`) with the AI at its easy level, if the service has the AI;
        else, or if the AI fails or is slow, `auto_move`'s plainest move (`_auto`).

        A turn already begun keeps the player's own steps; the AI finishes it.
        """
        game = live.game
        assert game is not None
        if self.thinker is None:
            self._auto(live, player, why)
            return
        live.notes.append(Note(why, {"name": live.seats[player].name}))
        more: bool | None = True
        while more and game.deciding == player and not game.finished:
            pending = live.pending
            steps = 0 if pending is None else len(pending.moves) + pending.drew
            plan = await plan_within(self.thinker, game, STAND_IN_LEVEL, live.drawn_tile(),
                                     ai_seed(live.row.seed, live.seq, steps, "stand-in"),
                                     STAND_IN_SECONDS)
            more = None if plan is None else self._play_ai_plan(live, player, plan)
            if more is None:
                auto_move(game, player)
                self._take_actions(live, None)
                return

    def _play_ai_plan(self, live: Live, seat: int, plan: Plan) -> bool | None:
        """Play an AI's plan for `seat`, the one to decide: True if the same decision goes
        on (it chose to draw, or its tile was discarded), False if it is made, None (and
        nothing played) if the plan does not apply."""
        game = live.game
        assert game is not None
        if plan == (Draw(),):
            if game.phase is not Phase.TILE or (live.pending is not None and live.pending.drew):
                return None
            self._set_pending(live, Pending(seat, live.seq, drew=True))
            return True
        drew = live.pending is not None and live.pending.drew
        before = len(game.history)
        if not play_plan(game, plan):
            return None
        if len(game.history) == before:  # the plan stops short of confirming: keep its steps
            moves = [*(live.pending.moves if live.pending else []), *plan]
            self._set_pending(live, Pending(seat, live.seq, drew, moves))
            return False
        discarded = isinstance(plan[-1], Discard)
        self._take_actions(live, None, carry_draw=drew and discarded, decided=not discarded)
        return discarded

    def _skip(self, live: Live, player: int) -> None:
        """Skip the deciding player's turn (a clock game's `skip` consequence).

        carca-record/1 has no verb for a skipped turn, so a skip is the smallest legal
        play: the player's unconfirmed steps are dropped, the tile goes to the first
        legal square with no figure (a tile that fits nowhere is discarded and the next
        drawn), a wagon goes home, an abbey is kept. Unlike `_auto` it never keeps the
        player's own steps and never gets cleverer.
        """
        game = live.game
        assert game is not None
        if live.pending is not None:
            game.restore()
            self._set_pending(live, None)
        live.notes.append(Note("skipped_for_late", {"name": live.seats[player].name}))
        auto_move(game, player)
        self._take_actions(live, None)
