"""The choices a player picks from, as menus under a message and as autocomplete
suggestions: built once here from the service's legal choices (`Choices`), so a menu and
the slash command's autocomplete offer the same things in the same words."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from carca_bot.bot.words import features
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words.safe import plain
from carca_bot.i18n import Domain
from carca_bot.service import Choices

_T = Domain("bot")
_ = _T.gettext

LIMIT = 25  # Discord's most options in a menu or suggestions in an autocomplete


def distance(pos: tuple[int, int], last: tuple[int, int] | None) -> tuple[int, int, int]:
    """How far a square is from the last tile, for ordering (then north to south, west
    to east)."""
    lx, ly = last or (0, 0)
    return (abs(pos[0] - lx) + abs(pos[1] - ly), pos[1], pos[0])


def nearest(squares: Iterable[tuple[int, int]], last: tuple[int, int] | None
            ) -> list[tuple[int, int]]:
    """Squares nearest to the last tile first."""
    return sorted(squares, key=lambda p: distance(p, last))


def deployments(choices: Choices) -> list[tuple[str, str]]:
    """(label, value) for each figure and feature of the tile just placed: 'Follower on
    N: city, north' -> 'follower:N'; recalling the abbot first when it may."""
    labels = {lb.on: lb for lb in choices.labels}
    # TRANSLATORS: a menu choice, e.g. "Follower on N: city, north".
    found = [(_("{figure} on {feature}").format(
        figure=vocab.figure_name(f), feature=features.label(labels.get(on), on)),
        f"{f}:{on}") for f, on in choices.deployments]
    if choices.can_recall:
        found.insert(0, (_("Recall my abbot"), "recall:"))
    return found


def wagon_targets(choices: Choices) -> list[tuple[str, str]]:
    """(label, value) for each feature the wagon may move to: 'N: city, north at 2,-1'
    -> '2,-1 N'."""
    # TRANSLATORS: a wagon target in a menu, e.g. "N: city, north at 2,-1".
    return [(_("{feature} at {square}").format(
        feature=features.label(features.find(choices.labels, x, y, on), on),
        square=f"{x},{y}"), f"{x},{y} {on}") for x, y, on in choices.wagon_moves]


def holes(choices: Choices) -> list[tuple[int, int]]:
    """The holes the abbey may fill, nearest to the last tile first."""
    return nearest(choices.abbey_squares, choices.last)


def _options(pairs: Iterable[tuple[str, str]]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=plain(label), value=value) for label, value in pairs]


def figure_options(choices: Choices) -> list[discord.SelectOption]:
    return _options(deployments(choices))[:LIMIT]


def wagon_options(choices: Choices) -> list[discord.SelectOption]:
    options = _options(wagon_targets(choices)[:LIMIT - 1])
    options.append(discord.SelectOption(label=_("Return it to my supply"), value="return"))
    return options


def hole_options(choices: Choices) -> list[discord.SelectOption]:
    """Holes for the abbey, nearest to the last tile first, at most 25."""
    return [discord.SelectOption(label=_("Hole at {square}").format(square=f"{x},{y}"),
                                 value=f"{x},{y}") for x, y in holes(choices)[:LIMIT]]
