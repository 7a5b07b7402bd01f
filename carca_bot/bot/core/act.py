"""One interaction being answered (`Act`): who, where, the service, and for a click on a
component, what it names (`Click`). A verb's handler gets one, whether it was called by
its slash command or by its button or menu twin."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from carca_bot.bot.core.reply import where, who
from carca_bot.bot.seam import Bot, Interaction
from carca_bot.bot.words.languages import Prefs
from carca_bot.bot.words.refused import Refused
from carca_bot.i18n import Domain
from carca_bot.service import GameService, ServiceError, TurnView, Where

log = logging.getLogger("carca_bot.commands")
_T = Domain("bot")
_ = _T.gettext


@dataclass(frozen=True)
class Click:
    """What a clicked component names (its custom id, `components.ids`): the action, the
    game, a number (the game's version for a move; the page, the move shown or the
    vote's reference for the others) and a menu's choice."""

    action: str
    game_id: int
    number: int
    value: str = ""


class Act:
    """An interaction and everything a handler needs to answer it."""

    def __init__(self, bot: Bot, interaction: Interaction, click: Click | None = None,
                 prefs: Prefs | None = None) -> None:
        self.bot, self.interaction, self.click = bot, interaction, click
        self.prefs = prefs or Prefs()
        self.user = who(interaction)
        self.here = where(interaction)

    @property
    def service(self) -> GameService:
        return self.bot.service

    @property
    def expect(self) -> int | None:
        """The game's version the clicked component was made for (None for a command):
        the service refuses a move aimed at a version that is gone."""
        return self.click.number if self.click is not None else None

    async def place(self, *, anywhere: bool = False) -> Where:
        """Where the game acted on lives: this channel for a command; for a click, the
        component's own game, checked. A component acts on its own game: in its channel,
        or with `anywhere` (the lobby's buttons, also posted in a thread's parent channel;
        looking) from another channel of the same server, as long as that game is still
        the game of its channel."""
        click = self.click
        if click is None:
            return self.here
        game_id = click.game_id
        view: TurnView = await self.service.status(self.here, self.user.id, game_id)
        if view.where.guild != self.here.guild:
            raise Refused(_("there is no game #{game} in this server").format(game=game_id))
        if view.where != self.here and not anywhere:
            raise Refused(_("this button belongs to game #{game}, which is played in "
                            "{channel}: use the buttons there").format(
                game=game_id, channel=f"<#{view.where.channel}>"))
        now = await self.service.status(view.where, self.user.id)
        if now.game_id != game_id:
            raise Refused(_("this button belongs to game #{game}, which is no longer the "
                            "game in its channel").format(game=game_id))
        return view.where


async def read_prefs(bot: Bot, interaction: Interaction) -> Prefs:
    """The user's and the server's language overrides (none if they cannot be read: a
    reply in the client's language is better than no reply)."""
    guild = str(interaction.guild_id) if interaction.guild_id else None
    try:
        found = await bot.service.language_prefs(str(interaction.user.id), guild)
    except ServiceError:
        log.warning("language preferences of user %s unreadable", interaction.user.id)
        return Prefs()
    return Prefs(found.user, found.guild)
