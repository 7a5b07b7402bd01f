"""Scoring works out an `Outcome` and leaves the game alone; `apply` alone changes it.

Random games over every expansion mix: before each `EndTurn` the turn's scoring
is worked out on the live game, which must be unchanged afterwards, and applying
that outcome by hand must give the same scores, figures, hands, wagons, titles
and events as playing the move. The same for the final scoring and the abbot's
recall.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

from carca_bot.engine.expansions.abbot import score_recall
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw, EndTurn, Recall
from carca_bot.engine.outcome import Outcome, apply
from carca_bot.engine.setup import Setup
from carca_bot.engine.turnscore import TurnScorer, final_scoring
from tests.engine.test_push_pop import MIXES, fingerprint


def scored_parts(game: Game) -> tuple[object, ...]:
    """What an outcome may change, as one comparable value."""
    return (list(game.scores), list(game.events), list(game.figures),
            [sorted(h.items()) for h in game.hand], list(game.wagons),
            sorted((k.value, n) for k, n in game.completed.items() if n),
            game.king, game.robber, game.best_city, game.best_road)


def check_outcome(game: Game, work: Callable[[], Outcome]) -> Outcome:
    """`work()` leaves `game` exactly as it was."""
    before = fingerprint(game)
    outcome = work()
    assert fingerprint(game) == before
    return outcome


def play(setup: Setup, rng: random.Random) -> int:
    game = Game(setup)
    checked = 0
    while not game.finished:
        moves = game.legal_moves()
        if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
            moves = game.legal_moves(game.draw())
        move = rng.choice(moves)
        turn = game.turn
        if isinstance(move, Recall) and turn is not None:
            abbot = game._abbot(turn.player)
            assert abbot is not None
            outcome = check_outcome(game, partial(score_recall, game, abbot,
                                                  game.board.find(abbot.node)))
            by_hand = game.copy(stack=False)
            apply(by_hand, outcome)
            game.push(move)
            assert scored_parts(by_hand) == scored_parts(game)
            checked += 1
            continue
        if isinstance(move, EndTurn) and turn is not None:
            outcome = check_outcome(game, TurnScorer(game, turn).score_turn)
            by_hand = game.copy(stack=False)
            apply(by_hand, outcome)
            start = len(game.events)
            game.push(move)
            # What follows the scoring (stuck wagons home, the final scoring) adds
            # events, hands and points but takes no figure and grants no title.
            assert game.events[start:start + len(outcome.events)] == outcome.events
            assert game.figures == by_hand.figures
            assert (game.completed, game.king, game.robber, game.best_city,
                    game.best_road) == (by_hand.completed, by_hand.king, by_hand.robber,
                                        by_hand.best_city, by_hand.best_road)
            if not game.finished:
                assert game.scores == by_hand.scores
            checked += 1
            continue
        game.push(move)
    return checked


@pytest.mark.parametrize("index", range(8))
def test_scoring_reads_and_apply_writes(index: int) -> None:
    rng = random.Random(9000 + index)
    mix = MIXES[(index * 7) % len(MIXES)] | {"abbot"} if index % 2 else MIXES[-1]
    players = tuple(f"P{i}" for i in range(2 + index % 3))
    assert play(Setup(players, mix, seed=index), rng) > 10


def test_final_scoring_leaves_the_game_alone() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(Setup(("A", "B", "C"), MIXES[-1], seed=seed))
        while game.tiles_left > 3 and not game.finished:
            moves = game.legal_moves()
            if game.phase is Phase.TILE and moves and isinstance(moves[0], Draw):
                moves = game.legal_moves(game.draw())
            game.push(rng.choice(moves))
        outcome = check_outcome(game, partial(final_scoring, game))
        by_hand = game.copy(stack=False)
        apply(by_hand, outcome)
        assert by_hand.scores == [a + b for a, b in zip(game.scores, outcome.points,
                                                        strict=True)]
        assert by_hand.events[len(game.events):] == outcome.events
        assert by_hand.figures == game.figures  # no figure goes home at the end
