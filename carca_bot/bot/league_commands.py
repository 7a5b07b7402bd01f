"""`/carc-event`: tournaments and leagues on Discord, and what their timers post.

The service runs the event (carca_bot.service.league_ops); this module turns commands
into its calls and its data into messages. Pairing a round opens one public thread
per pairing under the channel the command was used in, deals the game there with the
event's options and posts its first message (board, buttons, the players pinged).

Who may do what is checked by the service from what Discord tells us: the user's
roles and whether they may manage the server (`actor`).

Standings are pictures (carca_bot/render/league.py, a page of PER_PAGE players each,
at most PICTURE_PAGES of them) drawn in the render threads in the language of the post,
with the CSV file of every row; a text table stands in for the pictures when they
cannot be drawn or do not fit the upload limit.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import discord
from discord import app_commands

from carca_bot.bot import languages, parse, text
from carca_bot.bot.actions import Actions, Reply, is_admin, public, who
from carca_bot.bot.buttons import row_for
from carca_bot.bot.profile_commands import MARGIN, picture
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import file_name, plain, safe_name
from carca_bot.i18n import Domain, current, speaking
from carca_bot.render.league import PER_PAGE, StandingRow, render_standings
from carca_bot.service import (
    Actor,
    EventInfo,
    EventNotice,
    GameOptions,
    GameService,
    Pairing,
    ServiceError,
    TurnView,
    Where,
    event_config,
)
from carca_bot.service import head_to_head as shared_places
from carca_bot.service.model import clock_rules
from carca_bot.words import say

log = logging.getLogger("carca_bot.bot")
T = TypeVar("T")
_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Interaction = discord.Interaction[Any]
THREAD_ARCHIVE_MINUTES = 10080  # a week: a round's game may take that long
BOARD_BYTES = 8 * 1024 * 1024
TABLE_ROWS = 40  # standings lines in a message; the CSV holds them all
NAME_WIDTH = 18
PICTURE_PAGES = 9  # standings pictures on one message (Discord takes 10 files: + the CSV)

FORMATS = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Knockout", value="knockout"),
    app_commands.Choice(name="Multiplayer tables", value="tables"),
]
CLOCKS = [
    app_commands.Choice(name="Fast clock", value="fast"),
    app_commands.Choice(name="Normal clock", value="normal"),
    app_commands.Choice(name="Slow clock", value="slow"),
]
LANGUAGES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Español", value="es"),
]


class EventBot(Protocol):
    """What this module needs of the client (`carca_bot.bot.client.CarcaBot`)."""

    @property
    def service(self) -> GameService: ...
    @property
    def actions(self) -> Actions: ...
    @property
    def http(self) -> Any: ...
    async def post(self, place: Where, content: str, view: discord.ui.View | None = None,
                   pings: list[str] | None = None, files: list[discord.File] | None = None,
                   shows: TurnView | None = None) -> None: ...
    async def render_board(self, game: Any, max_bytes: int | None = None,
                           language: str = "en") -> bytes: ...
    async def in_render_pool(self, work: Callable[[], T]) -> T: ...


def actor(interaction: Interaction) -> Actor:
    """The user as the service's permission checks see them: roles and Manage Server.

    discord.py keeps a member's role ids even when the server is not in its cache
    (`Member.roles` would need the cache), hence `_roles`.
    """
    user = who(interaction)
    roles = frozenset(str(r) for r in getattr(interaction.user, "_roles", ()) or ())
    return Actor(user.id, user.name, roles, is_admin(interaction))


def status_words(status: str) -> str:
    words = {"signup": _("taking sign-ups"), "running": _("running"),
             "finished": _("finished"), "cancelled": _("cancelled")}
    return words.get(status, status)


def format_words(kind: str) -> str:
    words = {"swiss": _("Swiss"), "round_robin": _("round robin"), "knockout": _("knockout"),
             "tables": _("multiplayer tables")}
    return words.get(kind, kind)


def event_line(info: EventInfo) -> str:
    """'#3 **Autumn cup** · Swiss · 8 players · running (round 2 of 5)'."""
    event = info.event
    players = ngettext("{n} player", "{n} players", len(event.entrants)).format(
        n=len(event.entrants))
    line = _("#{id} **{title}** · {format} · {players} · {status}").format(
        id=info.id, title=safe_name(info.title, 80), format=format_words(info.config.format),
        players=players, status=status_words(info.status))
    if event.started:
        line += " " + _("(round {round} of {rounds})").format(round=len(event.rounds),
                                                              rounds=event.total_rounds)
    return line


def players_line(pairing: Pairing) -> str:
    return " – ".join(safe_name(u.name) for u in pairing.players)


def thread_name(info: EventInfo, pairing: Pairing) -> str:
    # TRANSLATORS: the name of an event game's thread: the event, the round, the players.
    name = _("{event} · round {round} · {players}").format(
        event=info.title, round=pairing.round,
        players=" – ".join(u.name for u in pairing.players))
    if pairing.game_index:
        name += " · " + _("game {n}").format(n=pairing.game_index + 1)
    return plain(name, 100)


def standings_table(info: EventInfo, rows: Sequence[Any]) -> str:
    """The standings as a fixed-width table in a code block (names made harmless there)."""
    tables = info.config.format == "tables"
    head = (_("Pl.  Player              Pts   Wins  Games") if tables
            else _("Pl.  Player              Wins  Buch.  Diff  Games"))
    lines = [head]
    for r in rows[:TABLE_ROWS]:
        name = plain(r.name, NAME_WIDTH).replace("`", "'")
        mark = "*" if r.withdrawn else " "
        if tables:
            lines.append(f"{r.place:>3}{mark} {name:<{NAME_WIDTH}} {r.placing:>5g} "
                         f"{r.wins:>5g} {r.played:>6}")
        else:
            lines.append(f"{r.place:>3}{mark} {name:<{NAME_WIDTH}} {r.wins:>5g} "
                         f"{r.buchholz:>5g} {r.difference:>+6.0f} {r.played:>6}")
    body = "\n".join(lines)
    extra = ""
    if len(rows) > TABLE_ROWS:
        extra = "\n" + _("… and {n} more in the CSV file.").format(n=len(rows) - TABLE_ROWS)
    if any(r.withdrawn for r in rows):
        extra += "\n" + _("* withdrew")
    return f"```\n{body}\n```{extra}"


def points_key(info: EventInfo) -> str:
    """What a player's points are: placing points at multiplayer tables, else wins."""
    return "placing" if info.config.format == "tables" else "wins"


def picture_chain(info: EventInfo) -> list[str]:
    """The tie-break columns: the event's chain in order, less what the picture's fixed
    columns show already: the points, and wins (the won and drawn columns; a second
    column headed "W" would only puzzle)."""
    shown = {points_key(info), "wins"}
    return [str(getattr(k, "value", k)) for k in info.config.chain
            if str(getattr(k, "value", k)) not in shown]


def records(info: EventInfo) -> dict[str, tuple[int, int, int]]:
    """Each player's games won, drawn (a shared first place) and lost; byes are no game."""
    tally: dict[str, list[int]] = {e.player: [0, 0, 0] for e in info.event.entrants}
    for match in info.event.matches:
        if match.bye:
            continue
        for game in match.games:
            wins = game.wins()
            for p in game.players:
                won = wins.get(p, 0.0)
                tally.setdefault(p, [0, 0, 0])[0 if won == 1 else 1 if won > 0 else 2] += 1
    return {p: (w, d, lost) for p, (w, d, lost) in tally.items()}


def head_to_head(info: EventInfo, rows: Sequence[Any], before: Sequence[str]
                 ) -> dict[str, float | str]:
    """Head-to-head as the chain used it: among players level on every tie-break before
    it, one for each time one placed above another in a game they shared (1/2 for the
    same place). A player level with nobody shows a dash."""
    groups: dict[tuple[float, ...], list[str]] = {}
    for r in rows:
        groups.setdefault(tuple(float(getattr(r, k)) for k in before), []).append(r.player)
    games = [g for m in info.event.matches if not m.bye for g in m.games]
    out: dict[str, float | str] = {}
    for members in groups.values():
        if len(members) < 2:
            out.update(dict.fromkeys(members, "—"))
            continue
        score = shared_places(members, games)
        out.update(score)
    return out


def standing_rows(info: EventInfo, rows: Sequence[Any]) -> list[StandingRow]:
    """The event's standings as the picture draws them, the tie-breaks in chain order."""
    chain = picture_chain(info)
    played = records(info)
    h2h: dict[str, float | str] = {}
    if "head_to_head" in chain:
        at = [str(getattr(k, "value", k)) for k in info.config.chain].index("head_to_head")
        before = [str(getattr(k, "value", k)) for k in info.config.chain][:at]
        h2h = head_to_head(info, rows, [k for k in before if k != "head_to_head"])
    out = []
    for r in rows:
        won, drawn, lost = played.get(r.player, (0, 0, 0))
        values: list[float | str] = [h2h.get(r.player, "—") if key == "head_to_head"
                                     else float(getattr(r, key, 0)) for key in chain]
        out.append(StandingRow(rank=r.place, name=r.name, played=r.played, wins=won,
                               draws=drawn, losses=lost,
                               points=float(getattr(r, points_key(info))),
                               tiebreaks=tuple(values), withdrawn=r.withdrawn))
    return out


async def standings_pictures(bot: EventBot, info: EventInfo, rows: Sequence[Any],
                             room: int, round_no: int | None, final: bool
                             ) -> list[discord.File] | None:
    """The standings pages as PNG files (at most PICTURE_PAGES), in the language being
    spoken; None when they cannot be drawn or do not fit in `room` bytes."""
    drawn = standing_rows(info, rows)
    chain = picture_chain(info)
    language = current()
    rounds = info.event.total_rounds or None
    total = max(1, -(-len(drawn) // PER_PAGE))

    def page(n: int) -> Callable[[], bytes]:
        return lambda: render_standings(drawn, event=info.title, tiebreaks=chain,
                                        round_no=round_no, rounds=rounds, final=final,
                                        language=language, page=n).data

    pages: list[bytes] = []
    for number in range(1, min(total, PICTURE_PAGES) + 1):
        png = await picture(bot, page(number), room, "standings")
        if png is None:
            return None
        pages.append(png)
        room -= len(png)
    files = []
    for number, png in enumerate(pages, start=1):
        name = f"standings-{info.id}.png" if number == 1 else f"standings-{info.id}-{number}.png"
        # TRANSLATORS: the description (alt text) of a standings picture.
        about = _("The standings, page {page} of {pages}").format(page=number,
                                                                  pages=total)
        files.append(discord.File(io.BytesIO(png), filename=file_name(name),
                                  description=about))
    return files


async def standings_reply(bot: EventBot, info: EventInfo, csv_text: str, heading: str,
                          limit: int = BOARD_BYTES, round_no: int | None = None,
                          final: bool | None = None) -> Reply:
    """Standings as pictures and the CSV file under `heading`; the text table instead of
    the pictures when they cannot go. `round_no` is the round they follow (by default
    the latest paired), `final` whether the event is over (by default its status)."""
    rows = info.event.standings()
    csv_bytes = csv_text.encode()
    data = discord.File(io.BytesIO(csv_bytes), filename=file_name(
        f"standings-{info.id}.csv"), description=_("The standings as CSV"))
    if round_no is None and info.event.started:
        round_no = len(info.event.rounds)
    if final is None:
        final = info.status == "finished"
    pictures = await standings_pictures(bot, info, rows, limit - len(csv_bytes) - MARGIN,
                                        round_no, final)
    if pictures is None:
        content = f"{heading}\n{standings_table(info, rows)}"
        return Reply(text.clip(content), public=True, file=data)
    shown = min(len(rows), PICTURE_PAGES * PER_PAGE)
    line = (ngettext("The standings are in the picture; the CSV file has every row.",
                     "The standings are in the {n} pictures; the CSV file has every row.",
                     len(pictures)).format(n=len(pictures)) if shown == len(rows)
            else _("The pictures show the first {n} places; the CSV file has every row."
                   ).format(n=shown))
    return Reply(text.clip(f"{heading}\n{line}"), public=True, file=pictures[0],
                 more_files=[*pictures[1:], data])


async def open_games(bot: EventBot, info: EventInfo, pairings: Sequence[Pairing],
                     channel: str) -> list[str]:
    """A thread and a game for each pairing under `channel`; lines saying what happened
    (a pairing whose thread or game could not be made is said, and offered again by
    the event timers later)."""
    said: list[str] = []
    for p in pairings:
        try:
            data = await bot.http.start_thread_without_message(
                int(channel), name=thread_name(info, p),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value, reason="carca-bot event game")
        except discord.HTTPException as exc:
            log.info("event %s: no thread for %s (%s)", info.id, p.match_id, exc.status)
            said.append(_("{players}: I could not open a thread (I need the Create Public "
                          "Threads permission); I will try again later.").format(
                players=players_line(p)))
            continue
        place = Where(info.guild, str(data["id"]))
        try:
            view = await bot.service.open_event_game(info.id, p, place)
        except ServiceError as exc:
            said.append(f"{players_line(p)}: {say(exc)}")
            continue
        await first_post(bot, info, p, view)
        said.append(_("{players}: game #{game} in {thread}").format(
            players=players_line(p), game=view.game_id, thread=f"<#{place.channel}>"))
    return said


async def first_post(bot: EventBot, info: EventInfo, pairing: Pairing, view: TurnView) -> None:
    """The game's first message in its thread, in the game's language, pinging its players."""
    game = await bot.service.game(view.where, view.game_id)
    with public(view) as language:
        head = _("**{event}**, round {round}: {players}. Good luck!").format(
            event=safe_name(info.title, 80), round=pairing.round,
            players=", ".join(f"<@{u.id}>" for u in pairing.players))
        content = f"{head}\n\n{text.status_text(view)}"
        files = []
        if game is not None:
            png = await bot.render_board(game, BOARD_BYTES, language)
            files.append(discord.File(io.BytesIO(png), filename="board.png",
                                      description=_("The board")))
        components = row_for(view, None, private=False)
    try:
        await bot.post(view.where, content, components, [u.id for u in pairing.players], files,
                       shows=view)
    except discord.HTTPException as exc:  # owed: the outbox posts it later
        log.info("game %s: first event post failed (%s)", view.game_id, exc.status)


def build_event_group(bot: EventBot) -> app_commands.Group:
    group = app_commands.Group(name="carc-event", description="Tournaments and leagues on "
                                                              "this server", guild_only=True)
    act = bot.actions

    def service() -> GameService:
        return bot.service

    def here(interaction: Interaction) -> Where:
        return Where(str(interaction.guild_id or 0), str(interaction.channel_id or 0))

    async def info_of(interaction: Interaction, event: int) -> EventInfo:
        return await service().event_info(event, here(interaction).guild)

    @group.command(name="create", description="Create an event (organisers)")
    @app_commands.rename(kind="format")
    @app_commands.describe(
        name="The event's name", kind="How players are paired",
        rounds="Rounds (Swiss: 5, tables: 3 by default)",
        best_of="Games per knockout match (odd)", groups="Round-robin groups",
        table_size="Players per table", days="Days to play each round",
        expansions="Comma-separated: river, abbot, abbey_mayor, king_robber, cult, tunnel, "
                   "or all",
        clock="A time bank per player instead of no limit", unrated="Games change no rating",
        language="The language of the event's games (by default the server's)")
    @app_commands.choices(kind=FORMATS, clock=CLOCKS, language=LANGUAGES)
    async def create(interaction: Interaction, name: app_commands.Range[str, 1, 80],
                     kind: str, rounds: app_commands.Range[int, 0, 99] = 0,
                     best_of: app_commands.Range[int, 1, 9] = 1,
                     groups: app_commands.Range[int, 1, 26] = 1,
                     table_size: app_commands.Range[int, 3, 6] = 4,
                     days: app_commands.Range[int, 1, 60] = 7,
                     expansions: app_commands.Range[str, 0, 200] | None = None,
                     clock: str | None = None, unrated: bool = False,
                     language: str | None = None) -> None:
        async def work() -> Reply:
            spoken = languages.new_game_language(interaction, language,
                                                 await act.prefs(interaction))
            config = event_config(kind, rounds=rounds, best_of=best_of, groups=groups,
                                  table_size=table_size, round_days=days)
            options = GameOptions(expansions=parse.expansions(expansions),
                                  clock=None if clock is None else clock_rules(clock),
                                  unrated=unrated, language=spoken)
            info = await service().create_event(here(interaction), actor(interaction), name,
                                                config, options)
            return Reply(_("Event created: {event}\nPlayers sign up with "
                           "`/carc-event signup event:{id}`.").format(
                event=event_line(info), id=info.id), public=True)
        await act.run(interaction, "event-create", work, public=True)

    @group.command(name="list", description="The events on this server")
    async def list_events(interaction: Interaction) -> None:
        async def work() -> Reply:
            found = await service().events(here(interaction).guild)
            if not found:
                return Reply(_("No event is taking sign-ups or running on this server."))
            return Reply(text.clip("\n".join(event_line(i) for i in found)))
        await act.run(interaction, "event-list", work, public=False)

    @group.command(name="signup", description="Sign up for an event")
    @app_commands.describe(event="The event's number")
    async def signup(interaction: Interaction,
                     event: app_commands.Range[int, 1, 10**12]) -> None:
        async def work() -> Reply:
            await info_of(interaction, event)
            info = await service().sign_up(event, who(interaction))
            late = info.event.entrant(who(interaction).id).joined > 1
            words = (_("{name} signed up for {event} (a late entry: from the next round).")
                     if late else _("{name} signed up for {event}."))
            return Reply(words.format(name=safe_name(who(interaction).name),
                                      event=event_line(info)), public=True)
        await act.run(interaction, "event-signup", work, public=True)

    @group.command(name="withdraw", description="Withdraw from an event (organisers: "
                                                "withdraw a player)")
    @app_commands.describe(event="The event's number", player="Who (organisers only; by "
                                                              "default yourself)")
    async def withdraw(interaction: Interaction, event: app_commands.Range[int, 1, 10**12],
                       player: discord.User | discord.Member | None = None) -> None:
        async def work() -> Reply:
            await info_of(interaction, event)
            target = str(player.id) if player is not None else None
            info = await service().withdraw(event, actor(interaction), target)
            gone = info.event.entrant(target or who(interaction).id).name
            return Reply(_("{name} withdrew from {event}.").format(
                name=safe_name(gone), event=event_line(info)), public=True)
        await act.run(interaction, "event-withdraw", work, public=True)

    async def paired(interaction: Interaction, info: EventInfo,
                     pairings: list[Pairing]) -> Reply:
        lines = await open_games(bot, info, pairings, str(interaction.channel_id or 0))
        current = info.event.current
        byes = [info.event.entrant(m.seats[0]).name for m in current.matches
                if m.bye] if current is not None else []
        head = _("{event}: round {round} is paired.").format(
            event=event_line(info), round=len(info.event.rounds))
        body = [head, *(f"• {line}" for line in lines)]
        body += [_("• {name} has a bye.").format(name=safe_name(n)) for n in byes]
        deadline = current.deadline if current is not None else None
        if deadline is not None:
            body.append(_("Deadline: {when}.").format(when=f"<t:{int(deadline)}:F>"))
        return Reply(text.clip("\n".join(body)), public=True,
                     pings=[u.id for p in pairings for u in p.players])

    @group.command(name="start", description="Close sign-ups and pair round 1 (organisers)")
    @app_commands.describe(event="The event's number")
    async def start(interaction: Interaction,
                    event: app_commands.Range[int, 1, 10**12]) -> None:
        async def work() -> Reply:
            await info_of(interaction, event)
            info, pairings = await service().start_event(event, actor(interaction))
            return await paired(interaction, info, pairings)
        await act.run(interaction, "event-start", work, public=True)

    @group.command(name="pair", description="Pair the next round and open its games "
                                            "(organisers)")
    @app_commands.describe(event="The event's number")
    async def pair(interaction: Interaction,
                   event: app_commands.Range[int, 1, 10**12]) -> None:
        async def work() -> Reply:
            await info_of(interaction, event)
            info, pairings = await service().pair_next_round(event, actor(interaction))
            return await paired(interaction, info, pairings)
        await act.run(interaction, "event-pair", work, public=True)

    @group.command(name="result", description="Set a match's result (organisers)")
    @app_commands.describe(event="The event's number", match="The match, e.g. r2-3",
                           scores="Scores in seat order, games split by ';': 85,72; 60,91",
                           note="Why (shown with the result)")
    async def result(interaction: Interaction, event: app_commands.Range[int, 1, 10**12],
                     match: app_commands.Range[str, 1, 20],
                     scores: app_commands.Range[str, 1, 200],
                     note: app_commands.Range[str, 0, 200] = "") -> None:
        async def work() -> Reply:
            info = await info_of(interaction, event)
            m = next((m for m in info.event.matches if m.id == match.strip()), None)
            if m is None:
                raise Refused(_("there is no match {match} in this event").format(
                    match=safe_name(match)))
            games = []
            for index, part in enumerate(scores.split(";")):
                numbers = [p.strip() for p in part.split(",") if p.strip()]
                seats = m.seats_for_game(index)
                if len(numbers) != len(seats) or not all(n.isdigit() for n in numbers):
                    raise Refused(_("give {n} scores for game {game}, in seat order: {seats}"
                                    ).format(n=len(seats), game=index + 1, seats=", ".join(
                                        safe_name(info.event.entrant(p).name) for p in seats)))
                games.append([(p, int(n)) for p, n in zip(seats, numbers, strict=True)])
            info = await service().override_result(event, actor(interaction), m.id, games,
                                                   note)
            return Reply(_("{event}: the result of {match} was set by an organiser.").format(
                event=event_line(info), match=m.id), public=True)
        await act.run(interaction, "event-result", work, public=True)

    @group.command(name="forfeit", description="Award a match against a no-show (organisers)")
    @app_commands.describe(event="The event's number", match="The match, e.g. r2-3",
                           player="Who did not show")
    async def forfeit(interaction: Interaction, event: app_commands.Range[int, 1, 10**12],
                      match: app_commands.Range[str, 1, 20],
                      player: discord.User | discord.Member) -> None:
        async def work() -> Reply:
            await info_of(interaction, event)
            info = await service().forfeit_match(event, actor(interaction), match.strip(),
                                                 [str(player.id)])
            return Reply(_("{event}: {name} forfeits {match}.").format(
                event=event_line(info), name=safe_name(
                    info.event.entrant(str(player.id)).name), match=match.strip()),
                public=True)
        await act.run(interaction, "event-forfeit", work, public=True)

    @group.command(name="appeal", description="Grant an appeal: undo a match's last ruling "
                                              "(organisers)")
    @app_commands.describe(event="The event's number", match="The match, e.g. r2-3")
    async def appeal(interaction: Interaction, event: app_commands.Range[int, 1, 10**12],
                     match: app_commands.Range[str, 1, 20]) -> None:
        async def work() -> Reply:
            await info_of(interaction, event)
            info = await service().appeal(event, actor(interaction), match.strip())
            return Reply(_("{event}: the appeal on {match} was granted.").format(
                event=event_line(info), match=match.strip()), public=True)
        await act.run(interaction, "event-appeal", work, public=True)

    @group.command(name="standings", description="An event's standings, with a CSV file")
    @app_commands.describe(event="The event's number")
    async def standings(interaction: Interaction,
                        event: app_commands.Range[int, 1, 10**12]) -> None:
        async def work() -> Reply:
            info = await info_of(interaction, event)
            return await standings_reply(bot, info, await service().standings_csv(event),
                                         event_line(info), interaction.filesize_limit)
        await act.run(interaction, "event-standings", work, public=True)

    @group.command(name="organiser", description="Choose the role that runs events (Manage "
                                                 "Server)")
    @app_commands.describe(role="The organiser role (none: only admins)")
    async def organiser(interaction: Interaction, role: discord.Role | None = None) -> None:
        async def work() -> Reply:
            guild = here(interaction).guild
            await service().set_organiser_role(guild, actor(interaction),
                                               None if role is None else str(role.id))
            if role is None:
                return Reply(_("Only members with the Manage Server permission organise "
                               "events now."))
            return Reply(_("Members of {role} now organise events.").format(
                role=f"<@&{role.id}>"))
        await act.run(interaction, "event-organiser", work, public=False)

    return group


# -- the event timers: the lead calls `event_timers(bot)` from the client's timer loop ------


async def event_timers(bot: EventBot) -> int:
    """Post what the events' timers found (rounds over, reminders, the organisers'
    digest) and open the games still missing; returns notices handled."""
    notices = await bot.service.check_events()
    for notice in notices:
        try:
            await announce(bot, notice)
        except discord.HTTPException as exc:
            log.info("event %s: notice %s not posted (%s)", notice.event.id, notice.kind,
                     exc.status)
    return len(notices)


def event_language(info: EventInfo) -> str:
    """An event's public posts speak its games' language."""
    return languages.ours(info.options.language) or "en"


async def announce(bot: EventBot, notice: EventNotice) -> None:
    info = notice.event
    place = Where(info.guild, info.channel)
    with speaking(event_language(info)):
        if notice.kind in ("round_over", "finished"):
            heading = (_("**{title}** is over. Final standings:") if notice.kind == "finished"
                       else _("**{title}**: round {round} is over. Standings:")).format(
                title=safe_name(info.title, 80), round=notice.round)
            reply = await standings_reply(bot, info, await bot.service.standings_csv(info.id),
                                          heading, BOARD_BYTES, notice.round,
                                          notice.kind == "finished")
            files = [f for f in (reply.file, *reply.more_files) if f is not None]
            await bot.post(place, reply.content, files=files)
        elif notice.kind == "reminder":
            lines = [_("**{title}**: the round ends {when}. Still to play:").format(
                title=safe_name(info.title, 80), when=f"<t:{int(notice.games[0].deadline)}:R>")]
            lines += [f"• {g.match_id}: " + ", ".join(f"<@{p}>" for p in g.players)
                      for g in notice.games]
            await bot.post(place, text.clip("\n".join(lines)),
                           pings=[p for g in notice.games for p in g.players])
        elif notice.kind == "late_digest":
            names = {e.player: e.name for e in info.event.entrants}
            lines = [_("<@{organiser}>, late games in **{title}**:").format(
                organiser=info.created_by, title=safe_name(info.title, 80))]
            lines += [_("• {match}: {players}, {days} days late").format(
                match=g.match_id, players=", ".join(safe_name(names.get(p, p))
                                                    for p in g.players),
                days=round(g.overdue / 86400, 1)) for g in notice.games]
            await bot.post(place, text.clip("\n".join(lines)), pings=[info.created_by])
        elif notice.kind == "open_games":
            lines = await open_games(bot, info, notice.pairings, info.channel)
            head = _("**{title}**: games opened.").format(title=safe_name(info.title, 80))
            await bot.post(place, text.clip("\n".join([head, *(f"• {x}" for x in lines)])),
                           pings=[u.id for p in notice.pairings for u in p.players])


__all__ = ["actor", "announce", "build_event_group", "event_timers", "open_games"]
