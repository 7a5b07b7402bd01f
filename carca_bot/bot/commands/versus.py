"""`/carc-versus`: two players' record against each other on the server (head to head).

The service's `versus` counts every game both finished in except aborts, rated or not;
the card (render/league_profile.py's head-to-head card) shows the score between them,
their ratings and their latest games together, drawn in the render threads under a title
line, and the same record as text when the picture cannot go. The record is told from
`player`'s side (by default the one asking) against `opponent`.
"""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands.ratings import LIMIT, picture_reply, rating_words
from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.pictures import Pictures
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.safe import safe_name
from carca_bot.i18n import Domain, current
from carca_bot.render.league_profile import HeadToHeadCard, render_head_to_head
from carca_bot.service import HeadToHead

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Person = discord.User | discord.Member


def versus_head(record: HeadToHead, names: tuple[str, str]) -> str:
    """'**Ana** against **Ben**: 3 won, 1 lost, 1 drawn in 5 games together'."""
    first, second = (safe_name(n) for n in names)
    if not record.games:
        return _("**{first}** and **{second}** have not finished a game together on this "
                 "server yet.").format(first=first, second=second)
    return _("**{first}** against **{second}**: {wins} won, {losses} lost, {draws} drawn "
             "({games})").format(
        first=first, second=second, wins=record.wins, losses=record.losses,
        draws=record.draws, games=ngettext("{n} game together", "{n} games together",
                                           record.games).format(n=record.games))


def _pair(pair: tuple[float | None, float | None]) -> str:
    return " · ".join("—" if r is None else rating_words(r) for r in pair)


def versus_text(record: HeadToHead, names: tuple[str, str]) -> str:
    """The record as lines: the score, both ratings, the latest games together."""
    lines = [versus_head(record, names)]
    if record.duel != (None, None):
        lines.append(_("Duel ratings: {ratings}").format(ratings=_pair(record.duel)))
    if record.multi != (None, None):
        lines.append(_("Multiplayer ratings: {ratings}").format(ratings=_pair(record.multi)))
    for m in record.recent:
        said = _("game #{game}, {when}: places {mine} and {theirs} of {players}, "
                 "{score_mine}–{score_theirs} points").format(
            game=m.game_id, when=f"<t:{int(m.ended_at)}:R>", mine=m.places[0],
            theirs=m.places[1], players=m.players, score_mine=m.scores[0],
            score_theirs=m.scores[1])
        lines.append(said if m.rated else _("{game} (not rated)").format(game=said))
    return "\n".join(lines)


def versus_card(record: HeadToHead, names: tuple[str, str]) -> HeadToHeadCard:
    return HeadToHeadCard(names=names, wins=record.wins, losses=record.losses,
                          draws=record.draws, duel=record.duel, multi=record.multi,
                          recent=tuple((m.places[0], m.places[1], m.players)
                                       for m in record.recent))


async def versus_reply(pictures: Pictures, record: HeadToHead, names: tuple[str, str],
                       limit: int = LIMIT) -> Reply:
    """The head-to-head card under its title line; as text if the card cannot go."""
    drawn = versus_card(record, names)
    language = current()
    # TRANSLATORS: the description (alt text) of the head-to-head picture.
    about = _("The record of {first} against {second}").format(
        first=safe_name(names[0]), second=safe_name(names[1]))
    return await picture_reply(
        pictures, lambda: render_head_to_head(drawn, language=language), limit,
        "head to head", versus_head(record, names), ("versus.png", about),
        versus_text(record, names))


def _shown(person: Person) -> str:
    return getattr(person, "display_name", None) or person.name


@top_level
@app_commands.command(name="carc-versus", description="Two players' record against each "
                                                      "other on this server")
@app_commands.guild_only()
@app_commands.describe(opponent="Against whom", player="Whose record (by default yours)")
async def versus_command(interaction: Interaction, opponent: discord.User | discord.Member,
                         player: discord.User | discord.Member | None = None) -> None:
    await run(interaction, "versus", lambda act: versus(act, opponent, player), public=True)


async def versus(act: Act, opponent: Person, player: Person | None) -> Reply:
    first = player or act.interaction.user
    record = await act.service.versus(act.here.guild, str(first.id), str(opponent.id))
    names = (record.names[0] if record.names[0] != record.players[0] else _shown(first),
             record.names[1] if record.names[1] != record.players[1] else _shown(opponent))
    return await versus_reply(act.bot.pictures, record, names,
                              act.interaction.filesize_limit)
