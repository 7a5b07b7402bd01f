"""Play at one keyboard, alone against AI players or with friends, and the demo: all of it
through the service, as the Discord bot plays.

Whoever must act types the next command; the terminal acts as that player. AI seats
play on their own: the service runs their turns (`service.ai_seats`), thinking in its
worker processes, while the terminal waits and prints each move as it is stored. The
board is drawn in the terminal (`carca_bot.local.boardtext`); pictures are written
only when asked (`--pictures DIR`: the latest board and tile, overwritten). The game
lives in the database, so quitting and starting again resumes it
(`carca_bot.local.saved` chooses which game, and says so).
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from carca_bot.engine.game import Game
from carca_bot.i18n import N_, Domain, current
from carca_bot.local import vocab
from carca_bot.local.boardtext import board_lines, tile_lines
from carca_bot.local.commands import MOVE_VERBS, Usage, run_move, usage
from carca_bot.local.randomplayer import play_random_move
from carca_bot.local.text import (
    choices_text,
    closing_text,
    figures_text,
    help_text,
    scores_text,
    seat_order_text,
    status_text,
)
from carca_bot.render.yourtile import legal_squares
from carca_bot.service import (
    GameOptions,
    GameService,
    ServiceError,
    TurnView,
    User,
    Where,
    played,
)
from carca_bot.words import say
from carca_bot.words.alt import move_words
from carca_bot.words.english import join
from carca_bot.words.tiles import tile_name

_T = Domain("local")
_ = _T.gettext
ngettext = _T.ngettext

AI_WAIT_TRIES = 50  # looks for an AI's move that does not come, 0.2 s apart, then gives up
LEVEL_NAMES = {"random": N_("random"), "greedy": N_("greedy"), "easy": N_("easy"),
               "medium": N_("medium"), "strong": N_("strong")}


class Render(Protocol):
    """`carca_bot.render.board.render_board`: a picture whose words are in `language`."""

    def __call__(self, game: Game, max_bytes: int | None = None,
                 language: str = "en") -> bytes: ...


class RenderTile(Protocol):
    """`carca_bot.render.board.render_your_tile`."""

    def __call__(self, game: Game, tile: str, max_bytes: int | None = None,
                 language: str = "en") -> bytes: ...


NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Flo")


def user_for(name: str) -> User:
    return User(f"local:{name}", name)


def ai_name(level: str) -> str:
    """An AI seat's player name in the language being spoken: "AI (easy)"."""
    words = LEVEL_NAMES.get(level)
    # TRANSLATORS: the player name of an AI seat: "AI (strong)". At most 32 characters.
    return _("AI ({level})").format(level=_(words) if words is not None else level)


def ai_names(levels: tuple[str, ...]) -> list[str]:
    """The AI seats' names, told apart when a level comes twice: "AI (easy) 2"."""
    names: list[str] = []
    for i, level in enumerate(levels):
        same = levels[:i].count(level)
        names.append(ai_name(level) + (f" {same + 1}" if same else ""))
    return names


@dataclass(frozen=True)
class Pictures:
    """Where pictures go when asked for: the latest board and drawn tile, overwritten."""

    folder: Path
    board: Render
    tile: RenderTile | None = None


class Terminal:
    """Prints views and the board, reads commands, asks yes/no questions, and writes
    pictures when asked; prints the AI's moves as the service stores them."""

    def __init__(self, service: GameService, where: Where, stdout: TextIO,
                 stdin: TextIO | None = None, *, colour: bool = False, width: int = 100,
                 pictures: Pictures | None = None) -> None:
        self.service = service
        self.where = where
        self.stdout = stdout
        self.stdin = stdin
        self.colour = colour
        self.width = width
        self.pictures = pictures
        self.moves = -1
        self.tile_shown: tuple[int, int, str] | None = None
        service.on_public_change = self._public_change

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def prompt(self, name: str) -> None:
        self.stdout.write(f"{name}> ")
        self.stdout.flush()

    async def read(self) -> str:
        """The next line typed ("" at the end of input), read off the event loop."""
        if self.stdin is None:
            return ""
        return await asyncio.to_thread(self.stdin.readline)

    async def ask(self, question: str) -> bool:
        """A yes/no question; anything but a yes (or no input at all) is no. "y" and "yes"
        are yes in every language."""
        # TRANSLATORS: the yes/no hint after a question; the capital letter is the default.
        self.stdout.write(_("{question} [y/N] ").format(question=question))
        self.stdout.flush()
        answer = await self.read()
        # TRANSLATORS: the words that answer yes, separated by spaces ("s sí si").
        yes = {"y", "yes", *_("y yes").lower().split()}
        return answer.strip().lower() in yes

    async def show(self, view: TurnView) -> None:
        """What happened, and the pictures if a move was confirmed since the last one."""
        names = [s.name for s in view.seats]
        for line in view.events:
            self.say(f"  * {say(line, names)}")
        if view.moves != self.moves:
            if self.moves >= 0:
                await self.picture(view)
            self.moves = view.moves

    async def _public_change(self, game_id: int, version: int) -> None:
        """An AI seat's move, stored: say what it did and what it scored."""
        catch = await self.service.events_since(game_id, version)
        names = [s.name for s in catch.view.seats]
        for action in played(catch.played):
            self.say("  " + move_words(action))
        for line in catch.lines:
            self.say(f"  * {say(line, names)}")
        await self.picture(catch.view)
        await self.service.mark_posted(game_id, catch.version)

    async def board(self, view: TurnView, whole: bool = False) -> None:
        """The board around the last move (`whole`: all of it), with the squares where
        the player to act's tile fits marked when they must place it."""
        game = await self.service.game(self.where, view.game_id)
        if game is None:
            return
        squares = (legal_squares(game, view.tile)
                   if view.tile is not None and view.must == "place" and view.yours else {})
        for line in board_lines(game, squares, self.width, self.colour, whole):
            self.say(line)
        if view.tile is not None and view.must == "place" and view.yours and not whole:
            fits = {r for rots in squares.values() for r in rots}
            self.say(_("Your tile: {tile}. Turned each way (the turns in brackets fit "
                       "nowhere):").format(tile=tile_name(view.tile)))
            for line in tile_lines(view.tile, fits, game.setup.has("tunnel"), self.colour):
                self.say("  " + line)
        if whole:
            for line in figures_text(game):
                self.say(line)

    async def picture(self, view: TurnView) -> None:
        """The whole board's picture, when pictures were asked for (the latest only)."""
        if self.pictures is None:
            return
        game = await self.service.game(self.where, view.game_id)
        if game is None:
            return
        self.pictures.folder.mkdir(parents=True, exist_ok=True)
        language = current()  # an argument: the picture is drawn in another thread
        data = await asyncio.to_thread(self.pictures.board, game, None, language)
        (self.pictures.folder / "board.png").write_bytes(data)

    async def tile_picture(self, view: TurnView) -> None:
        """The drawn tile's picture, once per drawn tile, when pictures were asked for."""
        if self.pictures is None or self.pictures.tile is None or view.tile is None:
            return
        key = (view.game_id, view.moves, view.tile)
        if key == self.tile_shown:
            return
        game = await self.service.game(self.where, view.game_id)
        if game is None:
            return
        self.pictures.folder.mkdir(parents=True, exist_ok=True)
        language = current()
        data = await asyncio.to_thread(self.pictures.tile, game, view.tile, None, language)
        (self.pictures.folder / "tile.png").write_bytes(data)
        self.tile_shown = key

    async def end(self, view: TurnView) -> None:
        """The closing: the whole board, the ranking with the winner named, the scores."""
        if view.status != "cancelled":
            await self.board(view, whole=True)
        self.say(closing_text(view))
        self.say(scores_text(view))

    async def wait_for_ai(self, view: TurnView) -> bool:
        """Until the AI seats to play have played (the service plays them); False if
        they do not (the AI failed again and again)."""
        seat = view.deciding
        if seat is not None:
            self.say(_("{name} is thinking…").format(name=seat.name))
        for _try in range(AI_WAIT_TRIES):
            await self.service.wait_for_ai()
            now = await self.service.status(self.where)
            if (now.version != view.version or now.finished or now.deciding is None
                    or now.deciding.ai is None):
                return True
            await self.service.resume_ai_turns()
            await asyncio.sleep(0.2)
        self.say(_("the AI did not play; the game is saved, run again to go on"))
        return False


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
                   options: GameOptions, ai: tuple[str, ...] = ()) -> TurnView:
    """The players (and AI seats of levels `ai`) at a new table, and the game started."""
    users = [user_for(n) for n in names]
    await service.create(where, users[0], options)
    for user in users[1:]:
        await service.join(where, user)
    for level, name in zip(ai, ai_names(ai), strict=True):
        await service.add_ai(where, users[0], level, name)
    return await service.start(where, users[0])


async def hot_seat(service: GameService, names: list[str], options: GameOptions,
                   term: Terminal, ai: tuple[str, ...] = ()) -> int:
    """Play at `term.where`: the game there, or a new one when there is none."""
    where = term.where
    if await service.store.live_game(where.guild, where.channel) is None:
        view = await new_game(service, where, names, options, ai)
        term.say(_("new game {game} for {names} (type help for the commands)").format(
            game=view.game_id, names=join([s.name for s in view.seats])))
    else:
        view = await service.status(where)
        term.say(_("type help for the commands"))
    term.say(seat_order_text(view))
    term.moves = view.moves
    shown = -1
    while True:
        view = await service.status(where)
        deciding = view.deciding
        if view.finished or deciding is None:
            await term.end(view)
            return 0
        if deciding.ai is not None:
            if not await term.wait_for_ai(view):
                return 1
            continue
        user = User(deciding.user_id or "", deciding.name)
        view = await service.begin_turn(where, user)
        await term.show(view)
        if view.version != shown:
            await term.board(view)
            term.say(status_text(view))
            shown = view.version
        await term.tile_picture(view)
        term.prompt(deciding.name)
        line = await term.read()
        if not line:
            term.say("")
            return 0
        words = line.split()
        if not words:
            continue
        verb = vocab.read_command(words[0])
        if verb == "quit":
            term.say(_("game {game} is saved; run again to go on").format(game=view.game_id))
            return 0
        try:
            await _command(service, term, user, verb or words[0], words[1:])
        except (ServiceError, Usage) as exc:
            term.say(f"! {say(exc) if isinstance(exc, ServiceError) else exc}")


async def _command(service: GameService, term: Terminal, user: User, verb: str,
                   args: list[str]) -> None:
    where = term.where
    if verb in MOVE_VERBS:
        view = await run_move(service, where, user, verb, args)
        await term.show(view)
        return
    view = await service.status(where, user.id)
    if verb == "help":
        term.say(help_text())
    elif verb == "board":
        await term.board(view, whole=True)
        await term.picture(view)
    elif verb == "score":
        term.say(scores_text(view))
    elif verb == "status":
        term.say(status_text(view))
    elif verb == "moves":
        term.say(choices_text(await service.legal_moves(where, user)))
    elif verb == "resign":
        await _resign(service, term, user, view)
    elif verb == "export":
        await _export(service, term, args)
    else:
        raise Usage(_("unknown command {verb}; type help").format(verb=repr(verb)))


async def _resign(service: GameService, term: Terminal, user: User, view: TurnView) -> None:
    others = [s.name for s in view.seats if not s.resigned and s.user_id != user.id]
    if len(others) <= 1:
        question = _("{name}, resign for good? You cannot come back, and the game ends.")
    else:
        question = _("{name}, resign for good? You cannot come back, and {others} play "
                     "on without you.")
    if await term.ask(question.format(name=user.name, others=join(others))):
        await term.show(await service.resign(term.where, user))
    else:
        term.say(_("not resigned: the game goes on"))


async def _export(service: GameService, term: Terminal, args: list[str]) -> None:
    if len(args) != 1:
        raise Usage(_("usage: {usage}").format(usage=usage("export")))
    record = await service.export(term.where)
    try:
        Path(args[0]).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise Usage(_("cannot write {path}: {problem}").format(
            path=args[0], problem=exc.strerror or exc)) from None
    count = len(record["actions"])
    term.say(ngettext("saved {n} action to {path}", "saved {n} actions to {path}",
                      count).format(n=count, path=args[0]))


async def demo(service: GameService, names: list[str], options: GameOptions,
               term: Terminal, seed: int) -> int:
    """A whole game of random legal moves, one line per move, then the final board and
    the ranking."""
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
    await term.end(view)
    return 0
