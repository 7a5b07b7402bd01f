"""What the terminal prints: help, the seat order, whose turn it is, the moves a player
could type, the scores and the closing ranking.

Command words and feature codes are shown in the language being spoken
(`carca_bot.local.vocab`), as the player types them; tiles by what is on them
(`carca_bot.words.tiles`), never by catalogue id.
"""

from __future__ import annotations

import textwrap

from carca_bot.engine.game import Game
from carca_bot.engine.moves import Move, PlaceTile
from carca_bot.i18n import N_, Domain, current
from carca_bot.local import vocab
from carca_bot.local.commands import figure_usage
from carca_bot.service import Choices, SeatView, TurnView
from carca_bot.words import feature_label, say
from carca_bot.words.alt import ranking_words
from carca_bot.words.names import figure_name, held
from carca_bot.words.tiles import tile_name
from carca_bot.words.turns import must_words

_T = Domain("local")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

HELP_WIDTH = 92  # characters: the figures' commands are wrapped to it
# TRANSLATORS: the command words here must be the ones the catalogue gives for the
# "command" context (place -> colocar, ...), and the feature codes the ones
# carca_bot/local/vocab.py reads (N E S O, NI ND ..., NO NE SE SO, C, J); the English
# words are taken too. The capital placeholders may be translated. Keep the columns;
# {figures} is the list of the figures' own commands ("abbot ON, barn CORNER, ...").
HELP = N_("""\
Commands (ROT is 0, 90, 180 or 270 degrees clockwise):
  place X Y ROT [FIGURE ON]   place your tile, optionally with a figure on it
  draw                        draw a tile instead of placing your abbey
  follower [FIGURE] ON        a figure on the tile just placed (follower N, follower abbot C)
  {figures}
                              the same, each figure by its name (a barn goes on a corner:
                              NW NE SE SW)
  recall                      take your abbot back (it scores)
  tunnel X Y SIDE PAIR        a token of pair PAIR (1, 2, ...) on the entrance at SIDE of X Y
  abbey X Y | abbey skip      your abbey into a hole (or keep it in the last round)
  wagon X Y ON | wagon return move your wagon after its feature scored, or take it back
  confirm | undo              end the turn (it scores) | take back the last step
  moves                       every move you could type now
  board | status | score      the whole board, whose turn it is, the scores
  resign                      the player to act resigns
  export FILE                 save the game as a carca-record/1 file
  help | quit
Squares are X Y with y growing to the south; features are named by edge: N E S W,
fields by half-edge NL NR EL ER SL SR WL WR, a monastery C, a garden G.
On the board: the squares where your tile fits show their X,Y; figures show their
player's number; the last tile placed has its corners in its player's colour.""")


def help_text() -> str:
    """The commands; the figures' own (`abbot ON`, `builder ON`, ...) listed from the
    figure table, wrapped under the place the translation gives them."""
    text = _(HELP)
    line = next((ln for ln in text.splitlines() if "{figures}" in ln), "  {figures}")
    indent = line[:line.index("{figures}")]
    usages = ", ".join(figure_usage(f) for f in vocab.FIGURES if f != "follower")
    wrapped = textwrap.wrap(usages, width=HELP_WIDTH - len(indent), break_on_hyphens=False)
    return text.replace("{figures}", ("\n" + indent).join(wrapped))


def code(engine_code: str) -> str:
    return vocab.code(engine_code, current())


def figures_text(game: Game) -> list[str]:
    """Each figure on the board, by its player and number: 'Ana (1): follower on E at
    1,0'."""
    names = game.players
    return ["  " + _("{name} ({number}): {figure} on {on} at {square}").format(
        name=names[f.player], number=f.player + 1, figure=figure_name(f.kind),
        on=code(f.on), square=f"{f.pos[0]},{f.pos[1]}") for f in game.figures]


def seat_name(seat: SeatView, number: int) -> str:
    """'2 Ben' or '3 AI (easy)': a seat as the board numbers its figures."""
    return f"{number} {seat.name}"


def seat_order_text(view: TurnView) -> str:
    """The turn order, which the game drew at random, with the numbers the board shows
    on each player's figures."""
    order = ", ".join(seat_name(s, i + 1) for i, s in enumerate(view.seats))
    return _("Seat order (drawn at random; the numbers are on each player's figures): "
             "{order}").format(order=order)


def scores_text(view: TurnView) -> str:
    parts = []
    for seat in view.standings:
        line = _("{name}: {score} (resigned)") if seat.resigned else _("{name}: {score}")
        line = line.format(name=seat.name, score=seat.score)
        hand = ", ".join(held(k, v) for k, v in seat.in_hand.items())
        if hand:
            line += "  " + _("[in hand: {hand}]").format(hand=hand)
        parts.append("  " + line)
    return "\n".join(parts)


def step_words(step: Move) -> str:
    """A step of the turn so far; a tile by what is on it."""
    if isinstance(step, PlaceTile):
        return _("{tile} at {square} turned {degrees}").format(
            tile=tile_name(step.tile), square=f"{step.pos[0]},{step.pos[1]}",
            degrees=step.rot * 90)
    return say(step)


def turn_words(view: TurnView) -> str:
    """Whose turn it is and what they must do: 'Ana's turn: place your tile'."""
    seat = view.deciding
    if view.finished or seat is None:
        return _("the game is over")
    if view.must == "place" and view.tile is not None and view.yours:
        return _("{name}'s turn: place your tile").format(name=seat.name)
    if seat.ai is not None:
        return _("{name}'s turn (the AI plays it)").format(name=seat.name)
    return _("{name}'s turn: {doing}").format(name=seat.name,
                                              doing=must_words(view.must, view.yours))


def status_text(view: TurnView) -> str:
    """The status line: the game, how far it is, and whose turn it is."""
    moves = ngettext("{n} move", "{n} moves", view.moves).format(n=view.moves)
    left = ngettext("{n} tile left", "{n} tiles left", view.tiles_left).format(
        n=view.tiles_left)
    head = _("game {game} · {moves} · {left}").format(game=view.game_id, moves=moves,
                                                      left=left)
    steps = ("\n  " + _("this turn so far: {steps}").format(
        steps="; ".join(step_words(s) for s in view.steps))
             if view.steps else "")
    return f"{head} · {turn_words(view)}{steps}"


def closing_text(view: TurnView) -> str:
    """The end: who won (ties named) and the ranking."""
    seats = view.seats
    ranking = ranking_words([s.name for s in seats], [s.score for s in seats],
                            [s.resigned for s in seats])
    head = (_("Game over by resignation.") if view.outcome == "resigned"
            else _("Game over."))
    return f"{head} {ranking}"


def choices_text(choices: Choices) -> str:
    """The legal options, as commands the player could type."""
    c, arg = vocab.command, vocab.argument
    lines = []
    if choices.can_draw:
        lines.append(c("draw"))
    lines += [f"{c('place')} {x} {y} {r}" for x, y, r in choices.placements]
    lines += [f"{c('abbey')} {x} {y}" for x, y in choices.abbey_squares]
    where = {label.on: feature_label(label.kind, label.where) for label in choices.labels}
    lines += [f"{c('deploy')} {vocab.figure(f)} {code(on)}"
              + (f" ({where[on]})" if on in where else "") for f, on in choices.deployments]
    if choices.can_recall:
        lines.append(c("recall"))
    lines += [f"{c('tunnel')} {x} {y} {code(side)} {pair + 1}"
              for x, y, side, pair in choices.tokens]
    lines += [f"{c('wagon')} {x} {y} {code(on)}" for x, y, on in choices.wagon_moves]
    if choices.wagon_moves or choices.must == "wagon":
        lines.append(f"{c('wagon')} {arg('return')}")
    if choices.can_skip_abbey:
        lines.append(f"{c('abbey')} {arg('skip')}")
    if choices.can_confirm:
        lines.append(c("confirm"))
    options = " | ".join(lines) or _("nothing to do")
    if choices.tile:
        return _("{tile}: {options}").format(tile=tile_name(choices.tile), options=options)
    return options
