"""What the terminal prints: help, the board as text, scores.

Command words (`place`, `draw`, `confirm`, ...) and feature codes (N, SL, C) stay as
they are typed in every language; the sentences around them are translated.
"""

from __future__ import annotations

from carca_bot.engine.board import ABBEY
from carca_bot.engine.game import Game
from carca_bot.i18n import N_, Domain
from carca_bot.service import Choices, TurnView
from carca_bot.words import say, situation
from carca_bot.words.english import figure_name

_T = Domain("local")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

# TRANSLATORS: keep the command words (place, draw, follower, ...), the capital
# placeholders (X Y ROT FIGURE ON ...) and the feature codes (N E S W, NL ..., C, G)
# exactly as they are: players type them. Keep the columns aligned.
HELP = N_("""\
Commands (the same words the Discord bot uses; ROT is 0, 90, 180 or 270):
  place X Y ROT [FIGURE ON]   place your tile, optionally with a figure on it
  draw                        draw a tile instead of placing your abbey
  follower [FIGURE] ON        a figure on the tile just placed (follower N, follower abbot C)
  abbot ON | mayor ON         the same, for the abbot or the mayor
  wagon ON                    put your wagon on the tile just placed
  barn CORNER                 your barn on a corner of the tile: NW NE SE SW
  recall                      take your abbot back (it scores)
  tunnel X Y SIDE PAIR        a token of pair PAIR (1, 2, ...) on the entrance at SIDE of X Y
  abbey X Y | abbey skip      your abbey into a hole (or keep it in the last round)
  wagon X Y ON | wagon return move your wagon after its feature scored, or take it back
  confirm | undo              end the turn (it scores) | take back the last step
  moves                       where your tile fits
  board | status | score      the board, whose turn, the scores
  resign                      the player to act resigns
  export FILE                 save the game as a carca-record/1 file
  help | quit
Squares are X Y with y growing to the south; features are named by edge: N E S W,
fields by half-edge NL NR EL ER SL SR WL WR, a monastery C, a garden G.""")

ARROWS = "^>v<"


def help_text() -> str:
    return _(HELP)


def thing_name(kind: str) -> str:
    """A figure or piece held in hand, in words ('follower', 'abbey', 'tokens')."""
    if kind == "abbey":
        return pgettext("in hand", "abbey")
    if kind == "tokens":
        return pgettext("in hand", "tokens")
    return figure_name(kind)


def board_text(game: Game) -> str:
    """The tiles as a grid of ids with an arrow for where their north edge points."""
    tiles = game.board.tiles
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    width = max(len(t.tile) for t in tiles.values()) + 2
    header = "     " + "".join(f"{x:>{width}}" for x in range(min(xs), max(xs) + 1))
    lines = [header]
    for y in range(min(ys), max(ys) + 1):
        cells = []
        for x in range(min(xs), max(xs) + 1):
            placed = tiles.get((x, y))
            if placed is None:
                cells.append(f"{'.':>{width}}")
            elif placed.tile == ABBEY:
                cells.append(f"{'AB':>{width}}")
            else:
                cells.append(f"{placed.tile + ARROWS[placed.rot]:>{width}}")
        lines.append(f"{y:>5}" + "".join(cells))
    names = game.players
    for figure in game.figures:
        lines.append("  " + _("{name}: {figure} on {on} at {square}").format(
            name=names[figure.player], figure=figure_name(figure.kind), on=figure.on,
            square=f"{figure.pos[0]},{figure.pos[1]}"))
    return "\n".join(lines)


def scores_text(view: TurnView) -> str:
    parts = []
    for seat in view.standings:
        line = _("{name}: {score} (resigned)") if seat.resigned else _("{name}: {score}")
        line = line.format(name=seat.name, score=seat.score)
        hand = ", ".join(_("{thing} {count}").format(thing=thing_name(k), count=v)
                         for k, v in seat.in_hand.items())
        if hand:
            line += "  " + _("[in hand: {hand}]").format(hand=hand)
        parts.append("  " + line)
    return "\n".join(parts)


def status_text(view: TurnView) -> str:
    moves = ngettext("{n} move", "{n} moves", view.moves).format(n=view.moves)
    left = ngettext("{n} tile left", "{n} tiles left", view.tiles_left).format(
        n=view.tiles_left)
    head = _("game {game}, {moves}, {left}").format(game=view.game_id, moves=moves, left=left)
    steps = ("\n  " + _("this turn so far: {steps}").format(
        steps="; ".join(say(s) for s in view.steps))
             if view.steps else "")
    return f"{head}: {situation(view)}{steps}"


def choices_text(choices: Choices) -> str:
    """The legal options, as commands the player could type."""
    lines = []
    if choices.can_draw:
        lines.append("draw")
    lines += [f"place {x} {y} {r}" for x, y, r in choices.placements]
    lines += [f"abbey {x} {y}" for x, y in choices.abbey_squares]
    lines += [f"deploy {figure} {on}" for figure, on in choices.deployments]
    if choices.can_recall:
        lines.append("recall")
    lines += [f"tunnel {x} {y} {side} {pair + 1}" for x, y, side, pair in choices.tokens]
    lines += [f"wagon {x} {y} {on}" for x, y, on in choices.wagon_moves]
    if choices.wagon_moves or choices.must == "wagon":
        lines.append("wagon return")
    if choices.can_skip_abbey:
        lines.append("abbey skip")
    if choices.can_confirm:
        lines.append("confirm")
    options = " | ".join(lines) or _("nothing to do")
    if choices.tile:
        return _("tile {tile}: {options}").format(tile=choices.tile, options=options)
    return options
