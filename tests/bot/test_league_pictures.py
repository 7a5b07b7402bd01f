"""The league pictures as Discord gets them, through the fake Discord: leaderboard pages
(a page past the end gives the last), standings drawn with the event's tie-break chain
(head-to-head worked out as the chain used it) and spread over several pictures for a
big event, each in the language of whoever reads it, and hostile names that neither
break a picture nor ping anyone."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from carca_bot.bot.posts import events
from carca_bot.bot.posts import standings as pictures
from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.render.league import LeaderRow, render_leaderboard, render_standings
from carca_bot.service import Actor, GameOptions, User, Where, event_config
from carca_bot.store import RatingHistoryRow, RatingRow
from tests.bot.conftest import ANA, BotHarness
from tests.bot.outgoing import assert_pings_only
from tests.bot.test_league_commands import GUILD, assert_png, channel_posts, event_command
from tests.bot.test_lobby import followups
from tests.service.test_league_ratings import play_turns

ADMIN = Actor("1", "Admin", admin=True)
# Markdown, mentions, a right-to-left override, a newline, a zero-width joiner, emoji, and
# far too long for any column.
HOSTILE = "@everyone <@100000000000000001> **big** `x` \u202egnp.exe\n" + "\u200d🐉" * 40


def hostile_is_harmless(requests: list[Any]) -> None:
    """Nobody pinged, and no message carries the mention of everyone unescaped."""
    assert_pings_only(requests)
    for r in requests:
        assert "@everyone" not in r.content.replace("\\@everyone", ""), r.content


async def seed_board(h: BotHarness, players: int) -> list[RatingRow]:
    """`players` established duel ratings (12 games each), the first one named HOSTILE."""
    rows = [RatingRow(GUILD, "duel", str(500 + i), HOSTILE if i == 0 else f"Player {i}",
                      30.0 - i * 0.5, 2.0, 12) for i in range(players)]
    # each against three others (a leaderboard lists players with 3 different opponents)
    met = [RatingHistoryRow(GUILD, 1000 + 3 * i + k, str(500 + who), "duel", float(i), 1, 2,
                            25.0, 8.3, 25.0, 8.3, 1)
           for i in range(players) for k in (1, 2, 3) for who in (i, (i + k) % players)]
    await h.bot.service.store.save_ratings(GUILD, met, rows)
    return rows


def board_rows(found: Any) -> list[LeaderRow]:
    return [LeaderRow(r.place, r.name, r.rating, r.games, r.provisional) for r in found.rows]


async def test_leaderboard_pages_and_languages(harness: BotHarness) -> None:
    h = harness
    await seed_board(h, 20)
    whole = await h.bot.service.leaderboard(GUILD, "duel", 1, per_page=100)
    assert whole.total == 20
    made = []
    for page, locale, shown in ((1, None, 1), (2, None, 2), (1000, None, 2), (1, "es-ES", 1)):
        options: dict[str, Any] = {"page": page}
        if locale:
            options["_locale"] = locale
        sent = await h.send(h.make.command(ANA, "/carc-leaderboard", **options))
        made += sent
        (said,) = followups(sent)
        assert not said.ephemeral and len(said.files) == 1
        picture = assert_png(said.files[0], "leaderboard.png")
        language = "es" if locale else "en"
        expected = render_leaderboard(board_rows(whole), server="This server" if not locale
                                      else "Este servidor", pool="duel", language=language,
                                      page=page)
        assert (expected.page, expected.pages) == (shown, 2)
        assert said.files[0].data == expected.data
        if locale:
            assert said.content == "**Ranking, duelos** (página 1 de 2)"
        else:
            assert said.content == f"**Leaderboard, duels** (page {shown} of 2)"
        assert picture.height < 3000  # a page, not the whole board
    hostile_is_harmless(made)


async def make_event(h: BotHarness, players: list[tuple[int, str]], language: str = "en",
                     tiebreaks: tuple[str, ...] = ()) -> None:
    """Event 1, a 3-round Swiss, with these players signed up and started."""
    where = Where(GUILD, str(h.make.channel_id))
    config = event_config("swiss", rounds=3, tiebreaks=tiebreaks)
    await h.bot.service.create_event(where, ADMIN, "Spring cup", config,
                                     GameOptions(language=language))
    for user_id, name in players:
        await h.bot.service.sign_up(1, User(str(user_id), name))
    await h.bot.service.start_event(1, ADMIN)


async def play_round(h: BotHarness) -> None:
    """Every open match of the round decided by an organiser: the first seat wins 60-40."""
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    for m in info.event.current.matches:
        if not m.bye and not m.decided:
            await h.bot.service.override_result(1, ADMIN, m.id,
                                                [[(m.seats[0], 60), (m.seats[1], 40)]], "")


async def test_big_standings_come_as_several_pictures_in_spanish(harness: BotHarness) -> None:
    h = harness
    players = [(200000000000000000 + i, HOSTILE if i == 0 else f"P{i}") for i in range(20)]
    await make_event(h, players, language="es")
    await play_round(h)
    before = len(h.fake.requests)
    assert await events.event_timers(h.bot) == 1
    made = h.fake.since(before)
    (post,) = channel_posts(made)
    assert post.content.startswith("**Spring cup**: ")
    assert ("La clasificación está en las 2 imágenes; el archivo CSV tiene todas las filas."
            in post.content)
    names = [f.filename or "" for f in post.files]
    assert names == ["standings-1.png", "standings-1-2.png", "standings-1.csv"]
    info = await h.bot.service.event_info(1)
    rows = pictures.standing_rows(info, info.event.standings())
    assert len(rows) == 20 and sum(r.wins for r in rows) == 10
    for page, part in enumerate(post.files[:2], start=1):
        assert_png(part, names[page - 1])
        assert part.data == render_standings(
            rows, event="Spring cup", tiebreaks=pictures.picture_chain(info),
            round_no=1, rounds=3, language="es", page=page).data
    # The same standings asked for by an English speaker: English pictures.
    sent = await h.send(event_command(h, ANA, "standings", event=1))
    (said,) = followups(sent)
    assert "The standings are in the 2 pictures" in said.content
    assert said.files[0].data == render_standings(
        rows, event="Spring cup", tiebreaks=pictures.picture_chain(info), round_no=1,
        rounds=3, language="en").data != post.files[0].data
    hostile_is_harmless(made + sent)


async def test_standings_rows_follow_the_chain(harness: BotHarness) -> None:
    """Wins are the points column, so the chain's other keys are the tie-break columns, in
    its order; head-to-head is counted among the players level before it."""
    h = harness
    players = [(300000000000000000 + i, f"Q{i}") for i in range(4)]
    await make_event(h, players, tiebreaks=("wins", "head_to_head", "difference"))
    await play_round(h)
    info = await h.bot.service.event_info(1)
    assert pictures.picture_chain(info) == ["head_to_head", "difference"]
    standings = info.event.standings()
    rows = pictures.standing_rows(info, standings)
    by_name = {r.name: r for r in rows}
    winners = [r for r in rows if r.wins == 1]
    losers = [r for r in rows if r.losses == 1]
    assert len(winners) == len(losers) == 2
    assert all(r.points == 1 and r.played == 1 and r.draws == 0 for r in winners)
    # Each winner beat a loser, not the other winner: head-to-head 0 inside each group.
    assert all(r.tiebreaks[0] == 0 for r in rows)
    assert all(r.tiebreaks[1] == 20 for r in winners)
    assert all(r.tiebreaks[1] == -20 for r in losers)
    assert [r.rank for r in rows] == [s.place for s in standings]
    assert set(by_name) == {f"Q{i}" for i in range(4)}
    # A single picture through the command, and it decodes.
    (said,) = followups(await h.send(event_command(h, ANA, "standings", event=1)))
    assert [f.filename for f in said.files] == ["standings-1.png", "standings-1.csv"]
    picture = Image.open(io.BytesIO(said.files[0].data))
    assert picture.format == "PNG"


async def test_standings_as_text_when_the_pictures_do_not_fit(harness: BotHarness,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """Pictures too big for the upload limit: the text table and the CSV instead."""
    h = harness
    await make_event(h, [(300000000000000000 + i, f"Q{i}") for i in range(4)])
    monkeypatch.setattr(pictures, "render_standings",
                        lambda *a, **k: render_standings(*a, **k)._replace(
                            data=b"\x89PNG" + bytes(120 * 1024 * 1024)))
    (said,) = followups(await h.send(event_command(h, ANA, "standings", event=1)))
    assert "```" in said.content and "Q1" in said.content
    assert [f.filename for f in said.files] == ["standings-1.csv"]


async def test_the_text_table_shows_the_events_own_tie_breaks(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The text table (when no picture can go) heads its columns with the event's chosen
    tie-breaks, as the picture does, not a fixed Buchholz column."""
    h = harness
    await make_event(h, [(300000000000000000 + i, f"Q{i}") for i in range(4)],
                     tiebreaks=("sonneborn_berger", "median", "scored"))
    await play_round(h)
    await h.bot.service.check_events()
    await h.bot.service.pair_next_round(1, ADMIN)
    await play_round(h)
    monkeypatch.setattr(pictures, "render_standings",
                        lambda *a, **k: render_standings(*a, **k)._replace(
                            data=b"\x89PNG" + bytes(120 * 1024 * 1024)))
    (said,) = followups(await h.send(event_command(h, ANA, "standings", event=1)))
    header = said.files[0].data.decode().split("\r\n")[0].split(",")
    assert header[-4:] == ["sonneborn_berger", "median", "scored", "withdrawn"]  # the CSV
    table = said.content.split("```")[1].strip("\n").split("\n")
    assert table[0] == "Pl.  Player               Wins     SB    Med  Games"
    assert len(table) == 5 and all(len(line) == len(table[0]) for line in table)
    info = await h.bot.service.event_info(1)
    first = info.event.standings()[0]
    assert first.sonneborn_berger > 0
    assert table[1].split()[-4:] == [f"{first.wins:g}", f"{first.sonneborn_berger:g}",
                                     f"{first.median:g}", str(first.played)]
    (spanish,) = followups(await h.send(event_command(h, ANA, "standings", event=1,
                                                      _locale="es-ES")))
    assert spanish.content.split("```")[1].strip("\n").startswith(
        "Pos. Jugador             Vict.     SB    Med     PJ\n")


async def test_table_standings_count_placing_points(harness: BotHarness) -> None:
    """At multiplayer tables the points are placing points (5-3-2-1) and the columns after
    them are the chain's rest: points scored (wins have their own columns)."""
    h = harness
    where = Where(GUILD, str(h.make.channel_id))
    await h.bot.service.create_event(where, ADMIN, "Tables", event_config("tables"),
                                     GameOptions())
    for i in range(4):
        await h.bot.service.sign_up(1, User(str(400000000000000000 + i), f"T{i}"))
    await h.bot.service.start_event(1, ADMIN)
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    (match,) = info.event.current.matches
    scores = [90, 70, 70, 10]
    await h.bot.service.override_result(
        1, ADMIN, match.id, [list(zip(match.seats, scores, strict=True))], "")
    info = await h.bot.service.event_info(1)
    assert pictures.picture_chain(info) == ["scored"]
    rows = pictures.standing_rows(info, info.event.standings())
    assert [(r.points, r.wins, r.draws, r.losses) for r in rows] == [
        (5, 1, 0, 0), (2.5, 0, 0, 1), (2.5, 0, 0, 1), (1, 0, 0, 1)]
    assert [r.tiebreaks for r in rows] == [(90.0,), (70.0,), (70.0,), (10.0,)]
    (said,) = followups(await h.send(event_command(h, ANA, "standings", event=1)))
    assert_png(said.files[0], "standings-1.png")


async def test_a_hostile_name_on_a_profile_card(harness: BotHarness) -> None:
    h = harness
    where = Where(GUILD, str(h.make.channel_id))
    service = h.bot.service
    ben = (100000000000000002, HOSTILE)
    await service.create(where, User(str(ANA[0]), "Ana"), GameOptions(seed=3))
    await service.join(where, User(str(ben[0]), HOSTILE))
    # real play first: a game resigned before 5 moves of one's own is not rated
    await play_turns(service, await service.start(where, User(str(ANA[0]), "Ana")),
                     where=where)
    await service.resign(where, User(str(ANA[0]), "Ana"))
    sent = await h.send(h.make.command(ANA, "/carc-profile", player=ben))
    (card,) = followups(sent)
    assert "\n" not in card.content and len(card.content) < 200
    assert_png(card.files[0], "profile.png")
    hostile_is_harmless(sent)


async def test_cut_standings_say_so_in_every_language(harness: BotHarness,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """More players than the pictures hold: the line says how many places they show, and
    it is translated (the pseudo-locale check)."""
    h = harness
    monkeypatch.setattr(pictures, "PICTURE_PAGES", 1)
    await make_event(h, [(200000000000000000 + i, f"P{i}") for i in range(20)])
    (said,) = followups(await h.send(event_command(h, ANA, "standings", event=1)))
    assert "The pictures show the first 15 places; the CSV file has every row." in said.content
    assert [f.filename for f in said.files] == ["standings-1.png", "standings-1.csv"]
    (es,) = followups(await h.send(event_command(h, ANA, "standings", event=1,
                                                 _locale="es-ES")))
    assert "Las imágenes muestran los 15 primeros puestos" in es.content
    (qps,) = followups(await h.send(event_command(h, ANA, "standings", event=1,
                                                  _locale="qps")))
    with speaking("qps"):
        line = qps.content.split("\n")[1]
        assert untranslated(line, allowed=frozenset({"15"})) == [], line
