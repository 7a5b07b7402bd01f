"""Issue 15 through the real discord.py code: the vacation command, the `/carc games`
dashboard, the clock options of `/carc create`, and every message of the issue (the
votes' too) in the pseudo-locale."""

from __future__ import annotations

from typing import Any

from carca_bot.bot.components.ids import vote_id
from carca_bot.bot.posts.votes import settle_votes
from carca_bot.i18n import PSEUDO
from carca_bot.service import GameOptions, Where
from carca_bot.service.clocks import HOUR
from carca_bot.service.model import clock_rules
from tests.bot.cards import assert_card_reply, card_requests
from tests.bot.conftest import ANA, BEN, CY, BotHarness
from tests.bot.fake_discord import GUILD_ID
from tests.bot.outgoing import assert_clean
from tests.bot.spoken import shown
from tests.bot.test_expel import expel_game
from tests.bot.test_lobby import (
    assert_private_refusal,
    assert_public_reply,
    custom_ids,
    followups,
)
from tests.bot.test_pseudo_locale import leaks, pseudo_bot
from tests.bot.test_turns import place_of
from tests.bot.test_votes import DEE, PLAYERS, ask, edits, move, to_act, user, vote
from tests.service.helpers import Clock

__all__ = ["pseudo_bot"]  # the pseudo-locale fixture, used below


# -- vacations --------------------------------------------------------------------------


async def test_the_away_command(harness: BotHarness) -> None:
    h = harness
    (said,) = followups(await h.command(ANA, "/carc-away"))
    assert said.ephemeral and "not on vacation" in said.content
    assert_private_refusal(await h.command(ANA, "/carc-away", action="start", days=2),
                           "no game with a clock")
    await h.bot.service.create(place_of(h), user(ANA),
                               GameOptions(seed=4, clock=clock_rules("normal")))
    await h.bot.service.join(place_of(h), user(BEN))
    await h.bot.service.start(place_of(h), user(ANA))
    assert_private_refusal(await h.command(ANA, "/carc-away", action="start", days=9),
                           "at most 7 days")
    (said,) = followups(await h.command(ANA, "/carc-away", action="start", days=2))
    assert said.ephemeral and "game #1 (here): paused until <t:" in said.content
    view = await h.bot.service.status(place_of(h))
    assert next(s for s in view.seats if s.user_id == str(ANA[0])).on_vacation
    (said,) = followups(await h.command(ANA, "/carc-away"))
    assert "On vacation now, until <t:" in said.content
    (said,) = followups(await h.command(ANA, "/carc-away", action="end"))
    assert said.ephemeral and "runs again in 1 game" in said.content
    assert_private_refusal(await h.command(ANA, "/carc-away", action="end"),
                           "not on vacation")


# -- the dashboard ----------------------------------------------------------------------


async def test_the_dashboard_puts_your_turn_first_then_deadlines(harness: BotHarness) -> None:
    h, service = harness, harness.bot.service
    places = [Where(str(GUILD_ID), str(810000000000000100 + i)) for i in range(4)]
    timers = [None, 5 * HOUR, 2 * HOUR, 9 * HOUR]
    for i, (place, timer) in enumerate(zip(places, timers, strict=True)):
        await service.create(place, user(ANA), GameOptions(seed=3, turn_timer=timer))
        await service.join(place, user(BEN))
        view = await service.start(place, user(ANA))
        if i % 2:  # one move, so that these wait for the other player
            assert view.deciding is not None and view.deciding.user_id is not None
            mover = user(PLAYERS[view.deciding.user_id])
            x, y, rot = (await service.legal_moves(place, mover)).placements[0]
            await service.place(place, mover, x, y, rot, confirm=True)
    lobby_place = Where(str(GUILD_ID), "810000000000000200")
    await service.create(lobby_place, user(BEN), GameOptions())
    games = await service.my_games(str(BEN[0]), live_only=True)
    turns = {g.game_id: g.your_turn for g in games}
    (said,) = followups(await h.command(BEN, "games"))
    assert said.ephemeral
    order = [int(line.split("#")[1].split("*")[0]) for line in said.content.splitlines()
             if line.startswith("**#")]
    ids = [g.game_id for g in sorted(
        games, key=lambda g: (not g.your_turn, g.deadline is None, g.deadline or 0))]
    assert order == ids and len(order) == 5
    mine = [g for g in order if turns[g]]
    assert mine and len(mine) < 4 and order[:len(mine)] == mine  # your turn first
    assert "your turn" in said.content and "<t:" in said.content
    jump = [c["url"] for row in said.json["components"] for c in row["components"]]
    channel = {g.game_id: g.where.channel for g in games}
    assert jump == [f"https://discord.com/channels/{GUILD_ID}/{channel[g]}" for g in order]
    assert_clean([said])


async def test_the_dashboard_pages(harness: BotHarness) -> None:
    h, service = harness, harness.bot.service
    for i in range(12):
        place = Where(str(GUILD_ID), str(810000000000000300 + i))
        await service.create(place, user(ANA), GameOptions(seed=i))
    (said,) = followups(await h.command(ANA, "games"))
    assert "Page 1 of 2" in said.content
    pager = [c for c in custom_ids(said) if c]
    assert pager == [f"carcv:games:1:{ANA[0]}"]
    assert_private_refusal(await h.click(BEN, pager[0], ephemeral=True),
                           "someone else's games")
    (edit,) = edits(await h.click(ANA, pager[0], ephemeral=True))
    assert "Page 2 of 2" in edit.json["content"]


# -- the clock options of /carc create ---------------------------------------------------


async def test_clock_options_are_checked_and_shown(harness: BotHarness) -> None:
    h = harness
    refusals: dict[str, dict[str, Any]] = {
        "give both quiet": {"clock": "normal", "quiet_start": 23},
        "is not a time zone I know": {"clock": "normal", "time_zone": "Mars/Olympus"},
        "a clock or a turn timer, not both": {"clock": "fast", "timer_hours": 2},
        "belong to a clock": {"out_of_time": "vote"},
        "must be at least bank": {"bank_hours": 10, "cap_hours": 5},
        "must not start and end at the same hour": {"clock": "slow", "quiet_start": 3,
                                                    "quiet_end": 3},
    }
    for words, options in refusals.items():
        assert_private_refusal(await h.command(ANA, "create", **options), words)
    assert await h.bot.service.my_games(str(ANA[0])) == []  # nothing was stored
    choices = await h.autocomplete(ANA, "create", "time_zone", time_zone="madr")
    assert [c["value"] for c in choices] == ["Europe/Madrid"]
    post = assert_public_reply(await h.command(
        ANA, "create", clock="normal", quiet_start=23, quiet_end=7,
        time_zone="Europe/Madrid", out_of_time="vote"))
    assert "Clock: 24 h to start, +24 h per move, at most 72 h." in post.content
    assert "Quiet hours 23:00–07:00 (Europe/Madrid)" in post.content
    assert "the others may vote to expel them" in post.content
    view = await h.bot.service.status(place_of(h))
    clock = view.options.clock
    assert clock is not None and (clock.on_timeout, clock.timezone) == ("vote",
                                                                        "Europe/Madrid")
    await h.command(BEN, "join")
    await h.command(ANA, "start")
    (status,) = followups(await h.command(ANA, "status"))
    assert "Clocks (as each turn began): " in status.content and "24 h" in status.content


async def test_a_custom_clock(harness: BotHarness) -> None:
    h = harness
    assert_public_reply(await h.command(ANA, "create", bank_hours=10))
    view = await h.bot.service.status(place_of(h))
    clock = view.options.clock
    assert clock is not None and (clock.bank, clock.increment, clock.cap) == (
        10 * HOUR, 10 * HOUR, 30 * HOUR)


# -- every new message in the pseudo-locale, and in Spanish -------------------------------


async def test_every_new_message_is_translated(pseudo_bot: BotHarness) -> None:
    h, clock = pseudo_bot, Clock()
    zones = await h.autocomplete(ANA, "create", "time_zone", time_zone="")
    assert zones[0]["name"] == "UTC"  # data: IANA names are not translated
    start = len(h.fake.requests)
    for options in ({"clock": "normal", "quiet_start": 23}, {"out_of_time": "vote"},
                    {"clock": "normal", "time_zone": "Mars/Olympus"},
                    {"bank_hours": 10, "cap_hours": 5}, {"bank_hours": 3, "increment_hours": 0},
                    {"clock": "fast", "timer_hours": 2}):
        await h.command(ANA, "create", **options)
    await h.bot.service.cancel(place_of(h), user(ANA), True)
    await h.command(ANA, "/carc-away")
    await h.command(ANA, "/carc-away", action="start", days=2)
    late = await expel_game(h, clock, PSEUDO)
    game = (await h.bot.service.status(place_of(h))).game_id
    await h.command(ANA, "status")
    await h.command(ANA, "games")
    await h.command(late, "/carc-away", action="start", days=2)
    await h.command(late, "/carc-away")
    await h.command(late, "/carc-away", action="end")
    first, second = [p for p in (ANA, BEN, CY) if p != late]
    await vote(h, DEE, f"carcv:expel:{game}:{late[0]}")
    await vote(h, first, f"carcv:expel:{game}:{late[0]}")
    await vote(h, second, f"carcv:expel:{game}:{late[0]}")
    mover = await move(h)
    _, ids = await ask(h, mover)
    voter = next(p for p in (first, second) if p != mover)
    await vote(h, voter, ids["yes"])
    await vote(h, voter, ids["yes"])
    await vote(h, mover, ids["drop"])
    mover = await move(h)
    _, ids = await ask(h, mover)
    voter = next(p for p in (first, second) if p != mover)
    await vote(h, voter, ids["no"])
    await h.command(mover, "/carc-takeback")
    await ask(h, await move(h))
    await move(h)
    assert await settle_votes(h.bot, game) == 1
    # A move by command (its private answer offers the take-back), taken back: the card.
    mover = await to_act(h)
    x, y, rot = (await h.bot.service.legal_moves(place_of(h), user(mover))).placements[0]
    answer = assert_card_reply(await h.command(mover, "place", square=f"{x},{y}",
                                               rotation=rot, confirm=True)).answer
    assert answer is not None and custom_ids(answer) == [vote_id("ask", game, 0)]
    _, ids = await ask(h, mover)
    voter = next(p for p in (first, second) if p != mover)
    assert card_requests(await vote(h, voter, ids["yes"]))
    await h.click(BEN, f"carcv:games:1:{ANA[0]}")
    sent = h.fake.since(start)
    assert leaks(sent) == []
    assert len(shown(sent)) > 30
