"""What events post by themselves (issue 28), through the service's timers and the fake
Discord: a match forfeited at its round's deadline, then its result amended after the
end (with the standings now); a match forfeited and a player withdrawn after repeated
time-outs; the organisers' digest pinging the organiser role and the creator and
nobody else; an erased player (`former:N`) never written as a mention; and a clock
reminder naming the player's other games folded into it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from carca_bot.bot.posts import events
from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.league import LateGame
from carca_bot.service import EventNotice, User, Where
from carca_bot.service.clocks import HOUR
from tests.bot.conftest import ANA, BEN, BotHarness
from tests.bot.fake_discord import Request
from tests.bot.outgoing import assert_pings_only
from tests.bot.test_league_commands import (
    GUILD,
    ORG,
    ORG_ROLE,
    assert_png,
    channel_posts,
    event_command,
    replies,
)
from tests.bot.test_league_events import ADMIN, create, organiser_role
from tests.league.test_clock_events import anas_turn
from tests.service.helpers import Clock
from tests.service.test_clock_games import TEN_HOURS

FORMER = User("former:7", "Former player 7")


@pytest.fixture(autouse=True)
def rated_without_real_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games here end by forfeits and time-outs (who lost is what matters)."""
    monkeypatch.setattr("carca_bot.service.ratings_ops.MIN_OWN_MOVES", 0)


async def announced(h: BotHarness, notices: list[EventNotice]) -> list[Request]:
    """Post every notice as the client's timer loop does; the channel posts made."""
    start = len(h.fake.requests)
    for notice in notices:
        await events.announce(h.bot, notice)
    await h.settle()
    return channel_posts(h.fake.since(start))


async def duel(h: BotHarness, **options: Any) -> None:
    """Event 1, a one-round Swiss of Ana and Ben, started: its game open in a thread."""
    await organiser_role(h)
    await create(h, name="Autumn cup", format="swiss", rounds=1, **options)
    for user in (ANA, BEN):
        await h.send(event_command(h, user, "signup", event=1))
    await h.send(event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1))


async def test_a_deadline_forfeit_then_an_amended_result(harness: BotHarness) -> None:
    h = harness
    await duel(h, forfeit_at_deadline=True)
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    match = info.event.current.matches[0]
    first, second = match.seats  # the game waits for the first player
    posts = await announced(h, await h.bot.service.check_events(
        info.event.current.deadline + 60))
    forfeit = next(p for p in posts if "by forfeit" in p.content)
    assert forfeit.content == (
        f"**Autumn cup**: r1-1 was still open at its round's deadline, so <@{first}> loses "
        "it by forfeit (the game was waiting for them).")
    assert_pings_only([forfeit], [first])
    assert (await h.bot.service.event_info(1)).status == "finished"
    # The organiser sets the result after the end: the places swap, announced with the
    # final standings as they are now; the event stays finished.
    done = await h.send(event_command(h, ORG, "result", roles=(ORG_ROLE,), event=1,
                                      match="r1-1", scores="90, 40", note="scoresheet"))
    assert "the result of r1-1 was set by an organiser" in replies(done)[0].content
    (amended,) = await h.bot.service.check_events()
    (post,) = await announced(h, [amended])
    names = {str(ANA[0]): "Ana", str(BEN[0]): "Ben"}
    lines = post.content.split("\n")
    assert lines[:4] == [
        f"**Autumn cup**: the result of r1-1 (round 1) was amended by <@{ORG[0]}>.",
        "Note: scoresheet",
        f"Places changed: {names[first]} 2 → 1, {names[second]} 1 → 2.",
        "The final standings now:"]  # no game was played to the end: none was rated
    assert [f.filename for f in post.files] == ["standings-1.png", "standings-1.csv"]
    assert_png(post.files[0], "standings-1.png")
    assert post.files[1].data.decode().split("\r\n")[1].startswith(f"1,{names[first]},")
    assert_pings_only([post])  # the organiser is named, not pinged
    assert (await h.bot.service.event_info(1)).status == "finished"
    # Re-rated games are said; a timer's ruling names nobody; an erased organiser's
    # pseudonym is no mention.
    for news, head in (
            ({"rated": True}, f"was amended by <@{ORG[0]}>."),
            ({"by": None, "note": "deadline"}, "(round 1) was amended."),
            ({"by": "former:3", "moves": []}, "(round 1) was amended by **an organiser**.")):
        (post,) = await announced(h, [dataclasses.replace(amended,
                                                          news={**amended.news, **news})])
        assert post.content.split("\n")[0].endswith(head), post.content
        assert ("The ratings of its games were counted again." in post.content) == (
            "rated" in news)
        assert ("Note: scoresheet" in post.content) == ("note" not in news)  # a timer's
        # own reason ("deadline") is no organiser's note
        assert "former" not in post.content
    assert "No place changed." in post.content


@pytest.mark.parametrize(("rule", "words"), [
    ("forfeit", "**Autumn cup**: <@{late}> ran out of time 2 times in their game of r1-1, "
                "and loses the match by forfeit."),
    ("expel", "**Autumn cup**: <@{late}> ran out of time 2 times in the event's games, and "
              "is withdrawn from the event.")])
async def test_repeated_time_outs_are_announced(harness: BotHarness, rule: str,
                                                words: str) -> None:
    h = harness
    clock = Clock()
    h.bot.service.clock = clock
    await duel(h, bank_hours=1, increment_hours=1, cap_hours=2, timeouts=rule,
               timeout_limit=2)
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    late = info.event.current.matches[0].seats[0]
    news: list[EventNotice] = []
    for _ in range(60):
        clock.now += 600
        await h.bot.service.check_timers()
        news = [n for n in await h.bot.service.check_events() if n.kind.startswith("timeout")]
        if news:
            break
    (post,) = await announced(h, news)
    assert post.content == words.format(late=late)
    assert_pings_only([post], [late])


async def test_the_digest_pings_the_organiser_role_and_the_creator_only(
        harness: BotHarness) -> None:
    h = harness
    await duel(h)
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    notices = await h.bot.service.check_events(info.event.current.deadline + 2 * 86400)
    (digest,) = [n for n in notices if n.kind == "late_digest"]
    (post,) = await announced(h, [digest])
    assert post.content.split("\n")[0] == (f"<@&{ORG_ROLE}> <@{ORG[0]}>, late games in "
                                           "**Autumn cup**:")
    assert post.content.split("\n")[1] == "• r1-1: Ana, Ben, 2.0 days late" or \
        post.content.split("\n")[1] == "• r1-1: Ben, Ana, 2.0 days late"
    mentions = post.json["allowed_mentions"]
    assert mentions["parse"] == [] and [str(r) for r in mentions["roles"]] == [ORG_ROLE]
    assert [str(u) for u in mentions["users"]] == [str(ORG[0])]
    # The creator's data erased: their pseudonym is no mention; the role still is.
    (post,) = await announced(h, [dataclasses.replace(digest,
                                                      ping_users=("former:7",))])
    assert post.content.startswith(f"<@&{ORG_ROLE}>, late games in **Autumn cup**:")
    assert "former" not in post.content
    assert post.json["allowed_mentions"]["users"] == []
    # No organiser role and nobody to ping: the digest still goes, pinging nobody.
    (post,) = await announced(h, [dataclasses.replace(digest, ping_roles=(),
                                                      ping_users=("former:7",))])
    assert post.content.startswith("Late games in **Autumn cup**:")
    assert_pings_only([post])


async def test_an_erased_player_is_named_never_mentioned(harness: BotHarness) -> None:
    h = harness
    await organiser_role(h)
    await create(h, name="Autumn cup", format="swiss", rounds=1)
    await h.send(event_command(h, ANA, "signup", event=1))
    await h.bot.service.sign_up(1, FORMER)  # as the privacy rewrite leaves an entrant
    started = await h.send(event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1))
    (first,) = [p for p in channel_posts(started) if "Good luck" in p.content]
    assert "**Former player 7**" in first.content and f"<@{ANA[0]}>" in first.content
    assert "<@former" not in first.content
    assert_pings_only(started, [ANA[0]])
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    notices = await h.bot.service.check_events(info.event.current.deadline - HOUR)
    (post,) = await announced(h, [n for n in notices if n.kind == "reminder"])
    assert post.content.endswith(f"• r1-1: <@{ANA[0]}>, **Former player 7**") or \
        post.content.endswith(f"• r1-1: **Former player 7**, <@{ANA[0]}>")
    assert_pings_only([post], [ANA[0]])


async def test_a_clock_reminder_names_the_games_folded_into_it(harness: BotHarness) -> None:
    h = harness
    clock = Clock()
    h.bot.service.clock = clock
    here = Where(GUILD, str(h.make.channel_id))
    there = Where(GUILD, str(h.make.channel_id + 1))
    t0 = clock.now
    first = await anas_turn(h.bot.service, User(str(BEN[0]), "Ben"), TEN_HOURS, here)
    clock.now = t0 + HOUR
    second = await anas_turn(h.bot.service, User("100000000000000003", "Cy"), TEN_HOURS,
                             there)  # runs out at t0 + 11 h
    # and one on another server: counted in this server's channel, never named
    await anas_turn(h.bot.service, User("100000000000000004", "Dee"), TEN_HOURS,
                    Where("999", str(h.make.channel_id + 2)))
    clock.now = t0 + 5 * HOUR
    (report,) = [r for r in await h.bot.service.check_timers()
                 if r.reason == "clock_reminder"]
    assert report.game_id == first.game_id
    start = len(h.fake.requests)
    await h.bot.announce_timer(report)
    await h.settle()
    (ping,) = channel_posts(h.fake.since(start))
    assert ping.path == f"/channels/{here.channel}/messages"
    assert ping.content.startswith(f"⏰ <@{ANA[0]}>, the game is waiting for you")
    assert ping.content.endswith(
        f"\nAlso waiting for you: game #{second.game_id} in <#{there.channel}>, runs out "
        f"<t:{int(t0 + 11 * HOUR)}:R>; 1 game on another server.")
    assert_pings_only([ping], [ANA[0]])


async def test_the_new_posts_and_answers_are_all_translated(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-language: every news post, the digest, pairings and a league's
    overview come out marked; only data is left."""
    h = harness
    monkeypatch.setattr(events, "event_language", lambda info: "qps")
    await duel(h, forfeit_at_deadline=True)
    info = await h.bot.service.event_info(1)
    assert info.event.current is not None
    late = info.event.current.matches[0].seats[0]
    said = [r.content for r in replies(await h.send(event_command(
        h, BEN, "pairings", event=1, _locale="qps")))]
    notices = await h.bot.service.check_events(info.event.current.deadline + 2 * 86400)
    posts = await announced(h, notices)
    other = next(p for p in (str(ANA[0]), str(BEN[0])) if p != late)
    await h.bot.service.override_result(1, ADMIN, "r1-1", [[(late, 90), (other, 40)]],
                                        "sheet")
    (amended,) = await h.bot.service.check_events()
    digest = dataclasses.replace(amended, kind="late_digest", ping_roles=(ORG_ROLE,),
                                 ping_users=(str(ORG[0]),), games=(LateGame(
                                     "r1-1", 1, (str(ANA[0]), str(BEN[0])), 0.0, 86400.0),))
    made = [amended, digest,
            dataclasses.replace(amended, kind="timeout_forfeit",
                                news={"match": "r1-1", "player": late, "timeouts": 3}),
            dataclasses.replace(amended, kind="timeout_expelled",
                                news={"player": late, "timeouts": 3})]
    posts += await announced(h, made)
    said += [p.content for p in posts]
    assert len(said) == 7
    allowed = frozenset({"Autumn", "cup", "Ana", "Ben", "Olga", "r1", "sheet", "CSV"})
    with speaking("qps"):
        for text in said:
            body = text.split("```")[0]
            assert untranslated(body, allowed=allowed) == [], text
