"""The game: whose turn it is, what they may do, and what happens when they do it.

A turn is played in steps, as players think of it: place a tile (or an abbey),
then optionally a figure (or recall the abbot) and a tunnel token in either
order, then `end_turn`, which scores. Each step checks everything before it
changes anything, so a refused step leaves the game as it was. `apply` plays a
whole `carca-record/1` action and is atomic too: if a later step of the action
is refused, the game is rebuilt from its history.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from carca_bot.engine.board import ABBEY, Board
from carca_bot.engine.catalogue import Kind, catalogue
from carca_bot.engine.deploying import FIGURES, deploy_problem
from carca_bot.engine.errors import IllegalMove
from carca_bot.engine.events import Event
from carca_bot.engine.geometry import CORNER_NAMES, Pos
from carca_bot.engine.placement import River, cult_problem, edge_problem, rotations_fitting
from carca_bot.engine.scoring import Figure
from carca_bot.engine.setup import Setup
from carca_bot.engine.tunnels import TokenSpot, token_problem
from carca_bot.engine.turnscore import TurnScorer, final_scoring
from carca_bot.engine.wagons import PendingWagon, wagon_refusal, wagon_targets


class Phase(Enum):
    TILE = "tile"  # the active player draws a tile or places an abbey
    PLACED = "placed"  # tile down; figure, token, then end_turn
    WAGON = "wagon"  # a wagon owner decides where it goes
    ABBEY_ROUND = "abbey_round"  # the end-of-game abbey round
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Placement:
    pos: Pos
    rot: int  # quarter turns


@dataclass(frozen=True, slots=True)
class Deployment:
    figure: str
    on: str


@dataclass
class Turn:
    """The turn being played, step by step."""

    player: int
    tile: str = ""
    pos: Pos = (0, 0)
    rot: int = 0
    touched: list[int] = field(default_factory=list)
    deploy: Deployment | None = None
    recall: bool = False
    token: TokenSpot | None = None
    token_first: bool = False
    barn_node: int | None = None


class Game:
    """A game in progress, built from a `Setup` and the actions played so far."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.players = list(setup.players)
        self.catalogue = catalogue(tunnel=setup.has("tunnel"))
        self.board = Board()
        count = len(self.players)
        self.scores = [0] * count
        self.hand = [self._starting_hand() for _ in range(count)]
        self.tokens = [[2] * setup.pairs for _ in range(count)]
        self.entrances: dict[int, tuple[int, int]] = {}  # road node -> (player, pair)
        self.figures: list[Figure] = []
        self.supply: Counter[str] = Counter()
        self.drawn = 0
        self.king: int | None = None
        self.robber: int | None = None
        self.best_city = 0
        self.best_road = 0
        self.completed = Counter[Kind]()
        self.current = 0
        self.phase = Phase.TILE
        self.turn: Turn | None = None
        self.wagons: list[PendingWagon] = []
        self.ending = False
        self.round_queue: list[int] = []
        self.events: list[Event] = []
        self.history: list[dict[str, Any]] = []
        self.river = River()
        self.last_placed: tuple[Pos, int] | None = None  # square and player of the newest tile
        self._deal()

    # -- setup ------------------------------------------------------------------

    def _starting_hand(self) -> dict[str, int]:
        hand = {"follower": 7}
        if self.setup.has("abbot"):
            hand["abbot"] = 1
        if self.setup.has("abbey_mayor"):
            hand.update(mayor=1, wagon=1, barn=1, abbey=1)
        return hand

    def _deal(self) -> None:
        for tile in self.catalogue.tiles.values():
            if tile.expansion == "base" or self.setup.has(tile.expansion):
                self.supply[tile.id] = tile.count
        river = self.setup.has("river")
        start_id, rot = self.setup.start or ("RV-spring" if river else "D", 0)
        if river:
            self.supply["D"] -= 1  # the spring replaces the start tile
        if self.supply[start_id] <= 0:
            raise IllegalMove(f"the start tile {start_id} is not in this game's supply")
        self.supply[start_id] -= 1
        shape = self.catalogue.shape(start_id, rot)
        self.board.place((0, 0), shape)
        if river and shape.river:
            self.river.start((0, 0), shape)

    # -- what may happen now ----------------------------------------------------

    def player_index(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise IllegalMove(f"{name!r} is not a player in this game") from None

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def tiles_left(self) -> int:
        return sum(self.supply.values())

    @property
    def deciding(self) -> int | None:
        """Who must act now: the active player, a wagon owner, or None when finished."""
        if self.phase is Phase.FINISHED:
            return None
        if self.phase is Phase.WAGON:
            return self.wagons[0].player
        return self.current

    def _river_phase(self) -> bool:
        return any(n > 0 and self.catalogue[t].is_river for t, n in self.supply.items())

    def drawable(self) -> list[str]:
        """Tile types the active player could draw now (river first, lake last)."""
        left = sorted(t for t, n in self.supply.items() if n > 0)
        if self._river_phase():
            river = [t for t in left if self.catalogue[t].is_river]
            ordinary = [t for t in river if not self.catalogue[t].river_last]
            return ordinary or river
        return left

    def draw(self) -> str:
        """The next tile, fixed by the seed and how many tiles were taken before it."""
        pool = [t for t in self.drawable() for _ in range(self.supply[t])]
        if not pool:
            raise IllegalMove("there are no tiles left to draw")
        return random.Random(f"{self.setup.seed or 0}:{self.drawn}").choice(pool)

    def placement_problem(self, tile: str, pos: Pos, rot: int) -> str | None:
        shape = self.catalogue.shape(tile, rot)
        problem = edge_problem(self.board, pos, shape)
        if problem is None and self.catalogue[tile].is_river:
            problem = self.river.problem(pos, shape)
        if problem is None and shape.building is not None:
            problem = cult_problem(self.board, pos, shape.segments[shape.building].building)
        return problem

    def legal_placements(self, tile: str) -> list[Placement]:
        """Every square and rotation where `tile` may be placed now."""
        tile_type = self.catalogue[tile]
        if tile_type.is_river:
            if self.river.open_end is None:
                return []
            square = self.river.open_end[0]
            key = self.board.frontier.get(square)
            candidates = [(square, key)] if key is not None else []
        else:
            candidates = list(self.board.frontier.items())
        building = tile_type.shapes[0].building is not None
        result: list[Placement] = []
        for pos, key in candidates:
            for rot in rotations_fitting(tile_type, key):
                if (tile_type.is_river or building) and self.placement_problem(tile, pos, rot):
                    continue
                result.append(Placement(pos, rot))
        return result

    def fits_somewhere(self, tile: str) -> bool:
        return bool(self.legal_placements(tile))

    def abbey_squares(self) -> list[Pos]:
        """Holes where the active player's abbey may go (the Cult's limits apply)."""
        return [pos for pos in self.board.holes()
                if cult_problem(self.board, pos, "abbey") is None]

    def can_place_abbey(self, player: int) -> bool:
        return self.hand[player].get("abbey", 0) > 0 and bool(self.abbey_squares())

    def expects(self) -> list[str]:
        """Verbs accepted now, in the contract's order: tile, abbey, discard, wagon."""
        if self.phase is Phase.WAGON:
            return ["wagon"]
        if self.phase is Phase.ABBEY_ROUND:
            return ["abbey"]
        if self.phase is not Phase.TILE:
            return []
        verbs: list[str] = []
        fits = [self.fits_somewhere(t) for t in self.drawable()]
        if any(fits):
            verbs.append("tile")
        if self.can_place_abbey(self.current):
            verbs.append("abbey")
        if not all(fits):
            verbs.append("discard")
        return verbs

    # -- checks -----------------------------------------------------------------

    def _name(self, player: int) -> str:
        return self.players[player]

    def _check_turn(self, player: int, *phases: Phase) -> None:
        if self.phase is Phase.FINISHED:
            raise IllegalMove("the game is over")
        if self.phase not in phases:
            raise IllegalMove(self._waiting_for())
        if player != self.deciding:
            raise IllegalMove(f"it is not {self._name(player)}'s turn: {self._waiting_for()}")

    def _waiting_for(self) -> str:
        who = self.deciding
        name = self._name(who) if who is not None else ""
        return {
            Phase.TILE: f"waiting for {name} to place a tile",
            Phase.PLACED: f"{name} has placed a tile and must finish the turn",
            Phase.WAGON: f"waiting for {name} to move or return their wagon",
            Phase.ABBEY_ROUND: f"waiting for {name} to place or skip their abbey",
            Phase.FINISHED: "the game is over",
        }[self.phase]

    def _placed_turn(self, player: int) -> Turn:
        self._check_turn(player, Phase.PLACED)
        assert self.turn is not None
        return self.turn

    # -- the tile step ----------------------------------------------------------

    def place_tile(self, player: int, tile: str, pos: Pos, rot: int) -> None:
        self._check_turn(player, Phase.TILE)
        if tile not in self.catalogue.tiles:
            raise IllegalMove(f"there is no tile {tile!r}")
        if self.supply[tile] <= 0:
            raise IllegalMove(f"no {tile} tile is left in the supply")
        if tile not in self.drawable():
            raise IllegalMove("the lake is placed last, after every other river tile"
                              if self.catalogue[tile].is_river
                              else "river tiles come first: draw from the river stack")
        problem = self.placement_problem(tile, pos, rot)
        if problem is not None:
            hint = "" if self.fits_somewhere(tile) else f" ({tile} fits nowhere: discard it)"
            raise IllegalMove(f"{tile} cannot go at {list(pos)} turned {rot * 90}: "
                              f"{problem}{hint}")
        shape = self.catalogue.shape(tile, rot)
        self.supply[tile] -= 1
        self.drawn += 1
        if self.catalogue[tile].is_river:
            self.river.advance(pos, shape)
        touched = self.board.place(pos, shape)
        self.last_placed = (pos, player)
        self.turn = Turn(player, tile, pos, rot, touched)
        self.phase = Phase.PLACED

    def place_abbey(self, player: int, pos: Pos) -> None:
        self._check_turn(player, Phase.TILE, Phase.ABBEY_ROUND)
        if self.hand[player].get("abbey", 0) <= 0:
            raise IllegalMove(f"{self._name(player)} has no abbey to place")
        if pos in self.board.tiles:
            raise IllegalMove(f"the square {list(pos)} is already taken")
        if pos not in self.board.holes():
            raise IllegalMove(f"an abbey goes only into a hole: {list(pos)} is not surrounded "
                              "by tiles on all four sides")
        problem = cult_problem(self.board, pos, "abbey")
        if problem:
            raise IllegalMove(f"the abbey cannot go at {list(pos)}: {problem}")
        self.hand[player]["abbey"] -= 1
        touched = self.board.place_abbey(pos)
        self.last_placed = (pos, player)
        self.turn = Turn(player, ABBEY, pos, 0, touched)
        self.phase = Phase.PLACED

    def skip_abbey(self, player: int) -> None:
        if self.phase is not Phase.ABBEY_ROUND:
            raise IllegalMove("an abbey can be skipped only in the end-of-game abbey round")
        self._check_turn(player, Phase.ABBEY_ROUND)
        self.history.append({"by": self._name(player), "abbey": "skip"})
        self._next_in_round()

    def discard(self, player: int, tile: str) -> None:
        self._check_turn(player, Phase.TILE)
        if self.supply[tile] <= 0:
            raise IllegalMove(f"no {tile} tile is left in the supply")
        if tile not in self.drawable():
            raise IllegalMove(f"{tile} cannot be drawn now")
        if self.fits_somewhere(tile):
            raise IllegalMove(f"{tile} fits on the board, so it cannot be discarded")
        self.supply[tile] -= 1
        self.drawn += 1
        self.history.append({"by": self._name(player), "discard": tile})
        self.events.append(Event("discard", (player,), detail=f"{tile} fits nowhere and is "
                                 "removed from the game"))
        if self.tiles_left == 0:
            self._start_ending(first=player)

    def declare_end(self) -> None:
        """The supply is used up at this point (the `end` action)."""
        if self.phase is not Phase.TILE:
            raise IllegalMove(f"the game can only end before a turn starts: {self._waiting_for()}")
        self.history.append({"end": True})
        self._start_ending(first=self.current)

    # -- the figure step --------------------------------------------------------

    def deploy(self, player: int, figure: str, on: str) -> None:
        turn = self._placed_turn(player)
        if turn.deploy or turn.recall:
            raise IllegalMove("only one figure may be placed (or the abbot recalled) per turn")
        problem, node = deploy_problem(self, turn, figure, on)
        if problem is not None:
            raise IllegalMove(f"cannot place the {figure} on {on}: {problem}")
        self.hand[player][figure] -= 1
        self.figures.append(Figure(player, figure, turn.pos, node, on))
        turn.deploy = Deployment(figure, on)
        turn.token_first = turn.token is not None
        if figure == "barn":
            turn.barn_node = node

    def legal_deployments(self) -> list[Deployment]:
        """Every figure the active player may place on the tile just placed."""
        turn = self.turn
        if self.phase is not Phase.PLACED or turn is None or turn.deploy or turn.recall:
            return []
        placed = self.board.tiles[turn.pos]
        names = ["C"] if placed.shape is None else [s.name for s in placed.shape.segments]
        result = []
        for figure in FIGURES:
            spots = CORNER_NAMES if figure == "barn" else names
            for on in spots:
                if deploy_problem(self, turn, figure, on)[0] is None:
                    result.append(Deployment(figure, on))
        return result

    def _abbot(self, player: int) -> Figure | None:
        return next((f for f in self.figures if f.player == player and f.kind == "abbot"), None)

    def can_recall(self) -> bool:
        """Whether the active player may take their abbot back this turn."""
        turn = self.turn
        if self.phase is not Phase.PLACED or turn is None or turn.deploy or turn.recall:
            return False
        abbot = self._abbot(turn.player)
        return abbot is not None and not self.board.is_complete(abbot.node)

    def recall(self, player: int) -> None:
        """Take the abbot back and score its monastery or garden as at the game's end."""
        turn = self._placed_turn(player)
        if turn.deploy or turn.recall:
            raise IllegalMove("only one figure may be placed (or the abbot recalled) per turn")
        abbot = self._abbot(player)
        if abbot is None:
            raise IllegalMove(f"{self._name(player)} has no abbot on the board to recall")
        root = self.board.find(abbot.node)
        if self.board.is_complete(root):
            raise IllegalMove("the abbot's building is completed by this tile and scores "
                              "anyway")
        scorer = TurnScorer(self, turn)
        scorer.score_recall(abbot, root)
        turn.recall = True

    # -- tunnel tokens ----------------------------------------------------------

    def place_token(self, player: int, pos: Pos, on: str, pair: int) -> None:
        turn = self._placed_turn(player)
        if turn.token is not None:
            raise IllegalMove("only one tunnel token may be placed per turn")
        problem, node = token_problem(self, player, pos, on, pair)
        if problem is not None:
            raise IllegalMove(f"cannot place the token: {problem}")
        self.tokens[player][pair] -= 1
        self.entrances[node] = (player, pair)
        partner = next((n for n, owner in self.entrances.items()
                        if owner == (player, pair) and n != node), None)
        if partner is not None:
            self.board.link_tunnel(partner, node)
            turn.touched.append(node)
        turn.token = TokenSpot(pos, on, pair)

    def legal_tokens(self) -> list[TokenSpot]:
        turn = self.turn
        if self.phase is not Phase.PLACED or turn is None or turn.token is not None:
            return []
        spots: list[TokenSpot] = []
        for pos, placed in self.board.tiles.items():
            if placed.shape is None:
                continue
            for node, seg in zip(placed.nodes, placed.shape.segments, strict=True):
                if seg.tunnel and node not in self.entrances:
                    spots.extend(TokenSpot(pos, seg.name, pair) for pair in range(self.setup.pairs)
                                 if self.tokens[turn.player][pair] > 0)
        return spots

    # -- ending a turn ----------------------------------------------------------

    def end_turn(self, player: int) -> list[Event]:
        """Score the turn and move on. Returns what happened."""
        turn = self._placed_turn(player)
        start = len(self.events)
        self.history.append(self._turn_action(turn))
        TurnScorer(self, turn).score_turn()
        self.turn = None
        self._after_turn()
        return self.events[start:]

    def _turn_action(self, turn: Turn) -> dict[str, Any]:
        action: dict[str, Any] = {"by": self._name(turn.player)}
        if turn.tile == ABBEY:
            action["abbey"] = list(turn.pos)
        else:
            action.update(tile=turn.tile, at=list(turn.pos), rot=turn.rot * 90)
        if turn.deploy:
            action["deploy"] = {"figure": turn.deploy.figure, "on": turn.deploy.on}
        if turn.recall:
            action["recall"] = True
        if turn.token:
            action["token"] = {"at": list(turn.token.pos), "on": turn.token.on,
                               "pair": turn.token.pair}
        if turn.token_first:
            action["token_first"] = True
        return action

    def _after_turn(self) -> None:
        if self._ask_wagons():
            return
        if self.ending:
            self._next_in_round()
        elif self.tiles_left == 0:
            self._start_ending(first=(self.current + 1) % len(self.players))
        else:
            self.current = (self.current + 1) % len(self.players)
            self.phase = Phase.TILE

    def _ask_wagons(self) -> bool:
        """Move to the next wagon owner who has somewhere to go; True while one must decide."""
        while self.wagons:
            wagon = self.wagons[0]
            if wagon_targets(self.board, self.figures, wagon, self.setup.wagon_rule):
                self.phase = Phase.WAGON
                return True
            self.wagons.pop(0)
            self.hand[wagon.player]["wagon"] += 1
            self.events.append(Event("wagon_returned", (wagon.player,),
                                     detail="the wagon has nowhere to go and returns"))
        return False

    def legal_wagon_moves(self) -> list[tuple[Pos, str]]:
        if self.phase is not Phase.WAGON:
            return []
        return wagon_targets(self.board, self.figures, self.wagons[0], self.setup.wagon_rule)

    def move_wagon(self, player: int, pos: Pos | None, on: str = "") -> list[Event]:
        """Move the pending wagon to (pos, on), or return it to hand when pos is None."""
        self._check_turn(player, Phase.WAGON)
        start = len(self.events)
        wagon = self.wagons[0]
        if pos is None:
            self.hand[player]["wagon"] += 1
            self.events.append(Event("wagon_returned", (player,),
                                     detail="the wagon returns to hand"))
            self.history.append({"by": self._name(player), "wagon": "return"})
        else:
            placed = self.board.tiles.get(pos)
            node = placed.node_named(on) if placed is not None else None
            legal = {(p, self.board.tiles[p].node_named(n)) for p, n in self.legal_wagon_moves()}
            if node is None or (pos, node) not in legal:  # any name of the segment will do
                raise IllegalMove(wagon_refusal(self.board, self.figures, wagon, pos, on,
                                                 self.setup.wagon_rule))
            self.figures.append(Figure(player, "wagon", pos, node, on))
            self.events.append(Event("wagon_moved", (player,), tiles=(pos,),
                                     detail=f"the wagon moves to {on} at {list(pos)}"))
            self.history.append({"by": self._name(player),
                                 "wagon": {"at": list(pos), "on": on}})
        self.wagons.pop(0)
        self._after_turn()
        return self.events[start:]

    # -- the end ----------------------------------------------------------------

    def _start_ending(self, first: int) -> None:
        self.ending = True
        count = len(self.players)
        if self.setup.has("abbey_mayor"):
            self.round_queue = [(first + i) % count for i in range(count)]
        self._next_in_round()

    def _next_in_round(self) -> None:
        while self.round_queue:
            player = self.round_queue.pop(0)
            if self.can_place_abbey(player):
                self.current = player
                self.phase = Phase.ABBEY_ROUND
                return
        final_scoring(self)
        self.phase = Phase.FINISHED

    # -- whole actions ----------------------------------------------------------

    def apply(self, action: dict[str, Any]) -> list[Event]:
        """Play one `carca-record/1` action (already well-formed); atomic."""
        start = len(self.events)
        length = len(self.history)
        try:
            self._apply(action)
        except IllegalMove:
            if len(self.history) != length or self.phase is Phase.PLACED:
                self.restore()
            raise
        return self.events[start:]

    def _apply(self, action: dict[str, Any]) -> None:
        if "end" in action:
            self.declare_end()
            return
        player = self.player_index(action["by"])
        if "discard" in action:
            self.discard(player, action["discard"])
        elif "wagon" in action:
            target = action["wagon"]
            if target == "return":
                self.move_wagon(player, None)
            else:
                self.move_wagon(player, (target["at"][0], target["at"][1]), target["on"])
        elif "abbey" in action and action["abbey"] == "skip":
            self.skip_abbey(player)
        else:
            if "abbey" in action:
                self.place_abbey(player, (action["abbey"][0], action["abbey"][1]))
            else:
                rot = action["rot"] // 90
                self.place_tile(player, action["tile"], (action["at"][0], action["at"][1]), rot)
            self._figure_and_token(player, action)
            self.end_turn(player)

    def _figure_and_token(self, player: int, action: dict[str, Any]) -> None:
        if "deploy" in action and action.get("recall"):
            raise IllegalMove("a turn may deploy a figure or recall the abbot, not both")
        token = action.get("token")
        if token is not None and action.get("token_first"):
            self.place_token(player, (token["at"][0], token["at"][1]), token["on"], token["pair"])
        if "deploy" in action:
            self.deploy(player, action["deploy"]["figure"], action["deploy"]["on"])
        elif action.get("recall"):
            self.recall(player)
        if token is not None and not action.get("token_first"):
            self.place_token(player, (token["at"][0], token["at"][1]), token["on"], token["pair"])

    def restore(self) -> None:
        """Rebuild from the setup and history (undoes an unfinished turn)."""
        fresh = Game.replay(self.setup, self.history)
        self.__dict__.update(fresh.__dict__)

    @classmethod
    def replay(cls, setup: Setup, actions: list[dict[str, Any]]) -> Game:
        game = cls(setup)
        for action in actions:
            game._apply(action)
        return game

    # -- summaries --------------------------------------------------------------

    def in_hand(self, player: int) -> dict[str, int]:
        """What a player holds: figures, an unplaced abbey, unplaced tunnel tokens."""
        held = dict(self.hand[player])
        held_wagons = sum(1 for w in self.wagons if w.player == player)
        if held_wagons:
            held["wagon"] += held_wagons
        if self.setup.has("tunnel"):
            held["tokens"] = sum(self.tokens[player])
        return held

    def tokens_on_board(self) -> list[tuple[Pos, str, int, int]]:
        """Every tunnel token placed: square, entrance side, owner, pair."""
        placed = []
        for node, (player, pair) in self.entrances.items():
            pos, index = self.board.location[node]
            shape = self.board.tiles[pos].shape
            assert shape is not None
            placed.append((pos, shape.segments[index].name, player, pair))
        return sorted(placed)
