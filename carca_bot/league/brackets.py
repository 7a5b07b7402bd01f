"""Knockout brackets: single elimination (with an optional third-place match) and double
elimination, as functions of the seeding and the matches played so far.

Single elimination: round r's match k is played by the winners of round r-1's matches
2k-1 and 2k (ids `r{r}-{k}`); with `third_place`, the last round also has the match
`r{last}-3rd` between the semi-finals' losers.

Double elimination, for a bracket of S = 2^k places (seeds beyond the entrants are
byes): the winners' bracket W1..Wk is a single elimination; a player who loses there
drops into the losers' bracket L1..L(2k-2): L1 pairs the losers of W1; each even round
L(2m) pairs the winners of L(2m-1) with the losers of W(m+1), dropped in reverse order
every other round (so that two players who met in the winners' bracket do not meet
again at once); each odd round L(2m+1) pairs the winners of L(2m). A second loss ends a
player's event. The grand final (GF) is the winners' bracket champion against the
losers' one; if the losers' champion wins it and `bracket_reset` is on, both have lost
once and it is played again (GF2).

Rounds of the event: Wi is played in round i, Lj in round j+1, the grand final in round
2k and its replay in 2k+1; each round's matches all need results before the next round
is paired. Match ids name the bracket place: `r{round}-W{i}.{slot}`, `r{round}-L{j}.{slot}`,
`r{round}-GF`, `r{round}-GF2`. A place whose players are missing (a bye before, or a
withdrawal) has a bye (one player: they go through) or no match (none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from carca_bot.league.model import Match
from carca_bot.league.schedule import bracket_size, first_round

# Where a bracket place's player comes from: a seed's place in the first round, or the
# winner or loser of an earlier place.
Feed = tuple[str, str]  # ("seed", "i.slot") / ("win", key) / ("lose", key)


def depth(players: int) -> int:
    """k: the winners' bracket's rounds (a bracket of 2^k places)."""
    return bracket_size(players).bit_length() - 1


def double_rounds(players: int, reset: bool) -> int:
    """Rounds of a double elimination: 2k, one more when the grand final is replayed."""
    return 2 * depth(players) + (1 if reset else 0)


def key_of(match: Match) -> str:
    return match.id.split("-", 1)[1]


def _places(k: int, number: int) -> list[str]:
    """The bracket places played in event round `number`, in order."""
    places: list[str] = []
    if number <= k:
        places += [f"W{number}.{s}" for s in range(1, 2 ** (k - number) + 1)]
    j = number - 1
    if 1 <= j <= 2 * (k - 1):
        places += [f"L{j}.{s}" for s in range(1, _lb_slots(k, j) + 1)]
    if number == 2 * k:
        places.append("GF")
    if number == 2 * k + 1:
        places.append("GF2")
    return places


def _lb_slots(k: int, j: int) -> int:
    """Matches in losers' round j: L1 and L2 have S/4, L3 and L4 S/8, ..."""
    return 1 << (k - 1 - (j + 1) // 2)


def _feeds(place: str, k: int) -> tuple[Feed, Feed]:
    """Where a place's two players come from."""
    if place == "GF":
        return ("win", f"W{k}.1"), _losers_champion(k)
    if place == "GF2":
        return ("win", "GF"), ("lose", "GF")
    side, spot = place[0], place[1:]
    rnd, slot = (int(x) for x in spot.split("."))
    if side == "W":
        if rnd == 1:
            return ("seed", f"{slot}.0"), ("seed", f"{slot}.1")
        return ("win", f"W{rnd - 1}.{2 * slot - 1}"), ("win", f"W{rnd - 1}.{2 * slot}")
    if rnd == 1:
        return ("lose", f"W1.{2 * slot - 1}"), ("lose", f"W1.{2 * slot}")
    if rnd % 2 == 0:
        m = rnd // 2
        count = _lb_slots(k, rnd)
        drop = count + 1 - slot if m % 2 else slot
        return ("win", f"L{rnd - 1}.{slot}"), ("lose", f"W{m + 1}.{drop}")
    return ("win", f"L{rnd - 1}.{2 * slot - 1}"), ("win", f"L{rnd - 1}.{2 * slot}")


def _losers_champion(k: int) -> Feed:
    return ("win", f"L{2 * k - 2}.1") if k > 1 else ("lose", "W1.1")


def double_round(number: int, seeds: Sequence[str], earlier: Sequence[Match],
                 out: set[str], best_of: int, reset: bool) -> list[Match]:
    """The matches of a double elimination's round `number`."""
    k = depth(len(seeds))
    played = {key_of(m): m for m in earlier}
    firsts = first_round(seeds)
    seed_rank = {p: i for i, p in enumerate(seeds)}

    def player(feed: Feed) -> str | None:
        kind, ref = feed
        if kind == "seed":
            slot, side = (int(x) for x in ref.split("."))
            pair = firsts[slot - 1]
            return pair[side] if side < len(pair) else None
        m = played.get(ref)
        if m is None or not m.decided:
            return None
        if kind == "win":
            return m.winner
        return loser(m)

    matches = []
    for place in _places(k, number):
        if place == "GF2" and not (reset and needs_reset(played.get("GF"), seeds, earlier)):
            continue
        seats = [p for p in (player(f) for f in _feeds(place, k)) if p is not None
                 and p not in out]
        if seats:
            seats.sort(key=seed_rank.__getitem__)
            matches.append(Match(f"r{number}-{place}", number, tuple(seats),
                                 best_of=best_of, knockout=True))
    return matches


def loser(match: Match) -> str | None:
    """A decided two-player knockout match's loser (None for a bye)."""
    if match.bye or match.winner is None:
        return None
    return next(p for p in match.seats if p != match.winner)


def needs_reset(final: Match | None, seeds: Sequence[str], earlier: Sequence[Match]) -> bool:
    """Whether a decided grand final goes to a replay: its winner came from the losers'
    side (the caller checks the event wants replays)."""
    if final is None or not final.decided or final.bye:
        return False
    top = _top_champion(seeds, earlier)
    return top is not None and final.winner != top


def _top_champion(seeds: Sequence[str], matches: Sequence[Match]) -> str | None:
    k = depth(len(seeds))
    top = next((m for m in matches if key_of(m) == f"W{k}.1"), None)
    return None if top is None or not top.decided else top.winner


def double_places(seeds: Sequence[str], matches: Sequence[Match], out: set[str],
                  reset: bool) -> dict[str, int]:
    """Each player's place as far as the bracket says: the champion 1, the grand final's
    loser 2, then by the losers' round each went out in (later is better); players still
    in share the best place left."""
    losses = dict.fromkeys(seeds, 0)
    stage = dict.fromkeys(seeds, 0.0)
    for m in matches:
        for p in m.seats:
            stage[p] = max(stage[p], _stage(key_of(m)))
        gone = loser(m)
        if gone is not None:
            losses[gone] += 1
    by_key = {key_of(m): m for m in matches}
    final = by_key.get("GF2")
    if final is None or not final.decided:
        final = by_key.get("GF")
        if final is not None and reset and needs_reset(final, seeds, matches):
            final = None
    champion = final.winner if final is not None and final.decided else None
    value: dict[str, float] = {}
    for p in seeds:
        if champion is not None and final is not None and p in final.seats:
            value[p] = 1e9 if p == champion else 1e9 - 1
        elif champion is None and losses[p] < 2 and p not in out:
            value[p] = 1e8
        else:
            value[p] = stage[p]
    return _share(seeds, value)


def _stage(key: str) -> float:
    if key.startswith("L"):
        return float(key[1:].split(".")[0])
    return 0.0


def _share(players: Sequence[str], value: Mapping[str, float]) -> dict[str, int]:
    return {p: 1 + sum(value[q] > value[p] for q in players) for p in players}


def knockout_round(number: int, seeds: Sequence[str], before: Sequence[Match],
                   out: set[str], best_of: int, third_place: bool) -> list[Match]:
    """Single elimination's round `number` (and, in the last, the third-place match)."""
    if number == 1:
        slots: list[tuple[str, ...]] = [tuple(p) for p in first_round(seeds)]
    else:
        size = bracket_size(len(seeds)) // 2 ** (number - 1)
        by_id = {m.id: m for m in before}
        ahead: list[str | None] = []
        for slot in range(1, size + 1):
            m = by_id.get(f"r{number - 1}-{slot}")
            win = m.winner if m is not None else None
            ahead.append(win if win is not None and win not in out else None)
        slots = [tuple(p for p in (a, b) if p is not None)
                 for a, b in zip(ahead[::2], ahead[1::2], strict=True)]
    seed = {p: i for i, p in enumerate(seeds)}
    matches = []
    for slot, players in enumerate(slots, 1):
        players = tuple(p for p in players if p not in out)
        if players:
            seats = tuple(sorted(players, key=lambda p: seed[p]))
            matches.append(Match(f"r{number}-{slot}", number, seats, best_of=best_of,
                                 knockout=True))
    last = depth(len(seeds))
    if third_place and number == last and last >= 2:
        by_id = {m.id: m for m in before}
        semis = [by_id.get(f"r{number - 1}-{s}") for s in (1, 2)]
        losers = [loser(m) for m in semis if m is not None]
        seats = tuple(sorted((p for p in losers if p is not None and p not in out),
                             key=lambda p: seed[p]))
        if seats:
            matches.append(Match(f"r{number}-3rd", number, seats, best_of=best_of,
                                 knockout=True))
    return matches


def knockout_places(players: Sequence[str], matches: Sequence[Match]) -> dict[str, int]:
    """The place each player is sure of: 1 the champion, 2 the finalist, 3 the
    semi-finalists (3 and 4 once a third-place match is played), 5 the quarter-finalists...
    A player still in the bracket is shown at the place of the round they reached."""
    total = depth(len(players))
    out: dict[str, int] = {}
    third = next((m for m in matches if m.id.endswith("-3rd")), None)
    for p in players:
        mine = [m for m in matches if p in m.seats and m is not third]
        last = max(mine, key=lambda m: m.round, default=None)
        if last is None:
            out[p] = 2 ** total + 1
        elif last.winner == p and last.decided:
            out[p] = 2 ** (total - last.round - 1) + 1 if last.round < total else 1
        else:
            out[p] = 2 ** (total - last.round) + 1
    if third is not None and third.decided and not third.bye:
        gone = loser(third)
        if gone is not None:
            out[gone] = 4
    return out
