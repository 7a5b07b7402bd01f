"""Tiles by what is on them, in the language being spoken: "city side, straight road"
rather than the catalogue's ids (`D`, `AM8`, `RV-curve-g`), which mean nothing to a player.

The words are worked out from the catalogue's own description of each tile (its cities,
roads, river, buildings, garden), so every tile has a name, those of an expansion added
later included; a feature this module does not know yet is simply not named.
"""

from __future__ import annotations

from collections import Counter

from carca_bot.engine.catalogue import Kind, Segment, catalogue
from carca_bot.i18n import Domain

_T = Domain("words")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

ABBEY = "ABBEY"
GOODS = ("wine", "grain", "cloth")


def _opposite(sides: tuple[int, ...]) -> bool:
    return len(sides) == 2 and (sides[1] - sides[0]) % 4 == 2


def _city_shape(seg: Segment) -> str:
    n = len(seg.sides)
    if n == 1:
        return _("city side")
    if n == 2:
        return _("city across the tile") if _opposite(seg.sides) else _("city corner")
    if n == 3:
        return _("city on three sides")
    return _("city on all four sides")


def _city(seg: Segment) -> str:
    """One city of the tile, with what it carries."""
    words = _city_shape(seg)
    extras: list[str] = []
    if seg.pennants:
        extras.append(ngettext("a pennant", "{n} pennants", seg.pennants).format(
            n=seg.pennants))
    if getattr(seg, "cathedral", False):
        extras.append(_("a cathedral"))
    goods = getattr(seg, "goods", "")
    if goods in GOODS:
        extras.append({"wine": pgettext("goods", "wine"), "grain": pgettext("goods", "grain"),
                       "cloth": pgettext("goods", "cloth")}[goods])
    for extra in extras:
        words = _("{feature} with {extra}").format(feature=words, extra=extra)
    return words


def _cities(segments: list[Segment]) -> list[str]:
    cities = [s for s in segments if s.kind is Kind.CITY]
    sides = [s for s in cities if len(s.sides) == 1 and not s.pennants
             and not getattr(s, "goods", "") and not getattr(s, "cathedral", False)]
    if len(sides) == 2 and len(cities) == 2:  # the base game's two kinds of twin caps
        joined = tuple(sorted(s.sides[0] for s in sides))
        return [_("two city sides facing each other") if _opposite(joined)
                else _("two city sides at a corner")]
    named = Counter(_city(s) for s in cities)
    out = []
    for words, count in named.items():
        out.append(words if count == 1 else _("{count} × {feature}").format(
            count=count, feature=words))
    return out


def _road(seg: Segment) -> str:
    n = len(seg.sides)
    if n >= 3:
        words = _("road fork")
    elif _opposite(seg.sides):
        words = _("straight road")
    else:
        words = _("road curve")
    return words


def _roads(segments: list[Segment]) -> list[str]:
    roads = [s for s in segments if s.kind is Kind.ROAD]
    ends = [s for s in roads if len(s.sides) == 1]
    out: list[str] = []
    if len(ends) >= 3:
        out.append(_("crossroads of {n} roads").format(n=len(ends)))
    elif ends:
        out.append(ngettext("road end", "{n} road ends", len(ends)).format(n=len(ends)))
    out.extend(_road(s) for s in roads if len(s.sides) >= 2)
    if any(getattr(s, "inn", False) for s in roads):
        out.append(_("inn"))
    if any(s.tunnel for s in roads):
        out.append(_("tunnel"))
    return out


def _river(sides: tuple[int, ...], last: bool) -> list[str]:
    if not sides:
        return []
    if len(sides) == 1:
        return [_("lake") if last else _("river spring")]
    return [_("straight river") if _opposite(sides) else _("river curve")]


def tile_name(tile: str, tunnel: bool = False) -> str:
    """What is on `tile` in a few words, lower case ("monastery, road end"); an id the
    catalogue does not know is returned as it is."""
    if tile == ABBEY:
        return _("abbey")
    tiles = catalogue(tunnel).tiles
    if tile not in tiles:
        return tile
    kind = tiles[tile]
    shape = kind.shapes[0]
    segments = list(shape.segments)
    parts: list[str] = []
    buildings = [s.building for s in segments if s.kind is Kind.BUILDING]
    parts += [_("shrine") if b == "shrine" else _("monastery") for b in buildings]
    parts += _cities(segments)
    parts += _roads(segments)
    parts += _river(shape.river, kind.river_last)
    if shape.garden is not None:
        parts.append(_("garden"))
    return ", ".join(parts) if parts else _("field")
