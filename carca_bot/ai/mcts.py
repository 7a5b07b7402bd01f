"""The strong level: information-set Monte Carlo tree search over the public pile.

The tree alternates decisions (a player picks a plan, see `turns.py`) and draws (the
next tile). A draw never looks at the real order: each iteration follows one order of
the remaining pile sampled from the public counts (`sampling.sample_tile`, one tile
at a time from the counts left on its path, seeded by the order's number), so over
the iterations the search sees many orders, and a decision's statistics are shared
by every order that leads to it: the player's information set, not one guessed
future.

Every seat plays for itself (max^n): a leaf is worth one reward per player (the
`Config.leaf` evaluation: each player's lead over the best of the others), the whole
vector is backed up, and at each decision the deciding player picks by their own
component. Each decision node is expanded by evaluating every plan one decision ahead;
that value is the plan's prior: below the root it also counts as its first visit; at
the root it only orders the plans (see `_forget_priors`). Only the best `widen(n)`
plans by prior are open to selection after n visits (progressive widening), picked by
UCB1 on the deciding player's reward plus a progressive bias (`Config.bias` times the
plan's prior, in points behind the best plan, over its visits + 1), so the first
iterations go to the plans the evaluation likes and the bias fades as samples come in.
Leaves beyond the depth limit are evaluated, not played out: a random playout costs
more than many evaluations and tells less. Every sample of a plan should be taken at
the same horizon (`Config.depth_at`). At a table of three or more the strong level
gets there by a rollout (`Config.rollout`): a sample that expands a node above the
limit goes on through that node's best plan by its prior, so each sample runs through
every opponent's answer and the player's own next decision, each seat playing what
its evaluation likes best one decision ahead, before the leaf is evaluated.

`RootStats` is what a search learnt at its root; two searches of the same position
(root parallelism: `carca_bot.workers.Thinker` runs a second one on an idle worker)
add their visits up before the most visited plan is chosen.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from carca_bot.ai import sampling
from carca_bot.ai.evaluate import rewards, values
from carca_bot.ai.turns import Plan, plans, play, undo
from carca_bot.engine.game import Game, Phase
from carca_bot.engine.moves import Draw


@dataclass
class Decision:
    player: int
    plans: list[Plan] = field(default_factory=list)
    visits: list[int] = field(default_factory=list)
    sums: list[list[float]] = field(default_factory=list)  # reward per player, summed
    children: list[Node | None] = field(default_factory=list)
    priors: list[float] = field(default_factory=list)  # one decision ahead, minus the best
    total: int = 0
    expanded: bool = False


@dataclass
class Drawing:
    """The start of a turn: the next tile is drawn."""

    children: dict[str, Decision] = field(default_factory=dict)


Node = Decision | Drawing


Leaf = Callable[[Game], list[float]]  # each player's reward in a position


def plain_leaf(game: Game) -> list[float]:
    return rewards(values(game))


def light_leaf(game: Game) -> list[float]:
    """The easy level's view (the board as if the game ended now, no hand) as a leaf."""
    return rewards(values(game, light=True))


@dataclass(frozen=True)
class Config:
    """How a search spends its iterations (the strong level's are `players.STRONG`)."""

    explore: float = 3.0  # UCB's exploration, in points of reward
    bias: float = 0.0  # progressive bias: weight of a plan's prior (points behind the best)
    widen_base: float = 2.0  # plans open after n visits: 1 + base * n ** power
    widen_power: float = 0.5
    depth: int = 4  # decisions below the root before a leaf is evaluated (2 players)
    depth_many: int = 2  # ... at a table of three or more (see `depth_at`)
    leaf: Leaf = plain_leaf
    paranoid: bool = False  # every other player minimises the root player's reward
    # at a table of three or more, a node first reached above the depth limit is
    # expanded and the sample goes on through its best plan by prior, so every sample
    # ends at the one horizon (see `_goes_on`); two players keep the plain search
    rollout: bool = False

    def widen(self, visits: int) -> int:
        return 1 + int(self.widen_base * visits ** self.widen_power)

    def depth_at(self, players: int) -> int:
        """The depth limit at a table of `players`. Without a rollout a plan's mean
        mixes samples from every depth its subtree reached, and each decision below the
        root that is an opponent's lowers the root player's lead (their reply adds to
        their value). At two players the decisions alternate and that drift mostly
        cancels; at four, the three below the root are all opponents', so a plan
        visited more (its subtree deeper) looked worse for it. Measured at four players
        against three medium (the same 19 seeds): at depth 4, 26% of the wins at 130
        iterations against 63% at 60, where few samples went deeper; at depth 2, 53%
        at 130. So without a rollout `depth_many` is 2 (after the next player's
        answer); with one (`rollout`, the strong level) every sample ends at the limit
        whatever was expanded, and the strong level looks as far as its own next
        decision: 5 at four players (`players.STRONG`)."""
        return self.depth if players <= 2 else self.depth_many


DEFAULT = Config()


@dataclass(frozen=True)
class RootStats:
    """What a search learnt of each root plan: visits and summed reward of the player
    deciding; two searches of the same position add up (`merged`)."""

    plans: tuple[Plan, ...]
    visits: tuple[int, ...]
    sums: tuple[float, ...]
    priors: tuple[float, ...]

    def best(self) -> Plan:
        """The most visited plan, then the best mean, then the best prior."""
        def key(i: int) -> tuple[int, float, float]:
            n = self.visits[i]
            return (n, self.sums[i] / n if n else -math.inf, self.priors[i])

        return self.plans[max(range(len(self.plans)), key=key)]

    def merged(self, other: RootStats) -> RootStats:
        index = {plan: i for i, plan in enumerate(other.plans)}
        visits, sums = list(self.visits), list(self.sums)
        for i, plan in enumerate(self.plans):
            j = index.get(plan)
            if j is not None:
                visits[i] += other.visits[j]
                sums[i] += other.sums[j]
        return RootStats(self.plans, tuple(visits), tuple(sums), self.priors)


class Search:
    """One search from one position; `game` is a public copy it may push and pop."""

    def __init__(self, game: Game, tile: str | None, rng: random.Random,
                 config: Config = DEFAULT) -> None:
        self.config = config
        self.started = time.perf_counter()  # the root's expansion counts in the budget
        self.game = game
        self.rng = rng
        self.seed = rng.getrandbits(64)  # the search's own sampled orders come from it
        self.order = 0  # which sampled order of the pile this iteration follows
        self.depth = config.depth_at(len(game.players))
        self.rolls = config.rollout and len(game.players) > 2
        player = game.deciding
        assert player is not None
        self.root = Decision(player)
        self._expand(self.root, plans(game, tile))
        self._forget_priors(self.root)
        self.iterations = 0

    def run(self, seconds: float | None, iterations: int | None,
            stop: Callable[[], bool] | None = None) -> Plan:
        """Search until the time or the iteration budget is spent, or `stop()` says so
        (checked between iterations); the most visited plan. An iteration that would end
        past the time budget at the pace so far is not begun, so the search ends within
        its budget rather than one iteration past it."""
        deadline = None if seconds is None else self.started + seconds
        depth = len(self.game.frames)
        began = time.perf_counter()
        while iterations is None or self.iterations < iterations:
            if deadline is not None:
                now = time.perf_counter()
                pace = (now - began) / self.iterations if self.iterations else 0.0
                if now + pace >= deadline:
                    break
            if stop is not None and stop():
                break
            if len(self.root.plans) <= 1:
                break
            self._visit(self.root, 0)
            self.iterations += 1
            assert len(self.game.frames) == depth
        return self.best()

    def best(self) -> Plan:
        """The most visited plan, then the best mean, then the best prior."""
        return self.stats().best()

    def stats(self) -> RootStats:
        root = self.root
        player = root.player
        return RootStats(tuple(root.plans), tuple(root.visits),
                         tuple(s[player] for s in root.sums), tuple(root.priors))

    @staticmethod
    def _forget_priors(root: Decision) -> None:
        """At the root the one-decision values only order the plans (which open first):
        they are not counted as visits. Counted, they outweighed the few samples a
        budget buys, and a plan that leaves the next player a gift (worth much one
        decision ahead, little after the answer) kept its inflated mean; measured, the
        search then lost to medium, which judges plans after the answer alone."""
        players = len(root.sums[0]) if root.sums else 0
        root.visits = [0] * len(root.plans)
        root.sums = [[0.0] * players for _ in root.plans]
        root.total = 0

    # -- the tree -----------------------------------------------------------------------

    def _leaf(self) -> list[float]:
        reward = self.config.leaf(self.game)
        if self.config.paranoid:
            mine = reward[self.root.player]
            return [mine if p == self.root.player else -mine for p in range(len(reward))]
        return reward

    def _expand(self, node: Decision, options: list[Plan]) -> list[float]:
        """Evaluate every plan one decision ahead; returns the best one's rewards."""
        game, player = self.game, node.player
        scored: list[tuple[float, int, Plan, list[float]]] = []
        for index, plan in enumerate(options):
            count = play(game, plan)
            reward = self._leaf()
            undo(game, count)
            scored.append((reward[player], index, plan, reward))
        scored.sort(key=lambda item: (-item[0], item[1]))
        node.plans = [plan for _, _, plan, _ in scored]
        top = scored[0][0] if scored else 0.0
        node.priors = [worth - top for worth, _, _, _ in scored]
        node.sums = [reward for _, _, _, reward in scored]
        node.visits = [1] * len(scored)
        node.children = [None] * len(scored)
        node.total = len(scored)
        node.expanded = True
        return list(scored[0][3]) if scored else self._leaf()

    def _visit(self, node: Node, depth: int) -> list[float]:
        if isinstance(node, Drawing):
            return self._draw(node, depth)
        game = self.game
        if not node.expanded:
            reward = self._expand(node, plans(game))
            if not self._goes_on(node, depth):
                return reward
        if not node.plans:
            return self._leaf()
        pick = self._select(node)
        if depth == 0:
            # The k-th visit of every root plan follows the k-th sampled order of the
            # pile: the plans are compared on the same tiles (common random numbers),
            # so a lucky draw does not decide between them.
            self.order = node.visits[pick]
        plan = node.plans[pick]
        count = play(game, plan)
        try:
            child = node.children[pick]
            if child is None:
                child = node.children[pick] = self._child(plan)
            if child is None or depth + 1 >= self.depth:
                reward = self._leaf()
            else:
                reward = self._visit(child, depth + 1)
        finally:
            undo(game, count)
        node.visits[pick] += 1
        node.total += 1
        sums = node.sums[pick]
        for i, r in enumerate(reward):
            sums[i] += r
        return reward

    def _goes_on(self, node: Decision, depth: int) -> bool:
        """Whether a sample that just expanded `node` goes on below it (`Config.rollout`):
        then its plans' one-decision values only order them, as at the root."""
        if not self.rolls or depth + 1 >= self.depth or not node.plans:
            return False
        self._forget_priors(node)
        return True

    def _select(self, node: Decision) -> int:
        player = node.player
        config = self.config
        explore, bias = config.explore, config.bias
        log_total = math.log(max(node.total, 1))
        best, best_score = 0, -math.inf
        for i in range(min(len(node.plans), config.widen(node.total))):
            n = node.visits[i]
            if n == 0:
                return i  # an open plan not yet sampled (the root's, in prior order)
            score = (node.sums[i][player] / n + explore * math.sqrt(log_total / n)
                     + bias * node.priors[i] / (n + 1))
            if score > best_score:
                best, best_score = i, score
        return best

    def _child(self, plan: Plan) -> Node | None:
        """The node after `plan` was played (None: the game is over)."""
        game = self.game
        if game.finished:
            return None
        if isinstance(plan[-1], Draw):
            return Drawing()
        player = game.deciding
        assert player is not None
        if game.phase is Phase.TILE and not game.can_place_abbey(player):
            return Drawing()  # nothing to decide before the draw
        return Decision(player)

    def _draw(self, node: Drawing, depth: int) -> list[float]:
        game = self.game
        tile = sampling.sample_tile(
            game, random.Random(f"{self.seed}:{self.order}:{game.drawn}"))
        if tile is None:
            return self._leaf()
        child = node.children.get(tile)
        if child is None:
            player = game.deciding
            assert player is not None
            child = node.children[tile] = Decision(player)
            reward = self._expand(child, plans(game, tile))
            if not self._goes_on(child, depth):
                return reward
        return self._visit(child, depth)
