"""Alt text through the fake Discord: every picture the bot posts has a description, in
the game's language on public posts and the reader's in private answers, that names the
last move and the player to act (the end of the game: the ranking); every file it sends
carries a description (issue 27).

The games here are short: the pile is cut to a few tiles, so a whole game, its final
post included, is played in seconds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from carca_bot.engine import supply
from carca_bot.engine.game import Game
from carca_bot.i18n import speaking
from carca_bot.words.alt import ranking_words
from tests.bot.cards import assert_card_reply, channel_posts
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.fake_discord import Request
from tests.bot.outgoing import assert_described, files_sent, gallery_items
from tests.bot.test_lobby import followups, lobby
from tests.bot.test_turns import choices, place_of

Player = tuple[int, str]
PLAYERS = {str(p[0]): p for p in (ANA, BEN)}
PILE = ("V", "U", "V", "E")  # after the start tile: four moves, then the final scoring


@dataclass(frozen=True)
class Words:
    """What each language's alt text says (from the catalogues)."""

    placed: str  # "{who} placed a tile with"
    turn: str  # "It is {who}'s turn"
    yours: str  # "It is your turn, {who}."
    last: str  # "Last move:"
    none: str  # no move yet
    next: str  # a history moment's next player
    over: str


WORDS = {
    "en": Words("{who} placed a tile with", "It is {who}'s turn", "It is your turn, {who}.",
                "Last move:", "No move has been played yet.", "Next to play: {who}.",
                "The game is over."),
    "es": Words("{who} colocó una loseta con", "Es el turno de {who}", "Es tu turno, {who}.",
                "Última jugada:", "Aún no se ha jugado ninguna jugada.",
                "Le tocaba a: {who}.", "La partida ha terminado."),
}


@pytest.fixture
def short_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game dealt in this test has only PILE to draw (replays too: the same deal)."""
    deal = supply.deal

    def short(game: Game) -> None:
        deal(game)
        game.supply = Counter(PILE)
        game.tile_order = tuple(sorted(game.supply))

    monkeypatch.setattr(supply, "deal", short)


def described(requests: list[Request], name: str) -> str:
    """The description of the one file called `name` these requests sent."""
    (about,) = [a for _req, file, a in files_sent(requests) if file == name]
    return about


async def to_act(h: BotHarness) -> Player | None:
    view = await h.bot.service.status(place_of(h))
    if view.finished or view.deciding is None or view.deciding.user_id is None:
        return None
    return PLAYERS[view.deciding.user_id]


def other(player: Player) -> Player:
    return BEN if player == ANA else ANA


async def one_turn(h: BotHarness, mover: Player, said: Words, last: str) -> str:
    """The mover's tile, their move, then the board and the history as the other player
    sees them; each picture's alt text checked. Returns what the move is called."""
    (tile,) = followups(await h.command(mover, "tile"))
    mine = described([tile], "your-tile.png")
    assert said.yours.format(who=mover[1]) in mine and f"{said.last} {last}" in mine, mine
    legal = await choices(h, mover)
    x, y, rot = legal.placements[0]
    shown = assert_card_reply(await h.command(mover, "place", square=f"{x},{y}",
                                              rotation=rot, confirm=True))
    move = said.placed.format(who=mover[1])
    card = described([shown.card], "board.png")
    (gallery,) = [about for _req, _url, about in gallery_items([shown.card])]
    assert gallery == card and move in card, card
    nxt = await to_act(h)
    if nxt is not None:
        assert said.turn.format(who=nxt[1]) in card, card
        for ask, then in (("board", said.turn), ("/carc-history", said.next)):
            (answer,) = followups(await h.command(other(mover), ask))
            about = described([answer], "board.png")
            assert move in about and then.format(who=nxt[1]) in about, (ask, about)
    return card[card.index(move):].split(".")[0]


@pytest.mark.parametrize(("locale", "language"), [("en-US", "en"), ("es-ES", "es")])
async def test_every_picture_names_the_last_move_and_the_player_to_act(
        harness: BotHarness, short_pile: None, locale: str, language: str) -> None:
    h, said = harness, WORDS[language]
    h.make.locale = h.make.guild_locale = locale
    await lobby(h, BEN, language=language)
    start = assert_card_reply(await h.command(ANA, "start"))
    first = await to_act(h)
    assert first is not None
    opening = described([start.card], "board.png")
    assert said.none in opening and said.turn.format(who=first[1]) in opening
    (tiles,) = followups(await h.command(ANA, "/carc-tiles"))
    assert described([tiles], "tiles-left.png")
    (record,) = followups(await h.command(BEN, "export"))
    assert described([record], "carcassonne-game-1.json")
    last, final = said.none, None
    mover: Player | None = first
    while mover is not None:
        before = len(h.fake.requests)
        last = await one_turn(h, mover, said, last)
        mover = await to_act(h)
        final = h.fake.since(before)
    assert final is not None
    (post,) = channel_posts(final)
    view = await h.bot.service.status(place_of(h))
    ranking = {name.replace(f"game-{view.game_id}-", ""): about
               for _req, name, about in files_sent([post])}
    with speaking(language):
        result = ranking_words([s.name for s in view.seats], [s.score for s in view.seats])
    assert said.over in ranking["board.png"] and last in ranking["board.png"]
    (animation,) = [n for n in ranking if n.startswith("replay.") and n != "replay.html"]
    for picture in ("board.png", "summary.png", animation):  # final board, card, replay
        assert result in ranking[picture], ranking[picture]
    assert_described(h.fake.requests)


def test_assert_described_fails_on_a_file_without_a_description() -> None:
    """The walk over every request finds a bare file (and a bare gallery picture)."""
    from tests.bot.fake_discord import Part

    bare = Request("POST", "/channels/1/messages", {}, {"attachments": [
        {"id": 0, "filename": "board.png"}]}, [Part("files[0]", "board.png", None, b"")])
    with pytest.raises(AssertionError):
        assert_described([bare])
    card: dict[str, object] = {"flags": 1 << 15, "components": [{"type": 12, "items": [
        {"media": {"url": "attachment://board.png"}}]}]}
    with pytest.raises(AssertionError):
        assert_described([Request("PATCH", "/channels/1/messages/2", {}, card)])
    ok = Request("POST", "/channels/1/messages", {}, {"attachments": [
        {"id": 0, "filename": "board.png", "description": "The board"}]},
        [Part("files[0]", "board.png", None, b"")])
    assert_described([ok])


@pytest.mark.parametrize(("locale", "profile", "board"), [
    ("en-US", "The profile of Ana. No finished game here yet.",
     "The leaderboard of This server, duels. No rated games yet."),
    ("es-ES", "El perfil de Ana. Todavía no hay ninguna partida terminada aquí.",
     "El ranking de Este servidor, duelos. Todavía no hay partidas puntuadas."),
])
async def test_the_profile_and_the_leaderboard_say_what_they_show(
        harness: BotHarness, locale: str, profile: str, board: str) -> None:
    h = harness
    h.make.locale = locale
    (card,) = followups(await h.command(ANA, "/carc-profile"))
    assert described([card], "profile.png") == profile
    (top,) = followups(await h.command(ANA, "/carc-leaderboard"))
    assert described([top], "leaderboard.png") == board
