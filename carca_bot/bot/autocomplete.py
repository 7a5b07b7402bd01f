"""Autocomplete that offers only legal choices, nearest to the last move first, at most 25.

Everything comes from the engine's legal-move lists through the service; the bot
only filters by what the player has typed so far and orders by distance.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from carca_bot.bot import features, vocab
from carca_bot.bot.actions import where, who
from carca_bot.bot.languages import private_language
from carca_bot.bot.parse import feature, feature_kind, square
from carca_bot.bot.refused import Refused
from carca_bot.bot.safe import plain
from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.i18n import Domain, speaking
from carca_bot.service import Choices, ServiceError
from carca_bot.service.labels import FeatureLabel

if TYPE_CHECKING:
    from carca_bot.bot.client import CarcaBot

_T = Domain("bot")
_ = _T.gettext

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


A = TypeVar("A", bound="Autocomplete")
Suggest = Callable[[A, discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice]]]


def spoken(suggest: Suggest[A]) -> Suggest[A]:
    """Suggestions are private: in the user's language (autocomplete does not pass
    through `Actions.run`, which chooses it for commands)."""
    @functools.wraps(suggest)
    async def in_language(self: A, interaction: discord.Interaction[Any],
                          current: str) -> list[Choice]:
        prefs = await self.bot.actions.prefs(interaction)
        with speaking(private_language(interaction, prefs)):
            return await suggest(self, interaction, current)
    return in_language


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

    async def _features_if(self, interaction: discord.Interaction[Any], x: int, y: int,
                           rotation: int, figure: str) -> tuple[FeatureLabel, ...]:
        """Where `figure` could stand with the drawn tile at x,y turned `rotation`."""
        try:
            found: tuple[FeatureLabel, ...] = await self.bot.service.features_if(
                where(interaction), who(interaction), x, y, rotation, figure)
        except ServiceError:
            return ()
        return found

    @spoken
    async def expansions(self, interaction: discord.Interaction[Any],
                         current: str) -> list[Choice]:
        """The value is the expansions' codes (what `create` reads), the label their names
        in the player's language; what was typed matches either."""
        head, _comma, tail = current.rpartition(",")
        done = [w.strip() for w in head.split(",") if w.strip()]
        typed = tail.strip().lower()
        options = [", ".join([*done, name]) for name in EXPANSIONS
                   if name not in done and (name.startswith(typed) or _(
                       vocab.EXPANSION_NAMES[name]).lower().startswith(typed))]
        if not current:
            options = PRESETS + options
        return [app_commands.Choice(name=plain(_expansions_label(o)), value=o[:100])
                for o in options[:LIMIT]]

    @spoken
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
        return _offer(((_("{square}  (turned {rotations})").format(
            square=f"{x},{y}", rotations=", ".join(f"{r}°" for r in sorted(turns[x, y]))),
                         f"{x},{y}") for x, y in ordered), current)

    @spoken
    async def features(self, interaction: discord.Interaction[Any],
                       current: str) -> list[Choice]:
        """Features of the tile just placed where the chosen figure may stand."""
        choices = await self._choices(interaction)
        if choices is None:
            return []
        figure = getattr(interaction.namespace, "figure", None) or "follower"
        spots = [on for f, on in choices.deployments if f == figure]
        labels = {lb.on: lb for lb in choices.labels}
        return self._feature_choices([(on, labels.get(on)) for on in spots], current)

    def _feature_choices(self, spots: list[tuple[str, FeatureLabel | None]],
                         current: str) -> list[Choice]:
        """'N: city, north' -> 'N city': the value names the kind as well, so the
        command can refuse it if the tile ends up turned so N is something else."""
        return _offer(((features.label(found, on),
                        f"{on} {found.kind if found else ''}".strip()) for on, found in spots),
                      current)

    @spoken
    async def place_features(self, interaction: discord.Interaction[Any],
                             current: str) -> list[Choice]:
        """For `/carc place ... figure on`: features legal once the tile lies as chosen."""
        choices = await self._choices(interaction)
        raw = getattr(interaction.namespace, "square", None)
        if choices is None or not choices.tile or not raw:
            return []
        try:
            x, y = square(str(raw))
        except Refused:
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
        found = await self._features_if(interaction, x, y, rotation, figure)
        return self._feature_choices([(lb.on, lb) for lb in found], current)

    async def only_rotation(self, interaction: discord.Interaction[Any],
                            pos: tuple[int, int]) -> int:
        """The rotation `/carc place` uses when none was chosen: the only one that fits
        the square if there is just one, else the tile as drawn (0°)."""
        choices = await self._choices(interaction)
        fitting = sorted(r for x, y, r in choices.placements if (x, y) == pos) if (
            choices is not None) else []
        return fitting[0] if len(fitting) == 1 else 0

    async def check_kind(self, interaction: discord.Interaction[Any], pos: tuple[int, int],
                         rotation: int, figure: str, on: str) -> None:
        """Refuse `on` picked as one kind ('N city') that is another with this rotation."""
        wanted = feature_kind(on)
        if wanted is None:
            return
        code = feature(on)
        found = await self._features_if(interaction, pos[0], pos[1], rotation, figure)
        actual = next((lb for lb in found if lb.on == code), None)
        if actual is not None and actual.kind != wanted:
            raise Refused(_("with the tile turned {rotation}°, {code} is the {actual} "
                             "({where}), not the {wanted} you picked. Nothing was changed: "
                             "choose `on` again after the rotation").format(
                rotation=rotation, code=code, actual=vocab.kind_name(actual.kind),
                where=features.where_words(code), wanted=vocab.kind_name(wanted)))

    @spoken
    async def abbey_squares(self, interaction: discord.Interaction[Any],
                            current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None:
            return []
        holes = sorted(choices.abbey_squares, key=lambda p: _distance(p, choices.last))
        options = [(f"{x},{y}", f"{x},{y}") for x, y in holes]
        if choices.can_skip_abbey:
            options.insert(0, (_("skip (keep the abbey)"), "skip"))
        return _offer(options, current)

    @spoken
    async def tunnel_entrances(self, interaction: discord.Interaction[Any],
                               current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None:
            return []
        spots = sorted({(x, y, side) for x, y, side, _ in choices.tokens},
                       key=lambda s: _distance((s[0], s[1]), choices.last))
        return _offer(((_("{square} {side}: tunnel entrance, {where}").format(
            square=f"{x},{y}", side=side, where=features.where_words(side)),
                        f"{x},{y} {side}") for x, y, side in spots), current)

    @spoken
    async def wagon_targets(self, interaction: discord.Interaction[Any],
                            current: str) -> list[Choice]:
        choices = await self._choices(interaction)
        if choices is None or choices.must != "wagon":
            return []
        options = [(_("return (take the wagon back)"), "return")]
        options.extend((f"{x},{y} {features.label(features.find(choices.labels, x, y, on), on)}",
                        f"{x},{y} {on}") for x, y, on in choices.wagon_moves)
        return _offer(options, current)


def _expansions_label(codes: str) -> str:
    """'river, abbot' -> 'The River, The Abbot'; 'all' -> 'All expansions'."""
    chosen = [c.strip() for c in codes.split(",") if c.strip()]
    if chosen == ["all"]:
        return _("All expansions")
    return ", ".join(_(vocab.EXPANSION_NAMES[c]) if c in vocab.EXPANSION_NAMES else c
                     for c in chosen)
