"""Buttons and select menus that keep working after a restart.

Each component's custom id carries the game id and the game's version when it was
posted (`carc:ACTION:GAME:VERSION`), so a click after a restart finds its game, and
a click on an old message cannot act twice: the service refuses a stale version.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from carca_bot.service import Choices, TurnView

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

BUTTON_LABELS = {
    "confirm": ("Confirm", discord.ButtonStyle.success),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "rotate": ("Rotate ↻", discord.ButtonStyle.primary),
    "draw": ("Draw a tile", discord.ButtonStyle.primary),
    "abbey": ("Place my abbey", discord.ButtonStyle.secondary),
    "tile": ("My tile", discord.ButtonStyle.primary),
    "board": ("Board", discord.ButtonStyle.secondary),
    "join": ("Join", discord.ButtonStyle.success),
    "start": ("Start", discord.ButtonStyle.primary),
    "skip": ("Skip my abbey", discord.ButtonStyle.secondary),
    "return": ("Return wagon", discord.ButtonStyle.secondary),
}
PREFIX = (r"carc:(?P<action>" + "|".join(BUTTON_LABELS)
          + r"):(?P<game>\d+):(?P<version>\d+)")


def custom_id(action: str, game_id: int, version: int) -> str:
    return f"carc:{action}:{game_id}:{version}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PREFIX):
    """One button of a game: confirm, undo, rotate, draw, my tile, join, ..."""

    def __init__(self, action: str, game_id: int, version: int) -> None:
        label, style = BUTTON_LABELS[action]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=custom_id(action, game_id, version)))
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GameButton:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: CarcaBot = interaction.client
        await bot.actions.button(interaction, self.action, self.game_id, self.version)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"carc:(?P<action>pick|wagon):(?P<game>\d+):(?P<version>\d+)"):
    """A select menu: a figure and where it goes (`pick`), or a wagon target (`wagon`)."""

    def __init__(self, action: str, game_id: int, version: int,
                 options: list[discord.SelectOption] | None = None) -> None:
        placeholder = "Place a figure…" if action == "pick" else "Move the wagon…"
        super().__init__(discord.ui.Select(
            custom_id=custom_id(action, game_id, version), placeholder=placeholder,
            options=options or [discord.SelectOption(label="(none)", value="none")],
            min_values=1, max_values=1))
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ChoiceSelect:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: CarcaBot = interaction.client
        values = self.item.values or ["none"]
        await bot.actions.select(interaction, self.action, self.game_id, self.version,
                                 str(values[0]))


FIGURE_WORDS = {"follower": "Follower", "abbot": "Abbot", "mayor": "Mayor", "wagon": "Wagon",
                "barn": "Barn"}


def figure_options(choices: Choices) -> list[discord.SelectOption]:
    options = [discord.SelectOption(label=f"{FIGURE_WORDS.get(f, f)} on {on}",
                                    value=f"{f}:{on}") for f, on in choices.deployments]
    if choices.can_recall:
        options.insert(0, discord.SelectOption(label="Recall my abbot", value="recall:"))
    return options[:25]


def wagon_options(choices: Choices) -> list[discord.SelectOption]:
    options = [discord.SelectOption(label=f"{on} at {x},{y}", value=f"{x},{y} {on}")
               for x, y, on in choices.wagon_moves[:24]]
    options.append(discord.SelectOption(label="Return it to my supply", value="return"))
    return options


def row_for(view: TurnView, choices: Choices | None, *, private: bool) -> discord.ui.View | None:
    """The components that fit the game's state, for the public post or a private preview."""
    if view.finished:
        return None
    ui = discord.ui.View(timeout=None)
    game, version = view.game_id, view.version

    def add(*actions: str) -> None:
        for action in actions:
            ui.add_item(GameButton(action, game, version))

    if view.status == "lobby":
        add("join", "start")
    elif view.must == "choose":
        add("draw", "abbey", "board")
    elif view.must == "place":
        add("tile", "board")
    elif view.must == "finish" and private:
        add("rotate", "confirm", "undo")
        options = figure_options(choices) if choices is not None else []
        if options:
            ui.add_item(ChoiceSelect("pick", game, version, options))
    elif view.must == "finish":
        add("board")
    elif view.must == "wagon" and choices is not None:
        ui.add_item(ChoiceSelect("wagon", game, version, wagon_options(choices)))
    elif view.must == "abbey_round":
        add("skip", "board")
    else:
        add("board")
    return ui
