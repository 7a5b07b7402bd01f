"""Turning service results into the words of a Discord message."""

from __future__ import annotations

from typing import Any

from carca_bot.service import GameSummary, TurnView

MAX_CONTENT = 2000  # Discord's message length limit


def mention(user_id: str | None, name: str) -> str:
    return f"<@{user_id}>" if user_id and user_id.isdigit() else f"**{name}**"


def scores_line(view: TurnView) -> str:
    return " · ".join(f"{s.name} {s.score}" + (" (resigned)" if s.resigned else "")
                      for s in view.standings)


def next_line(view: TurnView, tile: str | None = None) -> str:
    """Who must act next, with a mention so they are notified."""
    if view.status == "lobby":
        return view.prompt
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
    }.get(view.must, view.prompt)
    return f"{who}, {doing}."


def describe_action(action: dict[str, Any]) -> str:
    """'**Ana** placed V at 2,8 (turned 180°) with a follower on E.' from a record action."""
    who = f"**{action.get('by', '?')}**"
    if "wagon" in action:
        target = action["wagon"]
        if target == "return":
            return f"{who} took their wagon back."
        return f"{who} moved their wagon to {target['on']} at {_xy(target['at'])}."
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
        extras.append(f"a {action['deploy']['figure']} on {action['deploy']['on']}")
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
        lines.append(f"**{actor}** moved.")
    lines.extend(f"• {event}" for event in view.events)
    if view.status in ("active", "finished"):
        lines.append(f"Scores: {scores_line(view)} · tiles left: {view.tiles_left}")
    if view.finished:
        lines.append(final_line(view))
    else:
        lines.append(next_line(view, tile))
    return clip("\n".join(line for line in lines if line))


def final_line(view: TurnView) -> str:
    if view.status == "cancelled":
        return "The game was cancelled."
    standing = [s for s in view.standings if not s.resigned]
    if not standing:
        return "The game is over."
    top = standing[0].score
    winners = [s.name for s in standing if s.score == top]
    if len(winners) == 1:
        return f"🏆 **{winners[0]}** wins with {top} points!"
    return f"🏆 Shared victory for {', '.join(winners)} with {top} points!"


def private_update(view: TurnView) -> str:
    """What the acting player sees after a step: the turn so far and what comes next."""
    lines = [f"• {event}" for event in view.events]
    if view.steps:
        lines.append("This turn so far: " + "; ".join(view.steps))
    lines.append(view.prompt[:1].upper() + view.prompt[1:] + ".")
    return clip("\n".join(lines))


def status_text(view: TurnView) -> str:
    lines = [f"Game #{view.game_id} · {view.status}"]
    ex = ", ".join(sorted(view.options.expansions)) or "base game only"
    lines.append(f"Expansions: {ex} · wagon rule {view.options.wagon_rule}")
    for seat in view.seats:
        hand = ", ".join(f"{k} {v}" for k, v in seat.in_hand.items())
        marker = "▶ " if view.deciding is not None and seat.seat == view.deciding.seat else "  "
        lines.append(f"{marker}{seat.seat + 1}. {seat.name}: {seat.score} points"
                     + (f" ({hand})" if hand else "") + (" · resigned" if seat.resigned else ""))
    if view.status == "active":
        lines.append(f"Tiles left: {view.tiles_left}")
    lines.append(view.prompt[:1].upper() + view.prompt[1:] + ".")
    return clip("\n".join(lines))


def games_text(games: list[GameSummary]) -> str:
    if not games:
        return "You are not in any game. Start one with `/carc create`."
    lines = []
    for g in games:
        scores = ", ".join(f"{n} {s}" for n, s in zip(g.players, g.scores, strict=True))
        turn = " · **your turn**" if g.your_turn else (
            f" · waiting for {g.waiting_for}" if g.waiting_for else "")
        lines.append(f"#{g.game_id} in <#{g.where.channel}> · {g.status}: {scores}{turn}")
    return clip("\n".join(lines))


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[:MAX_CONTENT - 1] + "…"
