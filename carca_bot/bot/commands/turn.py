"""A turn, step by step or all at once: the tile, placing it, a figure, a tunnel token,
the abbot's recall, the abbey, the wagon after scoring; confirm and undo. Each verb's
slash command, button and menu twins run the same handler; the buttons and menus of a
player's private turn message replace that message as the turn goes on."""

from __future__ import annotations

import discord
from discord import app_commands

from carca_bot.bot.commands import suggest
from carca_bot.bot.commands.tree import carc
from carca_bot.bot.components.ids import GameItem
from carca_bot.bot.components.menus import hole_options
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import Reply
from carca_bot.bot.core.run import run
from carca_bot.bot.core.shows import after, private_step, public_move, tile_reply
from carca_bot.bot.core.verbs import button, menu
from carca_bot.bot.seam import Interaction
from carca_bot.bot.words import names as vocab
from carca_bot.bot.words import parse
from carca_bot.bot.words.refused import Refused
from carca_bot.i18n import N_, Domain

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext

Choice = app_commands.Choice
Text30 = app_commands.Range[str, 1, 30]  # Discord enforces these lengths before we see it
ROTATIONS = [Choice(name=f"{d}°", value=d) for d in (0, 90, 180, 270)]
# Choice names are English here and translated by `translator.CommandTranslator`; the
# figures are the figure table's, named by their records' titles (a new expansion's
# figure appears, named in every language, with its record).
FIGURES = [Choice(name=vocab.english_figure(f), value=f) for f in vocab.on_tile_figures()]
CORNERS = [Choice(name="NW: north-west corner", value="NW"),
           Choice(name="NE: north-east corner", value="NE"),
           Choice(name="SE: south-east corner", value="SE"),
           Choice(name="SW: south-west corner", value="SW")]


# -- the start of a turn ----------------------------------------------------------------


@carc.command(name="tile", description="See the tile you drew and where it fits")
async def tile_command(interaction: Interaction) -> None:
    await run(interaction, "tile", tile)


@button("tile", N_("My tile"), discord.ButtonStyle.primary)
async def tile(act: Act) -> Reply:
    return await tile_reply(act, await act.service.begin_turn(await act.place(), act.user))


@carc.command(name="draw", description="Draw a tile (instead of placing your abbey)")
async def draw_command(interaction: Interaction) -> None:
    await run(interaction, "draw", draw)


@button("draw", N_("Draw a tile"), discord.ButtonStyle.primary)
async def draw(act: Act) -> Reply:
    view = await act.service.draw(await act.place(), act.user, act.expect)
    return await tile_reply(act, view)


@carc.command(name="place", description="Place your tile: square, rotation, and optionally "
                                        "a figure")
@app_commands.describe(square="Where: x,y (the board's labels)",
                       rotation="Clockwise turn of the tile as drawn",
                       figure="A figure to place on the tile", on="Where the figure goes",
                       confirm="Finish the turn at once")
@app_commands.choices(rotation=ROTATIONS)
@app_commands.choices(figure=FIGURES)
@app_commands.autocomplete(square=suggest.squares, on=suggest.place_spots)
async def place_command(interaction: Interaction, square: Text30, rotation: int | None = None,
                        figure: str | None = None, on: Text30 | None = None,
                        confirm: bool = False) -> None:
    await run(interaction, "place",
              lambda act: place(act, square, rotation, figure, on, confirm))


async def place(act: Act, square: str, rotation: int | None, figure: str | None,
                on: str | None, confirm: bool) -> Reply:
    """The tile, the figure and the confirmation in one step: all or nothing."""
    x, y = parse.square(square)
    if figure is None and on is not None:
        raise Refused(_("say which figure goes there (the figure option)"))
    if figure is not None and on is None:
        raise Refused(_("say where the figure goes (the on option)"))
    rot = rotation if rotation is not None else await suggest.only_rotation(
        act.interaction, (x, y))
    if on is not None and figure is not None:
        await suggest.check_kind(act.interaction, (x, y), rot, figure, on)
    view = await act.service.place(act.here, act.user, x, y, rot, figure,
                                   parse.feature(on) if on else None, confirm)
    if confirm:
        return await public_move(act.bot, view, act.user.name)
    return await after(act, view)


@button("rotate", N_("Rotate ↻"), discord.ButtonStyle.primary, in_place=True)
async def rotate(act: Act) -> Reply:
    """Turn the unconfirmed tile to its next legal rotation (a button only)."""
    view = await act.service.rotate(await act.place(), act.user, act.expect)
    return await private_step(act, view)


# -- a figure, a token ----------------------------------------------------------------------


@carc.command(name="follower", description="Put a follower or another figure on the tile you "
                                           "just placed")
@app_commands.describe(figure="Which figure", on="Which feature of the tile")
@app_commands.choices(figure=FIGURES)
@app_commands.autocomplete(on=suggest.figure_spots)
async def follower_command(interaction: Interaction, on: Text30,
                           figure: str = "follower") -> None:
    await run(interaction, "follower", lambda act: put(act, figure, parse.feature(on)))


async def put(act: Act, figure: str, on: str) -> Reply:
    """A figure on a feature of the tile just placed (or a barn on a corner)."""
    view = await act.service.deploy(await act.place(), act.user, figure, on, act.expect)
    return await private_step(act, view)


@menu("pick", N_("Place a figure…"), in_place=True)
async def pick(act: Act) -> Reply:
    """The private turn message's figure menu: 'follower:N', or 'recall:'."""
    assert act.click is not None
    figure, _colon, on = act.click.value.partition(":")
    if figure == "recall":
        return await recall(act)
    return await put(act, figure, on)


@carc.command(name="barn", description="Put your barn on a corner of the tile you just placed")
@app_commands.describe(corner="Which corner of the tile")
@app_commands.choices(corner=CORNERS)
async def barn_command(interaction: Interaction, corner: str) -> None:
    await run(interaction, "barn", lambda act: on_corner(act, corner))


async def on_corner(act: Act, corner: str) -> Reply:
    """A corner figure (the figure table's `corner` flag: the barn) on a corner of the
    tile just placed: the one the player may put there, else the first (refused then in
    the engine's words)."""
    return await put(act, await suggest.corner_figure(act.interaction, corner), corner)


@carc.command(name="recall", description="Take your abbot back and score it now")
async def recall_command(interaction: Interaction) -> None:
    await run(interaction, "recall", recall)


async def recall(act: Act) -> Reply:
    view = await act.service.recall(await act.place(), act.user, act.expect)
    return await private_step(act, view)


@carc.command(name="tunnel", description="Put a tunnel token on a free entrance")
@app_commands.describe(entrance="x,y and side of the entrance, e.g. '2,0 W'",
                       pair="Your token pair (1 to 3)")
@app_commands.autocomplete(entrance=suggest.entrances)
async def tunnel_command(interaction: Interaction, entrance: Text30,
                         pair: app_commands.Range[int, 1, 3] = 1) -> None:
    await run(interaction, "tunnel", lambda act: tunnel(act, entrance, pair))


async def tunnel(act: Act, entrance: str, pair: int) -> Reply:
    x, y, side = parse.square_and_name(entrance)
    view = await act.service.place_token(act.here, act.user, x, y, side.upper(), pair - 1)
    return await private_step(act, view)


# -- the abbey ------------------------------------------------------------------------------


@carc.command(name="abbey", description="Place your abbey in a hole (or skip it at the end)")
@app_commands.describe(square="x,y of a hole, or 'skip' in the final abbey round")
@app_commands.autocomplete(square=suggest.holes)
async def abbey_command(interaction: Interaction, square: Text30) -> None:
    await run(interaction, "abbey", lambda act: abbey(act, square))


async def abbey(act: Act, square: str) -> Reply:
    """The abbey in a hole, or 'skip' (kept) in the final abbey round."""
    place = await act.place()
    if parse.is_skip(square):
        view = await act.service.skip_abbey(place, act.user, act.expect)
        return await public_move(act.bot, view, act.user.name)
    x, y = parse.square(square)
    view = await act.service.place_abbey(place, act.user, x, y, act.expect)
    return await private_step(act, view)


@button("skip", N_("Skip my abbey"), in_place=True)
async def skip(act: Act) -> Reply:
    return await abbey(act, "skip")


@menu("hole", N_("Place your abbey in…"), in_place=True)
async def hole(act: Act) -> Reply:
    assert act.click is not None
    return await abbey(act, act.click.value)


@button("abbey", N_("Place my abbey"))
async def abbey_menu(act: Act) -> Reply:
    """'Place my abbey': a menu of the holes, nearest the last tile first."""
    place = await act.place()
    choices = await act.service.legal_moves(place, act.user)
    view = await act.service.status(place, act.user.id)
    if choices.must not in ("choose", "abbey_round"):
        raise Refused(_("the abbey goes in a hole at the start of a turn, instead of "
                        "drawing a tile"))
    options = hole_options(choices)
    if not options:
        raise Refused(_("there is no hole for your abbey on the board just now (a hole "
                        "is an empty square with tiles on all four sides)"))
    ui = discord.ui.View(timeout=None)
    ui.add_item(GameItem.menu("hole", view.game_id, view.version, options))
    more = len(choices.abbey_squares) - len(options)
    if more > 0:
        said = ngettext("Choose a hole for your abbey ({n} more: use `/carc abbey`).",
                        "Choose a hole for your abbey ({n} more: use `/carc abbey`).",
                        more).format(n=more)
    else:
        said = _("Choose a hole for your abbey.")
    return Reply(said, components=ui)


# -- the wagon ------------------------------------------------------------------------------


@carc.command(name="wagon", description="Move your wagon after its feature was scored")
@app_commands.describe(target="x,y and feature, e.g. '1,-1 C', or 'return'")
@app_commands.autocomplete(target=suggest.wagon_targets)
async def wagon_command(interaction: Interaction, target: Text30) -> None:
    await run(interaction, "wagon", lambda act: wagon(act, target))


async def wagon(act: Act, target: str) -> Reply:
    """The wagon to a feature ('1,-1 C'), or back to its owner ('return')."""
    place = await act.place()
    if parse.is_return(target):
        view = await act.service.return_wagon(place, act.user, act.expect)
    else:
        x, y, on = parse.square_and_name(target)
        view = await act.service.move_wagon(place, act.user, x, y, parse.feature(on),
                                            act.expect)
    return await public_move(act.bot, view, act.user.name)


@button("return", N_("Return wagon"), in_place=True)
async def back(act: Act) -> Reply:
    return await wagon(act, "return")


@menu("wagon", N_("Move the wagon…"))
async def wagon_menu(act: Act) -> Reply:
    assert act.click is not None
    return await wagon(act, act.click.value)


# -- the end of a turn ----------------------------------------------------------------------


@carc.command(name="confirm", description="Finish your turn")
async def confirm_command(interaction: Interaction) -> None:
    await run(interaction, "confirm", confirm)


@button("confirm", N_("Confirm"), discord.ButtonStyle.success, in_place=True)
async def confirm(act: Act) -> Reply:
    view = await act.service.confirm(await act.place(), act.user, act.expect)
    return await public_move(act.bot, view, act.user.name)


@carc.command(name="undo", description="Take back the unconfirmed steps of your turn")
async def undo_command(interaction: Interaction) -> None:
    await run(interaction, "undo", undo)


@button("undo", N_("Undo"), in_place=True)
async def undo(act: Act) -> Reply:
    view = await act.service.undo(await act.place(), act.user, act.expect)
    return await private_step(act, view)
