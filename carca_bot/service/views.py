"""Turning a live game into what one user may see, and into the list of legal choices."""

from __future__ import annotations

import dataclasses
from typing import Any

from carca_bot.engine.board import Board
from carca_bot.engine.game import Phase
from carca_bot.service.labels import FeatureLabel, label
from carca_bot.service.live import Live
from carca_bot.service.model import (
    Choices,
    ExpelVote,
    GameOptions,
    SeatView,
    Told,
    TurnView,
    Where,
)
from carca_bot.service.timing import ClockState, median_move_seconds, on_vacation
from carca_bot.store import SeatRow


def must_of(live: Live) -> str:
    status = live.row.status
    game = live.game
    if status == "lobby":
        return "join"
    if status != "active" or game is None or game.finished:
        return "over"
    if game.phase is Phase.TILE:
        return "place" if live.drawn_tile() is not None else "choose"
    return {Phase.PLACED: "finish", Phase.WAGON: "wagon",
            Phase.ABBEY_ROUND: "abbey_round"}[game.phase]


def seed_is_public(live: Live) -> bool:
    """Whether the seed (and so the order of the tiles still to draw) may be shown:
    once the game is over, or for an analysis game, whose importer chose it."""
    return not live.row.live or live.options.analysis


def public_options(live: Live) -> GameOptions:
    """The game's options as players see them: without a seed while it could still deal."""
    if live.options.seed is None or seed_is_public(live):
        return live.options
    return dataclasses.replace(live.options, seed=None)


def deciding_seat(live: Live) -> int | None:
    game = live.game
    if live.row.status != "active" or game is None:
        return None
    return game.deciding


def build_view(live: Live, viewer: str | None, events: list[Told],
               played: tuple[dict[str, Any], ...] = (), now: float | None = None) -> TurnView:
    """`now` (default: the game's last change) is when vacations are looked at; all else
    comes from the stored game, so a game rebuilt from disk shows the same."""
    game = live.game
    state = ClockState.from_json(live.row.clock) if live.row.clock is not None else None
    now = live.row.updated_at if now is None else now
    seats = [
        SeatView(s.seat, s.user_id, s.name, s.colour,
                 seat_score(live, s), s.resigned,
                 game.in_hand(s.seat) if game is not None else {},
                 median_move_seconds(live.times, s.user_id),
                 None if state is None or s.seat >= len(state.banks) or s.ai is not None
                 else state.banks[s.seat],
                 on_vacation(live.vacations_of(s.seat), now),
                 state is not None and s.seat in state.expelled,
                 s.ai, live.hints.get(s.seat, 0))
        for s in live.seats
    ]
    who = deciding_seat(live)
    deciding = seats[who] if who is not None else None
    must = must_of(live)
    tile = live.drawn_tile()
    mine = deciding is not None and _acts_for(live, viewer, deciding)
    steps = tuple(live.pending.moves) if live.pending else ()
    return TurnView(
        game_id=live.id, version=live.version, moves=live.seq,
        where=Where(live.row.guild_id, live.row.channel_id),
        status=live.row.status, outcome=live.row.outcome, host_id=live.row.host_id,
        options=public_options(live), seats=tuple(seats), deciding=deciding, must=must,
        tile=tile if mine else None, steps=steps, events=tuple(events),
        tiles_left=game.tiles_left if game is not None else 0,
        deadline=live.row.deadline if live.row.status == "active" else None,
        played=played, yours=mine, expel_vote=_expel_vote(live, state),
        part=game.part if game is not None and live.row.status == "active" else 1,
    )


def seat_score(live: Live, seat: SeatRow) -> int:
    """The seat's score; a player who left a running game scores nothing after leaving
    (resigned, kicked or voted out before version 5 stored `exit_score`: as the engine)."""
    if live.game is None:
        return 0
    if seat.resigned and seat.exit_score is not None:
        return seat.exit_score
    return live.game.scores[seat.seat]


def _expel_vote(live: Live, state: ClockState | None) -> ExpelVote | None:
    if state is None or state.vote is None or state.seat is None or not live.row.live:
        return None
    target = live.seats[state.seat]
    others = sum(not s.resigned and s.seat != target.seat for s in live.seats)
    return ExpelVote(target.user_id, target.name,
                     tuple(live.seats[v].name for v in state.vote), others // 2 + 1,
                     live.row.alarm)


def _acts_for(live: Live, viewer: str | None, seat: SeatView) -> bool:
    if viewer is None:
        return False
    return seat.user_id == viewer or (live.options.analysis and live.row.host_id == viewer)


def choices(live: Live) -> Choices:
    """Every legal option of the player who must act now, and where the last tile went."""
    found = _choices(live)
    game = live.game
    if game is not None and game.last_placed is not None:
        found = dataclasses.replace(found, last=game.last_placed[0])
    return found


def _choices(live: Live) -> Choices:
    game = live.game
    must = must_of(live)
    if game is None or must in ("join", "over"):
        return Choices(must)
    if must == "choose":
        return Choices(must, can_draw=game.tiles_left > 0,  # none left: the abbey only
                       abbey_squares=_squares(game.abbey_squares()))
    if must == "place":
        tile, placements = live.next_tile()
        # Sorted: the live game's dicts keep the order moves made and took back, which a
        # replay of the same game would not; choices must not depend on that history.
        return Choices(must, tile=tile, placements=tuple(sorted(
            (p.pos[0], p.pos[1], p.rot * 90) for p in placements)))
    if must == "finish":
        deployments = tuple((d.figure, d.on) for d in game.legal_deployments())
        pos = game.turn.pos if game.turn is not None else None
        labels = () if pos is None else _labels(
            game.board, [(pos, on) for on in dict.fromkeys(on for _, on in deployments)])
        return Choices(
            must,
            deployments=deployments,
            can_recall=game.can_recall(),
            tokens=tuple(sorted((t.pos[0], t.pos[1], t.on, t.pair)
                                for t in game.legal_tokens())),
            can_confirm=True, labels=labels)
    if must == "wagon":
        targets = game.legal_wagon_moves()
        return Choices(must, wagon_moves=tuple((pos[0], pos[1], on) for pos, on in targets),
                       labels=_labels(game.board, targets))
    return Choices(must, abbey_squares=_squares(game.abbey_squares()), can_skip_abbey=True)


def _labels(board: Board, spots: list[tuple[tuple[int, int], str]]) -> tuple[FeatureLabel, ...]:
    return tuple(found for pos, on in spots if (found := label(board, pos, on)) is not None)


def _squares(squares: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((x, y) for x, y in squares))
