"""The pictures and files of a game's last post: the summary card (ranking, points by
category, score chart), the animated replay, and the HTML replay; and what the game did
to the ratings (`rating_of`, `rating_lines`).

All three pictures are CPU work, drawn in the bot's render threads. None may stop the
post: a picture that fails or does not fit the upload limit is left out, logged, and
the post says so. Likewise the ratings: a game the service did not record (analysis,
solo, AI seats) or whose result cannot be read gets no rating line.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import TypeVar

import discord

from carca_bot.bot.core.pictures import Pictures
from carca_bot.bot.words.safe import safe_name
from carca_bot.engine.game import Game
from carca_bot.i18n import Domain, speaking
from carca_bot.render.replay import Replay, ReplayTooLarge, render_replay
from carca_bot.render.summary import Tally, render_summary
from carca_bot.replay_html import build_replay_html
from carca_bot.service import GameRating, GameService, SeatRating, ServiceError
from carca_bot.service.history import public_history, tally
from carca_bot.words.alt_end import replay_alt, summary_alt
from carca_bot.words.fair import rating_status

log = logging.getLogger("carca_bot.bot")
_T = Domain("bot")
_ = _T.gettext

T = TypeVar("T")
MARGIN = 64 * 1024  # bytes kept free of the limit for the message's own form data


def summary_card(numbers: Tally, language: str) -> bytes:
    return render_summary(numbers, language)


def html_replay(game: Game, language: str) -> bytes:
    return build_replay_html(game, language)


class TooLarge(Exception):
    """Left out for the upload limit (logged, no traceback)."""


async def _attempt(pictures: Pictures, game_id: int, what: str,
                   work: Callable[[], T]) -> T | None:
    try:
        return await pictures.in_threads(work)
    except Exception:  # a picture never stops the last post
        log.warning("game=%s %s could not be made", game_id, what, exc_info=True)
    return None


async def _card(pictures: Pictures, game_id: int, numbers: Tally | None,
                language: str) -> bytes | None:
    if numbers is None:
        return None
    return await _attempt(pictures, game_id, "summary card",
                          lambda: summary_card(numbers, language))


async def end_of_game(pictures: Pictures, game_id: int, game: Game, language: str,
                      budget: int) -> tuple[list[discord.File], list[str]]:
    """The card, the animation and the HTML page within `budget` bytes in all, each
    with its description, and a note for each one left out (in `language`)."""
    numbers = await _attempt(pictures, game_id, "tally", lambda: tally(public_history(game)))
    card, page = await asyncio.gather(
        _card(pictures, game_id, numbers, language),
        _attempt(pictures, game_id, "HTML replay", lambda: html_replay(game, language)))
    files: list[discord.File] = []
    notes: list[str] = []
    left = budget - MARGIN
    with speaking(language):
        if card is not None and numbers is not None and len(card) <= left:
            left -= len(card)
            files.append(discord.File(io.BytesIO(card), filename=f"game-{game_id}-summary.png",
                                      description=summary_alt(numbers)))
        else:
            notes.append(_("(The summary card could not be attached.)"))
        if page is not None and len(page) <= left:
            left -= len(page)
            html = discord.File(io.BytesIO(page), filename=f"game-{game_id}-replay.html",
                                description=_("The whole game to step through in any web "
                                              "browser (download it and open it)"))
        else:
            html = None
            notes.append(_("(The HTML replay could not be attached.)"))
        made, note = await _animation(pictures, game_id, game, language, left, numbers)
        if made is not None:
            files.append(made)
        if note:
            notes.append(note)
        if html is not None:
            files.append(html)
    return files, notes


async def _animation(pictures: Pictures, game_id: int, game: Game, language: str,
                     room: int, numbers: Tally | None) -> tuple[discord.File | None, str]:
    """The animated replay within `room` bytes, or a note saying why it is left out (in
    the language spoken)."""
    def animate() -> Replay:
        if room <= 0:
            raise TooLarge("no room left under the upload limit")
        return render_replay(game, room, language)

    try:
        made = await pictures.in_threads(animate)
    except (ReplayTooLarge, TooLarge) as exc:
        log.warning("game=%s animated replay left out: %s", game_id, exc)
        return None, _("(The animated replay did not fit Discord's upload limit, so it is "
                       "not attached.)")
    except Exception:  # a picture never stops the last post
        log.warning("game=%s animated replay could not be made", game_id, exc_info=True)
        return None, _("(The animated replay could not be attached.)")
    about = replay_alt(numbers) if numbers is not None else _("The whole game, tile by tile")
    return discord.File(io.BytesIO(made.data), filename=f"game-{game_id}-replay.{made.format}",
                        description=about), ""


async def export_page(pictures: Pictures, game_id: int, game: Game, language: str,
                      budget: int) -> tuple[discord.File | None, str]:
    """`/carc export`'s HTML replay, or a note saying why it is not attached."""
    page = await _attempt(pictures, game_id, "HTML replay", lambda: html_replay(game, language))
    with speaking(language):
        if page is None or len(page) > budget - MARGIN:
            return None, _("(The HTML replay could not be attached.)")
        return discord.File(io.BytesIO(page), filename=f"carcassonne-game-{game_id}.html",
                            description=_("The whole game to step through in any web "
                                          "browser (download it and open it)")), ""



# -- what the game did to the ratings ------------------------------------------------------


async def rating_of(service: GameService, game_id: int) -> GameRating | None:
    """How a finished game was rated (None: not recorded, or not readable just now; the
    last post goes out without its rating line rather than not at all)."""
    try:
        return await service.rating_result(game_id)
    except ServiceError:  # not recorded: analysis, solo, seats nobody owns
        return None
    except Exception:
        log.warning("game=%s its rating result could not be read", game_id, exc_info=True)
        return None


def _seat_words(seat: SeatRating) -> str:
    """'Ana 12.3 → 14.0 (+1.7)', with how much a repeat game counted when it was less."""
    assert seat.before is not None and seat.after is not None
    delta = seat.after - seat.before
    change = f"{delta:+.1f}".replace("-", "−")
    if 0 < seat.weight < 1:
        # TRANSLATORS: a rating change that counted less (a repeat game); {share} is 50%.
        change = _("{change}, counted at {share}").format(
            change=change, share=f"{round(seat.weight * 100)}%")
    return f"{safe_name(seat.name)} {seat.before:.1f} → {seat.after:.1f} ({change})"


def rating_lines(result: GameRating | None) -> list[str]:
    """The game's rating status, and each rated player's rating before and after, in the
    language spoken; none for a game not recorded."""
    if result is None:
        return []
    pool = _("duels") if result.pool.value == "duel" else _("multiplayer")
    status = rating_status(result.status, result.min_moves)
    lines = [_("📊 Ratings ({pool}): {status}.").format(pool=pool, status=status)]
    moved = [s for s in result.seats if s.before is not None and s.after is not None]
    if moved:
        lines.append(" · ".join(_seat_words(s) for s in moved))
    return lines
