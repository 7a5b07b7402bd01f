"""The custom ids of the bot's buttons and menus, one template per kind, read back by a
`discord.ui.DynamicItem` each, so a click still finds its game after a restart:

- `carc:ACTION:GAME:NUMBER`: a game's buttons and menus (`GameItem`). NUMBER is the
  game's version when the component was posted, so a click on an old message cannot act
  twice (the service refuses a stale version); a pager's is the page or the move shown.
- `carcv:ACTION:GAME:REF`: votes and the pages of `/carc games` (`VoteItem`). REF is
  the move's log index (a take-back), the target's user id (a vote to expel), or the
  list owner's user id (a dashboard page, GAME being the page).
- `carcu:ACTION:USER:REF`: a button only one user may press (`UserItem`): USER is
  theirs, REF a hexadecimal reference (the plan of `/carc-privacy erase` they confirm).

Every id ever posted keeps this form, so buttons already in channels keep working.
What a click does, and a button's label, are registered by the module of its verb
(`core.verbs`), so this module imports no verb; an id whose action nobody registered is
answered as unknown by the client.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from carca_bot.bot.core.act import Click
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words.safe import NO_PINGS, plain
from carca_bot.i18n import Domain, speaking

_T = Domain("bot")
_ = _T.gettext

Handler = Callable[[Interaction, Click], Awaitable[None]]
# Ids are bounded (a 19-digit number is beyond any game or version) so that a forged
# id with a huge number is answered as malformed rather than reaching the database.
GAME_ID = re.compile(r"carc:(?P<action>[a-z]{1,12}):(?P<game>\d{1,18}):(?P<number>\d{1,18})")
VOTE_ID = re.compile(r"carcv:(?P<action>[a-z]{1,12}):(?P<game>\d{1,18}):(?P<number>\d{1,20})")
USER_ID = re.compile(r"carcu:(?P<action>[a-z]{1,12}):(?P<user>\d{1,20}):(?P<ref>[0-9a-f]{1,32})")


@dataclass(frozen=True)
class Kind:
    """One action a component can carry: its words (a button's label or a menu's
    placeholder, a message id translated when the component is made), its style, and
    what a click does."""

    words: str
    style: discord.ButtonStyle
    handler: Handler


BUTTONS: dict[str, Kind] = {}  # a game's buttons, by action
MENUS: dict[str, Kind] = {}  # a game's select menus, by action
VOTES: dict[str, Kind] = {}  # vote and dashboard buttons, by action
OWNED: dict[str, Kind] = {}  # buttons only one user may press, by action


def custom_id(action: str, game_id: int, number: int) -> str:
    return f"carc:{action}:{game_id}:{number}"


def vote_id(action: str, game_id: int, ref: int | str) -> str:
    return f"carcv:{action}:{game_id}:{ref}"


def owned_id(action: str, user_id: str, ref: str) -> str:
    return f"carcu:{action}:{user_id}:{ref}"


def is_ours(custom_id: str, component_type: int) -> bool:
    """True when a registered action of the bot's takes a click with this id on a
    component of this type (2: a button, 3: a select menu)."""
    for template, table in ((GAME_ID, BUTTONS if component_type == 2 else MENUS),
                            (VOTE_ID, VOTES), (USER_ID, OWNED)):
        match = template.fullmatch(custom_id)
        if match is not None:
            return match["action"] in table
    return False


def _kind(table: dict[str, Kind], action: str) -> Kind:
    found = table.get(action)
    if found is None:  # a programming error: rows name only registered actions
        raise KeyError(f"no component registered for {action!r} (is its verb's module "
                       "imported? carca_bot.bot.commands imports them all)")
    return found


def label_of(action: str) -> str:
    """A game button's label, in the language spoken now."""
    return _(_kind(BUTTONS, action).words)


def _click(match: re.Match[str], value: str = "") -> Click:
    return Click(match["action"], int(match["game"]), int(match["number"]), value)


class GameItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=GAME_ID.pattern):
    """A game's button or menu: confirm, undo, rotate, draw, my tile, join, ...; a figure
    and where it goes, a wagon's target, a hole for the abbey."""

    def __init__(self, item: discord.ui.Button[Any] | discord.ui.Select[Any],
                 click: Click) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    def button(cls, action: str, game_id: int, number: int,
               label: str | None = None) -> GameItem:
        kind = _kind(BUTTONS, action)
        return cls(discord.ui.Button(label=plain(label or _(kind.words), 80), style=kind.style,
                                     custom_id=custom_id(action, game_id, number)),
                   Click(action, game_id, number))

    @classmethod
    def menu(cls, action: str, game_id: int, number: int,
             options: list[discord.SelectOption]) -> GameItem:
        kind = _kind(MENUS, action)
        return cls(discord.ui.Select(
            custom_id=custom_id(action, game_id, number), placeholder=_(kind.words),
            options=options or [discord.SelectOption(label=_("(none)"), value="none")],
            min_values=1, max_values=1), Click(action, game_id, number))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameItem:
        if isinstance(item, discord.ui.Select):
            return cls(discord.ui.Select(custom_id=match.string), _click(match))
        return cls(discord.ui.Button(custom_id=match.string), _click(match))

    async def callback(self, interaction: Interaction) -> None:
        item = self.item
        menu = isinstance(item, discord.ui.Select)
        kind = (MENUS if menu else BUTTONS).get(self.click.action)
        if kind is None:
            return  # unknown: the client answers it (`is_ours`)
        value = str(item.values[0]) if isinstance(item, discord.ui.Select) and item.values \
            else ("none" if menu else "")
        click = self.click if not value else Click(self.click.action, self.click.game_id,
                                                   self.click.number, value)
        await kind.handler(interaction, click)


class VoteItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=VOTE_ID.pattern):
    """Accept, Refuse, Withdraw, Vote to expel, Take back my move, a dashboard page."""

    def __init__(self, item: discord.ui.Button[Any], click: Click) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    def button(cls, action: str, game_id: int, ref: int | str,
               label: str | None = None) -> VoteItem:
        kind = _kind(VOTES, action)
        return cls(discord.ui.Button(label=plain(label or _(kind.words), 80), style=kind.style,
                                     custom_id=vote_id(action, game_id, ref)),
                   Click(action, game_id, int(ref)))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> VoteItem:
        return cls(discord.ui.Button(custom_id=match.string), _click(match))

    async def callback(self, interaction: Interaction) -> None:
        kind = VOTES.get(self.click.action)
        if kind is not None:
            await kind.handler(interaction, self.click)


class UserItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=USER_ID.pattern):
    """A button only one user may press: Erase my data and Cancel. The click names the
    user as `Click.game_id` and the reference as `Click.value`; the handler checks the
    clicker is that user."""

    def __init__(self, item: discord.ui.Button[Any], click: Click) -> None:
        super().__init__(item)
        self.click = click

    @classmethod
    def button(cls, action: str, user_id: str, ref: str, label: str | None = None
               ) -> UserItem:
        kind = _kind(OWNED, action)
        return cls(discord.ui.Button(label=plain(label or _(kind.words), 80), style=kind.style,
                                     custom_id=owned_id(action, user_id, ref)),
                   Click(action, int(user_id), 0, ref))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> UserItem:
        return cls(discord.ui.Button(custom_id=match.string),
                   Click(match["action"], int(match["user"]), 0, match["ref"]))

    async def callback(self, interaction: Interaction) -> None:
        kind = OWNED.get(self.click.action)
        if kind is not None:
            await kind.handler(interaction, self.click)


async def answer_unknown(interaction: Interaction, language: str) -> None:
    """The answer to a click no component takes (a broken, forged or retired id):
    Discord would otherwise show "This interaction failed"."""
    with speaking(language):
        await interaction.response.send_message(
            _("That button or menu does not belong to any game I know (it may come from "
              "an older version of the bot). Nothing was changed: use `/carc status` to "
              "see the game in this channel."), ephemeral=True, allowed_mentions=NO_PINGS)
