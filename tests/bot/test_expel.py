"""Issue 15 through the real discord.py code: the vote to expel a player out of time,
posted by the timers, voted with its button, closed after a day."""

from __future__ import annotations

from carca_bot.bot.posts.votes import post_vote, settle_votes
from carca_bot.service import GameOptions
from carca_bot.service.clocks import DAY, HOUR
from carca_bot.service.model import clock_rules
from tests.bot.cards import card_requests, pings
from tests.bot.conftest import ANA, BEN, CY, BotHarness
from tests.bot.outgoing import assert_clean
from tests.bot.test_lobby import assert_private_refusal, custom_ids
from tests.bot.test_turns import place_of
from tests.bot.test_votes import (
    DEE,
    Player,
    channel_posts,
    edits,
    forged_on_the_card,
    no_edit,
    to_act,
    user,
    vote,
)
from tests.service.helpers import Clock

VOTE = {"bank": HOUR, "increment": HOUR, "cap": 2 * HOUR, "on_timeout": "vote"}


async def expel_game(h: BotHarness, clock: Clock, language: str = "en") -> Player:
    """A 3-player clock game whose player to act ran out of time: returns them."""
    h.bot.service.clock = clock
    await h.bot.service.create(place_of(h), user(ANA), GameOptions(
        seed=4, clock=clock_rules(VOTE), language=language))
    for p in (BEN, CY):
        await h.bot.service.join(place_of(h), user(p))
    await h.bot.service.start(place_of(h), user(ANA))
    late = await to_act(h)
    clock.now += HOUR
    (report,) = await h.bot.service.check_timers()
    assert report.reason == "expel_vote"
    start = len(h.fake.requests)
    await post_vote(h.bot, report)
    (posted,) = [r for r in h.fake.since(start) if r.method == "POST"]
    assert language != "en" or (f"ran out of time in game #{report.game_id}"
                                in posted.json["content"])
    assert custom_ids(posted) == [f"carcv:expel:{report.game_id}:{late[0]}"]
    voters = {str(p[0]) for p in (ANA, BEN, CY) if p != late}
    assert {str(u) for u in posted.json["allowed_mentions"]["users"]} == voters
    assert_clean([posted], pinged=voters)
    return late


async def test_the_others_vote_a_late_player_out_with_the_button(harness: BotHarness) -> None:
    h, clock = harness, Clock()
    late = await expel_game(h, clock)
    game = (await h.bot.service.status(place_of(h))).game_id
    button = f"carcv:expel:{game}:{late[0]}"
    first, second = [p for p in (ANA, BEN, CY) if p != late]
    assert_private_refusal(await vote(h, DEE, button), "you are not playing")
    assert_private_refusal(await vote(h, late, button), "cannot vote on expelling yourself")
    (edit,) = edits(await vote(h, first, button))
    assert "Votes: 1 of 2 needed" in edit.json["content"]
    assert_private_refusal(await vote(h, first, button), "already voted")
    requests = await vote(h, second, button)
    (edit,) = edits(requests)
    assert "was expelled from game" in edit.json["content"]
    assert edit.json["components"] == []
    view = await h.bot.service.status(place_of(h))
    assert next(s for s in view.seats if s.user_id == str(late[0])).expelled
    # The card shows it at once, the next player pinged; nothing is owed.
    assert view.deciding is not None and view.deciding.user_id != str(late[0])
    (card,) = card_requests(requests)
    assert f"**{late[1]}** 0 · expelled" in card.text
    assert f"▶ **{view.deciding.name}**" in card.text
    (ping,) = pings(requests)
    assert ping.content.startswith(f"<@{view.deciding.user_id}>")
    assert await h.bot.service.pending_posts() == []


async def test_an_expulsion_that_ends_the_game_shows_its_end(harness: BotHarness) -> None:
    """Two players: the one on time votes the late one out, which ends the game: the
    card shows the result and the end-of-game post goes out at once."""
    h, clock = harness, Clock()
    h.bot.service.clock = clock
    await h.bot.service.create(place_of(h), user(ANA), GameOptions(
        seed=4, clock=clock_rules(VOTE)))
    await h.bot.service.join(place_of(h), user(BEN))
    await h.bot.service.start(place_of(h), user(ANA))
    late = await to_act(h)
    clock.now += HOUR
    (report,) = await h.bot.service.check_timers()
    await post_vote(h.bot, report)
    other = BEN if late == ANA else ANA
    requests = await vote(h, other, f"carcv:expel:{report.game_id}:{late[0]}")
    (edit,) = edits(requests)
    assert "was expelled from game" in edit.json["content"]
    view = await h.bot.service.status(place_of(h))
    assert view.finished
    (card,) = card_requests(requests)
    assert "expelled" in card.text
    (final,) = [r for r in channel_posts(requests, h.make.channel_id) if not r.v2]
    assert other[1] in final.content and final.files
    assert not pings(requests)
    assert await h.bot.service.pending_posts() == []


async def test_an_expel_vote_closes_after_a_day(harness: BotHarness) -> None:
    h, clock = harness, Clock()
    late = await expel_game(h, clock)
    game = (await h.bot.service.status(place_of(h))).game_id
    clock.now += DAY
    (report,) = await h.bot.service.check_timers()
    assert (report.reason, report.user_id) == ("auto_played", str(late[0]))
    start = len(h.fake.requests)
    assert await settle_votes(h.bot, game) == 1  # its message is closed in place
    (edit,) = [r for r in h.fake.since(start) if r.method == "PATCH"]
    assert "they were not expelled" in edit.json["content"]
    assert edit.json["components"] == []
    voter = next(p for p in (ANA, BEN, CY) if p != late)
    # An old button (its message closed, so clicked elsewhere) says how the vote ended,
    # privately, and edits nothing: a vote acts only on its own message.
    requests = await vote(h, voter, f"carcv:expel:{game}:{late[0]}")
    assert_private_refusal(requests, "they were not expelled")
    assert not edits(requests) and not [r for r in requests if r.method == "PATCH"]


async def test_a_forged_expel_vote_on_the_card_edits_nothing(harness: BotHarness) -> None:
    h, clock = harness, Clock()
    late = await expel_game(h, clock)
    game = (await h.bot.service.status(place_of(h))).game_id
    await h.bot.cards.show(await h.bot.service.status(place_of(h)), "")  # the card is up
    button = f"carcv:expel:{game}:{late[0]}"
    voter = next(p for p in (ANA, BEN, CY) if p != late)
    requests = await forged_on_the_card(h, voter, button)
    assert_private_refusal(requests, "belongs to the vote's own message")
    no_edit(requests)
    vote_now = (await h.bot.service.status(place_of(h))).expel_vote
    assert vote_now is not None and vote_now.voters == ()
    (edit,) = edits(await vote(h, voter, button))  # on its own message it counts
    assert "Votes: 1 of 2 needed" in edit.json["content"]
