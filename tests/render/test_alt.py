"""Alt text for every picture the bot posts (`carca_bot.words.alt`), in both languages:
it names the last move and the player to act, the end-of-game pictures name the ranking,
and every text fits Discord's attachment description limit."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from carca_bot.engine.game import Game
from carca_bot.engine.moves import Deploy, EndTurn, PlaceTile
from carca_bot.engine.randomplay import play_random_turn
from carca_bot.engine.setup import Setup
from carca_bot.i18n import speaking
from carca_bot.render.focus import plan
from carca_bot.render.yourtile import legal_squares, shown_squares
from carca_bot.service import GameOptions, GameService, Played, TurnView, User, Where
from carca_bot.service.history import pile, public_history, tally
from carca_bot.service.shown import moment_of
from carca_bot.words.alt import (
    ALT_LIMIT,
    board_alt,
    card_alt,
    history_alt,
    ranking_words,
    within,
    your_tile_alt,
)
from carca_bot.words.alt_end import chart_alt, pile_alt, replay_alt, summary_alt
from carca_bot.words.tiles import tile_name
from tests.service.helpers import rig

ANA, BEN = User("u-ana", "Ana"), User("u-ben", "Ben")
HERE = Where("guild", "channel")
LANGUAGES = ("en", "es")


@dataclass
class Turn:
    """A scoring move through the service: the view after it, the move (typed), and the
    game."""

    view: TurnView
    action: Played
    game: Game
    next_tile: str = "V"
    extra: dict[str, object] = field(default_factory=dict)


@pytest.fixture
async def turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Turn]:
    """Ana (or Ben, as seats are shuffled) completes a two-tile city with a follower:
    E at 0,-1 turned 180 against the start tile's city, +4."""
    rig(monkeypatch, ["E", "V"])
    service = await GameService.open(tmp_path / "alt.sqlite3")
    try:
        await service.create(HERE, ANA, GameOptions(seed=5))
        await service.join(HERE, BEN)
        view = await service.start(HERE, ANA)
        assert view.deciding is not None
        mover = ANA if view.deciding.user_id == ANA.id else BEN
        await service.begin_turn(HERE, mover)
        await service.place_tile(HERE, mover, 0, -1, 180)
        await service.deploy(HERE, mover, "follower", "S")
        view = await service.confirm(HERE, mover)
        game = await service.game(HERE)
        assert game is not None and view.played
        yield Turn(view, view.done[0], game, extra={"mover": mover.name})
    finally:
        await service.close()


def _other(turn: Turn) -> str:
    return "Ben" if turn.extra["mover"] == "Ana" else "Ana"


WORDS = {  # what each language says about that move and the next player
    "en": ("placed a tile with city side at 0,-1, turned 180 degrees", "a follower",
           "+4", "It is {next}'s turn"),
    "es": ("colocó una loseta con lado de ciudad en 0,-1, girada 180 grados",
           "un seguidor", "+4", "Es el turno de {next}"),
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_card_names_the_move_its_points_and_who_is_next(turn: Turn,
                                                                  language: str) -> None:
    mover, other = str(turn.extra["mover"]), _other(turn)
    beyond = sum(m.count for m in plan(turn.game, turn.next_tile).markers)
    with speaking(language):
        text = card_alt(turn.view, None, turn.next_tile, beyond)
    move, figure, points, nxt = WORDS[language]
    assert f"{mover} {move}" in text and figure in text and points in text
    assert nxt.format(next=other) in text
    with speaking(language):
        assert tile_name("V") in text
    assert len(text) <= ALT_LIMIT


@pytest.mark.parametrize("language", LANGUAGES)
async def test_my_tile_and_the_full_board_name_the_move_and_the_player(
        turn: Turn, language: str) -> None:
    mover, other = str(turn.extra["mover"]), _other(turn)
    game = turn.game.copy()
    squares = legal_squares(game, turn.next_tile)
    best, _rest = shown_squares(game, turn.next_tile)
    with speaking(language):
        mine = your_tile_alt(turn.view, None, turn.next_tile, squares, best)
        board = board_alt(turn.view, None, len(game.board.tiles))
    move, _figure, _points, nxt = WORDS[language]
    for text in (mine, board):
        assert f"{mover} {move}" in text and len(text) <= ALT_LIMIT
    assert other in mine and f"{best[0][0]},{best[0][1]}" in mine
    assert nxt.format(next=other) in board


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_history_moment_names_its_move_and_who_played_next(turn: Turn,
                                                                  language: str) -> None:
    after = moment_of(1, turn.game, 1)
    start = moment_of(1, turn.game, 0)
    with speaking(language):
        text = history_alt(after)
        first = history_alt(start)
    move, _figure, points, _nxt = WORDS[language]
    assert f"{turn.extra['mover']} {move}" in text and points in text
    assert _other(turn) in text.split(".")[-2]  # the last sentence: who plays next
    assert str(turn.extra["mover"]) in first and len(text) <= ALT_LIMIT
    assert after.action == turn.action


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_refreshed_picture_names_the_games_newest_move(turn: Turn,
                                                              language: str) -> None:
    """A view that made no move itself (a card refreshed after a vote, the board looked
    at): the game's newest action is named, and what it scored is not guessed."""
    quiet = dataclasses.replace(turn.view, played=(), events=())
    move, _figure, points, nxt = WORDS[language]
    with speaking(language):
        card = card_alt(quiet, turn.action, turn.next_tile)
        board = board_alt(quiet, turn.action, 2)
        nothing = card_alt(quiet, None)
    for text in (card, board):
        assert f"{turn.extra['mover']} {move}" in text and points not in text
        assert nxt.format(next=_other(turn)) in text
    assert move not in nothing and nxt.format(next=_other(turn)) in nothing


def _finished(seed: int, players: int = 3) -> Game:
    game = Game(Setup(("Ana", "Ben", "Cy", "Dee")[:players], frozenset(), seed=seed))
    rng = random.Random(seed)
    while not game.finished:
        play_random_turn(game, rng)
    return game


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_end_of_game_pictures_say_the_ranking(language: str) -> None:
    game = _finished(4)
    card = tally(public_history(game))
    winner = max(range(3), key=lambda p: (card.scores[p], -p))
    with speaking(language):
        texts = [summary_alt(card), chart_alt(card, [1, 2, 3]), replay_alt(card)]
        ranking = ranking_words(card.names, card.scores)
    for text in texts:
        assert ranking in text and len(text) <= ALT_LIMIT
        assert card.names[winner] in text.split(".")[1] + text  # the winner named
    assert ranking.startswith(card.names[winner])


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Ana and Ben share the win with 20 points each. Ranking: 1. Ana and Ben, 20 "
           "each (tied); 3. Dee 7; 4. Cy 9 (resigned)."),
    ("es", "Ana y Ben comparten la victoria con 20 puntos cada uno. Clasificación: 1. Ana y "
           "Ben, 20 cada uno (empate); 3. Dee 7; 4. Cy 9 (abandonó)."),
])
def test_ties_share_a_place_and_resigned_players_rank_last(language: str,
                                                           expected: str) -> None:
    with speaking(language):
        said = ranking_words(["Ana", "Ben", "Cy", "Dee"], [20, 20, 9, 7],
                             [False, False, True, False])
    assert said == expected


def test_long_names_and_many_scorings_stay_within_the_limit_and_keep_who_is_next() -> None:
    @dataclass
    class Seat:
        name: str
        score: int
        resigned: bool = False

    @dataclass
    class View:
        seats: Sequence[Seat]
        events: Sequence[object]
        deciding: Seat | None
        status: str = "active"
        must: str = "place"
        tiles_left: int = 20
        finished: bool = False
        done: Sequence[Played] = ()

        @property
        def standings(self) -> Sequence[Seat]:
            return self.seats

    names = [f"{'Ω' * 50}{i}\u202e" for i in range(6)]
    seats = [Seat(n, 10 * i) for i, n in enumerate(names)]
    game = _finished(2, 2)
    events = [e for s in public_history(game).steps for e in s.events][:40]
    action = Played(names[0], (PlaceTile("D", (1, 0), 1), Deploy("follower", "N"), EndTurn()))
    view = View(seats, events, seats[3], done=(action,))
    text = card_alt(view, None, "V", 12)
    assert len(text) <= ALT_LIMIT and "\u202e" not in text
    assert "It is " in text and "placed a tile with city side" in text
    assert within([("a" * 2000, 0)]) == "a" * (ALT_LIMIT - 1) + "…"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pile_is_counted_by_kind(language: str) -> None:
    left = pile(_finished(3, 2)) or (("D", 2), ("V", 5))
    with speaking(language):
        text = pile_alt(left)
        assert tile_name("V") in pile_alt((("D", 2), ("V", 5)))
    assert len(text) <= ALT_LIMIT


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tile_has_a_name_a_person_can_read(language: str) -> None:
    """Before: the terminal and the posts named tiles by catalogue id (AM8, RV-curve-g)."""
    from carca_bot.engine.catalogue import catalogue

    with speaking(language):
        names = {tile: tile_name(tile) for tile in catalogue().tiles}
        assert tile_name("ABBEY") not in ("ABBEY", "")
    assert all(name and tile not in name for tile, name in names.items())
    expected = {"en": ("road curve", "river curve, garden", "monastery, road end"),
                "es": ("curva de camino", "curva de río, jardín", "monasterio, final de camino")}
    assert (names["V"], names["RV-curve-g"], names["A"]) == expected[language]
