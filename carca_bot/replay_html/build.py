"""The HTML replay's data (public states per move, in words of one language) and the
page around it (`template.html`, package data)."""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from carca_bot.engine.events import Event
from carca_bot.engine.game import Game
from carca_bot.engine.rules import FIGURE_BY_NAME, PIECES
from carca_bot.i18n import N_, Domain, speaking
from carca_bot.render.figure_art import FIGURE_KINDS
from carca_bot.render.palette import player
from carca_bot.render.record_words import a_figure, held
from carca_bot.render.sprite import Sheet, figure_sheet, tile_sheet
from carca_bot.service.history import (
    CATEGORY_OF,
    History,
    HistoryStep,
    PublicState,
    public_history,
)

_T = Domain("replay_html")
_ = _T.gettext

PIECE_NAMES = frozenset(p.name for p in PIECES)
TILE_PX = 64  # the page's tile size; the browser scales the board to the window
FIGURE_PX = 48
FORMAT = "carca-replay/1"

CATEGORY_WORDS: Mapping[str, str] = {
    "cities": N_("city"), "roads": N_("road"), "monasteries": N_("monastery or shrine"),
    "fields": N_("field"), "barns": N_("barn"), "gardens": N_("garden"),
    "titles": N_("title"), "goods": N_("goods"), "other": N_("other"),
}
BUILDINGS: Mapping[str, str] = {
    "monastery": N_("monastery"), "shrine": N_("shrine"), "abbey": N_("abbey"),
}


def _square(pos: Sequence[int]) -> str:
    return f"{pos[0]},{pos[1]}"


def _name(names: Sequence[str], seat: int | None) -> str:
    return "?" if seat is None or not 0 <= seat < len(names) else names[seat]


def action_lines(step: HistoryStep, names: Sequence[str]) -> list[str]:
    """What the action did, in whole sentences of the language being spoken."""
    a = step.action
    who = _name(names, step.player)
    lines: list[str] = []
    if "end" in a:
        return [_("The pile is empty: final scoring.")]
    if "discard" in a:
        lines.append(_("{player} discarded tile {tile}: it fit nowhere.").format(
            player=who, tile=a["discard"]))
    elif "wagon" in a:
        if a["wagon"] == "return":
            lines.append(_("{player} took a wagon back.").format(player=who))
        else:
            lines.append(_("{player} moved a wagon to {square}.").format(
                player=who, square=_square(a["wagon"]["at"])))
    elif a.get("abbey") == "skip":
        lines.append(_("{player} passed in the abbey round.").format(player=who))
    elif "abbey" in a:
        lines.append(_("{player} placed an abbey at {square}.").format(
            player=who, square=_square(a["abbey"])))
    else:
        lines.append(_("{player} placed tile {tile} at {square}.").format(
            player=who, tile=a["tile"], square=_square(a["at"])))
    deploy = a.get("deploy")
    if isinstance(deploy, Mapping):
        lines.append(_placed(str(deploy.get("figure"))))
    if a.get("recall"):
        lines.append(_("Took the abbot back."))
    if "token" in a:
        lines.append(_("Placed a tunnel token."))
    return lines


def _placed(figure: str) -> str:
    """'Put a large follower on it.': one sentence for every figure, named by its record
    (a corner figure, the barn, on the tile's corner)."""
    found = FIGURE_BY_NAME.get(figure)
    if found is not None and found.corner:
        # TRANSLATORS: {figure} is a figure with its article ("a barn").
        return _("Put {figure} on its corner.").format(figure=a_figure(figure))
    # TRANSLATORS: {figure} is a figure with its article ("a large follower").
    return _("Put {figure} on it.").format(figure=a_figure(figure))


def event_lines(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The scores and titles of an action; moves already told are left out."""
    lines: list[str] = []
    for ev in events:
        who = ", ".join(_name(names, p) for p in ev.players)
        if ev.kind == "score" and ev.players and ev.points:
            category = _(CATEGORY_WORDS[CATEGORY_OF.get(ev.feature, "other")])
            lines.append(_T.ngettext("{players}: +{points} point ({category})",
                                     "{players}: +{points} points ({category})",
                                     ev.points).format(players=who, points=ev.points,
                                                       category=category))
        elif ev.kind == "king":
            lines.append(_("{player} is now the King.").format(player=who))
        elif ev.kind == "robber":
            lines.append(_("{player} is now the Robber.").format(player=who))
        elif ev.kind == "challenge":
            lines.append(_("{players} lost a challenge: their figures on the {building} "
                           "go home.").format(players=who, building=_(BUILDINGS.get(
                               ev.feature, BUILDINGS["monastery"]))))
        elif ev.kind == "wagon_returned" and ev.reason == "wagon_stuck":
            lines.append(_("{player}'s wagon had nowhere to go and went back.").format(
                player=who))
        else:
            lines.extend(_pieces_and_parts(ev, who))
    return lines


def _pieces_and_parts(ev: Event, who: str) -> list[str]:
    """Goods taken (the pieces an event's params count, named by their records) and a
    builder's second part of the turn."""
    if ev.kind == "goods" and ev.players:
        taken = [held(piece, n) for piece, n in ev.params.items()
                 if piece in PIECE_NAMES and isinstance(n, int) and n > 0]
        if taken:
            return [_("{player} took {goods}.").format(player=who, goods=", ".join(taken))]
    if ev.kind == "builder" and ev.players:
        return [_("{player} plays a second part of the turn: their builder's road or city "
                  "grew.").format(player=who)]
    return []


def _state(state: PublicState, tiles: Sheet) -> dict[str, Any]:
    return {
        "scores": list(state.scores),
        "figures": [[f"{f.kind}-{f.player}", f.pos[0], f.pos[1], round(f.at[0], 3),
                     round(f.at[1], 3)] for f in state.figures],
        "tokens": [[f"token-{t.player}-{t.pair}", t.pos[0], t.pos[1], round(t.at[0], 3),
                    round(t.at[1], 3)] for t in state.tokens],
        "king": state.king,
        "robber": state.robber,
        "left": state.tiles_left,
        "last": None if state.last_placed is None else [*state.last_placed[0],
                                                         state.last_placed[1]],
        "finished": state.finished,
    }


def _new_tiles(before: PublicState, after: PublicState, tiles: Sheet) -> list[list[Any]]:
    had = {pos for pos, _t, _r in before.tiles}
    return [[pos[0], pos[1], tile, rot] for pos, tile, rot in after.tiles if pos not in had]


def _uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def replay_data(history: History, tunnel: bool, pairs: int) -> dict[str, Any]:
    """Everything the page shows, as JSON values, words in the language being spoken."""
    names = list(history.players)
    all_tiles = [t for _p, t, _r in history.final.tiles]
    tiles = tile_sheet(all_tiles, TILE_PX, tunnel)
    figures = figure_sheet(FIGURE_KINDS, len(names), pairs, FIGURE_PX)
    xs = [p[0] for p, _t, _r in history.final.tiles]
    ys = [p[1] for p, _t, _r in history.final.tiles]
    steps: list[dict[str, Any]] = []
    before = history.start
    for step in history.steps:
        steps.append({"n": step.number, "player": step.player,
                      "text": action_lines(step, names),
                      "scored": event_lines(step.events, names),
                      "gained": list(step.gained),
                      "tiles": _new_tiles(before, step.state, tiles),
                      **_state(step.state, tiles)})
        before = step.state
    start = {"tiles": [[p[0], p[1], t, r] for p, t, r in history.start.tiles],
             **_state(history.start, tiles)}
    return {
        "format": FORMAT,
        "players": [{"name": n, "colour": _hex(player(i).fill), "edge": _hex(player(i).outline)}
                    for i, n in enumerate(names)],
        "expansions": list(history.expansions),
        "bounds": [min(xs), min(ys), max(xs), max(ys)],
        "finished": history.finished,
        "sprites": {
            "tiles": {"uri": _uri(tiles.png), "size": tiles.size, "columns": tiles.columns,
                      "index": tiles.index},
            "figures": {"uri": _uri(figures.png), "size": figures.size,
                        "columns": figures.columns, "index": figures.index},
        },
        "start": start,
        "steps": steps,
        "words": _ui_words(len(history.steps)),
    }


def _ui_words(total: int) -> dict[str, str]:
    return {
        "title": _("Carcassonne replay"),
        "start": _("Start"),
        "final": _("Final scores"),
        # TRANSLATORS: {n} and {total} are filled in by the page's script.
        "move": _("Move {n} of {total}"),
        "first": _("First move"),
        "back": _("Step back"),
        "play": _("Play"),
        "pause": _("Pause"),
        "forward": _("Step forward"),
        "last": _("Last move"),
        "moves": _("Moves"),
        "scores": _("Scores"),
        "left": _("Tiles left: {n}"),
        "king": _("King"),
        "robber": _("Robber"),
        "keys": _("Keys: ← → step, space plays, Home and End jump."),
        "setup": _("Start of the game"),
        "nothing": _("No points this move."),
    }


@cache
def _template() -> str:
    return resources.files("carca_bot.replay_html").joinpath("template.html").read_text(
        encoding="utf-8")


def _script_json(data: Mapping[str, Any]) -> str:
    """JSON safe inside a <script> element: no '<' can end it (player names are user text)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


_PLACEHOLDER = re.compile(r"\{\{(LANG|TITLE|DATA)\}\}")


def fill(template: str, values: Mapping[str, str]) -> str:
    """The template with each `{{NAME}}` replaced by its value, in one pass over the
    template alone: a value is never searched again, so a player named `{{DATA}}` stays
    that text instead of pulling the whole replay into the title."""
    return _PLACEHOLDER.sub(lambda found: values[found.group(1)], template)


def page(data: Mapping[str, Any], language: str) -> str:
    title = str(data["words"]["title"])
    names = ", ".join(p["name"] for p in data["players"])
    return fill(_template(), {"LANG": html.escape(language),
                              "TITLE": html.escape(f"{title}: {names}"[:300]),
                              "DATA": _script_json(data)})


def build_replay_html(game: Game, language: str = "en") -> bytes:
    """The page as UTF-8 bytes (a few hundred KB): `game`'s committed actions, replayed
    without the seed. CPU work: call it from a worker thread."""
    with speaking(language) as spoken:
        history = public_history(game)
        data = replay_data(history, game.setup.has("tunnel"), game.setup.pairs)
        return page(data, spoken).encode("utf-8")
