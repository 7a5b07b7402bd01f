"""Autocomplete that offers only legal choices, nearest to the last move first, at most 25.

Everything comes from the engine's legal-move lists through the service; the bot
only filters by what the player has typed so far and orders by distance.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from carca_bot.bot import features
from carca_bot.bot.actions import where, who
from carca_bot.bot.parse import feature, feature_kind, square
from carca_bot.bot.safe import plain
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.game import Game
from carca_bot.service import BadInput, Choices, ServiceError

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

Choice = app_commands.Choice[str]
LIMIT = 25
PRESETS = ["river, abbot", "all", "river, abbot, abbey_mayor", "river, abbot, king_robber",
           "river, abbot, cult, tunnel"]


def _distance(pos: tuple[int, int], last: tuple[int, int] | None) -> tuple[int, int, int]:
    lx, ly = last or (0, 0)
    return (abs(pos[0] - lx) + abs(pos[1] - ly), pos[1], pos[0])


def _offer(options: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    """(label, value) pairs whose label contains what was typed, at most LIMIT."""
    found = [app_commands.Choice(name=plain(label), value=value[:100])
             for label, value in options if _matches(label, current)]
    return found[:LIMIT]


def _matches(label: str, current: str) -> bool:
    wanted = current.strip().lower().replace(" ", "")
    return not wanted or wanted in label.lower().replace(" ", "")


class Autocomplete:
    def __init__(self, bot: CarcaBot) -> None:
        self.bot = bot

    async def _choices(self, interaction: discord.Interaction[Any]) -> Choices | None:
        try:
            choices: Choices = await self.bot.service.legal_moves(where(interaction),
                                                                  who(interaction))
        except ServiceError:
            return None
        return choices

    async def _game(self, interaction: discord.Interaction[Any]) -> Game | None:
        try:
            game: Game | None = await self.bot.service.game(where(interaction))
        except ServiceError:
            return None
        return game

    async def expansions(self, interaction: discord.Interaction[Any],
                         current: str) -> list[Choice]:
        head, _, tail = current.rpartition(",")
        done = [w.strip() for w in head.split(",") if w.strip()]
        options = [", ".join([*done, name]) for name in EXPANSIONS
                   if name not in done and name.startswith(tail.strip().lower())]
        if not current:
            options = PRESETS + options
        return [app_commands.Choice(name=o[:100], value=o[:100]) for o in options[:LIMIT]]

    async def squares(self, interaction: discord.Interaction[Any],
                      current: str) -> list[Choice]:
        """Squares where the drawn tile fits (for the chosen rotation, if one is chosen)."""
        choices = await self._choices(interaction)
        if choices is None or not choices.placements:
            return []
        rotation = getattr(interaction.namespace, "rotation", None)
        turns: dict[tuple[int, int], list[int]] = {}
        for x, y, rot in choices.placements:
            if rotation is None or rot == rotation:
                turns.setdefault((x, y), []).append(rot)
        ordered = sorted(turns, key=lambda p: _distance(p, choices.last))
        return _offer(((f"{x},{y}  (turn {', '.join(f'{r}°' for r in sorted(turns[x, y]))})",
                        f"{x},{y}") for x, y in ordered), current)

    async def features(self, interaction: discord.Interaction[Any],
                       current: str) -> list[Choice]:
        """Features of the tile just placed where the chosen figure may stand."""
        choices = await self._choices(interaction)
        if choices is None:
            return []
        figure = getattr(interaction.namespace, "figure", None) or "follower"
        game = await self._game(interaction)
        pos = game.turn.pos if game is not None and game.turn is not None else (0, 0)
        spots = [on for f, on in choices.deployments if f == figure]
        return self._feature_choices(game, pos, spots, current)

    def _feature_choices(self, game: Game | None, pos: tuple[int, int], spots: list[str],
                         current: str) -> list[Choice]:
        """'N: city, north edge' -> 'N city': the value names the kind as well, so the
        command can refuse it if the tile ends up turned so N is something else."""
        return _offer(((features.label(game, pos, on),
                        f"{on} {features.kind_of(game, pos, on)}".strip()) for on in spots),
                      current)

    async def place_features(self, interaction: discord.Interaction[Any],
                             current: str) -> list[Choice]:
        """For `/carc place ... figure on`: features legal once the tile lies as chosen."""
        choices = await self._choices(interaction)
        game = await self._game(interaction)
        raw = getattr(interaction.namespace, "square", None)
        if choices is None or game is None or not choices.tile or not raw:
            return []
        try:
            x, y = square(str(raw))
        except BadInput:
            return []
        chosen = getattr(interaction.namespace, "rotation", None)
        fitting = sorted(r for px, py, r in choices.placements if (px, py) == (x, y))
        if chosen is not None:
            rotation = int(chosen)
        elif len(fitting) == 1:
            rotation = fitting[0]
        else:  # the features depend on the rotation: offer them once it is chosen
            return []
        figure = getattr(interaction.namespace, "figure", None) or "follower"
        seat = game.deciding
        if seat is None:
            return []
        try:  # the snapshot is private to this call: trying the placement changes nothing
            game.place_tile(seat, choices.tile, (x, y), rotation // 90)
        except IllegalMove:
            return []
        spots = [d.on for d in game.legal_deployments() if d.figure == figure]
        return self._feature_choices(game, (x, y), spots, current)

    async def only_rotation(self, interaction: discord.Interaction[Any],
                            pos: tuple[int, int]) -> int:
        """The rotation `/carc place` uses when none was chosen: the only one that fits
        the square if there is just one, else the tile as drawn (0°)."""
        choices = await self._choices(interaction)
        fitting = sorted(r for x, y, r in choices.placements if (x, y) == pos) if (
            choices is not None) else []
        return fitting[0] if len(fitting) == 1 else 0

    async def check_kind(self, interaction: discord.Interaction[Any], pos: tuple[int, int],
                         rotation: int, on: str) -> None:
        """Refuse `on` picked as one kind ('N city') that is another with this rotation."""
        wanted = feature_kind(on)
        choices = await self._choices(interaction)
        game = await self._game(interaction)
        if wanted is None or choices is None or game is None or not choices.tile:
            return
        code = feature(on)
        seat = game.deciding
        if seat is None:
            return
        try:  # on a private copy: the command itself places the tile afterwards
            game.place_tile(seat, choices.tile, pos, rotation // 90)
        except IllegalMove:
            return  # the service refuses the placement with its own reason
        actual = features.kind_of(game, pos, code)
        if actual and actual != wanted:
            raise BadInput(f"with the tile turned {rotation}°, {code} is the {actual} "
                           f"({features.where_words(code)}), not the {wanted} you picked. "
                           "Nothing was changed: choose `on` again after the rotation")

    async def abbey_squares(self, interaction: discord.Interaction[Any],
                            current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None:
            return []
        holes = sorted(choices.abbey_squares, key=lambda p: _distance(p, choices.last))
        options = [(f"{x},{y}", f"{x},{y}") for x, y in holes]
        if choices.can_skip_abbey:
            options.insert(0, ("skip (keep the abbey)", "skip"))
        return _offer(options, current)

    async def tunnel_entrances(self, interaction: discord.Interaction[Any],
                               current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None:
            return []
        spots = sorted({(x, y, side) for x, y, side, _ in choices.tokens},
                       key=lambda s: _distance((s[0], s[1]), choices.last))
        return _offer(((f"{x},{y} {side}: tunnel entrance, {features.where_words(side)}",
                        f"{x},{y} {side}") for x, y, side in spots), current)

    async def wagon_targets(self, interaction: discord.Interaction[Any],
                            current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None or choices.must != "wagon":
            return []
        game = await self._game(interaction)
        options = [("return (take the wagon back)", "return")]
        options.extend((f"{x},{y} {features.label(game, (x, y), on)}", f"{x},{y} {on}")
                       for x, y, on in choices.wagon_moves)
        return _offer(options, current)
