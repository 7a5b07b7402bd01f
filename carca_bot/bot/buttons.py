"""Buttons and select menus that keep working after a restart.

Each component's custom id carries the game id and the game's version when it was
posted (`carc:ACTION:GAME:VERSION`), so a click after a restart finds its game, and
a click on an old message cannot act twice: the service refuses a stale version.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from carca_bot.bot import features, vocab
from carca_bot.bot.safe import plain
from carca_bot.i18n import N_, Domain
from carca_bot.service import Choices, TurnView

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

_T = Domain("bot")
_ = _T.gettext
pgettext = _T.pgettext

# Labels are translated when a button is made (in the language of its message).
BUTTON_LABELS = {
    "confirm": (N_("Confirm"), discord.ButtonStyle.success),
    "undo": (N_("Undo"), discord.ButtonStyle.secondary),
    "rotate": (N_("Rotate ↻"), discord.ButtonStyle.primary),
    "draw": (N_("Draw a tile"), discord.ButtonStyle.primary),
    "abbey": (N_("Place my abbey"), discord.ButtonStyle.secondary),
    "tile": (N_("My tile"), discord.ButtonStyle.primary),
    "board": (N_("Board"), discord.ButtonStyle.secondary),
    "join": (N_("Join"), discord.ButtonStyle.success),
    "start": (N_("Start"), discord.ButtonStyle.primary),
    "skip": (N_("Skip my abbey"), discord.ButtonStyle.secondary),
    "return": (N_("Return wagon"), discord.ButtonStyle.secondary),
    "resign": (N_("Resign"), discord.ButtonStyle.danger),
    "keep": (N_("Keep playing"), discord.ButtonStyle.secondary),
    "status": (N_("Status"), discord.ButtonStyle.secondary),  # on the card: with the pace
    "page": (N_("Page"), discord.ButtonStyle.secondary),  # /carc score pages; version = page
    # The history browser: the version slot holds the move shown when the button was made
    # (a game's past only grows, so no genuine id names a move the game does not have).
    "hist": (N_("Step through the game"), discord.ButtonStyle.secondary),
    "hfirst": (N_("⏮ Start"), discord.ButtonStyle.secondary),
    "hback": (N_("◀ Back"), discord.ButtonStyle.primary),
    "hnext": (N_("Next ▶"), discord.ButtonStyle.primary),
    "hlast": (N_("Latest ⏭"), discord.ButtonStyle.secondary),
}
HISTORY = ("hist", "hfirst", "hback", "hnext", "hlast")
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
        super().__init__(discord.ui.Button(label=label or _(default), style=style,
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
        placeholder = {"pick": _("Place a figure…"), "wagon": _("Move the wagon…"),
                       "hole": _("Place your abbey in…")}.get(action, _("Choose…"))
        super().__init__(discord.ui.Select(
            custom_id=custom_id(action, game_id, version), placeholder=placeholder,
            options=options or [discord.SelectOption(label=_("(none)"), value="none")],
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


def _labelled(choices: Choices, on: str) -> str:
    """'N: city, north' for a feature of the tile just placed (the labels' own square)."""
    found = next((lb for lb in choices.labels if lb.on == on), None)
    return features.label(found, on)


def figure_options(choices: Choices) -> list[discord.SelectOption]:
    """'Follower on N: city, north', ... from the service's labels."""
    options = [discord.SelectOption(
        # TRANSLATORS: a menu choice, e.g. "Follower on N: city, north".
        label=plain(_("{figure} on {feature}").format(
            figure=vocab.figure_name(f),
            feature=_labelled(choices, on))),
        value=f"{f}:{on}") for f, on in choices.deployments]
    if choices.can_recall:
        options.insert(0, discord.SelectOption(label=_("Recall my abbot"), value="recall:"))
    return options[:25]


def wagon_options(choices: Choices) -> list[discord.SelectOption]:
    options = [discord.SelectOption(
        # TRANSLATORS: a wagon target in a menu, e.g. "N: city, north at 2,-1".
        label=plain(_("{feature} at {square}").format(
            feature=features.label(features.find(choices.labels, x, y, on), on),
            square=f"{x},{y}")), value=f"{x},{y} {on}")
        for x, y, on in choices.wagon_moves[:24]]
    options.append(discord.SelectOption(label=_("Return it to my supply"), value="return"))
    return options


def hole_options(choices: Choices) -> list[discord.SelectOption]:
    """Holes for the abbey, nearest to the last tile first, at most 25."""
    lx, ly = choices.last or (0, 0)
    holes = sorted(choices.abbey_squares,
                   key=lambda p: (abs(p[0] - lx) + abs(p[1] - ly), p[1], p[0]))
    return [discord.SelectOption(label=_("Hole at {square}").format(square=f"{x},{y}"),
                                 value=f"{x},{y}") for x, y in holes[:25]]


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
        ui.add_item(GameButton("page", game_id, page - 1, label=_("◀ Earlier")))
    if page < pages - 1:
        ui.add_item(GameButton("page", game_id, page + 1, label=_("Later ▶")))
    return ui


def history_row(game_id: int, move: int, total: int, finished: bool) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ under a history post; the ones with nowhere to go are greyed out
    (⏭ stays on while the game runs: it also fetches the moves played since)."""
    ui = discord.ui.View(timeout=None)
    for action, usable in (("hfirst", move > 0), ("hback", move > 0), ("hnext", move < total),
                           ("hlast", move < total or not finished)):
        button = GameButton(action, game_id, move)
        button.item.disabled = not usable
        ui.add_item(button)
    return ui


def final_row(game_id: int) -> discord.ui.View:
    """Under the last post of a game: open its history (privately) at the first move."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(GameButton("hist", game_id, 1))
    return ui


def row_for(view: TurnView, choices: Choices | None, *, private: bool
            ) -> discord.ui.View | None:
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
        options = figure_options(choices) if choices is not None else []
        if options:
            ui.add_item(ChoiceSelect("pick", game_id, version, options))
    elif view.must == "finish":
        add("board")
    elif view.must == "wagon" and choices is not None:
        ui.add_item(ChoiceSelect("wagon", game_id, version, wagon_options(choices)))
    elif view.must == "abbey_round":
        add("skip", "board")
    else:
        add("board")
    return ui


def card_actions(view: TurnView) -> list[tuple[str, str]]:
    """The game card's buttons as (action, label): what the player to act may start from
    the channel, then the full board and the status (with each player's pace)."""
    def labelled(action: str) -> tuple[str, str]:
        return action, _(BUTTON_LABELS[action][0])

    if view.finished:
        return [labelled("hist"), ("board", _("Full board"))]
    acts = {"choose": ["draw", "abbey"], "place": ["tile"],
            "abbey_round": ["skip"]}.get(view.must, [])
    return [*map(labelled, acts), ("board", _("Full board")), labelled("status")]
