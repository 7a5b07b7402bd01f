"""Turning a live game into what one user may see, and into the list of legal choices."""

from __future__ import annotations

import dataclasses
from typing import Any

from carca_bot.engine.board import Board
from carca_bot.engine.game import Phase
from carca_bot.service.labels import FeatureLabel, label
from carca_bot.service.live import Live
from carca_bot.service.model import (
    MUST_WORDS,
    Choices,
    GameOptions,
    SeatView,
    TurnView,
    Where,
    ranked,
)
from carca_bot.words.service import move_words


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


def waiting_words(live: Live) -> str:
    """'waiting for Ana to place a tile', for players who are not the one to act."""
    who = deciding_seat(live)
    must = must_of(live)
    if who is None or must in ("join", "over"):
        return "the game is over" if live.row.status != "lobby" else "the game has not started"
    return f"waiting for {live.seats[who].name} to {MUST_WORDS[must]}"


def _scores_line(seats: list[SeatView]) -> str:
    return ", ".join(f"{s.name} {s.score}" + (" (resigned)" if s.resigned else "")
                     for s in ranked(seats))


def _prompt(live: Live, mine: bool, must: str, tile: str | None,
            seats: list[SeatView]) -> str:
    status = live.row.status
    if status == "lobby":
        names = ", ".join(s.name for s in live.seats) or "nobody"
        return (f"lobby: {names} ({len(live.seats)} of {live.options.max_players} seats); "
                "the host starts the game when everyone is in")
    if status == "cancelled":
        return "the game was cancelled"
    if must == "over":
        why = "game over" if live.row.outcome != "resigned" else "game over by resignation"
        return f"{why}: {_scores_line(seats)}"
    if not mine:
        return waiting_words(live)
    return {
        "choose": "your turn: draw a tile, or place your abbey in a hole",
        "place": f"your turn: place tile {tile}",
        "finish": "add a figure or a tunnel token if you like, then confirm (or undo)",
        "wagon": "your wagon's feature was scored: move the wagon or return it",
        "abbey_round": "last chance to place your abbey: place it in a hole or skip",
    }[must]


def build_view(live: Live, viewer: str | None, events: list[str],
               played: tuple[dict[str, Any], ...] = ()) -> TurnView:
    game = live.game
    seats = [
        SeatView(s.seat, s.user_id, s.name, s.colour,
                 game.scores[s.seat] if game is not None else 0, s.resigned,
                 game.in_hand(s.seat) if game is not None else {})
        for s in live.seats
    ]
    who = deciding_seat(live)
    deciding = seats[who] if who is not None else None
    must = must_of(live)
    tile = live.drawn_tile()
    mine = deciding is not None and _acts_for(live, viewer, deciding)
    steps = tuple(move_words(m) for m in live.pending.moves) if live.pending else ()
    return TurnView(
        game_id=live.id, version=live.version, moves=live.seq,
        where=Where(live.row.guild_id, live.row.channel_id),
        status=live.row.status, outcome=live.row.outcome, host_id=live.row.host_id,
        options=public_options(live), seats=tuple(seats), deciding=deciding, must=must,
        prompt=_prompt(live, mine, must, tile, seats),
        tile=tile if mine else None, steps=steps, events=tuple(events),
        tiles_left=game.tiles_left if game is not None else 0,
        deadline=live.row.deadline if live.row.status == "active" else None,
        played=played,
    )


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
        return Choices(must, can_draw=True, abbey_squares=_squares(game.abbey_squares()))
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
