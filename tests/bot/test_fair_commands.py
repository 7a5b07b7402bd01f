"""Fair play and the rating reads on Discord (issues 26 and 28), through the fake Discord:
`/carc-admin void` (confirmed first) and `restore`, announced with every rating moved;
`/carc-profile` with the uncertainty, aborted games, recent opponents and the rating
history chart; `/carc-versus`; the leaderboard's distinct-opponents rule and its
provisional rows; the rating line of a game's last post; vacations game by game; and
time zones from the tz database only."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from carca_bot.bot.commands import ratings, versus
from carca_bot.bot.words.clocks import time_zone, time_zones
from carca_bot.bot.words.refused import Refused
from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.league.ratings import Rating
from carca_bot.render.league_profile import (
    render_head_to_head,
    render_profile,
    render_rating_history,
)
from carca_bot.service import GameOptions, TurnView, User, Where
from carca_bot.service.model import clock_rules
from tests.bot.conftest import ANA, BEN, CY, MANAGE_GUILD, BotHarness
from tests.bot.fake_discord import GUILD_ID, Request
from tests.bot.outgoing import assert_clean, unmarked
from tests.bot.test_history import fast_forward
from tests.bot.test_league_commands import assert_png, channel_posts
from tests.bot.test_lobby import custom_ids, followups, lobby
from tests.bot.test_turns import started
from tests.service.test_league_ratings import play_turns

DEE = (100000000000000004, "Dee")
EVE = (100000000000000005, "Eve")
ADMIN = (100000000000000009, "Olga")
GUILD = str(GUILD_ID)
Player = tuple[int, str]


def here(h: BotHarness, channel: int | None = None) -> Where:
    return Where(GUILD, str(channel or h.make.channel_id))


def user(p: Player) -> User:
    return User(str(p[0]), p[1])


async def duel(h: BotHarness, winner: Player, loser: Player, real: bool = True) -> TurnView:
    """A duel in the harness's channel that `loser` resigns: after each made five moves of
    their own (rated), or at once (an abort)."""
    service, where = h.bot.service, here(h)
    await service.create(where, user(winner), GameOptions(seed=3))
    await service.join(where, user(loser))
    view = await service.start(where, user(winner))
    if real:
        view = await play_turns(service, view, where=where)
    return await service.resign(where, user(loser))


async def round_robin(h: BotHarness, players: tuple[Player, ...] = (ANA, BEN, CY, DEE)
                      ) -> None:
    """Every pair plays one rated duel, the first of the pair winning."""
    for i, first in enumerate(players):
        for second in players[i + 1:]:
            await duel(h, first, second)


def broken(*args: Any, **kwargs: Any) -> bytes:
    raise OSError("no font")


def admin_command(h: BotHarness, who: Player, sub: str, perms: int = 0,
                  **options: Any) -> dict[str, Any]:
    """A `/carc-admin SUB ...` interaction (a subcommand of a top-level group)."""
    payload = h.make.command(who, "/carc-admin", _perms=perms, **options)
    payload["data"]["options"] = [{"type": 1, "name": sub,
                                   "options": payload["data"]["options"]}]
    return payload


async def click(h: BotHarness, who: Player, custom_id: str, perms: int = 0,
                ephemeral: bool = True) -> list[Request]:
    payload = h.make.component(who, custom_id, ephemeral=ephemeral)
    payload["member"]["permissions"] = str(perms)
    return await h.send(payload)


async def board(h: BotHarness) -> dict[tuple[str, str], tuple[float, float, int]]:
    return {(r.pool, r.user_id): (r.mu, r.sigma, r.games)
            for r in await h.bot.service.store.ratings(GUILD)}


def refusal(requests: list[Request]) -> str:
    (said,) = followups(requests)
    assert said.ephemeral
    return said.content


def edited(requests: list[Request]) -> Request:
    (edit,) = [r for r in requests if r.method == "PATCH"]
    return edit


# -- voiding a player's rated results --------------------------------------------------


async def test_an_admin_voids_after_confirming_and_restores(harness: BotHarness) -> None:
    h = harness
    await round_robin(h)
    before = await board(h)
    ben = str(BEN[0])
    made: list[Request] = []
    # Only Manage Server may: refused privately, nothing changes.
    made += (no := await h.send(admin_command(h, ANA, "void", player=BEN)))
    assert refusal(no).startswith("Only members with the Manage Server permission can void")
    # The admin is asked first, privately, with two buttons; nothing changes yet.
    made += (asked := await h.send(admin_command(h, ADMIN, "void", MANAGE_GUILD, player=BEN)))
    (question,) = followups(asked)
    assert question.ephemeral
    assert question.content.startswith("Void the rated results of **Ben** on this server?")
    assert custom_ids(question) == [f"carcv:void:0:{ben}", f"carcv:keep:0:{ben}"]
    assert await board(h) == before
    made += (kept := await click(h, ADMIN, f"carcv:keep:0:{ben}", MANAGE_GUILD))
    assert edited(kept).json["content"] == "Cancelled: nothing was voided."
    assert edited(kept).json["components"] == []
    # A forged confirm from anyone else changes nothing and posts nothing.
    made += (forged := await click(h, ANA, f"carcv:void:0:{ben}", ephemeral=False))
    assert refusal(forged).startswith("Only members with the Manage Server permission")
    assert not channel_posts(forged) and await board(h) == before
    # Confirmed: voided, announced in the channel with every rating it moved.
    made += (done := await click(h, ADMIN, f"carcv:void:0:{ben}", MANAGE_GUILD))
    assert edited(done).json["content"] == "Done: announced in this channel."
    (post,) = channel_posts(done)
    lines = post.content.split("\n")
    assert lines[0] == ("⚖️ A server admin voided the rated results of Ben: 3 games no "
                        "longer count for anyone, and the ratings were worked out again "
                        "without them.")
    assert lines[1] == "Ratings now:"
    after = await board(h)
    assert after != before
    for key, (mu, sigma, games) in sorted(after.items()):
        if before.get(key) != (mu, sigma, games):
            old = before[key]
            name = {str(p[0]): p[1] for p in (ANA, CY, DEE)}[key[1]]
            assert (f"• {name}, duels: {Rating(old[0], old[1]).ordinal:.1f} → "
                    f"{Rating(mu, sigma).ordinal:.1f} ({old[2]} → {games} rated games)"
                    ) in lines
    assert any(line.startswith("• Ben, duels: ") for line in lines)
    assert ben not in {p for _pool, p in after} or after[("duel", ben)] != before[("duel", ben)]
    # Twice: nothing left to void. Then restored: every rating as it was.
    made += (again := await click(h, ADMIN, f"carcv:void:0:{ben}", MANAGE_GUILD))
    assert refusal(again) == "Ben has no rated results on this server to void"
    made += (back := await h.send(admin_command(h, ADMIN, "restore", MANAGE_GUILD,
                                                player=BEN)))
    (told,) = channel_posts(back)
    assert told.content.startswith("⚖️ A server admin restored the rated results of Ben: "
                                   "3 games count again")
    assert await board(h) == before
    made += (twice := await h.send(admin_command(h, ADMIN, "restore", MANAGE_GUILD,
                                                 player=BEN)))
    assert refusal(twice) == "The rated results of Ben are not voided"
    assert_clean(made)


async def test_nothing_to_void_is_said_before_asking(harness: BotHarness) -> None:
    requests = await harness.send(admin_command(harness, ADMIN, "void", MANAGE_GUILD,
                                                player=CY))
    assert refusal(requests) == "Cy has no rated results on this server to void"


# -- profiles, history, head to head ----------------------------------------------------


async def played_some(h: BotHarness) -> None:
    """Ana beats Ben in a rated duel; Cy leaves Ana's next game at once (an abort)."""
    await duel(h, ANA, BEN)
    await duel(h, ANA, CY, real=False)


async def test_the_profile_card_shows_uncertainty_aborts_and_opponents(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await played_some(h)
    (card,) = followups(await h.send(h.make.command(ANA, "/carc-profile")))
    assert card.content == "**Ana** on this server"
    found = await h.bot.service.profile(GUILD, str(ANA[0]))
    (duel_rating,) = found.ratings
    drawn = ratings.profile_card(found, "Ana")
    assert (drawn.sigma2, drawn.sigma_multi) == (duel_rating.sigma, None)
    assert drawn.recent_opponents == (("Ben", 1, 0, 0),)  # the abort is no meeting
    assert (drawn.games, drawn.aborted) == (1, 1)
    assert card.files[0].data == render_profile(drawn, language="en")
    # As text when the picture cannot be drawn: the same record.
    monkeypatch.setattr(ratings, "render_profile", broken)
    (said,) = followups(await h.send(h.make.command(ANA, "/carc-profile")))
    assert not said.files
    lines = said.content.split("\n")
    assert lines[1] == (f"Rating, duels: {duel_rating.rating:.1f} (μ {duel_rating.mu:.1f}, "
                        f"σ {duel_rating.sigma:.1f}; provisional, 1 rated game)")
    assert "1 aborted game (not rated, not counted above)" in lines
    assert lines[-1] == "Recent opponents (won–lost): Ben 1–0"


async def test_the_rating_history_chart_and_its_text(harness: BotHarness,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await played_some(h)
    await duel(h, BEN, ANA)
    points = await h.bot.service.rating_history_of(GUILD, str(ANA[0]), "duel")
    assert len(points) == 2
    sent = await h.send(h.make.command(ANA, "/carc-profile", show="history"))
    (chart,) = followups(sent)
    assert chart.content == (f"**Ana**, rating history in duels: {points[-1].after:.1f} after "
                             f"2 rated games (μ {points[-1].mu:.1f}, σ "
                             f"{points[-1].sigma:.1f})")
    assert_png(chart.files[0], "rating-history.png")
    expected = render_rating_history(ratings.history_card(points, "Ana", "duel"),
                                     language="en")
    assert chart.files[0].data == expected
    assert_clean(sent)
    (none,) = followups(await h.send(h.make.command(ANA, "/carc-profile", show="history",
                                                    pool="multi")))
    assert none.content == "**Ana** has no rated game in multiplayer on this server yet."
    assert not none.files
    monkeypatch.setattr(ratings, "render_rating_history", broken)
    (said,) = followups(await h.send(h.make.command(BEN, "/carc-profile", player=ANA,
                                                    show="history")))
    lines = said.content.split("\n")
    newest, oldest = points[1], points[0]
    assert lines[1] == (f"game #{newest.game_id}, <t:{int(newest.ended_at)}:R>: "
                        f"{newest.before:.1f} → {newest.after:.1f} (place 2 of 2)")
    assert lines[2].endswith(f"{oldest.before:.1f} → {oldest.after:.1f} (place 1 of 2)")


async def test_head_to_head(harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await played_some(h)
    sent = await h.send(h.make.command(BEN, "/carc-versus", opponent=ANA))
    (card,) = followups(sent)
    assert not card.ephemeral
    assert card.content == "**Ben** against **Ana**: 0 won, 1 lost, 0 drawn (1 game together)"
    record = await h.bot.service.versus(GUILD, str(BEN[0]), str(ANA[0]))
    assert card.files[0].data == render_head_to_head(versus.versus_card(record, ("Ben", "Ana")),
                                                     language="en")
    assert_png(card.files[0], "versus.png")
    assert_clean(sent)
    # Aborts are no meeting; nobody is compared with themselves.
    (none,) = followups(await h.send(h.make.command(ANA, "/carc-versus", opponent=CY)))
    assert none.content == ("**Ana** and **Cy** have not finished a game together on this "
                            "server yet.")
    assert refusal(await h.send(h.make.command(ANA, "/carc-versus", opponent=ANA))) == \
        "Choose another player to compare with"
    monkeypatch.setattr(versus, "render_head_to_head", broken)
    (said,) = followups(await h.send(h.make.command(CY, "/carc-versus", opponent=BEN,
                                                    player=ANA)))
    (met,) = record.recent
    duel_a, duel_b = (f"{r:.1f}" for r in (record.duel[1], record.duel[0]) if r is not None)
    assert said.content.split("\n") == [
        "**Ana** against **Ben**: 1 won, 0 lost, 0 drawn (1 game together)",
        f"Duel ratings: {duel_a} · {duel_b}",
        f"game #{met.game_id}, <t:{int(met.ended_at)}:R>: places 1 and 2 of 2, "
        f"{met.scores[1]}–{met.scores[0]} points"]


# -- the leaderboard ---------------------------------------------------------------------


async def test_the_leaderboard_names_the_opponents_rule_and_marks_provisional_rows(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    h = harness
    await duel(h, ANA, BEN)
    (empty,) = followups(await h.send(h.make.command(ANA, "/carc-leaderboard")))
    assert empty.content.split("\n")[1:] == [
        "Nobody here yet: a player is listed once they have played rated games against 3 "
        "different opponents.",
        "2 rated players are not listed yet: fewer than 3 different opponents."]
    assert_png(empty.files[0], "leaderboard.png")
    await round_robin(h, (ANA, CY, DEE, EVE))  # Ana, Cy, Dee, Eve: 3 opponents each
    whole = await h.bot.service.leaderboard(GUILD, "duel", per_page=100)
    assert whole.rows and all(r.provisional for r in whole.rows)
    monkeypatch.setattr(ratings, "render_leaderboard", broken)
    (said,) = followups(await h.send(h.make.command(ANA, "/carc-leaderboard")))
    lines = said.content.split("\n")
    assert lines[1] == "1 rated player is not listed yet: fewer than 3 different opponents."
    assert lines[2:-1] == [f"{r.place}. {r.name} — {r.rating:.1f}? "
                           f"({r.games} game{'s' if r.games > 1 else ''})"
                           for r in whole.rows]
    assert lines[-1] == "?: provisional, fewer than 10 rated games"
    (only,) = followups(await h.send(h.make.command(ANA, "/carc-leaderboard",
                                                    provisional=False)))
    assert only.content.split("\n")[1:] == [
        "Nobody here yet: a player is listed once they have played rated games against 3 "
        "different opponents.",
        "1 rated player is not listed yet: fewer than 3 different opponents.",
        "Provisional players (fewer than 10 rated games) are left out."]


# -- the end of a game -------------------------------------------------------------------


def end_posts(requests: list[Request]) -> list[Request]:
    return [r for r in channel_posts(requests) if "📊" in r.content]


async def resign(h: BotHarness, who: Player) -> list[Request]:
    """`/carc resign`, then its Resign button: what the bot sent for both."""
    view = await h.bot.service.status(here(h))
    asked = await h.command(who, "resign")
    return asked + await h.click(who, f"carc:resign:{view.game_id}:{view.version}")


async def test_the_last_post_says_how_the_game_was_rated(harness: BotHarness) -> None:
    h = harness
    service, where = h.bot.service, here(h)
    await service.create(where, user(ANA), GameOptions(seed=3))
    await service.join(where, user(BEN))
    await play_turns(service, await service.start(where, user(ANA)), where=where)
    sent = await resign(h, BEN)
    (post,) = end_posts(sent)
    game = (await service.status(where)).game_id
    result = await service.rating_result(game)
    assert result.status == "rated"
    ana, ben = result.seats
    assert ana.before is not None and ana.after is not None
    assert ben.before is not None and ben.after is not None
    assert unmarked(post.content).endswith(
        "📊 Ratings (duels): rated.\n"
        f"Ana {ana.before:.1f} → {ana.after:.1f} (+{ana.after - ana.before:.1f}) · "
        f"Ben {ben.before:.1f} → {ben.after:.1f} (−{ben.before - ben.after:.1f})")
    assert_clean(sent, [str(ANA[0]), str(BEN[0])])


async def test_an_aborted_game_says_it_is_not_rated_and_why(harness: BotHarness) -> None:
    """The note `unrated_left_early` reaches the channel like any other note, and the
    last post says the game was not rated."""
    h = harness
    service, where = h.bot.service, here(h)
    await service.create(where, user(ANA), GameOptions(seed=3))
    await service.join(where, user(BEN))
    await service.start(where, user(ANA))
    sent = await resign(h, BEN)
    (post,) = end_posts(sent)
    assert unmarked(post.content).endswith(
        "📊 Ratings (duels): not rated: a player left, or never played, before making 5 "
        "moves of their own.")
    told = [r for r in sent if r.method in ("POST", "PATCH") and "/channels/" in r.path
            and "This game will not be rated: Ben left before making 5 moves of their own"
            in r.text]
    assert told, [r.text for r in sent]
    assert await service.store.ratings(GUILD) == []


async def test_a_game_the_timer_ends_says_how_it_was_rated(harness: BotHarness) -> None:
    """The last tile played by the bot for a late player: that last post has the line."""
    h = harness
    await lobby(h, BEN, expansions="none", timer_hours=1, auto_play=True)
    await h.command(ANA, "start")
    await fast_forward(h, random.Random(14), until_left=1)
    start = len(h.fake.requests)
    for _ in range(4):
        view = await h.bot.service.status(here(h))
        if view.finished:
            break
        assert view.deadline is not None
        start = len(h.fake.requests)
        for report in await h.bot.service.check_timers(now=view.deadline + 1):
            await h.bot.announce_timer(report)
    (post,) = end_posts(h.fake.since(start))
    result = await h.bot.service.rating_result(view.game_id)
    assert result.status == "rated"
    assert "📊 Ratings (duels): rated.\n" in post.content
    assert " · ".join(f"{s.name} {s.before:.1f} → {s.after:.1f}" for s in result.seats
                      if s.before is not None and s.after is not None) in \
        re.sub(r" \([+−][0-9.]+\)", "", post.content)


async def test_a_last_post_delivered_late_says_how_it_was_rated(harness: BotHarness) -> None:
    """Discord refused the card of the resignation that ended the game: the post the
    timer loop delivers later carries the rating line too."""
    h = harness
    await asyncio.wait_for(h.bot.caught_up.wait(), 10)  # the start-up delivery is over
    await started(h)
    await play_turns(h.bot.service, await h.bot.service.status(here(h)), where=here(h))
    h.fake.fail_when.extend([(lambda r: r.v2 and r.path.startswith("/channels/"), 403)] * 2)
    assert not end_posts(await resign(h, BEN))
    start = len(h.fake.requests)
    assert await h.bot.deliver_pending(min_age=0.0) == 1
    (post,) = end_posts(h.fake.since(start))
    assert re.search(r"\n📊 Ratings \(duels\): rated\.\n(Ana|Ben) 0\.0 → ", post.content)


# -- vacations, game by game ---------------------------------------------------------------


async def test_a_vacation_says_where_it_pauses_and_where_not(harness: BotHarness) -> None:
    h = harness
    service = h.bot.service
    second = h.make.channel_id + 1
    for where, preset in ((here(h), "normal"), (here(h, second), "fast"),
                          (Where("800000000000000002", "1"), "slow")):
        await service.create(where, user(ANA), GameOptions(seed=4, clock=clock_rules(preset)))
        await service.join(where, user(BEN))
        await service.start(where, user(ANA))
    sent = await h.command(ANA, "/carc-away", action="start", days=10)
    (said,) = followups(sent)
    assert said.ephemeral
    when = r"<t:\d+:R>"
    expected = [rf"Vacation started, until {when}\. In your clock games:",
                rf"• game #1 \(here\): paused until {when} only: its clock allows 7 days of "
                r"vacation a month\.",
                rf"• game #2 in <#{second}>: not paused: its clock allows no vacation\.",
                rf"• game #3 \(another server\): paused until {when}\."]
    lines = said.content.split("\n")
    assert len(lines) == len(expected)
    for line, pattern in zip(lines, expected, strict=True):
        assert re.fullmatch(pattern, line), (line, pattern)
    stamps = [int(s) for s in re.findall(r"<t:(\d+):R>", said.content)]
    assert stamps[0] == stamps[2] and stamps[1] == stamps[0] - 3 * 86400
    assert_clean(sent)


# -- time zones ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["localtime", "Factory", "posixrules", "posix/Europe/Madrid",
                                  "right/UTC", "Europe/" + "x" * 300])
def test_only_the_tz_databases_zones_are_offered_or_taken(name: str) -> None:
    assert time_zones(name) == []
    with pytest.raises(Refused):
        time_zone(name)


def test_a_zone_name_too_long_is_refused_as_such() -> None:
    with pytest.raises(Refused, match=r"too long \(301 characters\)"):
        time_zone("Europe/" + "x" * 294)
    assert time_zone(" Europe/Madrid ") == "Europe/Madrid"
    assert "America/Argentina/Buenos_Aires" in time_zones("buenos")


async def test_the_zone_autocomplete_offers_no_host_zone(harness: BotHarness) -> None:
    assert await harness.autocomplete(ANA, "create", "time_zone", time_zone="local") == []
    found = await harness.autocomplete(ANA, "create", "time_zone", time_zone="madrid")
    assert [c["value"] for c in found] == ["Europe/Madrid"]


async def test_the_admin_commands_are_shown_to_server_managers_only(harness: BotHarness
                                                                    ) -> None:
    """Discord hides `/carc-admin` from members without Manage Server (the service still
    checks, as a server may grant it to others)."""
    (put,) = [r for r in harness.fake.requests if r.method == "PUT"]
    (admin,) = [c for c in put.json if c["name"] == "carc-admin"]
    assert int(admin["default_member_permissions"]) == MANAGE_GUILD
    assert [o["name"] for o in admin["options"]] == ["void", "restore"]


async def test_every_new_answer_is_translated(harness: BotHarness,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-language check over the answers above (the pictures' words are checked
    by the render tests): nothing outside the catalogues."""
    h = harness
    await round_robin(h)
    await duel(h, ANA, EVE, real=False)
    for name in ("render_profile", "render_rating_history", "render_leaderboard"):
        monkeypatch.setattr(ratings, name, broken)
    monkeypatch.setattr(versus, "render_head_to_head", broken)
    q = {"_locale": "qps"}
    sent: list[Request] = []
    for payload in (h.make.command(ANA, "/carc-profile", **q),
                    h.make.command(ANA, "/carc-profile", show="history", **q),
                    h.make.command(EVE, "/carc-profile", show="history", **q),
                    h.make.command(ANA, "/carc-versus", opponent=BEN, **q),
                    h.make.command(ANA, "/carc-versus", opponent=EVE, **q),
                    h.make.command(ANA, "/carc-leaderboard", provisional=False, **q),
                    h.make.command(ANA, "/carc-leaderboard", **q),
                    admin_command(h, ADMIN, "void", MANAGE_GUILD, player=BEN, **q),
                    admin_command(h, ADMIN, "restore", MANAGE_GUILD, player=BEN, **q)):
        sent += await h.send(payload)
    for action in ("keep", "void"):
        payload = h.make.component(ADMIN, f"carcv:{action}:0:{BEN[0]}", ephemeral=True,
                                   locale="qps")
        payload["member"]["permissions"] = str(MANAGE_GUILD)
        payload["guild_locale"] = "qps"  # the announcement speaks the server's language
        sent += await h.send(payload)
    said = [r.text for r in sent if r.text]
    assert len(said) == 12
    allowed = frozenset({"Ana", "Ben", "Cy", "Dee", "Eve", "Olga", "t", "R"})
    with speaking("qps"):
        for text in said:
            assert untranslated(text, allowed=allowed) == [], text
