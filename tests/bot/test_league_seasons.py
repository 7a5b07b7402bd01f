"""`/carc-league` through the fake Discord: a league made from a sign-up event's players,
its divisions started and paired together (a division that cannot be paired says why in
words), a season's overview, and the next season with promotions, relegations, a player
leaving and one joining; league names offered by autocomplete; refusals that change
nothing."""

from __future__ import annotations

from typing import Any

from carca_bot.i18n import speaking
from carca_bot.i18n.pseudo import untranslated
from carca_bot.league import final_order
from tests.bot.conftest import ANA, BEN, CY, BotHarness
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
from tests.bot.test_league_events import ADMIN, EVE, create, organiser_role

FAY = (100000000000000006, "Fay")
NEWCOMER = 100000000000000020  # the fake Discord names them "user20"
PLAYERS = (ANA, BEN, CY, DEE, EVE, FAY)


def league_command(h: BotHarness, user: tuple[int, str], sub: str, *,
                   roles: tuple[str, ...] = (), focused: str | None = None,
                   **options: Any) -> dict[str, Any]:
    """A `/carc-league SUB ...` interaction (or its autocomplete, with `focused`)."""
    payload = h.make.command(user, "/carc-league", focused=focused, **options)
    data = payload["data"]
    data["options"] = [{"type": 1, "name": sub, "options": data["options"]}]
    payload["member"]["roles"] = list(roles)
    return payload


async def ask(h: BotHarness, sub: str, user: tuple[int, str] = ORG, **options: Any) -> Any:
    """A `/carc-league` command (by the organiser unless said); its one answer."""
    roles = (ORG_ROLE,) if user == ORG else ()
    (said,) = replies(await h.send(league_command(h, user, sub, roles=roles, **options)))
    return said


async def a_league(h: BotHarness) -> None:
    """'Premier': two divisions of three, from event 1's six players (a one-round Swiss)."""
    await organiser_role(h)
    await create(h, name="Spring sign-up", format="swiss", rounds=1)
    for user in PLAYERS:
        await h.send(event_command(h, user, "signup", event=1))
    said = await ask(h, "create", name="Premier", from_event=1, divisions=2)
    assert not said.ephemeral, said.content
    assert said.content.split("\n") == [
        "League **Premier** is made: season 1, from event #1, whose sign-ups are closed.",
        "• Division 1: #2 **Premier** · Swiss · 3 players · taking sign-ups",
        "• Division 2: #3 **Premier** · Swiss · 3 players · taking sign-ups",
        "Start it with `/carc-league start`."]
    assert (await h.bot.service.event_info(1)).status == "cancelled"


async def test_a_league_from_sign_ups_to_its_second_season(harness: BotHarness) -> None:
    h = harness
    await a_league(h)
    started = await h.send(league_command(h, ORG, "start", roles=(ORG_ROLE,),
                                          league="Premier"))
    (said,) = replies(started)
    assert len(threads(started)) == 2  # one game in each division, a bye in each
    lines = said.content.split("\n")
    assert lines[0] == "**Premier**:" and lines[1] == "Division 1: round 1 is paired."
    assert sum(line.startswith("Division ") for line in lines) == 2
    assert sum(line.endswith("has a bye.") for line in lines) == 2
    assert_pings_only(started, [str(u[0]) for u in PLAYERS])
    again = await ask(h, "start", league="Premier")
    assert again.ephemeral and "Every division of this season has started" in again.content
    early = await ask(h, "pair", league="Premier")
    assert early.content.split("\n")[1:] == [
        f"Division {n} is not paired: the event's last round has been paired." for n in (1, 2)]
    for event in (2, 3):  # each division's game: its first seat wins
        info = await h.bot.service.event_info(event)
        assert info.event.current is not None
        m = next(m for m in info.event.current.matches if not m.bye)
        await h.bot.service.override_result(event, ADMIN, m.id,
                                            [[(m.seats[0], 80), (m.seats[1], 60)]])
    await h.bot.service.check_events()
    overview = await ask(h, "season", user=ANA, league="Premier")
    assert overview.content.startswith("**Premier**, season 1:\nDivision 1: #2 **Premier** · ")
    assert overview.content.count("   1. ") == 2 and " · 3. " in overview.content
    assert overview.content.endswith("Every division is over: make the next season with "
                                     "`/carc-league next`.")
    # The next season: one up, one down; the last of division 2 leaves, a newcomer joins.
    top = final_order((await h.bot.service.event_info(2)).event)
    bottom = final_order((await h.bot.service.event_info(3)).event)
    names = {str(u[0]): u[1] for u in PLAYERS}
    made = await h.send(league_command(h, ORG, "next", roles=(ORG_ROLE,), league="Premier",
                                       moves=1, leaving=f"<@{bottom[-1]}>",
                                       joining=f"<@{NEWCOMER}>, {ANA[0]}"))
    (said,) = replies(made)
    assert said.content.split("\n") == [
        "**Premier**: season 2 is made.",
        "• Division 1: #4 **Premier** · Swiss · 3 players · taking sign-ups",
        f"   Up: {names[bottom[0]]}",
        "• Division 2: #5 **Premier** · Swiss · 3 players · taking sign-ups",
        f"   Down: {names[top[-1]]}",
        "   New: user20",
        f"Left the league: {names[bottom[-1]]}.",
        "Start it with `/carc-league start`."]
    assert_pings_only(made)
    season = await h.bot.service.season_overview(GUILD, "Premier")
    assert season.number == 2
    assert [e.player for e in season.divisions[1].event.event.entrants][-1] == str(NEWCOMER)


async def test_league_refusals_change_nothing(harness: BotHarness) -> None:
    h = harness
    await a_league(h)
    nobody = await ask(h, "start", user=ANA, league="Premier")
    assert nobody.ephemeral and nobody.content.startswith("Only organisers can do that")
    unknown = await ask(h, "season", user=ANA, league="Second")
    assert unknown.ephemeral and "There is no league of that name" in unknown.content
    division = await ask(h, "create", name="Second", from_event=2, divisions=1)
    assert division.ephemeral and division.content.replace("\\", "").startswith(
        "Event #2 is a division of the league Premier: a league starts from a sign-up "
        "event of its own")
    await create(h, name="Autumn sign-up", format="swiss", rounds=1)
    for user in (ANA, BEN):
        await h.send(event_command(h, user, "signup", event=4))
    twice = await ask(h, "create", name="Premier", from_event=4, divisions=1)
    assert twice.ephemeral and "A league of that name already exists" in twice.content
    assert [i.status for i in await h.bot.service.events(GUILD)] == ["signup"] * 3
    for options, words in (
            ({"leaving": "Dee"}, "Leaving: name players by mentioning them, e.g. @Ana @Ben"),
            ({"leaving": "<@999999999999999999>"},
             "The user with id 999999999999999999 is not in this league"),
            ({"moves": 1}, "The season is not over: every division must play its last round "
                           "first")):
        said = await ask(h, "next", league="Premier", **options)
        assert said.ephemeral and words in said.content.replace("\\", ""), said.content
    h.fake.fail_when.append((lambda r: r.method == "GET" and "/members/" in r.path, 404))
    said = await ask(h, "next", league="Premier", joining=f"<@{NEWCOMER}>")
    assert said.ephemeral and (f"The user with id {NEWCOMER} is not a member of this "
                               "server") in said.content
    assert (await h.bot.service.season_overview(GUILD, "Premier")).number == 1
    assert not (await h.bot.service.season_overview(GUILD, "Premier")).divisions[0].event \
        .event.started


async def test_league_names_are_offered_and_spoken_in_spanish(harness: BotHarness) -> None:
    h = harness
    await a_league(h)
    for typed, found in (("", ["Premier"]), ("prem", ["Premier"]), ("x", [])):
        (sent,) = await h.send(league_command(h, ANA, "season", focused="league",
                                              league=typed))
        assert [c["value"] for c in sent.json["data"]["choices"]] == found
    said = await ask(h, "season", user=ANA, league="Premier", _locale="es-ES")
    assert said.content.startswith("**Premier**, temporada 1:\nDivisión 1: #2 **Premier**")
    assert "La clasificación completa de cada división" in said.content
    said = await ask(h, "next", league="Premier", leaving="Dee", _locale="es-ES")
    assert said.content.startswith("Salen: nombra a los jugadores mencionándolos")


async def test_league_answers_are_all_translated(harness: BotHarness) -> None:
    h = harness
    await a_league(h)
    asked: list[tuple[str, dict[str, Any]]] = [
        ("start", {"league": "Premier"}), ("pair", {"league": "Premier"}),
        ("season", {"league": "Premier"}), ("next", {"league": "Premier", "leaving": "x"})]
    said = [(await ask(h, sub, ORG, _locale="qps", **options)).content
            for sub, options in asked]
    allowed = frozenset({"Premier", "Ana", "Ben", "Cy", "Dee", "Eve", "Fay"})
    with speaking("qps"):
        for text in said:
            assert untranslated(text, allowed=allowed) == [], text
