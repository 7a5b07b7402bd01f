"""The Abbot and gardens (docs/RULES.md 2.7)."""

from __future__ import annotations

from carca_bot.engine.game import Game
from carca_bot.engine.setup import Setup
from tests.engine.records import END, play, refuse, refused_saying, turn
from tests.engine.test_base_scoring import ring_turns

ABBOT = ("abbot",)


def test_abbot_in_a_garden_scores_at_the_end() -> None:
    # Abbot on U-g(1,0)'s garden; neighbours D(0,0) and U(2,0): 1 + 2 = 3.
    out = play([turn("Ana", "U-g", (1, 0), figure="abbot", on="G"), turn("Ben", "U", (2, 0)), END],
               expansions=ABBOT)
    assert out["scores"] == {"Ana": 3, "Ben": 0}


def test_recall_scores_at_once_and_returns_the_abbot() -> None:
    # Recall during Ana's next turn (her tile at (-1,0) is not next to the garden):
    # 1 + neighbours (0,0), (2,0) = 3, and the abbot is back in hand.
    out = play([turn("Ana", "U-g", (1, 0), figure="abbot", on="G"), turn("Ben", "U", (2, 0)),
                turn("Ana", "U", (-1, 0), recall=True)], expansions=ABBOT)
    assert out["scores"] == {"Ana": 3, "Ben": 0}
    assert out["supply"]["Ana"]["abbot"] == 1


def test_recall_counts_the_tile_placed_this_turn() -> None:
    # Ana's own tile this turn is at (1,1), next to the garden: 1 + 3 = 4.
    out = play([turn("Ana", "U-g", (1, 0), figure="abbot", on="G"), turn("Ben", "U", (2, 0)),
                turn("Ana", "B", (1, 1), recall=True)], expansions=ABBOT)
    assert out["scores"]["Ana"] == 4


def test_abbot_completed_monastery_scores_nine() -> None:
    out = play([turn("Ana", "B", (0, 1), figure="abbot", on="C"), *ring_turns("Ben")],
               expansions=ABBOT)
    assert out["scores"]["Ana"] == 9
    assert out["supply"]["Ana"]["abbot"] == 1


def test_no_recall_when_this_tile_completes_the_building() -> None:
    turns = ring_turns("Ben")
    # Ana places the last ring tile herself and tries to recall: refused.
    last = dict(turns[-1], by="Ana", recall=True)
    turns = [dict(t, by=("Ben" if i % 2 == 0 else "Ana")) for i, t in enumerate(turns[:-1])]
    extra = turn("Ben", "U", (2, 0))
    index, message, _ = refuse([turn("Ana", "B", (0, 1), figure="abbot", on="C"), *turns, extra,
                                last], expansions=ABBOT)
    assert index == 8
    assert message == "the abbot's building is completed by this tile and scores anyway"


def test_abbot_only_on_monastery_or_garden() -> None:
    _, message, _ = refuse([turn("Ana", "U", (1, 0), figure="abbot", on="E")], expansions=ABBOT)
    assert message == "cannot place the abbot on E: an abbot cannot stand on a road"


def test_deploy_and_recall_in_one_turn_is_refused() -> None:
    _, message, _ = refuse([turn("Ana", "U-g", (1, 0), figure="abbot", on="G"),
                            turn("Ben", "U", (2, 0)),
                            turn("Ana", "U", (-1, 0), figure="follower", on="E", recall=True)],
                           expansions=ABBOT)
    assert message == "a turn may deploy a figure or recall the abbot, not both"


def test_recall_without_an_abbot_on_the_board() -> None:
    game = Game(Setup(("Ana", "Ben"), frozenset(ABBOT)))
    game.place_tile(0, "U", (1, 0), 0)
    assert not game.can_recall()
    with refused_saying("has no abbot on the board"):
        game.recall(0)
