"""`/carc-event`, `/carc-profile` and `/carc-leaderboard` through real discord.py code
paths against the fake Discord: an organiser creates an event, players sign up, the
start opens a thread and a game per pairing, standings come with a CSV file; a
non-organiser is refused; every message says whom it may ping."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from carca_bot.bot.commands import ratings
from carca_bot.bot.posts import events, standings
from carca_bot.bot.posts.events import event_timers
from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.render.league import render_standings
from carca_bot.render.league_profile import render_profile
from carca_bot.service import Actor, GameOptions, User, Where
from tests.bot.conftest import ANA, BEN, CY, MANAGE_GUILD, BotHarness
from tests.bot.fake_discord import GUILD_ID, Request
from tests.bot.outgoing import assert_pings_only
from tests.bot.test_lobby import followups
from tests.service.test_league_ratings import play_turns

DEE = (100000000000000004, "Dee")
ORG = (100000000000000009, "Olga")
ORG_ROLE = "700000000000000001"
GUILD = str(GUILD_ID)


def event_command(h: BotHarness, user: tuple[int, str], sub: str, *, perms: int = 0,
                  roles: tuple[str, ...] = (), **options: Any) -> dict[str, Any]:
    """A `/carc-event SUB ...` interaction (a subcommand of a top-level group)."""
    payload = h.make.command(user, "/carc-event", _perms=perms, **options)
    data = payload["data"]
    data["options"] = [{"type": 1, "name": sub, "options": data["options"]}]
    payload["member"]["roles"] = list(roles)
    return payload


def assert_png(part: Any, name: str) -> Image.Image:
    """An attachment that is a real PNG picture, as Pillow reads it."""
    assert part.filename == name
    assert part.data.startswith(b"\x89PNG\r\n\x1a\n")
    picture = Image.open(io.BytesIO(part.data))
    picture.load()
    assert picture.format == "PNG" and picture.width > 100 and picture.height > 100
    return picture


def replies(requests: list[Request]) -> list[Request]:
    return followups(requests)


def threads(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.method == "POST" and r.path.endswith("/threads")]


def channel_posts(requests: list[Request]) -> list[Request]:
    return [r for r in requests if r.method == "POST" and r.path.startswith("/channels/")
            and r.path.endswith("/messages")]


async def set_up_event(h: BotHarness) -> list[Request]:
    """The organiser role chosen by the service (as an admin would), an event created by
    an organiser and four players signed up; every request made."""
    await h.bot.service.set_organiser_role(GUILD, Actor("1", "Admin", admin=True), ORG_ROLE)
    made = await h.send(event_command(h, ORG, "create", roles=(ORG_ROLE,), name="Autumn cup",
                                      format="swiss", rounds=3))
    for user in (ANA, BEN, CY, DEE):
        made += await h.send(event_command(h, user, "signup", event=1))
    return made


async def test_an_event_from_creation_to_opened_games(harness: BotHarness) -> None:
    h = harness
    made = await set_up_event(h)
    texts = [r.content for r in replies(made)]
    assert texts[0].startswith("Event created: #1 **Autumn cup** · Swiss · 0 players")
    assert "Dee signed up for #1 **Autumn cup** · Swiss · 4 players" in texts[-1]
    started = await h.send(event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1))
    # One thread and one game per pairing, each game's first post in its thread.
    made_threads = threads(started)
    assert len(made_threads) == 2
    assert all(t.json["name"].startswith("Autumn cup · round 1 · ") for t in made_threads)
    posts = channel_posts(started)
    assert len(posts) == 2
    for post in posts:
        assert post.content.startswith("**Autumn cup**, round 1: <@")
        assert post.files and post.files[0].filename == "board.png"
    (told,) = replies(started)
    assert told.content.startswith("#1 **Autumn cup** · Swiss · 4 players · running (round 1 "
                                   "of 3): round 1 is paired.")
    assert told.content.count("game #") == 2
    players = [str(u[0]) for u in (ANA, BEN, CY, DEE)]
    assert_pings_only(made + started, players)
    games = [await h.bot.service.status(Where(GUILD, p.path.split("/")[2]))
             for p in posts]
    assert all(g.status == "active" and len(g.seats) == 2 for g in games)
    assert {s.user_id for g in games for s in g.seats} == set(players)
    # Standings: a picture and the CSV file.
    shown = await h.send(event_command(h, ANA, "standings", event=1))
    (table,) = replies(shown)
    assert table.content.startswith("#1 **Autumn cup**")
    assert "The standings are in the picture; the CSV file has every row." in table.content
    assert len(table.files) == 2
    assert_png(table.files[0], "standings-1.png")
    assert table.files[1].filename == "standings-1.csv"
    assert table.files[1].data.decode().startswith("place,name,player,")
    assert_pings_only(shown)


async def test_a_non_organiser_is_refused_and_nothing_changes(harness: BotHarness) -> None:
    h = harness
    await set_up_event(h)
    refused = await h.send(event_command(h, ANA, "start", event=1))
    (said,) = replies(refused)
    assert said.ephemeral and said.content.startswith("Only organisers can do that")
    assert not threads(refused)
    assert (await h.bot.service.event_info(1)).status == "signup"
    # Choosing the organiser role needs Manage Server.
    (no,) = replies(await h.send(event_command(h, ORG, "organiser", roles=(ORG_ROLE,))))
    assert no.ephemeral and "Manage Server" in no.content
    assert await h.bot.service.organiser_role(GUILD) == ORG_ROLE
    (yes,) = replies(await h.send(event_command(h, ORG, "organiser", perms=MANAGE_GUILD)))
    assert yes.ephemeral and await h.bot.service.organiser_role(GUILD) is None
    # A second sign-up is refused in words.
    (twice,) = replies(await h.send(event_command(h, ANA, "signup", event=1)))
    assert twice.ephemeral and "already signed up" in twice.content


async def test_results_overrides_and_the_timers_posts(harness: BotHarness) -> None:
    h = harness
    await set_up_event(h)
    started = await h.send(event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1))
    info = await h.bot.service.event_info(1)
    current = info.event.current
    assert current is not None
    first, second = current.matches
    # A bad score list is refused with the seats to give; a good one sets the result.
    (bad,) = replies(await h.send(event_command(h, ORG, "result", roles=(ORG_ROLE,), event=1,
                                                match=first.id, scores="10")))
    assert bad.ephemeral and bad.content.startswith("Give 2 scores for game 1")
    done = await h.send(event_command(h, ORG, "result", roles=(ORG_ROLE,), event=1,
                                      match=first.id, scores="50, 70"))
    assert "the result of r1-1 was set by an organiser" in replies(done)[0].content
    loser = next(u for u in (ANA, BEN, CY, DEE) if str(u[0]) == second.seats[1])
    await h.send(event_command(h, ORG, "forfeit", roles=(ORG_ROLE,), event=1,
                               match=second.id, player=loser))
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None and info.event.current.complete
    # The timers announce the round with its standings and CSV, in the event's channel.
    before = len(h.fake.requests)
    assert await event_timers(h.bot) == 1
    posted = channel_posts(h.fake.since(before))
    assert len(posted) == 1 and "round 1 is over" in posted[0].content
    assert [f.filename for f in posted[0].files] == ["standings-1.png", "standings-1.csv"]
    assert_png(posted[0].files[0], "standings-1.png")
    # The picture is the standings after round 1, drawn in the event's language.
    info = await h.bot.service.event_info(1)
    expected = render_standings(
        standings.standing_rows(info, info.event.standings()), event="Autumn cup",
        tiebreaks=standings.picture_chain(info), round_no=1, rounds=3,
        language="en").data
    assert posted[0].files[0].data == expected
    assert posted[0].files[1].data.decode().startswith("place,name,player,")
    assert_pings_only(started + h.fake.since(before), [str(u[0]) for u in (ANA, BEN, CY, DEE)])


async def test_profile_and_leaderboard(harness: BotHarness) -> None:
    h = harness
    (empty,) = replies(await h.send(h.make.command(ANA, "/carc-profile")))
    assert not empty.ephemeral and "No finished game here yet." in empty.content
    (board,) = replies(await h.send(h.make.command(ANA, "/carc-leaderboard", pool="multi")))
    assert board.content.startswith("**Leaderboard, multiplayer** (page 1 of 1)")
    # A duel won by resignation: Ben's profile shows a provisional duel rating.
    where = Where(GUILD, str(h.make.channel_id))
    service = h.bot.service
    await service.create(where, User(str(ANA[0]), "Ana"), GameOptions(seed=3))
    await service.join(where, User(str(BEN[0]), "Ben"))
    # real play first: a game resigned before 5 moves of one's own is not rated
    await play_turns(service, await service.start(where, User(str(ANA[0]), "Ana")),
                     where=where)
    await service.resign(where, User(str(ANA[0]), "Ana"))
    (card,) = replies(await h.send(h.make.command(ANA, "/carc-profile", player=BEN)))
    assert card.content == "**Ben** on this server"
    assert_png(card.files[0], "profile.png")
    (spanish,) = replies(await h.send(h.make.command(ANA, "/carc-profile", player=BEN,
                                                     _locale="es-ES")))
    assert spanish.content == "**Ben** en este servidor"
    assert_png(spanish.files[0], "profile.png")
    # The card drawn is Ben's record, in Spanish for a Spanish speaker.
    ben = await service.profile(GUILD, str(BEN[0]))
    drawn = ratings.profile_card(ben, "Ben")
    assert drawn.games == 1 and drawn.wins == 1 and drawn.rating2 is not None
    assert drawn.provisional2 and drawn.rating_multi is None
    assert spanish.files[0].data == render_profile(drawn, language="es")
    assert card.files[0].data == render_profile(drawn, language="en") != spanish.files[0].data
    (page,) = replies(await h.send(h.make.command(ANA, "/carc-leaderboard")))
    assert "Nobody here yet" in page.content  # provisional players are left off
    assert_png(page.files[0], "leaderboard.png")


async def test_profile_as_text_when_the_picture_fails(harness: BotHarness,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture
                                                      ) -> None:
    """A picture that cannot be drawn leaves the record in words, nothing lost."""
    h = harness
    where = Where(GUILD, str(h.make.channel_id))
    service = h.bot.service
    await service.create(where, User(str(ANA[0]), "Ana"), GameOptions(seed=3))
    await service.join(where, User(str(BEN[0]), "Ben"))
    # real play first: a game resigned before 5 moves of one's own is not rated
    await play_turns(service, await service.start(where, User(str(ANA[0]), "Ana")),
                     where=where)
    await service.resign(where, User(str(ANA[0]), "Ana"))

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise OSError("no font")

    monkeypatch.setattr(ratings, "render_profile", broken)
    (card,) = replies(await h.send(h.make.command(ANA, "/carc-profile", player=BEN)))
    assert card.content.startswith("**Ben** on this server")
    assert "Rating, duels: " in card.content and "provisional, 1 rated game" in card.content
    assert "1 game, 1 won" in card.content
    assert not card.files
    (spanish,) = replies(await h.send(h.make.command(ANA, "/carc-profile", player=BEN,
                                                     _locale="es-ES")))
    assert "Puntuación, duelos:" in spanish.content
    # The failure is logged, with its traceback.
    said = [r for r in caplog.records if r.getMessage() == "profile: the picture could not "
                                                          "be drawn"]
    assert len(said) == 2 and all(r.exc_info for r in said)


async def test_event_words_are_all_translated(harness: BotHarness) -> None:
    """The pseudo-locale check: every message path here comes out marked."""
    h = harness
    await h.bot.service.set_organiser_role(GUILD, Actor("1", "Admin", admin=True), ORG_ROLE)
    said = []
    for payload in (
            event_command(h, ORG, "create", roles=(ORG_ROLE,), name="Cup", format="knockout",
                          _locale="qps"),
            event_command(h, ANA, "signup", event=1, _locale="qps"),
            event_command(h, BEN, "signup", event=1, _locale="qps"),
            event_command(h, ANA, "start", event=1, _locale="qps"),
            event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1, _locale="qps"),
            event_command(h, ANA, "standings", event=1, _locale="qps"),
            event_command(h, ANA, "list", _locale="qps")):
        said += [r.content for r in replies(await h.send(payload))]
    said += [r.content for r in replies(await h.send(
        h.make.command(ANA, "/carc-profile", _locale="qps")))]
    said += [r.content for r in replies(await h.send(
        h.make.command(ANA, "/carc-leaderboard", _locale="qps")))]
    assert len(said) == 9
    allowed = frozenset({"Cup", "Ana", "Ben", "Olga", "1", "r1-1"})
    with speaking("qps"):
        for text in said:
            body = text.split("```")[0]  # the table's rows are data
            assert untranslated(body, allowed=allowed) == [], text


async def test_the_timers_posts_are_all_translated(harness: BotHarness,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Round over, reminder and the organisers' digest, in the pseudo-language."""
    h = harness
    monkeypatch.setattr(events, "event_language", lambda info: "qps")
    await set_up_event(h)
    await h.send(event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1))
    service = h.bot.service
    info = await service.event_info(1)
    assert info.event.current is not None
    first = info.event.current.matches[0]
    await service.forfeit_match(1, Actor("1", "Admin", admin=True), first.id,
                                [first.seats[1]])
    posted = []
    start = len(h.fake.requests)
    deadline = info.event.current.deadline
    for when in (deadline - 3600, deadline + 3600):  # a reminder, then the digest
        notices = await service.check_events(when)
        for notice in notices:
            await events.announce(h.bot, notice)
    second = info.event.current.matches[1]
    await service.forfeit_match(1, Actor("1", "Admin", admin=True), second.id,
                                [second.seats[1]])
    for notice in await service.check_events(deadline + 7200):
        await events.announce(h.bot, notice)
    posted = [r.content for r in channel_posts(h.fake.since(start))]
    assert len(posted) == 3
    allowed = frozenset({"Autumn", "cup", "Ana", "Ben", "Cy", "Dee", "r1", "1", "2"})
    with speaking("qps"):
        for text in posted:
            body = text.split("```")[0]
            assert untranslated(body, allowed=allowed) == [], text
