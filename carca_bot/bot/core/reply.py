"""What a command answers (`Reply`), and who and where an interaction is, as the service
knows them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.languages import game_language
from carca_bot.bot.words.safe import plain
from carca_bot.i18n import current, speaking
from carca_bot.service import Choices, Played, TurnView, User, Where

if TYPE_CHECKING:
    from carca_bot.engine.game import Game

NAME_STORED = 64  # characters of a display name handed to the service


@dataclass
class Reply:
    """What to send back: words, and optionally the board, a "your tile" image, a file.

    `board`, `your_tile` and `final` hold the service's copies of a game (`Shown.board`),
    only ever drawn. Every picture goes with its description (alt text, in the reply's
    language): `board_alt` the board's, written where the board is chosen; "my tile"'s
    is written once it is drawn, from `view` and `newest`."""

    content: str
    public: bool = False
    board: Game | None = None
    board_alt: str = ""  # the board picture's description (`words.alt`)
    your_tile: tuple[Game, str] | None = None
    view: TurnView | None = None  # the state the components are built for
    choices: Choices | None = None
    file: discord.File | None = None
    pings: list[str] = field(default_factory=list)  # user ids this message may ping
    components: discord.ui.View | None = None  # instead of the ones built for `view`
    # What the components and file descriptions speak: the language the content was
    # written in (set by `in_language`); None: the language of the reply cycle.
    language: str | None = None
    final: Game | None = None  # a finished game: attach its card and replays
    more_files: list[discord.File] = field(default_factory=list)  # after `file`
    notes: list[str] = field(default_factory=list)  # said at the end of the content
    edit: bool = False  # replace the message the clicked button is on (a private one)
    picture: tuple[str, str, bytes] | None = None  # (file name, description, PNG) made already
    # A change of a started game: shown on its card (edited in place) with `last` as the
    # last move, the player to act pinged; the actor hears `content` privately.
    card: bool = False
    last: str = ""
    tile: str | None = None  # the tile the player to act drew (shown to all)
    said: str = ""  # `content` as the move made it: what a command puts before it goes on top
    undoable: bool = False  # the actor's own move: their answer offers to take it back
    # The game's newest action (`Shown.last`): what the pictures' descriptions name as
    # the last move when `view` made none.
    newest: Played | None = None


@contextmanager
def public(view: TurnView) -> Iterator[str]:
    """Speak the game's language: for what everyone in its channel reads."""
    with speaking(game_language(view)) as language:
        yield language


def in_language(reply: Reply) -> Reply:
    """Note that `reply` was written in the language spoken now (its buttons follow)."""
    reply.language = current()
    return reply


def who(interaction: Interaction) -> User:
    """The user as the service knows them: the display name cleaned of invisible
    characters and clipped (it is escaped again wherever it is shown)."""
    user = interaction.user
    return User(str(user.id), plain(getattr(user, "display_name", None) or user.name,
                                    NAME_STORED))


def where(interaction: Interaction) -> Where:
    return Where(str(interaction.guild_id or 0), str(interaction.channel_id or 0))


def is_admin(interaction: Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)
