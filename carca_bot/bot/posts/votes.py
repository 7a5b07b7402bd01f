"""Vote messages in a game's channel: taking back a confirmed move, and expelling a player
whose time ran out.

Each vote is one public message, edited in place as votes come in and closed (its
buttons removed) once decided. The service remembers which message is a vote's
(`note_vote_message`), so a click acts only on its own vote's message, and
`settle_votes` closes the ones a change overtook. Clicks are answered in
`commands/votes.py`.
"""

from __future__ import annotations

import logging

import discord

from carca_bot.bot.components.ids import VoteItem
from carca_bot.bot.posts.sending import send_message
from carca_bot.bot.seam import Bot
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words import text
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import NO_PINGS, pinging, plain, safe_name
from carca_bot.i18n import Domain, speaking
from carca_bot.service import TakebackView, TimerReport, TurnView, VoteMessage, Where, played

log = logging.getLogger("carca_bot.votes")
_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

MAX_UNDONE_LINES = 8  # the move and the automatic actions after it; more is a summary


# -- taking back a move -------------------------------------------------------------------


def takeback_row(asked: TakebackView) -> discord.ui.View | None:
    if asked.decided:
        return None
    ui = discord.ui.View(timeout=None)
    for action in ("yes", "no", "drop"):
        ui.add_item(VoteItem.button(action, asked.game_id, asked.seq))
    return ui


def _undone_lines(asked: TakebackView) -> list[str]:
    undone = played(asked.undone)
    lines = [f"• {text.describe(a)}" for a in undone[:MAX_UNDONE_LINES]]
    more = len(undone) - MAX_UNDONE_LINES
    if more > 0:
        lines.append(ngettext("• and {n} more action", "• and {n} more actions", more
                              ).format(n=more))
    for name, points in asked.points:
        lines.append(_("• {name} loses {points}.").format(
            name=f"**{safe_name(name)}**", points=vocab.points(points)))
    for name, figure, count in asked.figures:
        if count > 0:
            lines.append(_("• {name} gets back: {figures}.").format(
                name=f"**{safe_name(name)}**", figures=vocab.held(figure, count)))
        else:
            lines.append(_("• {name} gives back: {figures}.").format(
                name=f"**{safe_name(name)}**", figures=vocab.held(figure, -count)))
    return lines


def taken_back(asked: TakebackView) -> str:
    """What an accepted take-back did, in one line (the vote's message and the card)."""
    return _("↩️ {name}'s move in game #{game} was taken back: every other player "
             "accepted.").format(name=f"**{safe_name(asked.proposer)}**", game=asked.game_id)


def takeback_text(asked: TakebackView, view: TurnView) -> str:
    """The vote's message, in the language spoken: what the move was and what goes, who
    accepted, and once decided, how."""
    who_asks = f"**{safe_name(asked.proposer)}**"
    if asked.state == "accepted":
        return text.clip(f"{taken_back(asked)}\n{text.next_line(view)}")
    if asked.state == "refused":
        return _("❌ {name} refused: {proposer}'s move in game #{game} stays as it was "
                 "played.").format(name=f"**{safe_name(asked.refused_by or '?')}**",
                                   proposer=who_asks, game=asked.game_id)
    if asked.state == "withdrawn":
        return _("{name} withdrew the request to take back their move in game #{game}; "
                 "it stays as it was played.").format(name=who_asks, game=asked.game_id)
    if asked.state == "closed":
        return _("The request to take back {name}'s move in game #{game} closed: the game "
                 "moved on, so the move stays.").format(name=who_asks, game=asked.game_id)
    lines = [_("↩️ {name} asks to take back their last move in game #{game}. It would "
               "undo:").format(name=who_asks, game=asked.game_id)]
    lines.extend(_undone_lines(asked))
    answered = set(asked.accepted)
    marks = [("✅ " if name in answered else "⏳ ") + text.mention(user_id, name)
             for user_id, name in asked.voters]
    lines.append(_("Every other player must accept: {players}").format(
        players=", ".join(marks)))
    lines.append(_("One refusal, or the next player's move, closes the vote."))
    return text.clip("\n".join(lines))


# -- the vote to expel ------------------------------------------------------------------


def expel_row(view: TurnView) -> discord.ui.View | None:
    vote = view.expel_vote
    if vote is None or vote.target_id is None or not vote.target_id.isdigit():
        return None
    ui = discord.ui.View(timeout=None)
    ui.add_item(VoteItem.button("expel", view.game_id, vote.target_id,
                                label=_("Vote to expel {name}").format(
                                    name=plain(vote.target, 32))))
    return ui


def expelled(view: TurnView, target: str) -> str:
    """The outcome of a carried vote to expel, in one line (its message and the card)."""
    return _("🗳️ {name} was expelled from game #{game} by a vote of the other players. "
             "Their figures stay on the board and score nothing more.").format(
        name=f"**{safe_name(target)}**", game=view.game_id)


def expel_text(view: TurnView, target: str) -> str:
    """The expel vote's message for the game as it is now: open (who voted, how many
    are needed, when it closes), or how it ended."""
    name = f"**{safe_name(target)}**"
    vote = view.expel_vote
    if vote is None or vote.target != target:
        out = next((s for s in view.seats if s.name == target and s.expelled), None)
        if out is not None:
            said = expelled(view, target)
            nxt = text.next_line(view)
            return text.clip(f"{said}\n{nxt}" if nxt else said)
        return _("🗳️ The vote to expel {name} from game #{game} is over: they were not "
                 "expelled.").format(name=name, game=view.game_id)
    lines = [_("🗳️ {name} ran out of time in game #{game}. The other players may vote to "
               "expel them: their figures would stay on the board and score nothing more."
               ).format(name=name, game=view.game_id)]
    voted = ", ".join(f"**{safe_name(v)}**" for v in vote.voters) or _("nobody yet")
    lines.append(ngettext("Votes: {votes} of {needed} needed ({voters}).",
                          "Votes: {votes} of {needed} needed ({voters}).",
                          vote.needed).format(votes=len(vote.voters), needed=vote.needed,
                                              voters=voted))
    if vote.closes is not None:
        lines.append(_("A move of theirs closes the vote; if it is not carried by {when}, "
                       "their turn is played for them.").format(
            when=f"<t:{int(vote.closes)}:R>"))
    return "\n".join(lines)


# -- posting and closing ------------------------------------------------------------------


async def send_vote(bot: Bot, view: TurnView, content: str, row: discord.ui.View | None,
                    pings: list[str]) -> discord.Message:
    """A vote's message in the game's channel, pinging those who may answer it."""
    return await send_message(bot, view.where.channel, text.clip(content), view=row,
                              mentions=pinging(*pings))


async def post_vote(bot: Bot, report: TimerReport) -> None:
    """The expel vote's message, for a timer report with reason "expel_vote": posted in
    the game's channel, pinging the players who may vote (not the late one), and
    remembered so `settle_votes` can close it. Discord refusing it is left to the caller
    (the vote stays open)."""
    view = report.view
    vote = view.expel_vote
    if vote is None or vote.target_id is None:
        return
    voters = [s.user_id for s in view.seats
              if s.user_id and s.user_id != report.user_id and not s.resigned]
    with speaking(game_language(view)):
        content = expel_text(view, vote.target)
        row = expel_row(view)
    mentions = " ".join(f"<@{u}>" for u in voters if u.isdigit())
    message = await send_vote(bot, view, f"{content}\n{mentions}" if mentions else content,
                              row, voters)
    await bot.service.note_vote_message(view.game_id, "expel", vote.target_id,
                                        view.where.channel, str(message.id))


async def settle_votes(bot: Bot, game_id: int) -> int:
    """Close the game's vote messages whose vote is over (decided, or overtaken by a
    move, or out of time): their words say how, their buttons go. Returns how many were
    closed. Cheap when there are none; call it after each public change of a game."""
    service = bot.service
    messages = await service.vote_messages(game_id)
    if not messages:
        return 0
    view = await service.status(Where("", ""), None, game_id)  # by its number
    closed = 0
    for message in messages:
        content = await _closed_words(bot, view, message)
        if content is None:
            continue
        try:
            await bot.get_partial_messageable(int(message.channel_id)).get_partial_message(
                int(message.message_id)).edit(content=text.clip(content), view=None,
                                              allowed_mentions=NO_PINGS)
        except discord.NotFound:
            pass  # deleted: nothing left to close
        except discord.HTTPException as exc:
            log.warning("game %s: could not close a vote message (HTTP %s)", game_id,
                        exc.status)
            continue
        await service.forget_vote_message(message)
        closed += 1
    return closed


async def _closed_words(bot: Bot, view: TurnView, message: VoteMessage) -> str | None:
    """What a vote message says once its vote is over; None while it is still open."""
    with speaking(game_language(view)):
        if message.kind == "takeback":
            asked = await bot.service.takeback_of(view.game_id, int(message.ref))
            if asked is not None and not asked.decided:
                return None
            return takeback_text(asked, view) if asked is not None else _("This vote is over.")
        vote = view.expel_vote
        if vote is not None and vote.target_id == message.ref:
            return None
        target = next((s.name for s in view.seats if s.user_id == message.ref), "?")
        return expel_text(view, target)
