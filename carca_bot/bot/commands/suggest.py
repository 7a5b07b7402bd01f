"""Autocomplete that offers only legal choices, nearest to the last move first, at most 25.

Everything comes from the service's legal choices for the player (`legal_moves`,
`features_if`), through the same lists as the menus (`components.menus`); here they
are only filtered by what the player has typed so far. Suggestions are private: they
speak the user's language.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from discord import app_commands

from carca_bot.bot.components import menus
from carca_bot.bot.core.act import read_prefs
from carca_bot.bot.core.reply import where, who
from carca_bot.bot.seam import Interaction, bot_of
from carca_bot.bot.words import features
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words.clocks import time_zones
from carca_bot.bot.words.languages import private_language
from carca_bot.bot.words.parse import feature, feature_kind, square
from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import plain
from carca_bot.i18n import Domain, speaking
from carca_bot.service import Choices, FeatureLabel, ServiceError

_T = Domain("bot")
_ = _T.gettext

Choice = app_commands.Choice[str]
Suggest = Callable[[Interaction, str], Coroutine[Any, Any, list[Choice]]]


def presets(codes: tuple[str, ...]) -> list[str]:
    """The mixes offered before anything is typed, from the records (in their `position`
    order, lightest first): the first two together, every expansion, and the first two
    with each other one; so a new expansion is offered with its record."""
    light, rest = list(codes[:2]), codes[2:]
    return [", ".join(light), "all", *(", ".join([*light, name]) for name in rest)]


PRESETS = presets(vocab.expansion_codes())


def spoken(suggest: Suggest) -> Suggest:
    """Suggestions are private: in the user's language (autocomplete does not pass
    through the reply cycle, which chooses it for commands)."""
    @functools.wraps(suggest)
    async def in_language(interaction: Interaction, current: str) -> list[Choice]:
        prefs = await read_prefs(bot_of(interaction), interaction)
        with speaking(private_language(interaction, prefs)):
            return await suggest(interaction, current)
    return in_language


def _offer(options: Iterable[tuple[str, str]], current: str) -> list[Choice]:
    """(label, value) pairs whose label contains what was typed, at most LIMIT."""
    wanted = current.strip().lower().replace(" ", "")
    found = [app_commands.Choice(name=plain(label), value=value[:100])
             for label, value in options
             if not wanted or wanted in label.lower().replace(" ", "")]
    return found[:menus.LIMIT]


def _option(interaction: Interaction, name: str) -> object:
    """An option the user filled in already (None if not yet)."""
    return getattr(interaction.namespace, name, None)


async def choices_of(interaction: Interaction) -> Choices | None:
    """The user's legal choices now; None when they are not the one to act."""
    try:
        return await bot_of(interaction).service.legal_moves(where(interaction),
                                                             who(interaction))
    except ServiceError:
        return None


async def features_if(interaction: Interaction, x: int, y: int, rotation: int,
                      figure: str) -> tuple[FeatureLabel, ...]:
    """Where `figure` could stand with the drawn tile at x,y turned `rotation`."""
    try:
        return await bot_of(interaction).service.features_if(
            where(interaction), who(interaction), x, y, rotation, figure)
    except ServiceError:
        return ()


@spoken
async def expansions(interaction: Interaction, current: str) -> list[Choice]:
    """The value is the expansions' codes (what `create` reads), the label their names
    in the player's language; what was typed matches either."""
    head, _comma, tail = current.rpartition(",")
    done = [w.strip() for w in head.split(",") if w.strip()]
    typed = tail.strip().lower()
    options = [", ".join([*done, name]) for name in vocab.expansion_codes()
               if name not in done and (name.startswith(typed) or vocab.expansion_title(
                   name).lower().startswith(typed))]
    if not current:
        options = PRESETS + options
    return [app_commands.Choice(name=plain(_expansions_label(o)), value=o[:100])
            for o in options[:menus.LIMIT]]


def _expansions_label(codes: str) -> str:
    """'river, abbot' -> 'The River, The Abbot'; 'all' -> 'All expansions'."""
    chosen = [c.strip() for c in codes.split(",") if c.strip()]
    if chosen == ["all"]:
        return _("All expansions")
    return ", ".join(vocab.expansion_title(c) for c in chosen)


async def zones(interaction: Interaction, current: str) -> list[Choice]:
    """IANA time zones (data: not translated)."""
    return [app_commands.Choice(name=plain(z), value=z[:100]) for z in time_zones(current)]


@spoken
async def squares(interaction: Interaction, current: str) -> list[Choice]:
    """Squares where the drawn tile fits (for the chosen rotation, if one is chosen)."""
    choices = await choices_of(interaction)
    if choices is None or not choices.placements:
        return []
    rotation = _option(interaction, "rotation")
    turns: dict[tuple[int, int], list[int]] = {}
    for x, y, rot in choices.placements:
        if rotation is None or rot == rotation:
            turns.setdefault((x, y), []).append(rot)
    return _offer(((_("{square}  (turned {rotations})").format(
        square=f"{x},{y}", rotations=", ".join(f"{r}°" for r in sorted(turns[x, y]))),
                    f"{x},{y}") for x, y in menus.nearest(turns, choices.last)), current)


def _feature_choices(spots: Iterable[tuple[str, FeatureLabel | None]],
                     current: str) -> list[Choice]:
    """'N: city, north' -> 'N city': the value names the kind as well, so the
    command can refuse it if the tile ends up turned so N is something else."""
    return _offer(((features.label(found, on),
                    f"{on} {found.kind if found else ''}".strip()) for on, found in spots),
                  current)


@spoken
async def figure_spots(interaction: Interaction, current: str) -> list[Choice]:
    """Features of the tile just placed where the chosen figure may stand."""
    choices = await choices_of(interaction)
    if choices is None:
        return []
    figure = _option(interaction, "figure") or "follower"
    labels = {lb.on: lb for lb in choices.labels}
    return _feature_choices(((on, labels.get(on)) for f, on in choices.deployments
                             if f == figure), current)


@spoken
async def place_spots(interaction: Interaction, current: str) -> list[Choice]:
    """For `/carc place ... figure on`: features legal once the tile lies as chosen."""
    choices = await choices_of(interaction)
    raw = _option(interaction, "square")
    if choices is None or not choices.tile or not raw:
        return []
    try:
        x, y = square(str(raw))
    except Refused:
        return []
    chosen = _option(interaction, "rotation")
    fitting = sorted(r for px, py, r in choices.placements if (px, py) == (x, y))
    if chosen is None and len(fitting) != 1:
        return []  # the features depend on the rotation: offered once it is chosen
    rotation = int(str(chosen)) if chosen is not None else fitting[0]
    figure = str(_option(interaction, "figure") or "follower")
    found = await features_if(interaction, x, y, rotation, figure)
    return _feature_choices(((lb.on, lb) for lb in found), current)


async def corner_figure(interaction: Interaction, corner: str) -> str:
    """The corner figure the user may put on `corner` of the tile just placed now; the
    first corner figure when none may (the service then says why not)."""
    choices = await choices_of(interaction)
    corners = vocab.corner_figures()
    legal = [f for f, on in choices.deployments if on == corner and f in corners] \
        if choices is not None else []
    return legal[0] if legal else corners[0]


async def only_rotation(interaction: Interaction, pos: tuple[int, int]) -> int:
    """The rotation `/carc place` uses when none was chosen: the only one that fits
    the square if there is just one, else the tile as drawn (0°)."""
    choices = await choices_of(interaction)
    fitting = sorted(r for x, y, r in choices.placements if (x, y) == pos) if (
        choices is not None) else []
    return fitting[0] if len(fitting) == 1 else 0


async def check_kind(interaction: Interaction, pos: tuple[int, int], rotation: int,
                     figure: str, on: str) -> None:
    """Refuse `on` picked as one kind ('N city') that is another with this rotation."""
    wanted = feature_kind(on)
    if wanted is None:
        return
    code = feature(on)
    found = await features_if(interaction, pos[0], pos[1], rotation, figure)
    actual = next((lb for lb in found if lb.on == code), None)
    if actual is not None and actual.kind != wanted:
        raise Refused(_("with the tile turned {rotation}°, {code} is the {actual} "
                        "({where}), not the {wanted} you picked. Nothing was changed: "
                        "choose `on` again after the rotation").format(
            rotation=rotation, code=code, actual=vocab.kind_name(actual.kind),
            where=features.where_words(code), wanted=vocab.kind_name(wanted)))


@spoken
async def holes(interaction: Interaction, current: str) -> list[Choice]:
    choices = await choices_of(interaction)
    if choices is None:
        return []
    options = [(f"{x},{y}", f"{x},{y}") for x, y in menus.holes(choices)]
    if choices.can_skip_abbey:
        options.insert(0, (_("skip (keep the abbey)"), "skip"))
    return _offer(options, current)


@spoken
async def entrances(interaction: Interaction, current: str) -> list[Choice]:
    choices = await choices_of(interaction)
    if choices is None:
        return []
    last = choices.last
    ordered = sorted({(x, y, side) for x, y, side, _pair in choices.tokens},
                     key=lambda s: menus.distance((s[0], s[1]), last))
    return _offer(((_("{square} {side}: tunnel entrance, {where}").format(
        square=f"{x},{y}", side=side, where=features.where_words(side)),
                    f"{x},{y} {side}") for x, y, side in ordered), current)


@spoken
async def wagon_targets(interaction: Interaction, current: str) -> list[Choice]:
    choices = await choices_of(interaction)
    if choices is None or choices.must != "wagon":
        return []
    options = [(_("return (take the wagon back)"), "return")]
    options.extend((f"{x},{y} {features.label(features.find(choices.labels, x, y, on), on)}",
                    f"{x},{y} {on}") for x, y, on in choices.wagon_moves)
    return _offer(options, current)
