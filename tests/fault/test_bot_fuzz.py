"""Random interactions through the bot's real code paths (discord.py against a fake Discord).

Commands with malformed free-text options, clicks on buttons and menus of the
right game and of others, with the current version and with stale or future
ones, autocomplete with random typing, and legal moves so games get somewhere.
Every interaction must get exactly one answer: a deferral then exactly one
follow-up, or an autocomplete list; nothing may be logged as an error; and the
store's invariants (tests.fault.invariants) hold after every interaction.
"""

from __future__ import annotations

import json
import os
from types import SimpleNamespace
from typing import Any, TypeVar
from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from carca_bot.bot.components.ids import BUTTONS
from carca_bot.local.randomplayer import play_random_move
from carca_bot.service import ServiceError, User, Where
from tests.bot.conftest import ANA, BEN, CY, MANAGE_GUILD, BotHarness
from tests.bot.fake_discord import Interactions
from tests.fault.discord_driver import collect
from tests.fault.invariants import assert_sound

T = TypeVar("T")
Player = tuple[int, str]
STRANGER: Player = (100000000000000777, "Zed")
PLAYERS = [ANA, BEN, CY, STRANGER]
FUZZ = settings(max_examples=int(os.environ.get("CARCA_FUZZ_EXAMPLES", "30")), deadline=None,
                database=None, derandomize=bool(os.environ.get("CI")),
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])

typed = st.one_of(st.sampled_from(["", " ", "0,0", "1,0", "-1,0", "0,1", "0,-1", "1 0", "(2,-1)",
                                   "9999,9999", "1,", ",", "x", "N", "C", "skip", "return",
                                   "1,0 C", "0,1 N", "2,0 W", "all", "river, abbot", "bogus",
                                   "river,,tunnel", "follower", "' OR 1=1 --", "١,٢", "0,0 ∞",
                                   "a" * 150]),
                  st.text(max_size=12))
huge = st.sampled_from([0, 1, 2, 3, 10**12, 10**30])


class Table:
    """One channel of the fuzz run; a new channel for every example."""

    def __init__(self, h: BotHarness, data: st.DataObject) -> None:
        self.h, self.data = h, data
        # A server of its own: a forged id naming another example's game finds nothing.
        self.make = Interactions(h.fake, channel_id=h.fake.new_id(), guild_id=h.fake.new_id())
        self.where = Where(str(self.make.guild_id), str(self.make.channel_id))
        self.first = 0  # the first game id of this example

    def draw(self, strategy: st.SearchStrategy[T]) -> T:
        return self.data.draw(strategy)

    async def current(self) -> tuple[int, int]:
        store = self.h.bot.service.store
        game_id = (await store.live_game(self.where.guild, self.where.channel)
                   or await store.latest_game(self.where.guild, self.where.channel) or 1)
        row = await store.game(game_id)
        return game_id, row.version if row is not None else 0

    async def decider(self) -> Player | None:
        try:
            view = await self.h.bot.service.status(self.where)
        except ServiceError:  # no game here yet
            return None
        if view.status != "active" or view.deciding is None:
            return None
        acting = view.deciding.user_id or view.host_id
        return next((p for p in PLAYERS if str(p[0]) == acting), None)

    # -- the kinds of interaction ----------------------------------------------------

    def command(self) -> dict[str, Any]:
        user = self.draw(st.sampled_from(PLAYERS))
        sub = self.draw(st.sampled_from([
            "create", "create", "join", "join", "leave", "start", "start", "tile", "draw",
            "place", "place", "follower", "barn", "recall", "abbey", "tunnel", "wagon",
            "confirm", "undo", "board", "status", "score", "games", "export", "rules",
            "resign", "kick", "cancel"]))
        options: dict[str, Any] = {}
        if self.draw(st.booleans()):
            options["_perms"] = MANAGE_GUILD
        if sub == "create":
            options.update(self.draw(st.fixed_dictionaries({}, optional={
                "expansions": typed, "wagon": st.sampled_from(["c2", "c1"]),
                "timer_hours": st.integers(0, 720), "auto_play": st.booleans(),
                "players": st.integers(1, 6), "thread": st.just(True)})))
        elif sub == "place":
            options["square"] = self.draw(typed)
            options.update(self.draw(st.fixed_dictionaries({}, optional={
                "rotation": st.sampled_from([0, 90, 180, 270]),
                "figure": st.sampled_from(["follower", "abbot", "mayor", "wagon"]),
                "on": typed, "confirm": st.booleans()})))
        elif sub == "follower":
            options["on"] = self.draw(typed)
            options.update(self.draw(st.fixed_dictionaries({}, optional={
                "figure": st.sampled_from(["follower", "abbot", "mayor", "wagon"])})))
        elif sub == "barn":
            options["corner"] = self.draw(st.sampled_from(["NW", "NE", "SE", "SW"]))
        elif sub == "abbey":
            options["square"] = self.draw(typed)
        elif sub == "tunnel":
            options["entrance"] = self.draw(typed)
            options.update(self.draw(st.fixed_dictionaries({}, optional={
                "pair": st.integers(1, 3)})))
        elif sub == "wagon":
            options["target"] = self.draw(typed)
        elif sub == "kick":
            options["player"] = self.draw(st.sampled_from(PLAYERS))
        event(f"command {sub}")
        return self.make.command(user, sub, **options)

    async def click(self) -> dict[str, Any]:
        user = self.draw(st.sampled_from(PLAYERS))
        game_id, version = await self.current()
        game_id = self.draw(st.sampled_from([game_id, game_id, game_id, game_id + 1])
                            | huge)
        version = self.draw(st.sampled_from([version, version, version - 1, version + 1])
                            | huge)
        version = max(version, 0)
        kind = self.draw(st.sampled_from(["button", "button", "button", "pick", "wagon"]))
        if kind == "button":
            action = self.draw(st.sampled_from(sorted(BUTTONS)))
            event(f"button {action}")
            return self.make.component(user, f"carc:{action}:{game_id}:{version}")
        values = [self.draw(st.sampled_from(["follower:N", "follower:C", "abbot:I1",
                                             "recall:", "barn:NW", "none", ":", "x:y",
                                             "1,0 C", "return", "0,0 ", ""]) | typed)]
        event(f"menu {kind}")
        return self.make.component(user, f"carc:{kind}:{game_id}:{version}", kind=3,
                                   values=values)

    def autocomplete(self) -> dict[str, Any]:
        user = self.draw(st.sampled_from(PLAYERS))
        sub, focused = self.draw(st.sampled_from([
            ("place", "square"), ("place", "on"), ("follower", "on"), ("abbey", "square"),
            ("tunnel", "entrance"), ("wagon", "target"), ("create", "expansions")]))
        options: dict[str, Any] = {focused: self.draw(typed)}
        if sub == "place":
            options.setdefault("square", self.draw(typed))
            options.update(self.draw(st.fixed_dictionaries({}, optional={
                "rotation": st.sampled_from([0, 90, 180, 270]),
                "figure": st.sampled_from(["follower", "abbot", "mayor", "wagon"])})))
        event(f"autocomplete {sub} {focused}")
        return self.make.command(user, sub, focused=focused, **options)

    async def ahead(self) -> None:
        """Random moves straight through the service, to reach the late game sooner."""
        rng = self.draw(st.randoms(use_true_random=False))
        for _ in range(self.draw(st.integers(1, 40))):
            player = await self.decider()
            if player is None:
                return
            await play_random_move(self.h.bot.service, self.where,
                                   User(str(player[0]), player[1]), rng)

    async def legal(self) -> dict[str, Any] | None:
        """What the player to act would sensibly do next."""
        player = await self.decider()
        if player is None:
            return None
        service = self.h.bot.service
        c = await service.legal_moves(self.where, User(str(player[0]), player[1]))
        game_id, version = await self.current()
        pick = self.draw(st.randoms(use_true_random=False))
        event(f"legal {c.must}")
        if c.must == "choose":
            return self.make.component(player, f"carc:draw:{game_id}:{version}")
        if c.must == "place":
            x, y, rot = pick.choice(c.placements)
            return self.make.command(player, "place", square=f"{x},{y}", rotation=rot,
                                     confirm=pick.random() < 0.7)
        if c.must == "finish":
            if c.deployments and pick.random() < 0.4:
                figure, on = pick.choice(c.deployments)
                return self.make.component(player, f"carc:pick:{game_id}:{version}", kind=3,
                                           values=[f"{figure}:{on}"])
            action = pick.choice(["confirm", "confirm", "undo", "rotate"])
            return self.make.component(player, f"carc:{action}:{game_id}:{version}")
        if c.must == "wagon":
            if c.wagon_moves:
                x, y, on = pick.choice(c.wagon_moves)
                value = f"{x},{y} {on}"
            else:
                value = "return"
            return self.make.component(player, f"carc:wagon:{game_id}:{version}", kind=3,
                                       values=[value])
        if c.abbey_squares and pick.random() < 0.5:
            x, y = pick.choice(c.abbey_squares)
            return self.make.command(player, "abbey", square=f"{x},{y}")
        return self.make.component(player, f"carc:skip:{game_id}:{version}")


async def _open_game(table: Table) -> None:
    """Most examples start from a dealt game, so they reach turns quickly."""
    if table.draw(st.integers(0, 3)) == 0:
        return
    expansions = table.draw(st.sampled_from(["none", "abbot", "all", "river, abbot",
                                             "abbey_mayor", "tunnel"]))
    for payload in (table.make.command(ANA, "create", expansions=expansions),
                    table.make.command(BEN, "join"), table.make.command(ANA, "start")):
        await send(table, payload)


async def send(table: Table, payload: dict[str, Any]) -> None:
    h = table.h
    start = len(h.fake.requests)
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await h.settle()  # every handler done; fails if anything was logged as an error
    answer = collect(h, payload, start)
    if _answered_at_once(answer):
        return
    answer.assert_one_answer()


def _answered_at_once(answer: Any) -> bool:
    """A click on an id no handler takes is answered at once, privately, without a
    deferral: exactly one callback that is the whole answer."""
    if answer.payload["type"] != 3 or len(answer.callbacks) != 1 or answer.followups:
        return False
    reply = answer.callbacks[0]
    return bool(reply.json["type"] == 4 and reply.ephemeral and reply.content)


@FUZZ
@given(data=st.data())
async def test_every_interaction_gets_one_answer(harness: BotHarness,
                                                 data: st.DataObject) -> None:
    table = Table(harness, data)
    versions: dict[int, int] = {}
    known = await harness.bot.service.store.game_ids()
    table.first = max(known, default=0) + 1  # earlier examples' games were checked then
    with mock.patch("carca_bot.service.lobby.secrets", seeds(data)):
        await _open_game(table)
        await _play(table, data, versions)


def seeds(data: st.DataObject) -> Any:
    """New games' seeds drawn by Hypothesis, so an example replays exactly when shrunk.

    It stands in for the lobby's own `secrets` only: discord.py draws a nonce from
    `secrets.randbits` for every channel message (the game card), and those draws must
    not come out of the example's data."""
    return SimpleNamespace(randbits=lambda bits: data.draw(st.integers(0, 2**bits - 1),
                                                           label="seed"))


async def _play(table: Table, data: st.DataObject, versions: dict[int, int]) -> None:
    harness = table.h
    for _ in range(data.draw(st.integers(3, 25), label="steps")):
        kind = data.draw(st.sampled_from(["command", "command", "click", "autocomplete",
                                          "legal", "legal", "legal", "ahead"]))
        if kind == "ahead":
            await table.ahead()
            continue
        if kind == "command":
            payload: dict[str, Any] | None = table.command()
        elif kind == "click":
            payload = await table.click()
        elif kind == "autocomplete":
            payload = table.autocomplete()
        else:
            payload = await table.legal()
        if payload is None:
            continue
        await send(table, payload)
        await assert_sound(harness.bot.service, versions, [None], table.first)


# -- hostile names ------------------------------------------------------------------------

MARKUP = [*"*_~`|<>[]()#@:/!-+\\ .\n\t", "\u202e", "\u202d", "\u2066", "\u2069", "\u200b",
          "\u200d", "\ufeff", "\u0301"]
hostile_names = st.one_of(
    st.sampled_from(["@everyone", "@here", "<@100000000000000002>", "<@&800000000000000001>",
                     "**bold**", "||spoiler||", "`code`", "```block```", "# heading",
                     "-# small", "> quote", "[link](https://evil.example)",
                     "https://evil.example", "\u202eevil", "a\u200bb", "x" * 300,
                     "<t:0:R>", "<#810000000000000001>", "~~strike~~", "__under__",
                     "<:emoji:123456789012345678>", "1. list", "- item"]),
    st.text(alphabet=st.sampled_from(MARKUP + list("abxyz019")), min_size=1, max_size=40),
    st.text(min_size=1, max_size=40))


async def _answered(h: BotHarness, payload: dict[str, Any]) -> None:
    start = len(h.fake.requests)
    h.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    await h.settle()  # fails if anything was logged as an error
    answer = collect(h, payload, start)
    if not _answered_at_once(answer):
        answer.assert_one_answer()


@FUZZ
@given(data=st.data())
async def test_hostile_names_ping_nobody_and_show_no_markup(harness: BotHarness,
                                                            data: st.DataObject) -> None:
    """Players with hostile display names, and a record with hostile player names, play
    through the real code paths: every message pings only the player it means to, shows
    no markup but the bot's own, and every interaction gets exactly one answer."""
    from tests.bot.outgoing import assert_clean
    from tests.engine.records import record, turn

    h = harness
    names = [data.draw(hostile_names, label=f"name {i}") for i in range(3)]
    base = 100000000000001000 + h.fake.new_id() % 10**6 * 10  # new users every example
    people = [(base + i, name) for i, name in enumerate(names)]
    make = Interactions(h.fake, channel_id=h.fake.new_id(), guild_id=h.fake.new_id())
    place = Where(str(make.guild_id), str(make.channel_id))
    start = len(h.fake.requests)
    with mock.patch("carca_bot.service.lobby.secrets", seeds(data)):
        await _hostile_game(h, data, make, place, people)
    # The same names as an imported record's players, played on by the importer.
    elsewhere = Interactions(h.fake, channel_id=h.fake.new_id())
    names_in_record = [n or "?" for n in names[:2]]
    rec = record([turn(names_in_record[0], "U", (1, 0), figure="follower", on="E")], seed=4,
                 players=tuple(names_in_record))
    upload = h.fake.upload("game.json", json.dumps(rec).encode())
    await _answered(h, elsewhere.command(ANA, "import", record=upload))
    await _answered(h, elsewhere.command(ANA, "status"))
    await _answered(h, elsewhere.command(ANA, "score"))
    assert_clean(h.fake.since(start), pinged=[p[0] for p in people])


async def _hostile_game(h: BotHarness, data: st.DataObject, make: Interactions, place: Where,
                        people: list[Player]) -> None:
    from carca_bot.local.randomplayer import play_random_move as random_move

    timer = data.draw(st.sampled_from([0, 1]), label="timer")
    auto = data.draw(st.booleans(), label="auto_play")
    await _answered(h, make.command(people[0], "create", timer_hours=timer, auto_play=auto))
    for p in people[1:]:
        await _answered(h, make.command(p, "join"))
    await _answered(h, make.command(people[0], "start"))
    by_id = {str(p[0]): p for p in people}
    rng = data.draw(st.randoms(use_true_random=False), label="moves")
    for _ in range(data.draw(st.integers(1, 6), label="turns")):
        view = await h.bot.service.status(place)
        if view.deciding is None or view.deciding.user_id is None:
            break
        who = by_id[view.deciding.user_id]
        legal = await h.bot.service.legal_moves(place, User(str(who[0]), who[1]))
        if legal.must == "place":
            x, y, rot = rng.choice(legal.placements)
            await _answered(h, make.command(who, "place", square=f"{x},{y}", rotation=rot,
                                            confirm=True))
        else:
            await random_move(h.bot.service, place, User(str(who[0]), who[1]), rng)
    for sub in ("status", "score", "games", "board"):
        await _answered(h, make.command(people[1], sub))
    if timer:
        view = await h.bot.service.status(place)
        if view.deadline is not None:
            for report in await h.bot.service.check_timers(now=view.deadline + 1):
                if report.game_id == view.game_id:  # (earlier examples' games are late too)
                    await h.bot.announce_timer(report)
