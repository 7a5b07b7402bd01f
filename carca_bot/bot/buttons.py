"""Buttons and select menus that keep working after a restart.

Each component's custom id carries the game id and the game's version when it was
posted (`carc:ACTION:GAME:VERSION`), so a click after a restart finds its game, and
a click on an old message cannot act twice: the service refuses a stale version.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from carca_bot.bot import features
from carca_bot.bot.safe import plain
from carca_bot.engine.game import Game
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
    "resign": ("Resign", discord.ButtonStyle.danger),
    "keep": ("Keep playing", discord.ButtonStyle.secondary),
    "page": ("Page", discord.ButtonStyle.secondary),  # /carc score pages; version = page
}
SELECTS = ("pick", "wagon", "hole")
# Ids are bounded (a 19-digit number is beyond any game or version) so that a forged
# id with a huge number is answered as malformed rather than reaching the database.
NUMBER = r"\d{1,18}"
PREFIX = (r"carc:(?P<action>" + "|".join(BUTTON_LABELS)
          + rf"):(?P<game>{NUMBER}):(?P<version>{NUMBER})")
SELECT_PREFIX = (r"carc:(?P<action>" + "|".join(SELECTS)
                 + rf"):(?P<game>{NUMBER}):(?P<version>{NUMBER})")
_KNOWN = (re.compile(PREFIX), re.compile(SELECT_PREFIX))


def is_ours(custom_id: str) -> bool:
    """True when one of the bot's components would handle a click with this id."""
    return any(p.fullmatch(custom_id) for p in _KNOWN)


def custom_id(action: str, game_id: int, version: int) -> str:
    return f"carc:{action}:{game_id}:{version}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PREFIX):
    """One button of a game: confirm, undo, rotate, draw, my tile, join, ..."""

    def __init__(self, action: str, game_id: int, version: int,
                 label: str | None = None) -> None:
        default, style = BUTTON_LABELS[action]
        super().__init__(discord.ui.Button(label=label or default, style=style,
                                           custom_id=custom_id(action, game_id, version)))
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> GameButton:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: CarcaBot = interaction.client
        await bot.actions.button(interaction, self.action, self.game_id, self.version)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_PREFIX):
    """A select menu: a figure and where it goes (`pick`), a wagon target (`wagon`), or a
    hole for the abbey (`hole`)."""

    def __init__(self, action: str, game_id: int, version: int,
                 options: list[discord.SelectOption] | None = None) -> None:
        placeholder = {"pick": "Place a figure…", "wagon": "Move the wagon…",
                       "hole": "Place your abbey in…"}.get(action, "Choose…")
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


def figure_options(choices: Choices, game: Game | None = None) -> list[discord.SelectOption]:
    """'Follower on N: city, north edge', ... (the kind needs the game, the place does not)."""
    pos = game.turn.pos if game is not None and game.turn is not None else (0, 0)
    options = [discord.SelectOption(
        label=plain(f"{FIGURE_WORDS.get(f, f)} on {features.label(game, pos, on, f)}"),
        value=f"{f}:{on}") for f, on in choices.deployments]
    if choices.can_recall:
        options.insert(0, discord.SelectOption(label="Recall my abbot", value="recall:"))
    return options[:25]


def wagon_options(choices: Choices, game: Game | None = None) -> list[discord.SelectOption]:
    options = [discord.SelectOption(
        label=plain(f"{features.label(game, (x, y), on)} at {x},{y}"), value=f"{x},{y} {on}")
        for x, y, on in choices.wagon_moves[:24]]
    options.append(discord.SelectOption(label="Return it to my supply", value="return"))
    return options


def hole_options(choices: Choices) -> list[discord.SelectOption]:
    """Holes for the abbey, nearest to the last tile first, at most 25."""
    lx, ly = choices.last or (0, 0)
    holes = sorted(choices.abbey_squares,
                   key=lambda p: (abs(p[0] - lx) + abs(p[1] - ly), p[1], p[0]))
    return [discord.SelectOption(label=f"Hole at {x},{y}", value=f"{x},{y}")
            for x, y in holes[:25]]


def resign_row(view: TurnView) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    ui.add_item(GameButton("resign", view.game_id, view.version))
    ui.add_item(GameButton("keep", view.game_id, view.version))
    return ui


def page_row(game_id: int, page: int, pages: int) -> discord.ui.View | None:
    """◀ ▶ for `/carc score`; the version slot of the id carries the page to show."""
    if pages <= 1:
        return None
    ui = discord.ui.View(timeout=None)
    if page > 0:
        ui.add_item(GameButton("page", game_id, page - 1, label="◀ Earlier"))
    if page < pages - 1:
        ui.add_item(GameButton("page", game_id, page + 1, label="Later ▶"))
    return ui


def row_for(view: TurnView, choices: Choices | None, *, private: bool,
            game: Game | None = None) -> discord.ui.View | None:
    """The components that fit the game's state, for the public post or a private preview."""
    if view.finished:
        return None
    ui = discord.ui.View(timeout=None)
    game_id, version = view.game_id, view.version

    def add(*actions: str) -> None:
        for action in actions:
            ui.add_item(GameButton(action, game_id, version))

    if view.status == "lobby":
        add("join", "start")
    elif view.must == "choose":
        add("draw", "abbey", "board")
    elif view.must == "place":
        add("tile", "board")
    elif view.must == "finish" and private:
        add("rotate", "confirm", "undo")
        options = figure_options(choices, game) if choices is not None else []
        if options:
            ui.add_item(ChoiceSelect("pick", game_id, version, options))
    elif view.must == "finish":
        add("board")
    elif view.must == "wagon" and choices is not None:
        ui.add_item(ChoiceSelect("wagon", game_id, version, wagon_options(choices, game)))
    elif view.must == "abbey_round":
        add("skip", "board")
    else:
        add("board")
    return ui
