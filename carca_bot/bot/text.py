"""Turning service results into the words of a Discord message.

Every name and every sentence from the service passes through `bot.safe` here:
names come from players and imported records, sentences may hold those names.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from carca_bot.bot.features import where_words
from carca_bot.bot.safe import clean, safe_name, sentence
from carca_bot.bot.safe import clip as clip_to
from carca_bot.bot.safe import safe_text as _safe_text
from carca_bot.engine.events import Event
from carca_bot.service import GameSummary, Told, TurnView
from carca_bot.words import must_words as task_words
from carca_bot.words import say, situation

MAX_CONTENT = 2000  # Discord's message length limit
SCORE_KINDS = ("score", "challenge", "king", "robber")
KIND_ORDER = ("road", "city", "monastery", "shrine", "abbey", "garden", "field", "barn",
              "king", "robber")


def names_of(view: TurnView) -> list[str]:
    return [s.name for s in view.seats]


def safe_text(view: TurnView, words: str) -> str:
    return _safe_text(words, names_of(view))


def mention(user_id: str | None, name: str) -> str:
    return f"<@{user_id}>" if user_id and user_id.isdigit() else f"**{safe_name(name)}**"


def pinged(view: TurnView) -> list[str]:
    """The users a public post about `view` pings: the one who must act next."""
    if view.finished or view.deciding is None or not view.deciding.user_id:
        return []
    return [view.deciding.user_id] if view.deciding.user_id.isdigit() else []


def must_words(view: TurnView) -> str:
    """'place a tile', said to the player who must do it."""
    return task_words(view.must, yours=True)


def scores_line(view: TurnView) -> str:
    return " · ".join(f"{safe_name(s.name)} {s.score}" + (" (resigned)" if s.resigned else "")
                      for s in view.standings)


def timer_words(view: TurnView) -> str:
    """'⏳ Turn ends <t:…:R>.' while a timed turn runs; the time per turn in a lobby."""
    timer = view.options.turn_timer
    if timer is None:
        return ""
    if view.status == "lobby":
        hours, rest = divmod(timer, 3600)
        size = f"{hours} h" + (f" {rest // 60} min" if rest >= 60 else "") if hours else (
            f"{timer // 60} min")
        then = " (played for you when it runs out)" if view.options.auto_play else ""
        return f"⏳ Turn timer: {size} per turn{then}."
    if view.status == "active" and view.deadline is not None:
        return f"⏳ This turn ends <t:{int(view.deadline)}:R>."
    return ""


def next_line(view: TurnView, tile: str | None = None) -> str:
    """Who must act next, with a mention so they are notified."""
    if view.status == "lobby":
        return sentence(situation(view), names_of(view)) + "."
    if view.deciding is None:
        return ""
    who = mention(view.deciding.user_id, view.deciding.name)
    place = (f"your turn: you drew **{tile}** (where it fits is below); place it with "
             "`/carc place`" if tile else "your turn: press **My tile** or use `/carc place`")
    doing = {
        "choose": "your turn: draw a tile or place your abbey",
        "place": place,
        "finish": "finish your turn and `/carc confirm`",
        "wagon": "your wagon's feature was scored: `/carc wagon` to move it or return it",
        "abbey_round": "place your abbey (`/carc abbey`) or skip it",
    }.get(view.must, safe_text(view, situation(view)))
    timer = timer_words(view)
    return f"{who}, {doing}." + (f" {timer}" if timer else "")


def describe_action(action: dict[str, Any]) -> str:
    """'**Ana** placed V at 2,8 (turned 180°) with a follower on E.' from a record action."""
    who = f"**{safe_name(str(action.get('by', '?')))}**"
    if "wagon" in action:
        target = action["wagon"]
        if target == "return":
            return f"{who} took their wagon back."
        return (f"{who} moved their wagon to {target['on']} ({where_words(target['on'])}) at "
                f"{_xy(target['at'])}.")
    if action.get("abbey") == "skip":
        return f"{who} kept their abbey."
    if "abbey" in action:
        done = f"{who} placed their abbey at {_xy(action['abbey'])}"
    elif "tile" in action:
        done = (f"{who} placed {action['tile']} at {_xy(action['at'])} "
                f"(turned {action['rot']}°)")
    else:
        return ""
    extras = []
    if "deploy" in action:
        figure, on = action["deploy"]["figure"], action["deploy"]["on"]
        article = "an" if figure[:1] in "aeiou" else "a"
        extras.append(f"{article} {figure} on {on} ({where_words(on)})")
    if action.get("recall"):
        extras.append("recalling their abbot")
    if "token" in action:
        token = action["token"]
        extras.append(f"a tunnel token (pair {token['pair'] + 1}) on {token['on']} at "
                      f"{_xy(token['at'])}")
    return done + (" with " + " and ".join(extras) if extras else "") + "."


def _xy(square: list[int]) -> str:
    return f"{square[0]},{square[1]}"


def public_update(view: TurnView, actor: str | None = None,
                  action: dict[str, Any] | None = None, tile: str | None = None) -> str:
    """The message after a confirmed move: what happened, the scores, who is next."""
    lines: list[str] = []
    said = describe_action(action) if action else ""
    if said:
        lines.append(said)
    elif actor:
        lines.append(f"**{safe_name(actor)}** moved.")
    lines.extend(f"• {sentence(say(event, names_of(view)), names_of(view))}"
                 for event in view.events)
    if view.status in ("active", "finished"):
        lines.append(f"Scores: {scores_line(view)} · tiles left: {view.tiles_left}")
    lines.append(final_line(view) if view.finished else next_line(view, tile))
    return clip("\n".join(line for line in lines if line))


def catch_up(view: TurnView, lines: Iterable[Told],
             played: Iterable[dict[str, Any]]) -> str:
    """A public post delivered late (Discord refused it, or the bot restarted first):
    what was played and said since the last post, then the game as it is now."""
    said = [f"• {d}" for d in (describe_action(a) for a in played) if d]
    now = dataclasses.replace(view, events=tuple(lines))
    head = f"📬 Game #{view.game_id}: this could not be posted when it happened."
    return clip("\n".join([head, *said, public_update(now)]))


def final_line(view: TurnView) -> str:
    if view.status == "cancelled":
        return "The game was cancelled."
    standing = [s for s in view.standings if not s.resigned]
    if not standing:
        return "The game is over."
    top = standing[0].score
    winners = [safe_name(s.name) for s in standing if s.score == top]
    if len(winners) == 1:
        return f"🏆 **{winners[0]}** wins with {top} points!"
    return f"🏆 Shared victory for {', '.join(winners)} with {top} points!"


def ranking(view: TurnView) -> str:
    return "\n".join(f"{i}. {safe_name(s.name)}: {s.score}" + (" (resigned)" if s.resigned
                                                                else "")
                     for i, s in enumerate(view.standings, 1))


def scorings(events: Iterable[Event], with_gardens: bool) -> list[Event]:
    """The scorings worth listing: someone scored, and gardens only with the Abbot."""
    return [e for e in events if e.kind in SCORE_KINDS and e.players
            and (with_gardens or e.feature != "garden")]


def grouped(events: Iterable[Event], names: list[str]) -> list[str]:
    """'Cities: Ana 24 (3), Ben 10 (2)': points by feature kind and player."""
    table: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for e in events:
        for p in e.players:
            cell = table[e.feature or e.kind][p]
            cell[0] += e.points
            cell[1] += 1
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    lines = []
    for kind in sorted(table, key=lambda k: (order.get(k, len(order)), k)):
        cells = sorted(table[kind].items(), key=lambda pc: (-pc[1][0], pc[0]))
        who = ", ".join(f"{safe_name(names[p]) if p < len(names) else '?'} {pts} ({n})"
                        for p, (pts, n) in cells)
        lines.append(f"• {_plural(kind)}: {who}")
    return lines


def _plural(kind: str) -> str:
    special = {"city": "Cities", "king": "King", "robber": "Robber"}
    return special.get(kind, kind.capitalize() + "s")


def final_post(view: TurnView, action_line: str, events: list[Event], names: list[str],
               with_gardens: bool) -> str:
    """The last post of a game: winner and ranking first, then the final scoring grouped.

    Always fits one message: what does not fit is left to the attached full list.
    """
    head = [final_line(view), "**Final ranking**", ranking(view)]
    if action_line:
        head.insert(0, action_line)
    tail = "The full list of scorings is in the attached file."
    body = grouped(scorings([e for e in events if e.final], with_gardens), names)
    lines = [*head]
    if body:
        lines.append("**Final scoring** (points, and how many features, by kind):")
    used = len("\n".join(lines)) + len(tail) + 2
    for line in body:
        if used + len(line) + 1 > MAX_CONTENT - 20:
            lines.append("…")
            break
        lines.append(line)
        used += len(line) + 1
    lines.append(tail)
    return "\n".join(lines)


def full_scoring(view: TurnView, events: Iterable[Event], names: list[str],
                 with_gardens: bool) -> str:
    """Every scoring of the game as plain text, for a file attachment."""
    out = [f"Carcassonne game #{view.game_id}: final ranking"]
    out.extend(f"{i}. {_plain(s.name)}: {s.score}" + (" (resigned)" if s.resigned else "")
               for i, s in enumerate(view.standings, 1))
    listed = scorings(events, with_gardens)
    out.append("")
    out.append("During the game:")
    out.extend(f"- {_plain(say(e, names))}" for e in listed if not e.final)
    out.append("")
    out.append("Final scoring:")
    out.extend(f"- {_plain(say(e, names))}" for e in listed if e.final)
    return "\n".join(out) + "\n"


def _plain(words: str) -> str:
    return clip_to(clean(words), 400)


def private_update(view: TurnView) -> str:
    """What the acting player sees after a step: the turn so far and what comes next."""
    names = names_of(view)
    lines = [f"• {sentence(say(event, names), names)}" for event in view.events]
    if view.steps:
        lines.append("This turn so far: " + "; ".join(safe_text(view, say(s)) for s in view.steps))
    lines.append(sentence(situation(view), names) + ".")
    timer = timer_words(view)
    if timer:
        lines.append(timer)
    return clip("\n".join(lines))


def status_text(view: TurnView) -> str:
    lines = [f"Game #{view.game_id} · {view.status}"]
    ex = ", ".join(sorted(view.options.expansions)).replace("_", "\\_") or "base game only"
    lines.append(f"Expansions: {ex} · wagon rule {view.options.wagon_rule}")
    for seat in view.seats:
        hand = ", ".join(f"{k} {v}" for k, v in seat.in_hand.items())
        marker = "▶ " if view.deciding is not None and seat.seat == view.deciding.seat else "  "
        lines.append(f"{marker}{seat.seat + 1}. {safe_name(seat.name)}: {seat.score} points"
                     + (f" ({hand})" if hand else "") + (" · resigned" if seat.resigned else ""))
    if view.status == "active":
        lines.append(f"Tiles left: {view.tiles_left}")
    lines.append(sentence(situation(view), names_of(view)) + ".")
    timer = timer_words(view)
    if timer:
        lines.append(timer)
    return clip("\n".join(lines))


def games_text(games: list[GameSummary]) -> str:
    if not games:
        return "You are not in any game. Start one with `/carc create`."
    lines = []
    for g in games:
        scores = ", ".join(f"{safe_name(n)} {s}" for n, s in zip(g.players, g.scores,
                                                                 strict=True))
        turn = " · **your turn**" if g.your_turn else (
            f" · waiting for {safe_name(g.waiting_for)}" if g.waiting_for else "")
        lines.append(f"#{g.game_id} in <#{g.where.channel}> · {g.status}: {scores}{turn}")
    return clip("\n".join(lines))


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[:MAX_CONTENT - 1] + "…"
