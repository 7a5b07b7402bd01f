"""Issue 15 through the real discord.py code: the take-back vote, the vote to expel, the
vacation command, the `/carc games` dashboard and the clock options of `/carc create`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from carca_bot.bot.components.ids import vote_id
from carca_bot.bot.posts.votes import post_vote, settle_votes
from carca_bot.i18n import PSEUDO
from carca_bot.service import GameOptions, User, Where
from carca_bot.service.clocks import DAY, HOUR
from carca_bot.service.model import clock_rules
from tests.bot.cards import assert_card_reply, card_requests, pings
from tests.bot.conftest import ANA, BEN, CY, BotHarness, start_bot
from tests.bot.fake_discord import APP_ID, GUILD_ID, Interactions, Request, walk
from tests.bot.outgoing import assert_clean
from tests.bot.spoken import shown
from tests.bot.test_lobby import (
    assert_private_refusal,
    assert_public_reply,
    callback,
    custom_ids,
    followups,
    lobby,
)
from tests.bot.test_outbox import card_change
from tests.bot.test_pseudo_locale import leaks, pseudo_bot
from tests.bot.test_turns import place_of
from tests.service.ai_helpers import Recording
from tests.service.helpers import Clock

Player = tuple[int, str]
PLAYERS = {str(p[0]): p for p in (ANA, BEN, CY)}
__all__ = ["pseudo_bot"]  # the pseudo-locale fixture, used below
DEE = (100000000000000004, "Dee")


def edits(requests: list[Request]) -> list[Request]:
    """The in-place edits of the message a clicked button is on."""
    return [r for r in requests if r.method == "PATCH"
            and r.path.startswith(f"/webhooks/{APP_ID}/") and r.path.endswith("@original")]


def carrying(h: BotHarness, custom_id: str) -> int | None:
    """The bot's channel message (as it is now) that carries a button with this id."""
    found = [int(m["id"]) for m in h.fake.messages.values()
             if any(c.get("custom_id") == custom_id for c in walk(m["components"]))]
    return found[-1] if found else None


async def vote(h: BotHarness, player: Player, custom_id: str) -> list[Request]:
    """A click on a vote's button, from the message that carries it, as Discord sends
    it (a button no message carries any more is clicked on a made-up one)."""
    return await h.click(player, custom_id, message_id=carrying(h, custom_id))


def user(p: Player) -> User:
    return User(str(p[0]), p[1])


async def three_players(h: BotHarness) -> None:
    await lobby(h, BEN, CY)
    assert_card_reply(await h.command(ANA, "start"))


async def to_act(h: BotHarness) -> Player:
    view = await h.bot.service.status(place_of(h))
    assert view.deciding is not None and view.deciding.user_id is not None
    return PLAYERS[view.deciding.user_id]


async def move(h: BotHarness) -> Player:
    """The player to act places on the first legal square with a figure if they can,
    through the service; returns who moved."""
    player, place = await to_act(h), place_of(h)
    service = h.bot.service
    x, y, rot = (await service.legal_moves(place, user(player))).placements[0]
    await service.place_tile(place, user(player), x, y, rot)
    spots = (await service.legal_moves(place, user(player))).deployments
    if spots:
        await service.deploy(place, user(player), *spots[0])
    await service.confirm(place, user(player))
    return player


def channel_posts(requests: list[Request], channel: int) -> list[Request]:
    return [r for r in requests
            if r.method == "POST" and r.path == f"/channels/{channel}/messages"]


async def ask(h: BotHarness, mover: Player) -> tuple[Request, dict[str, str]]:
    """`/carc-takeback` by the mover: the vote message posted in the channel (the mover
    is told privately) and its buttons by action."""
    requests = await h.command(mover, "/carc-takeback")
    assert callback(requests).json == {"type": 5, "data": {"flags": 64}}  # private
    (told,) = followups(requests)
    assert told.ephemeral and told.content.startswith(("Asked", "⟦"))
    (post,) = channel_posts(requests, h.make.channel_id)
    ids = {cid.split(":")[1]: cid for cid in custom_ids(post)}
    assert set(ids) == {"yes", "no", "drop"}
    return post, ids


async def test_a_take_back_accepted_by_everyone_undoes_the_move(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    await move(h)
    before = await h.bot.service.export(place_of(h))
    mover = await move(h)
    post, ids = await ask(h, mover)
    assert "asks to take back their last move" in post.json["content"]
    content = post.json["content"]
    assert "placed" in content and mover[1] in content  # what goes, exactly
    others = [p for p in (ANA, BEN, CY) if p != mover]
    assert all(f"<@{p[0]}>" in content for p in others)
    assert {str(u) for u in post.json["allowed_mentions"]["users"]} == {
        str(p[0]) for p in others}
    # a non-player and the proposer are refused privately; nothing changes
    assert_private_refusal(await vote(h, DEE, ids["yes"]), "you are not playing")
    assert_private_refusal(await vote(h, mover, ids["yes"]), "you asked to take it back")
    requests = await vote(h, others[0], ids["yes"])
    (edit,) = edits(requests)
    assert f"✅ <@{others[0][0]}>" in edit.json["content"]
    assert f"⏳ <@{others[1][0]}>" in edit.json["content"]
    assert edit.json["allowed_mentions"] == {"parse": []}  # an edit pings nobody
    assert_private_refusal(await vote(h, others[0], ids["yes"]), "already accepted")
    requests = await vote(h, others[1], ids["yes"])
    (edit,) = edits(requests)
    assert "was taken back" in edit.json["content"] and edit.json["components"] == []
    assert await h.bot.service.export(place_of(h)) == before
    assert await to_act(h) == mover
    assert_clean(requests, pinged=[mover[0]])
    # The card shows the board as it was before the move, at once (not left to the
    # owed-post catch-up), the mover to act again and pinged; nothing is owed.
    game = (await h.bot.service.status(place_of(h))).game_id
    saved = await h.bot.service.game_messages(game)
    (card,) = card_requests(requests)
    assert card.method == "PATCH" and card.path.endswith(f"/messages/{saved.card_id}")
    assert f"▶ **{mover[1]}**" in card.text and card.files
    (ping,) = pings(requests)
    assert ping.content.startswith(f"<@{mover[0]}>")
    assert await h.bot.service.pending_posts() == []


async def test_an_accepted_take_back_stays_owed_while_the_card_is_refused(
        harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await move(h)
    _, ids = await ask(h, mover)
    first, second = [p for p in (ANA, BEN, CY) if p != mover]
    await vote(h, first, ids["yes"])
    game = (await h.bot.service.status(place_of(h))).game_id
    await asyncio.wait_for(h.bot.caught_up.wait(), 10)  # the start-up delivery is over
    h.fake.fail_when.extend([(card_change, 403)] * 2)  # the edit, then a new card
    requests = await vote(h, second, ids["yes"])
    (edit,) = edits(requests)
    assert "was taken back" in edit.json["content"]
    assert [r.method for r in card_requests(requests)] == ["PATCH", "POST"]  # both refused
    assert not pings(requests)  # the turn is not announced before the card shows it
    (owed,) = await h.bot.service.pending_posts()  # the card did not get it: still owed
    assert owed.game_id == game
    assert await h.bot.deliver_pending(min_age=0.0) == 1
    assert await h.bot.service.pending_posts() == []


async def test_the_mover_is_offered_the_take_back_privately(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await to_act(h)
    legal = await h.bot.service.legal_moves(place_of(h), user(mover))
    x, y, rot = legal.placements[0]
    shown = assert_card_reply(await h.command(mover, "place", square=f"{x},{y}",
                                              rotation=rot, confirm=True))
    game = (await h.bot.service.status(place_of(h))).game_id
    assert shown.answer is not None and shown.answer.ephemeral
    button = vote_id("ask", game, 0)
    assert custom_ids(shown.answer) == [button]
    assert button not in custom_ids(shown.card)  # only the mover sees it
    requests = await h.click(mover, str(button), ephemeral=True)
    (post,) = channel_posts(requests, h.make.channel_id)
    assert "asks to take back their last move" in post.json["content"]
    # Starting the game is no move of the starter's: nothing to take back is offered.
    await h.bot.service.cancel(place_of(h), user(ANA), True)
    await three_players_answer(h)


async def test_the_take_back_is_offered_on_the_private_turn_message(
        harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await to_act(h)
    x, y, rot = (await h.bot.service.legal_moves(place_of(h), user(mover))).placements[0]
    await h.command(mover, "place", square=f"{x},{y}", rotation=rot)  # the private preview
    view = await h.bot.service.status(place_of(h), str(mover[0]))
    requests = await h.click(mover, f"carc:confirm:{view.game_id}:{view.version}",
                             ephemeral=True)
    (done,) = edits(requests)  # the turn message, replaced by the answer and the offer
    assert "is up to date" in done.content
    assert custom_ids(done) == [vote_id("ask", view.game_id, 0)]
    assert len(card_requests(requests)) == 1


async def test_a_take_back_nobody_has_to_accept_shows_on_the_card(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana with an AI seat (Ben resigned): nobody votes, the move is taken back at once,
    and the card shows it."""
    h, service = harness, harness.bot.service
    service.thinker = Recording()
    await lobby(h, BEN)
    await service.add_ai(place_of(h), user(ANA), "easy", "AI (easy)")
    assert_card_reply(await h.command(ANA, "start"))
    await service.resign(place_of(h), user(BEN))
    await service.wait_for_ai()
    await h.settle()
    assert await to_act(h) == ANA
    monkeypatch.setattr(service, "_wake_ai", lambda game_id: None)  # the AI waits
    x, y, rot = (await service.legal_moves(place_of(h), user(ANA))).placements[0]
    assert_card_reply(await h.command(ANA, "place", square=f"{x},{y}", rotation=rot,
                                      confirm=True))
    requests = await h.command(ANA, "/carc-takeback")
    (told,) = followups(requests)
    assert told.ephemeral and "nobody else had to agree" in told.content
    (card,) = card_requests(requests)
    assert "▶ **Ana**" in card.text and "was taken back" in card.text
    assert await to_act(h) == ANA
    assert await service.pending_posts() == []


async def three_players_answer(h: BotHarness) -> None:
    await lobby(h, BEN, CY)
    shown = assert_card_reply(await h.command(ANA, "start"))
    assert shown.answer is not None and custom_ids(shown.answer) == []


async def open_vote(h: BotHarness) -> tuple[int, Any]:
    """Three players; the first move made and its take-back asked: the game and the
    vote message the bot remembered."""
    await three_players(h)
    mover = await move(h)
    await ask(h, mover)
    game = (await h.bot.service.status(place_of(h))).game_id
    (remembered,) = await h.bot.service.vote_messages(game)
    return game, remembered


async def test_a_move_on_the_card_closes_an_overtaken_vote(harness: BotHarness) -> None:
    h = harness
    game, remembered = await open_vote(h)
    nxt = await to_act(h)
    x, y, rot = (await h.bot.service.legal_moves(place_of(h), user(nxt))).placements[0]
    requests = await h.command(nxt, "place", square=f"{x},{y}", rotation=rot, confirm=True)
    assert_card_reply(requests)
    (closed,) = [r for r in requests if r.method == "PATCH" and r.path.endswith(
        f"/messages/{remembered.message_id}")]
    assert "the game moved on" in closed.json["content"] and closed.json["components"] == []
    assert await h.bot.service.vote_messages(game) == []


async def test_one_refusal_closes_the_vote(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await move(h)
    record = await h.bot.service.export(place_of(h))
    _, ids = await ask(h, mover)
    refuser = next(p for p in (ANA, BEN, CY) if p != mover)
    (edit,) = edits(await vote(h, refuser, ids["no"]))
    assert "refused" in edit.json["content"] and edit.json["components"] == []
    assert await h.bot.service.export(place_of(h)) == record
    assert_private_refusal(await h.command(mover, "/carc-takeback"), "already refused")


async def test_the_next_move_closes_the_vote_and_then_it_is_too_late(
        harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await move(h)
    _, ids = await ask(h, mover)
    await move(h)  # the next player did not wait
    voter = next(p for p in (ANA, BEN, CY) if p != mover)
    (edit,) = edits(await vote(h, voter, ids["yes"]))
    assert "the game moved on" in edit.json["content"] and edit.json["components"] == []
    assert_private_refusal(await h.command(mover, "/carc-takeback"),
                           "only the player who made the last move")


async def test_a_vote_overtaken_by_a_move_is_closed_in_place(harness: BotHarness) -> None:
    h = harness
    game, remembered = await open_vote(h)
    start = len(h.fake.requests)
    assert await settle_votes(h.bot, game) == 0  # still open: left alone
    await move(h)
    assert await settle_votes(h.bot, game) == 1
    (edit,) = [r for r in h.fake.since(start) if r.method == "PATCH"]
    assert edit.path == f"/channels/{h.make.channel_id}/messages/{remembered.message_id}"
    assert "the game moved on" in edit.json["content"] and edit.json["components"] == []
    assert edit.json["allowed_mentions"] == {"parse": []}
    assert await settle_votes(h.bot, game) == 0  # closed once


async def test_not_once_the_next_player_has_begun(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await move(h)
    nxt = await to_act(h)
    x, y, rot = (await h.bot.service.legal_moves(place_of(h), user(nxt))).placements[0]
    await h.command(nxt, "place", square=f"{x},{y}", rotation=rot)
    assert_private_refusal(await h.command(mover, "/carc-takeback"), "too late")


async def test_the_proposer_withdraws(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await move(h)
    game = (await h.bot.service.status(place_of(h))).game_id
    voter = next(p for p in (ANA, BEN, CY) if p != mover)
    button = vote_id("ask", game, 0)
    assert button is not None
    assert_private_refusal(await h.click(voter, button), "only the player who made")
    requests = await h.click(mover, button)  # the button a move's post may carry
    assert followups(requests)[0].ephemeral
    (post,) = channel_posts(requests, h.make.channel_id)
    ids = {cid.split(":")[1]: cid for cid in custom_ids(post)}
    assert_private_refusal(await vote(h, voter, ids["drop"]), "only the player who asked")
    (edit,) = edits(await vote(h, mover, ids["drop"]))
    assert "withdrew" in edit.json["content"] and edit.json["components"] == []


async def forged_on_the_card(h: BotHarness, player: Player, custom_id: str) -> list[Request]:
    """A click carrying a vote's real custom id, but on the game's card (a forged
    interaction: the card never carries vote buttons)."""
    game = (await h.bot.service.status(place_of(h))).game_id
    card = (await h.bot.service.game_messages(game)).card_id
    assert card is not None
    return await h.send(h.make.component(player, custom_id, message_id=int(card)))


def no_edit(requests: list[Request]) -> None:
    """Nothing the click was on (or any message) was edited."""
    assert not edits(requests)
    assert not [r for r in requests if r.method == "PATCH"], [r.path for r in requests]


async def test_a_forged_take_back_vote_on_the_card_edits_nothing(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    mover = await move(h)
    record = await h.bot.service.export(place_of(h))
    _, ids = await ask(h, mover)
    game = (await h.bot.service.status(place_of(h))).game_id
    voter = next(p for p in (ANA, BEN, CY) if p != mover)
    for action in ("yes", "no", "drop"):
        requests = await forged_on_the_card(h, mover if action == "drop" else voter,
                                            ids[action])
        assert_private_refusal(requests, "belongs to the vote's own message")
        no_edit(requests)
    asked = await h.bot.service.takeback_of(game, int(ids["yes"].split(":")[3]))
    assert asked is not None and not asked.decided and asked.accepted == ()
    assert await h.bot.service.export(place_of(h)) == record
    (edit,) = edits(await vote(h, voter, ids["yes"]))  # on its own message it counts
    assert f"✅ <@{voter[0]}>" in edit.json["content"]


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


async def test_a_restart_in_the_middle_of_the_vote(harness: BotHarness) -> None:
    h = harness
    await three_players(h)
    before = await h.bot.service.export(place_of(h))
    mover = await move(h)
    _, ids = await ask(h, mover)
    first, second = [p for p in (ANA, BEN, CY) if p != mover]
    await vote(h, first, ids["yes"])
    await h.bot.close()
    h.bot, h.errors = await start_bot(h.fake, h.db)
    h.make = Interactions(h.fake, h.make.channel_id)
    assert_private_refusal(await vote(h, first, ids["yes"]), "already accepted")
    (edit,) = edits(await vote(h, second, ids["yes"]))
    assert "was taken back" in edit.json["content"]
    assert await h.bot.service.export(place_of(h)) == before


# -- the vote to expel ------------------------------------------------------------------


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


async def test_the_vote_in_spanish(harness: BotHarness) -> None:
    h = harness
    await lobby(h, BEN, CY, language="es")
    await h.command(ANA, "start")
    mover = await move(h)
    post, ids = await ask(h, mover)
    assert "pide retirar su última jugada en la partida n.º" in post.json["content"]
    voters = [p for p in (ANA, BEN, CY) if p != mover]
    await vote(h, voters[0], ids["yes"])
    (edit,) = edits(await vote(h, voters[1], ids["yes"]))
    assert "Se retiró la jugada de" in edit.json["content"]
