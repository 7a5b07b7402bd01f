"""`/carc-profile` and `/carc-leaderboard`: a player's record, their rating history, and
the server's ratings (`/carc-versus`, two players' record against each other, is in
`versus.py`).

Each answers with a picture (render/league_profile.py's profile card and rating history
chart; render/league.py's leaderboard) drawn in the render threads, under a short line
of text. The pictures are drawn in the language of the reply, passed to them explicitly
(the render threads do not see the task's language). When a picture cannot be drawn or
does not fit the upload limit the answer is the same record as text, so nobody is left
without one.

The leaderboard lists players with rated games against `LeaderPage.min_opponents` (3)
different opponents, so two accounts trading wins never reach it; those with fewer than
PROVISIONAL_GAMES rated games are marked "?" (provisional) in the text and the picture,
and `provisional: False` leaves them off.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.pictures import Pictures
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words import text
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain, current
from carca_bot.render.league import PER_PAGE, LeaderRow, render_leaderboard
from carca_bot.render.league_profile import (
    ProfileCard,
    RatingHistoryCard,
    render_profile,
    render_rating_history,
)
from carca_bot.service import LeaderPage, PoolRating, Profile, RatingPoint
from carca_bot.service.rating_reads import MIN_OPPONENTS
from carca_bot.service.ratings_ops import PROVISIONAL_GAMES
from carca_bot.words.alt_league import leaderboard_alt, profile_alt

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

POOLS = [
    app_commands.Choice(name="Duels (2 players)", value="duel"),
    app_commands.Choice(name="Multiplayer (3 to 6)", value="multi"),
]
SHOWS = [
    app_commands.Choice(name="Profile card (default)", value="card"),
    app_commands.Choice(name="Rating history (a chart)", value="history"),
]
HISTORY_LINES = 10  # rated games the text history lists (the chart shows them all)
EVERYONE = 10**6  # a leaderboard "page" that holds the whole board (the picture pages it)
LIMIT = 8 * 1024 * 1024


def pool_words(pool: str) -> str:
    return _("duels") if pool == "duel" else _("multiplayer")


def rating_words(value: float) -> str:
    return f"{value:.1f}"


def title(name: str) -> str:
    return _("**{name}** on this server").format(name=safe_name(name))


# -- the profile ---------------------------------------------------------------------


def pool_line(r: PoolRating) -> str:
    """'Rating, duels: 12.3 (μ 25.0, σ 4.2; 14 rated games, place 2)'."""
    games = ngettext("{n} rated game", "{n} rated games", r.games).format(n=r.games)
    mu, sigma = f"{r.mu:.1f}", f"{r.sigma:.1f}"
    if r.provisional:
        # TRANSLATORS: μ is the skill estimate and σ its uncertainty (symbols, kept).
        return _("Rating, {pool}: {rating} (μ {mu}, σ {sigma}; provisional, {games})").format(
            pool=pool_words(r.pool.value), rating=rating_words(r.rating), mu=mu,
            sigma=sigma, games=games)
    place = (_("place {place}").format(place=r.place) if r.place is not None else
             ngettext("not listed: fewer than {n} different opponent",
                      "not listed: fewer than {n} different opponents",
                      MIN_OPPONENTS).format(n=MIN_OPPONENTS))
    return _("Rating, {pool}: {rating} (μ {mu}, σ {sigma}; {games}, {place})").format(
        pool=pool_words(r.pool.value), rating=rating_words(r.rating), mu=mu, sigma=sigma,
        games=games, place=place)


def opponent_words(card: Profile) -> str:
    """'Recent opponents (won–lost): Ben 3–1, Cy 0–2 (1 draw)'; empty with none."""
    said = []
    for o in card.recent_opponents:
        score = f"{o.wins}–{o.losses}"
        if o.draws:
            score += " " + ngettext("({n} draw)", "({n} draws)", o.draws).format(n=o.draws)
        said.append(f"{safe_name(o.name)} {score}")
    return _("Recent opponents (won–lost): {list}").format(list=", ".join(said)) \
        if said else ""


def aborted_words(n: int) -> str:
    return ngettext("{n} aborted game (not rated, not counted above)",
                    "{n} aborted games (not rated, not counted above)", n).format(n=n)


def profile_text(card: Profile, name: str) -> str:
    """A player's record as a few lines (the profile picture goes in `profile_reply`)."""
    lines = [title(name)]
    if not card.games and not card.ratings and not card.aborted:
        lines.append(_("No finished game here yet."))
        return "\n".join(lines)
    lines.extend(pool_line(r) for r in card.ratings)
    lines.append(ngettext("{n} game, {wins} won", "{n} games, {wins} won", card.games).format(
        n=card.games, wins=card.wins))
    if card.aborted:
        lines.append(aborted_words(card.aborted))
    if card.average_score is not None:
        lines.append(_("Average score: {score}").format(score=f"{card.average_score:.1f}"))
    if card.favourite_expansions:
        lines.append(_("Favourite expansions: {list}").format(list=", ".join(
            f"{vocab.expansions(frozenset({e}))} ({n})" for e, n in card.favourite_expansions)))
    if card.median_move_seconds is not None:
        seconds = int(card.median_move_seconds)
        said = text.duration(seconds) if seconds >= 60 else _("{n} s").format(n=seconds)
        lines.append(_("Median time per move: {time}").format(time=said))
    lines.append(opponent_words(card))
    return "\n".join(line for line in lines if line)


def profile_card(card: Profile, name: str) -> ProfileCard:
    """The service's record as the picture draws it. Expansions go as their codes (the
    picture names them)."""
    duel = next((r for r in card.ratings if r.pool.value == "duel"), None)
    multi = next((r for r in card.ratings if r.pool.value == "multi"), None)
    return ProfileCard(
        name=name, rating2=None if duel is None else duel.rating,
        rating_multi=None if multi is None else multi.rating, games=card.games,
        wins=card.wins, average_score=card.average_score,
        favourite_expansions=tuple(e for e, _n in card.favourite_expansions),
        median_move_seconds=card.median_move_seconds,
        recent_results=card.recent_results,
        provisional2=duel is not None and duel.provisional,
        provisional_multi=multi is not None and multi.provisional,
        sigma2=None if duel is None else duel.sigma,
        sigma_multi=None if multi is None else multi.sigma,
        recent_opponents=tuple((o.name, o.wins, o.losses, o.draws)
                               for o in card.recent_opponents),
        aborted=card.aborted)


async def picture_reply(pictures: Pictures, draw: Callable[[], bytes], limit: int,
                        what: str, head: str, picture: tuple[str, str], words: str
                        ) -> Reply:
    """`head` over the picture `draw` makes (file name and description); `words` (the
    record as text) when the picture cannot go."""
    png = await pictures.fitting(draw, limit, what)
    if png is None:
        return Reply(text.clip(words), public=True)
    return Reply(text.clip(head), public=True, picture=(*picture, png))


async def profile_reply(pictures: Pictures, card: Profile, name: str,
                        limit: int = LIMIT) -> Reply:
    """The profile card under its title line; the record as text if the card cannot go."""
    drawn = profile_card(card, name)
    language = current()
    head = title(name)
    if not card.games and not card.ratings and not card.aborted:
        head += "\n" + _("No finished game here yet.")
    return await picture_reply(pictures, lambda: render_profile(drawn, language=language),
                               limit, "profile", head, ("profile.png", profile_alt(drawn)),
                               profile_text(card, name))


# -- the rating history ----------------------------------------------------------------


def history_text(points: tuple[RatingPoint, ...], name: str, pool: str) -> str:
    """The latest rated games as lines: '#12: 3.2 → 5.1 (place 1 of 2)', newest first."""
    if not points:
        return _("**{name}** has no rated game in {pool} on this server yet.").format(
            name=safe_name(name), pool=pool_words(pool))
    lines = [history_head(points, name, pool)]
    for p in reversed(points[-HISTORY_LINES:]):
        lines.append(_("game #{game}, {when}: {before} → {after} (place {rank} of "
                       "{players})").format(
            game=p.game_id, when=f"<t:{int(p.ended_at)}:R>", before=rating_words(p.before),
            after=rating_words(p.after), rank=p.rank, players=p.players))
    return "\n".join(lines)


def history_head(points: tuple[RatingPoint, ...], name: str, pool: str) -> str:
    last = points[-1]
    return _("**{name}**, rating history in {pool}: {rating} after {games} (μ {mu}, σ "
             "{sigma})").format(
        name=safe_name(name), pool=pool_words(pool), rating=rating_words(last.after),
        games=ngettext("{n} rated game", "{n} rated games", len(points)).format(
            n=len(points)), mu=f"{last.mu:.1f}", sigma=f"{last.sigma:.1f}")


def history_card(points: tuple[RatingPoint, ...], name: str, pool: str) -> RatingHistoryCard:
    return RatingHistoryCard(name=name, pool=pool, mus=tuple(p.mu for p in points),
                             sigmas=tuple(p.sigma for p in points))


async def history_reply(pictures: Pictures, points: tuple[RatingPoint, ...], name: str,
                        pool: str, limit: int = LIMIT) -> Reply:
    """The rating history chart under its title line; the latest games as text if the
    chart cannot go (or there is nothing to draw)."""
    if not points:
        return Reply(history_text(points, name, pool), public=True)
    drawn = history_card(points, name, pool)
    language = current()
    # TRANSLATORS: the description (alt text) of the rating history chart.
    about = _("The rating of {name} after each rated game in {pool}").format(
        name=safe_name(name), pool=pool_words(pool))
    return await picture_reply(
        pictures, lambda: render_rating_history(drawn, language=language), limit,
        "rating history", history_head(points, name, pool), ("rating-history.png", about),
        history_text(points, name, pool))


# -- the leaderboard ---------------------------------------------------------------------


def board_head(page: LeaderPage, provisional: bool = True) -> str:
    """The title line, and who is not on the board and why (always when it is empty)."""
    lines = [_("**Leaderboard, {pool}** (page {page} of {pages})").format(
        pool=pool_words(page.pool.value), page=page.page, pages=page.pages)]
    n = page.min_opponents
    if not page.rows:
        lines.append(ngettext(
            "Nobody here yet: a player is listed once they have played rated games "
            "against {n} different opponent.",
            "Nobody here yet: a player is listed once they have played rated games "
            "against {n} different opponents.", n).format(n=n))
    if page.unlisted:
        lines.append(ngettext(
            "{count} rated player is not listed yet: fewer than {n} different opponents.",
            "{count} rated players are not listed yet: fewer than {n} different opponents.",
            page.unlisted).format(count=page.unlisted, n=n))
    if not provisional:
        lines.append(ngettext(
            "Provisional players (fewer than {n} rated game) are left out.",
            "Provisional players (fewer than {n} rated games) are left out.",
            PROVISIONAL_GAMES).format(n=PROVISIONAL_GAMES))
    return "\n".join(lines)


def leaderboard_text(page: LeaderPage, provisional: bool = True) -> str:
    lines = [board_head(page, provisional)]
    for row in page.rows:
        games = ngettext("{n} game", "{n} games", row.games).format(n=row.games)
        mark = "?" if row.provisional else ""
        lines.append(f"{row.place}. {safe_name(row.name)} — {rating_words(row.rating)}{mark} "
                     f"({games})")
    if any(row.provisional for row in page.rows):
        lines.append(ngettext("?: provisional, fewer than {n} rated game",
                              "?: provisional, fewer than {n} rated games",
                              PROVISIONAL_GAMES).format(n=PROVISIONAL_GAMES))
    return "\n".join(lines)


def leaderboard_rows(board: LeaderPage) -> list[LeaderRow]:
    return [LeaderRow(rank=r.place, name=r.name, rating=r.rating, games=r.games,
                      provisional=r.provisional) for r in board.rows]


def page_of_board(board: LeaderPage, page: int) -> LeaderPage:
    """One page (PER_PAGE rows, as the picture pages them) of a whole board; a page past
    either end gives the nearest."""
    pages = max(1, -(-len(board.rows) // PER_PAGE))
    page = min(max(page, 1), pages)
    return dataclasses.replace(board, page=page, pages=pages,
                               rows=board.rows[(page - 1) * PER_PAGE:page * PER_PAGE])


async def leaderboard_reply(pictures: Pictures, board: LeaderPage, page: int, server: str,
                            limit: int = LIMIT, provisional: bool = True) -> Reply:
    """A page of the leaderboard as a picture under its title line. `board` is the whole
    board (one page of everything); `page` past either end gives the nearest page. As
    text when the picture cannot go."""
    shown = page_of_board(board, page)
    rows = leaderboard_rows(board)
    language = current()
    about = leaderboard_alt(server, pool_words(board.pool.value),
                            leaderboard_rows(shown), page=shown.page, pages=shown.pages)
    return await picture_reply(pictures, lambda: render_leaderboard(
        rows, server=server, pool=board.pool.value, provisional_games=PROVISIONAL_GAMES,
        language=language, page=shown.page).data, limit, "leaderboard",
        board_head(shown, provisional), ("leaderboard.png", about),
        leaderboard_text(shown, provisional))


# -- the commands --------------------------------------------------------------------------


@top_level
@app_commands.command(name="carc-profile", description="A player's ratings and record on "
                                                       "this server")
@app_commands.guild_only()
@app_commands.describe(player="Whose profile (by default yours)",
                       show="The profile card, or the rating after each rated game",
                       pool="For the rating history: duels or multiplayer games")
@app_commands.choices(show=SHOWS, pool=POOLS)
async def profile_command(interaction: Interaction,
                          player: discord.User | discord.Member | None = None,
                          show: str = "card", pool: str | None = None) -> None:
    await run(interaction, "profile", lambda act: profile(act, player, show, pool),
              public=True)


async def profile(act: Act, player: discord.User | discord.Member | None,
                  show: str = "card", pool: str | None = None) -> Reply:
    target = player or act.interaction.user
    shown = getattr(target, "display_name", None) or target.name
    if show == "history":
        return await history(act, str(target.id), shown, pool)
    card = await act.service.profile(act.here.guild, str(target.id))
    return await profile_reply(act.bot.pictures, card, card.name or shown,
                               act.interaction.filesize_limit)


async def history(act: Act, user_id: str, shown: str, pool: str | None) -> Reply:
    """The player's rating history in `pool`; without one, in duels unless they have
    rated multiplayer games only."""
    service, guild = act.service, act.here.guild
    chosen = pool or "duel"
    points = await service.rating_history_of(guild, user_id, chosen)
    if not points and pool is None:
        multi = await service.rating_history_of(guild, user_id, "multi")
        if multi:
            chosen, points = "multi", multi
    card = await service.profile(guild, user_id)
    return await history_reply(act.bot.pictures, points, card.name or shown, chosen,
                               act.interaction.filesize_limit)


@top_level
@app_commands.command(name="carc-leaderboard", description="This server's best rated players")
@app_commands.guild_only()
@app_commands.describe(pool="Duels or multiplayer games", page="Which page",
                       provisional="Show players with fewer than 10 rated games, marked ? "
                                   "(by default yes)")
@app_commands.choices(pool=POOLS)
async def leaderboard_command(interaction: Interaction, pool: str = "duel",
                              page: app_commands.Range[int, 1, 1000] = 1,
                              provisional: bool = True) -> None:
    await run(interaction, "leaderboard",
              lambda act: leaderboard(act, pool, page, provisional), public=True)


async def leaderboard(act: Act, pool: str, page: int, provisional: bool = True) -> Reply:
    found = await act.service.leaderboard(act.here.guild, pool, 1,
                                          include_provisional=provisional, per_page=EVERYONE)
    guild = act.interaction.guild
    server = guild.name if guild is not None and guild.name else _("This server")
    return await leaderboard_reply(act.bot.pictures, found, page, server,
                                   act.interaction.filesize_limit, provisional)
