"""Which buttons and menus a message carries, for the game's state: the lobby's, a
turn's steps, the card's, pagers and the history browser. Their labels and what a click
does are their verbs' (`core.verbs`, registered in `components.ids`)."""

from __future__ import annotations

import discord

from carca_bot.bot.components.ids import GameItem, VoteItem, label_of
from carca_bot.bot.components.menus import figure_options, wagon_options
from carca_bot.i18n import Domain
from carca_bot.service import Choices, TurnView

_T = Domain("bot")
_ = _T.gettext


def _row(game_id: int, version: int, *actions: str) -> discord.ui.View:
    ui = discord.ui.View(timeout=None)
    for action in actions:
        ui.add_item(GameItem.button(action, game_id, version))
    return ui


def row_for(view: TurnView, choices: Choices | None, *, private: bool
            ) -> discord.ui.View | None:
    """The components that fit the game's state, for a public post or a private preview."""
    if view.finished:
        return None
    game_id, version = view.game_id, view.version
    if view.status == "lobby":
        return _row(game_id, version, "join", "start")
    if view.must == "finish" and private:
        ui = _row(game_id, version, "rotate", "confirm", "undo")
        options = figure_options(choices) if choices is not None else []
        if options:
            ui.add_item(GameItem.menu("pick", game_id, version, options))
        return ui
    if view.must == "wagon" and choices is not None:
        ui = discord.ui.View(timeout=None)
        ui.add_item(GameItem.menu("wagon", game_id, version, wagon_options(choices)))
        return ui
    return _row(game_id, version, *starts(view), "board")


def starts(view: TurnView) -> tuple[str, ...]:
    """The buttons that start what the player to act must do: no Draw with no tile left
    (a builder's second part: the abbey only)."""
    if view.must == "choose":
        return ("draw", "abbey") if view.tiles_left else ("abbey",)
    return {"place": ("tile",), "abbey_round": ("skip",)}.get(view.must, ())


def card_actions(view: TurnView) -> list[tuple[str, str]]:
    """The game card's buttons as (action, label): what the player to act may start from
    the channel, then the full board and the status (with each player's pace)."""
    def labelled(action: str) -> tuple[str, str]:
        return action, label_of(action)

    if view.finished:
        return [labelled("hist"), ("board", _("Full board"))]
    return [*map(labelled, starts(view)), ("board", _("Full board")), labelled("status")]


def resign_row(view: TurnView) -> discord.ui.View:
    return _row(view.game_id, view.version, "resign", "keep")


def page_row(game_id: int, page: int, pages: int) -> discord.ui.View | None:
    """◀ ▶ for `/carc score`; the number of the id carries the page to show."""
    if pages <= 1:
        return None
    ui = discord.ui.View(timeout=None)
    if page > 0:
        ui.add_item(GameItem.button("page", game_id, page - 1, label=_("◀ Earlier")))
    if page < pages - 1:
        ui.add_item(GameItem.button("page", game_id, page + 1, label=_("Later ▶")))
    return ui


def history_row(game_id: int, move: int, total: int, finished: bool) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ under a history post; the ones with nowhere to go are greyed out
    (⏭ stays on while the game runs: it also fetches the moves played since). The
    number of each id is the move shown, so no genuine id names a move the game lacks."""
    ui = discord.ui.View(timeout=None)
    for action, usable in (("hfirst", move > 0), ("hback", move > 0), ("hnext", move < total),
                           ("hlast", move < total or not finished)):
        button = GameItem.button(action, game_id, move)
        if isinstance(button.item, discord.ui.Button):
            button.item.disabled = not usable
        ui.add_item(button)
    return ui


def final_row(game_id: int) -> discord.ui.View:
    """Under the last post of a game: open its history (privately) at the first move."""
    return _row(game_id, 1, "hist")


def take_back_offer(view: TurnView) -> discord.ui.View | None:
    """"Take back my move" for the mover's private answer after a move, while a human
    is to act next (an AI seat answers at once, so a take-back would come too late); the
    service decides whether a click may still ask."""
    nxt = view.deciding
    if view.status != "active" or nxt is None or nxt.ai is not None or nxt.user_id is None:
        return None
    offer = discord.ui.View(timeout=None)
    offer.add_item(VoteItem.button("ask", view.game_id, 0))
    return offer
