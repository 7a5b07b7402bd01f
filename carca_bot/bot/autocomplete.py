"""Autocomplete that offers only legal choices, nearest to the last move first, at most 25.

Everything comes from the engine's legal-move lists through the service; the bot
only filters by what the player has typed so far and orders by distance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from carca_bot.bot.actions import where, who
from carca_bot.bot.parse import square
from carca_bot.engine.catalogue import EXPANSIONS, Kind
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


def _matches(label: str, current: str) -> bool:
    wanted = current.strip().lower().replace(" ", "")
    return not wanted or wanted in label.lower().replace(" ", "")


def feature_words(game: Game | None, pos: tuple[int, int], on: str) -> str:
    """'city', 'road', 'field', ... for a feature name on a placed tile."""
    if game is None or pos not in game.board.tiles:
        return ""
    node = game.board.tiles[pos].node_named(on)
    if node is None:
        return ""
    feat = game.board.feature(node)
    return feat.building if feat.kind is Kind.BUILDING else feat.kind.value


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
        result = []
        for pos in sorted(turns, key=lambda p: _distance(p, choices.last)):
            value = f"{pos[0]},{pos[1]}"
            label = f"{value}  (turn {', '.join(f'{r}°' for r in sorted(turns[pos]))})"
            if _matches(label, current):
                result.append(app_commands.Choice(name=label, value=value))
        return result[:LIMIT]

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
        result = []
        for on in spots:
            label = f"{on}  ({feature_words(game, pos, on)})"
            if _matches(label, current):
                result.append(app_commands.Choice(name=label, value=on))
        return result[:LIMIT]

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
        rotation = int(getattr(interaction.namespace, "rotation", None) or 0)
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

    async def abbey_squares(self, interaction: discord.Interaction[Any],
                            current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None:
            return []
        result = [app_commands.Choice(name=f"{x},{y}", value=f"{x},{y}")
                  for x, y in sorted(choices.abbey_squares,
                                     key=lambda p: _distance(p, choices.last))]
        if choices.can_skip_abbey:
            result.insert(0, app_commands.Choice(name="skip (keep the abbey)", value="skip"))
        return [c for c in result if _matches(c.name, current)][:LIMIT]

    async def tunnel_entrances(self, interaction: discord.Interaction[Any],
                               current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None:
            return []
        spots = sorted({(x, y, side) for x, y, side, _ in choices.tokens},
                       key=lambda s: _distance((s[0], s[1]), choices.last))
        result = [app_commands.Choice(name=f"{x},{y} {side}  (tunnel entrance)",
                                      value=f"{x},{y} {side}") for x, y, side in spots]
        return [c for c in result if _matches(c.name, current)][:LIMIT]

    async def wagon_targets(self, interaction: discord.Interaction[Any],
                            current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None or choices.must != "wagon":
            return []
        game = await self._game(interaction)
        result = [app_commands.Choice(name="return (take the wagon back)", value="return")]
        for x, y, on in choices.wagon_moves:
            label = f"{x},{y} {on}  ({feature_words(game, (x, y), on)})"
            result.append(app_commands.Choice(name=label, value=f"{x},{y} {on}"))
        return [c for c in result if _matches(c.name, current)][:LIMIT]
