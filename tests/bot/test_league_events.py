"""Issue 28's events through the fake Discord: `/carc-event create` with every new option
(double elimination, tie-breaks, a third-place match, the bracket reset, forfeits at
the deadline, what repeated time-outs lead to, a custom clock), refused when an option
does not fit; the tie-break autocomplete; `/carc-event pairings`; and the options
stored as the service holds them."""

from __future__ import annotations

from typing import Any

from carca_bot.bot.commands.events.creating import tiebreak_list
from carca_bot.i18n import speaking
from carca_bot.service import Actor
from carca_bot.service.clocks import HOUR
from tests.bot.conftest import ANA, BEN, CY, BotHarness
from tests.bot.fake_discord import APP_ID
from tests.bot.outgoing import assert_pings_only
from tests.bot.test_league_commands import (
    DEE,
    GUILD,
    ORG,
    ORG_ROLE,
    event_command,
    replies,
    threads,
)

EVE = (100000000000000005, "Eve")
ADMIN = Actor("1", "Admin", admin=True)


async def organiser_role(h: BotHarness) -> None:
    await h.bot.service.set_organiser_role(GUILD, ADMIN, ORG_ROLE)


async def create(h: BotHarness, **options: Any) -> Any:
    """`/carc-event create` by the organiser; its one answer."""
    (said,) = replies(await h.send(event_command(h, ORG, "create", roles=(ORG_ROLE,),
                                                 **options)))
    return said


async def test_create_takes_every_rule_and_clock_option(harness: BotHarness) -> None:
    h = harness
    await organiser_role(h)
    said = await create(h, name="Spring double", format="double_elimination",
                        tiebreaks="scored, Buchholz cut-1", bracket_reset=False,
                        forfeit_at_deadline=True, timeouts="expel", timeout_limit=2,
                        bank_hours=48, increment_hours=12, cap_hours=96, quiet_start=23,
                        quiet_end=7, time_zone="Europe/Madrid", out_of_time="skip")
    assert not said.ephemeral, said.content
    assert said.content.startswith("Event created: #1 **Spring double** · double elimination")
    for line in ("Tie-breaks: points scored, then Buchholz cut-1.",
                 "A grand final won from the losers' side is not played again.",
                 "A match still open at its round's deadline is lost by the player its game "
                 "waits for.",
                 "After 2 time-outs in the event's games, a player is withdrawn from it.",
                 "⏱️ Clock: 48 h to start, +12 h per move, at most 96 h.",
                 "Quiet hours 23:00–07:00 (Europe/Madrid): the clocks stop.",
                 "When a player's time runs out, their turn is skipped."):
        assert line in said.content, (line, said.content)
    info = await h.bot.service.event_info(1)
    config, clock = info.config, info.options.clock
    assert config.format == "double_elimination" and not config.bracket_reset
    assert [t.value for t in config.tiebreaks] == ["scored", "buchholz_cut1"]
    assert config.forfeit_at_deadline
    assert (config.timeout_rule, config.timeout_limit) == ("expel", 2)
    assert clock is not None
    assert (clock.bank, clock.increment, clock.cap) == (48 * HOUR, 12 * HOUR, 96 * HOUR)
    assert clock.quiet is not None and (clock.quiet.start, clock.quiet.end) == (1380, 420)
    assert (clock.timezone, clock.on_timeout) == ("Europe/Madrid", "skip")
    # A knockout with a third-place match and a preset clock forfeiting after 3.
    said = await create(h, name="Cup", format="knockout", third_place=True, clock="fast",
                        timeouts="forfeit")
    assert "The semi-finals' losers play for third place." in said.content
    assert "After 3 time-outs in one game, that player loses the match." in said.content
    assert "Tie-breaks: wins, then points scored." in said.content
    cup = await h.bot.service.event_info(2)
    assert cup.config.third_place and cup.config.timeout_rule == "forfeit"
    assert cup.options.clock is not None and cup.options.clock.bank == 8 * HOUR


async def test_an_option_that_does_not_fit_is_refused_and_nothing_is_made(
        harness: BotHarness) -> None:
    h = harness
    await organiser_role(h)
    for options, words in (
            ({"format": "swiss", "third_place": True}, "Third_place is for knockouts"),
            ({"format": "knockout", "bracket_reset": True},
             "Bracket_reset is for double elimination"),
            ({"format": "swiss", "timeouts": "forfeit"},
             "The timeouts option acts on clock time-outs"),
            ({"format": "swiss", "clock": "fast", "timeout_limit": 4},
             "Timeout_limit goes with the timeouts option"),
            ({"format": "swiss", "tiebreaks": "buchholz, coin toss"},
             "'coin toss' is not a tie-break I know: choose from wins, buchholz,"),
            ({"format": "swiss", "tiebreaks": "scored, scored"},
             "Name each tie-break at most once"),
            ({"format": "swiss", "quiet_start": 22, "quiet_end": 6},
             "Quiet hours, a time zone and what happens when time runs out belong to a "
             "clock"),
            ({"format": "swiss", "clock": "normal", "time_zone": "Mars/Olympus"},
             "'Mars/Olympus' is not a time zone I know")):
        said = await create(h, name="Nope", **options)
        assert said.ephemeral and words in said.content.replace("\\", ""), (options,
                                                                            said.content)
    assert await h.bot.service.events(GUILD, live_only=False) == []


def test_tiebreaks_are_read_as_codes_or_names_in_the_language_spoken() -> None:
    assert tiebreak_list(None) == () == tiebreak_list(" , ")
    assert tiebreak_list("Sonneborn-Berger, head to head,MEDIAN") == (
        "sonneborn_berger", "head_to_head", "median")
    with speaking("es"):
        assert tiebreak_list("puntos a favor, buchholz") == ("scored", "buchholz")


async def test_the_tiebreak_autocomplete(harness: BotHarness) -> None:
    h = harness

    async def offered(typed: str, locale: str | None = None, **more: Any) -> list[Any]:
        payload = h.make.command(ORG, "/carc-event", focused="tiebreaks", tiebreaks=typed,
                                 name="x", **more, **({"_locale": locale} if locale else {}))
        data = payload["data"]
        data["options"] = [{"type": 1, "name": "create", "options": data["options"]}]
        (sent,) = await h.send(payload)
        assert sent.path.endswith("/callback") and sent.json["type"] == 8
        return [(c["name"], c["value"]) for c in sent.json["data"]["choices"]]

    # Nothing typed: the chosen format's own chain first, then each tie-break.
    first = await offered("", format="round_robin")
    assert first[0] == ("wins, then head-to-head, then Sonneborn-Berger, then points scored",
                        "wins, head_to_head, sonneborn_berger, scored")
    assert len(first) == 10 and first[1] == ("wins", "wins")
    # The next one after those typed, matched by code or name, never one already there.
    assert await offered("buchholz, son") == [("Buchholz, then Sonneborn-Berger",
                                               "buchholz, sonneborn_berger")]
    assert await offered("buchholz, buch") == [("Buchholz, then Buchholz cut-1",
                                                "buchholz, buchholz_cut1")]
    assert await offered("nonsense, w") == []
    spanish = await offered("scored, dif", locale="es-ES")
    assert spanish == [("puntos a favor, y después diferencia de puntos",
                        "scored, difference")]


async def play_swiss_round(h: BotHarness, event: int) -> None:
    """Every open match of the event's round decided by the organiser: the first seat wins."""
    info = await h.bot.service.event_info(event)
    assert info.event.current is not None
    for m in info.event.current.matches:
        if not m.bye and not m.decided:
            await h.bot.service.override_result(event, ADMIN, m.id,
                                                [[(m.seats[0], 80), (m.seats[1], 60)]])


async def test_pairings_say_why_each_match_was_made(harness: BotHarness) -> None:
    h = harness
    await organiser_role(h)
    await create(h, name="Autumn cup", format="swiss", rounds=3)
    for user in (ANA, BEN, CY, DEE, EVE):
        await h.send(event_command(h, user, "signup", event=1))
    started = await h.send(event_command(h, ORG, "start", roles=(ORG_ROLE,), event=1))
    assert len(threads(started)) == 2
    shown = await h.send(event_command(h, BEN, "pairings", event=1))
    (said,) = replies(shown)
    assert said.ephemeral
    lines = said.content.split("\n")
    assert lines[0] == ("#1 **Autumn cup** · Swiss · 5 players · running (round 1 of 3): "
                        "why each match of round 1 was made.")
    assert lines[1] == ("Pairs across score groups: 0 · rematches: 0 · first seats: at most 2 "
                        "more than second seats, or the other way round.")
    assert lines[2].startswith("• **r1-1** ") and ": same score group; " in lines[2]
    assert " goes first: " in lines[2] and "(0)" in lines[2]
    assert lines[4].startswith("• **r1-bye** ")
    assert lines[4].endswith(": a bye, to the lowest-ranked player who had not had one")
    assert_pings_only(shown)
    # Round 2: the three players on 1 point cannot all meet each other, one floats down.
    await play_swiss_round(h, 1)
    await h.bot.service.check_events()
    await h.send(event_command(h, ORG, "pair", roles=(ORG_ROLE,), event=1))
    view = await h.bot.service.event_pairings(1)
    assert view.round == 2 and view.crossings == 1 and view.rematches == 0
    (said,) = replies(await h.send(event_command(h, BEN, "pairings", event=1)))
    assert "Pairs across score groups: 1 · rematches: 0" in said.content
    assert said.content.count("across score groups: the higher group could not be paired "
                              "within itself") == 1
    assert "(1) – " in said.content and " ✓" not in said.content
    (first,) = replies(await h.send(event_command(h, BEN, "pairings", event=1, round=1)))
    assert first.content.count(" ✓") == 2  # round 1's pairs are decided (a bye has no mark)
    (spanish,) = replies(await h.send(event_command(h, BEN, "pairings", event=1,
                                                    _locale="es-ES")))
    assert "Emparejamientos entre grupos de puntos: 1" in spanish.content
    (no,) = replies(await h.send(event_command(h, BEN, "pairings", event=1, round=7)))
    assert no.ephemeral and "This event has rounds 1 to 2" in no.content


async def test_the_commands_are_registered_with_their_options(harness: BotHarness) -> None:
    (put,) = [r for r in harness.fake.requests if r.method == "PUT"
              and r.path == f"/applications/{APP_ID}/commands"]
    event = next(c for c in put.json if c["name"] == "carc-event")
    subs = {o["name"]: o for o in event["options"]}
    create_options = {o["name"]: o for o in subs["create"]["options"]}
    assert len(create_options) <= 25
    assert {"tiebreaks", "third_place", "bracket_reset", "forfeit_at_deadline", "timeouts",
            "timeout_limit", "bank_hours", "increment_hours", "cap_hours", "quiet_start",
            "quiet_end", "time_zone", "out_of_time"} <= set(create_options)
    assert create_options["tiebreaks"]["autocomplete"] is True
    assert "double_elimination" in [c["value"] for c in create_options["format"]["choices"]]
    assert [c["value"] for c in create_options["timeouts"]["choices"]] == [
        "none", "forfeit", "expel"]
    limit = create_options["timeout_limit"]
    assert (limit["min_value"], limit["max_value"]) == (1, 20)
    assert [o["name"] for o in subs["pairings"]["options"]] == ["event", "round"]
    league = next(c for c in put.json if c["name"] == "carc-league")
    assert [o["name"] for o in league["options"]] == ["create", "start", "pair", "season",
                                                      "next"]
