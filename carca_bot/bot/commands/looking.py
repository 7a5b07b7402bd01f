"""Looking at a game, privately: the board, the status, the scorings page by page, its
record, the rules; its history move by move (`/carc-history`) and the pile
(`/carc-tiles`). The card's Board and Status buttons, the score pages and the history
browser are twins of these commands."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable
from typing import TypeVar

import discord
from discord import app_commands

from carca_bot.bot.commands.tree import carc, top_level
from carca_bot.bot.components.card import stats_text
from carca_bot.bot.components.rows import history_row, page_row
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply, in_language
from carca_bot.bot.core.run import run
from carca_bot.bot.core.shows import described
from carca_bot.bot.core.verbs import button
from carca_bot.bot.posts import endgame
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import clocks, text
from carca_bot.bot.words.features import legend
from carca_bot.bot.words.past import moment_text, pile_text
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.rules import rules_text
from carca_bot.bot.words.safe import sentence
from carca_bot.i18n import N_, Domain, current
from carca_bot.render.pile import render_pile
from carca_bot.service import NotAllowed, TurnView
from carca_bot.words import say
from carca_bot.words.alt import history_alt
from carca_bot.words.alt_end import pile_alt

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

T = TypeVar("T")
SCORE_PAGE = 12  # scorings on a page of `/carc score`


@carc.command(name="board", description="Show the board")
async def board_command(interaction: Interaction) -> None:
    await run(interaction, "board", board)


@button("board", N_("Board"))
async def board(act: Act) -> Reply:
    """The board as it is, privately (the button works from another channel too)."""
    view = await act.service.status(await act.place(anywhere=True), act.user.id)
    shown = await act.service.public_view(view.game_id)
    if shown.board is None:
        return Reply(text.status_text(view), view=view)
    return in_language(Reply(text.status_text(view), board=shown.board,
                             board_alt=described(view, shown)))


@carc.command(name="status", description="Players, scores, figures and whose turn it is")
async def status_command(interaction: Interaction) -> None:
    await run(interaction, "status", status)


@button("status", N_("Status"))
async def status(act: Act) -> Reply:
    """The game's status, its clock, and each player's median time to move."""
    view = await act.service.status(await act.place(), act.user.id)
    return Reply(stats_text(view, clocks.add_clock_lines(text.status_text(view), view)))


@carc.command(name="score", description="How the points were scored")
@app_commands.describe(page="Which page of scorings (the newest by default)")
async def score_command(interaction: Interaction,
                        page: app_commands.Range[int, 1, 10_000] | None = None) -> None:
    await run(interaction, "score", lambda act: score(act, None if page is None else page - 1))


@button("page", N_("Page"))
async def page(act: Act) -> Reply:
    """A score page's ◀ ▶ (the id's number is the page; from another channel too)."""
    assert act.click is not None
    return await score(act, act.click.number)


async def score(act: Act, page: int | None) -> Reply:
    """Scores by kind and player, then the scorings, SCORE_PAGE to a page (the last
    page, the newest, unless one is asked for); features nobody held are left out."""
    view = await act.service.status(await act.place(anywhere=True), act.user.id)
    shown = await act.service.public_view(view.game_id)
    if shown.board is None:
        return Reply(_("The game has not started yet."))
    names = [s.name for s in view.seats]
    listed = text.scorings(shown.events, "abbot" in view.options.expansions)
    pages = max(1, -(-len(listed) // SCORE_PAGE))
    page = pages - 1 if page is None else min(max(page, 0), pages - 1)
    lines = [_("Scores: {scores}").format(scores=text.scores_line(view))]
    lines.extend(text.grouped(listed, names))
    lines.append(_("**Scorings, page {page} of {pages}:**").format(page=page + 1,
                                                                    pages=pages))
    on_page = listed[page * SCORE_PAGE:(page + 1) * SCORE_PAGE]
    lines.extend(f"• {sentence(say(e, names), names)}" for e in on_page)
    if not on_page:
        lines.append(_("• no points scored yet"))
    return Reply(text.clip("\n".join(lines)), components=page_row(view.game_id, page, pages))


@carc.command(name="export", description="Download this game's record (JSON)")
async def export_command(interaction: Interaction) -> None:
    await run(interaction, "export", export)


async def export(act: Act) -> Reply:
    """The record as a file, and the HTML replay built from the committed moves (never
    the seed)."""
    record = await act.service.export(act.here)
    data = await asyncio.to_thread(lambda: json.dumps(record, indent=1).encode())
    view = await act.service.status(act.here, act.user.id)
    name = f"carcassonne-game-{view.game_id}.json"
    reply = Reply(_("The record of game #{game} (`carca-record/1`): replay it with "
                    "`carca-bot replay {file}`, or load it in another channel with "
                    "`/carc import`. The .html file shows the game move by move in any "
                    "web browser.").format(game=view.game_id, file=name),
                  file=discord.File(io.BytesIO(data), filename=name, description=_(
                      "The game's record (carca-record/1, JSON): every move, to replay "
                      "or import")))
    shown = await act.service.public_view(view.game_id)
    if shown.board is not None:
        page, note = await endgame.export_page(act.bot.pictures, view.game_id, shown.board,
                                               current(),
                                               act.interaction.filesize_limit - len(data))
        if page is not None:
            reply.more_files.append(page)
        if note:
            reply.notes.append(note)
    return reply


@carc.command(name="rules", description="How to play with this bot")
async def rules_command(interaction: Interaction) -> None:
    await run(interaction, "rules", rules)


async def rules(act: Act) -> Reply:
    return Reply(f"{rules_text()}{legend()}")


# -- the past: history and the pile ---------------------------------------------------------


@top_level
@app_commands.command(name="carc-history", description="Step through a game of this channel, "
                                                       "move by move (only you see it)")
@app_commands.guild_only()
@app_commands.describe(move="The move to show (0: the start; by default the newest)",
                       game="The game's number (by default this channel's game)")
async def history_command(interaction: Interaction,
                          move: app_commands.Range[int, 0, 100_000] | None = None,
                          game: app_commands.Range[int, 1, 10**15] | None = None) -> None:
    await run(interaction, "history", lambda act: history(act, game, move))


async def past_game(act: Act, game_id: int | None) -> TurnView:
    """A game of this channel: the given one, else the running one, else the last; only
    its public past is ever shown."""
    view = await act.service.status(act.here, act.user.id, game_id)
    if view.where != act.here:
        raise Refused(_("there is no game #{game} in this channel").format(game=view.game_id))
    if view.status == "lobby":
        raise _not_started(view)
    return view


def _not_started(view: TurnView) -> Refused:
    return Refused(_("game #{game} has not started yet: its history begins with its "
                     "first move").format(game=view.game_id))


async def started(view: TurnView, asked: Awaitable[T]) -> T:
    """What the service answers about a game's past; a game never started has none."""
    try:
        return await asked
    except NotAllowed as exc:
        if exc.code != "not_started":
            raise
        raise _not_started(view) from None


async def history(act: Act, game_id: int | None, move: int | None) -> Reply:
    """`/carc-history`: the table after `move` (the newest by default), privately."""
    view = await past_game(act, game_id)
    total = view.moves
    if move is not None and move > total:
        raise Refused(ngettext("game #{game} has no move {move}: it has {n} move so far",
                               "game #{game} has no move {move}: it has {n} moves so far",
                               total).format(game=view.game_id, move=move, n=total))
    return await moment(act, view, total if move is None else move)


async def moment(act: Act, view: TurnView, move: int) -> Reply:
    found = await started(view, act.service.moment(view.game_id, move))
    return Reply(moment_text(found), board=found.table, board_alt=history_alt(found),
                 components=history_row(
        view.game_id, found.number, found.total, found.finished))


@button("hist", N_("Step through the game"), in_place=True)
@button("hfirst", N_("⏮ Start"), in_place=True)
@button("hback", N_("◀ Back"), discord.ButtonStyle.primary, in_place=True)
@button("hnext", N_("Next ▶"), discord.ButtonStyle.primary, in_place=True)
@button("hlast", N_("Latest ⏭"), in_place=True)
async def step(act: Act) -> Reply:
    """A click on ⏮ ◀ ▶ ⏭ (or the last post's button). The id's number is the move
    shown; one the game does not have can only be forged, and is refused."""
    click = act.click
    assert click is not None
    view = await past_game(act, click.game_id)
    shown, total = click.number, view.moves
    target = {"hfirst": 0, "hback": shown - 1, "hnext": shown + 1, "hlast": total,
              "hist": min(shown, total)}[click.action]
    if shown > total or not 0 <= target <= total:
        raise Refused(_("that button does not match game #{game}'s history (it has "
                        "{n} moves). Nothing was changed: use `/carc-history` to step "
                        "through it.").format(game=click.game_id, n=total))
    return await moment(act, view, target)


@top_level
@app_commands.command(name="carc-tiles", description="The tiles left in the pile of this "
                                                     "channel's game, counted by kind")
@app_commands.guild_only()
async def tiles_command(interaction: Interaction) -> None:
    await run(interaction, "tiles", tiles)


async def tiles(act: Act) -> Reply:
    """What is left in the pile, counted by kind (never its order)."""
    view = await past_game(act, None)
    counts = await started(view, act.service.pile(view.game_id))
    language, tunnel = current(), "tunnel" in view.options.expansions
    png = await act.bot.pictures.in_threads(lambda: render_pile(counts, tunnel, language))
    return Reply(pile_text(view.game_id, counts),
                 picture=("tiles-left.png", pile_alt(counts), png))
