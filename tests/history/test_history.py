"""The public history: what it holds, that it matches the engine, and that it is the same
whatever the seed or the unconfirmed turn (so it cannot show either)."""

from __future__ import annotations

import pytest

from carca_bot.engine.game import Game
from carca_bot.render.summary import CATEGORIES
from carca_bot.service.history import (
    CATEGORY_OF,
    pile,
    public_game,
    public_history,
    public_state,
    shown_categories,
    tally,
)
from tests.history.games import KINDS, finished, reseeded, running, with_unconfirmed_turn


def games() -> list[tuple[str, Game]]:
    return [(f"{kind}-{state}", (finished if state == "finished" else running)(kind))
            for kind in KINDS for state in ("finished", "running")]


@pytest.mark.parametrize(("name", "game"), games(), ids=[n for n, _ in games()])
def test_history_follows_the_engine(name: str, game: Game) -> None:
    history = public_history(game)
    assert len(history.steps) == len(game.history)
    assert history.finished == game.finished
    replay = Game(game.setup)
    assert public_state(replay) == history.start
    for step, action in zip(history.steps, game.history, strict=True):
        before = list(replay.scores)
        events = replay.apply(dict(action))
        assert step.events == tuple(events)
        assert step.state == public_state(replay)
        assert step.gained == tuple(a - b for a, b in zip(replay.scores, before, strict=True))
        assert step.player == (None if "by" not in action
                               else game.players.index(action["by"]))
    assert history.final.scores == tuple(game.scores)
    assert {pos for pos, _t, _r in history.final.tiles} == set(game.board.tiles)


@pytest.mark.parametrize(("name", "game"), games(), ids=[n for n, _ in games()])
def test_categories_add_up_to_the_scores(name: str, game: Game) -> None:
    history = public_history(game)
    table = history.categories()
    assert [sum(row.values()) for row in table] == list(game.scores)
    assert all(set(row) == set(CATEGORIES) for row in table)
    curves = history.curves()
    assert [c[-1] for c in curves] == list(game.scores)
    assert all(c[0] == 0 and len(c) == len(game.history) + 1 for c in curves)
    card = tally(history)
    assert card.scores == tuple(game.scores) and card.moves == len(game.history)


def test_every_feature_of_every_expansion_has_a_category() -> None:
    """A 6-player game with every expansion scores in many categories; none is 'other'."""
    seen: set[str] = set()
    for kind in KINDS:
        for step in public_history(finished(kind)).steps:
            seen.update(e.feature for e in step.events if e.kind == "score" and e.points)
    assert seen <= set(CATEGORY_OF), seen - set(CATEGORY_OF)
    assert {"city", "road", "monastery", "field"} <= seen


def test_shown_categories_follow_the_expansions() -> None:
    zero = [dict.fromkeys(CATEGORIES, 0)]
    assert shown_categories([], zero) == ("cities", "roads", "monasteries", "fields")
    assert shown_categories(["king_robber", "abbot", "abbey_mayor"], zero) == (
        "cities", "roads", "monasteries", "fields", "barns", "gardens", "titles")
    other = [{**dict.fromkeys(CATEGORIES, 0), "other": 3}]
    assert shown_categories([], other)[-1] == "other"


def test_ranking_shares_places() -> None:
    history = public_history(finished("all6"))
    ranking = history.ranking()
    scores = history.final.scores
    assert sorted(p for group in ranking for p in group) == list(range(6))
    assert [scores[g[0]] for g in ranking] == sorted(set(scores), reverse=True)


def test_state_clamps_and_counts_from_the_start() -> None:
    history = public_history(running("base2"))
    assert history.state(0) == history.start
    assert history.state(-5) == history.start
    assert history.state(10**6) == history.final
    assert history.state(3) == history.steps[2].state


# -- hidden information ---------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("state", ["finished", "running"])
def test_history_is_the_same_whatever_the_seed(kind: str, state: str) -> None:
    """Two games with the same table but different piles give the same history: the
    history cannot tell anything about the pile's order."""
    game = (finished if state == "finished" else running)(kind)
    other = reseeded(game, 987654321)
    assert other.setup.seed != game.setup.seed
    if not game.finished:  # the piles really differ (the next draws)
        nexts = [(g.draw(), g.drawn) for g in (game, other)]
        probe = [reseeded(game, s) for s in range(20)]
        assert len({g.draw() for g in probe}) > 1, nexts
    assert public_history(game) == public_history(other)
    assert pile(game) == pile(other)


@pytest.mark.parametrize("kind", KINDS)
def test_unconfirmed_turn_is_hidden(kind: str) -> None:
    game = running(kind)
    pending, tile = with_unconfirmed_turn(game)
    assert len(pending.board.tiles) == len(game.board.tiles) + 1  # the tile is on the board
    assert public_history(pending) == public_history(game)
    # The drawn tile still counts as in the pile: nobody else has seen it.
    assert pile(pending) == pile(game)
    assert dict(pile(game))[tile] >= 1


def test_public_game_has_no_seed_and_no_pending_turn() -> None:
    pending, _tile = with_unconfirmed_turn(running("all6"))
    public = public_game(pending)
    assert public.setup.seed is None
    assert public.history == pending.history
    assert len(public.board.tiles) == len(pending.board.tiles) - 1
    assert pending.setup.seed is not None  # the caller's game is left as it was


def test_pile_counts_match_the_supply() -> None:
    game = running("all6")
    counts = dict(pile(game))
    assert sum(counts.values()) == game.tiles_left
    assert all(n > 0 for n in counts.values())
    assert pile(finished("base2")) == ()
