"""Hot-seat play in one terminal, and the demo: both only talk to the service.

Whoever must act types the next command; the terminal acts as that player.
The game lives in the database, so quitting and starting again resumes it
(`carca_bot.local.saved` chooses which game, and says so).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Protocol, TextIO

from carca_bot.engine.game import Game
from carca_bot.i18n import Domain, current
from carca_bot.local.commands import MOVE_VERBS, Usage, run_move
from carca_bot.local.randomplayer import play_random_move
from carca_bot.local.text import (
    board_text,
    choices_text,
    help_text,
    scores_text,
    status_text,
)
from carca_bot.service import (
    GameOptions,
    GameService,
    ServiceError,
    TurnView,
    User,
    Where,
)
from carca_bot.words import say, situation
from carca_bot.words.english import join

_T = Domain("local")
_ = _T.gettext
ngettext = _T.ngettext


class Render(Protocol):
    """`carca_bot.render.board.render_board`: a picture whose words are in `language`."""

    def __call__(self, game: Game, max_bytes: int | None = None,
                 language: str = "en") -> bytes: ...


class RenderTile(Protocol):
    """`carca_bot.render.board.render_your_tile`."""

    def __call__(self, game: Game, tile: str, max_bytes: int | None = None,
                 language: str = "en") -> bytes: ...

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Flo")
TERMINAL = Where("local", "terminal")


def user_for(name: str) -> User:
    return User(f"local:{name}", name)


class Terminal:
    """Prints views, writes a board picture after every confirmed move and a picture of
    each drawn tile (its rotations and where it fits), and asks yes/no questions."""

    def __init__(self, service: GameService, where: Where, render: Render | None,
                 out_dir: Path, stdout: TextIO, stdin: TextIO | None = None,
                 render_tile: RenderTile | None = None) -> None:
        self.service = service
        self.where = where
        self.render = render
        self.render_tile = render_tile
        self.out_dir = out_dir
        self.stdout = stdout
        self.stdin = stdin
        self.moves = -1
        self.tile_shown: tuple[int, int, str] | None = None

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, question: str) -> bool:
        """A yes/no question; anything but a yes (or no input at all) is no. "y" and "yes"
        are yes in every language."""
        # TRANSLATORS: the yes/no hint after a question; the capital letter is the default.
        self.stdout.write(_("{question} [y/N] ").format(question=question))
        self.stdout.flush()
        answer = self.stdin.readline() if self.stdin is not None else ""
        # TRANSLATORS: the words that answer yes, separated by spaces ("s sí si").
        yes = {"y", "yes", *_("y yes").lower().split()}
        return answer.strip().lower() in yes

    async def show(self, view: TurnView) -> None:
        """What happened, and a picture if a move was confirmed since the last one."""
        for line in view.events:
            self.say(f"  * {say(line, [s.name for s in view.seats])}")
        if view.moves != self.moves:
            if self.moves >= 0:
                await self.picture(view)
            self.moves = view.moves

    async def picture(self, view: TurnView) -> None:
        if self.render is None:
            return
        game = await self.service.game(self.where, view.game_id)
        if game is None:
            return
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"game{view.game_id}-move{view.moves:03d}.png"
        language = current()  # an argument: the picture is drawn in another thread
        path.write_bytes(await asyncio.to_thread(self.render, game, None, language))
        self.say("  " + _("board: {path}").format(path=path))

    async def tile_picture(self, view: TurnView) -> None:
        """The drawn tile's picture, once per drawn tile (the player's view shows it)."""
        if self.render_tile is None or view.tile is None:
            return
        key = (view.game_id, view.moves, view.tile)
        if key == self.tile_shown:
            return
        game = await self.service.game(self.where, view.game_id)
        if game is None:
            return
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"game{view.game_id}-move{view.moves + 1:03d}-tile.png"
        language = current()
        path.write_bytes(await asyncio.to_thread(self.render_tile, game, view.tile, None,
                                                 language))
        self.tile_shown = key
        self.say("  " + _("your tile {tile}, its four turns and where it fits: {path}").format(
            tile=view.tile, path=path))


def player_names(spec: str | None, default: int = 2) -> list[str]:
    """`--players 3` or `--players Ana,Ben,Cy`."""
    if spec is None or not spec.strip():
        return list(NAMES[:default])
    if spec.strip().isdigit():
        count = int(spec)
        if not 1 <= count <= len(NAMES):
            raise ValueError(_("--players must be 1 to {most}").format(most=len(NAMES)))
        return list(NAMES[:count])
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not 1 <= len(names) <= len(NAMES) or len(set(names)) != len(names):
        raise ValueError(_("--players needs 1 to {most} different names").format(
            most=len(NAMES)))
    return names


async def new_game(service: GameService, where: Where, names: list[str],
                   options: GameOptions) -> TurnView:
    users = [user_for(n) for n in names]
    await service.create(where, users[0], options)
    for user in users[1:]:
        await service.join(where, user)
    return await service.start(where, users[0])


async def hot_seat(service: GameService, names: list[str], options: GameOptions,
                   term: Terminal, stdin: TextIO) -> int:
    """Play at `term.where`: the game there, or a new one when there is none."""
    where = term.where
    if await service.store.live_game(where.guild, where.channel) is None:
        view = await new_game(service, where, names, options)
        term.say(_("new game {game} for {names} (type help for the commands)").format(
            game=view.game_id, names=join([s.name for s in view.seats])))
    else:
        view = await service.status(where)
        term.say(_("type help for the commands"))
    term.moves = view.moves
    shown = -1
    while True:
        deciding = view.deciding
        if view.finished or deciding is None:
            term.say(f"{situation(view)}\n{scores_text(view)}")
            return 0
        user = User(deciding.user_id or "", deciding.name)
        view = await service.begin_turn(where, user)
        await term.show(view)
        if view.version != shown:
            term.say(status_text(view))
            shown = view.version
        await term.tile_picture(view)
        term.stdout.write(f"{deciding.name}> ")
        term.stdout.flush()
        line = stdin.readline()
        if not line:
            term.say("")
            return 0
        words = line.split()
        if not words:
            continue
        verb, args = words[0].lower(), words[1:]
        if verb in ("quit", "exit"):
            term.say(_("game {game} is saved; run again to go on").format(game=view.game_id))
            return 0
        try:
            view = await _command(service, term, user, verb, args)
        except (ServiceError, Usage) as exc:
            term.say(f"! {say(exc) if isinstance(exc, ServiceError) else exc}")
            view = await service.status(where, user.id)


async def _command(service: GameService, term: Terminal, user: User, verb: str,
                   args: list[str]) -> TurnView:
    where = term.where
    if verb in MOVE_VERBS:
        view = await run_move(service, where, user, verb, args)
        await term.show(view)
        return view
    view = await service.status(where, user.id)
    if verb == "help":
        term.say(help_text())
    elif verb == "board":
        game = await service.game(where)
        if game is not None:
            term.say(board_text(game))
        await term.picture(view)
    elif verb in ("score", "scores"):
        term.say(scores_text(view))
    elif verb == "status":
        term.say(status_text(view))
    elif verb == "moves":
        term.say(choices_text(await service.legal_moves(where, user)))
    elif verb == "resign":
        others = [s.name for s in view.seats if not s.resigned and s.user_id != user.id]
        if len(others) <= 1:
            question = _("{name}, resign for good? You cannot come back, and the game ends.")
        else:
            question = _("{name}, resign for good? You cannot come back, and {others} play "
                         "on without you.")
        if term.ask(question.format(name=user.name, others=join(others))):
            view = await service.resign(where, user)
            await term.show(view)
        else:
            term.say(_("not resigned: the game goes on"))
    elif verb == "export":
        if len(args) != 1:
            raise Usage(_("usage: {usage}").format(usage="export FILE"))
        record = await service.export(where)
        try:
            Path(args[0]).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise Usage(_("cannot write {path}: {problem}").format(
                path=args[0], problem=exc.strerror or exc)) from None
        count = len(record["actions"])
        term.say(ngettext("saved {n} action to {path}", "saved {n} actions to {path}",
                          count).format(n=count, path=args[0]))
    else:
        raise Usage(_("unknown command {verb}; type help").format(verb=repr(verb)))
    return view


async def demo(service: GameService, names: list[str], options: GameOptions,
               term: Terminal, seed: int) -> int:
    """A whole game of random legal moves, one line per move, then the final scores."""
    where = term.where
    view = await new_game(service, where, names, options)
    term.say(_("demo game {game}: seats drawn at random: {names}").format(
        game=view.game_id, names=join([s.name for s in view.seats])))
    term.moves = view.moves
    rng = random.Random(seed)
    while not view.finished:
        seat = view.deciding
        assert seat is not None and seat.user_id is not None
        view, what = await play_random_move(service, where, User(seat.user_id, seat.name), rng)
        term.say(f"{view.moves:4}. {seat.name}: {what}")
        await term.show(view)
    term.say(f"{situation(view)}\n{scores_text(view)}")
    return 0
