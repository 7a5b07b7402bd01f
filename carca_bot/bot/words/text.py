"""Turning service results into the words of a Discord message.

Every name and every sentence from the service passes through `bot.safe` here:
names come from players and imported records, sentences may hold those names.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Iterable

from carca_bot.bot.words import names as vocab
from carca_bot.bot.words.features import where_words
from carca_bot.bot.words.safe import clean, safe_name, sentence
from carca_bot.bot.words.safe import clip as clip_to
from carca_bot.bot.words.safe import safe_text as _safe_text
from carca_bot.engine.events import Event
from carca_bot.engine.moves import (
    Deploy,
    MoveWagon,
    PlaceAbbey,
    PlaceTile,
    PlaceToken,
    Recall,
    ReturnWagon,
    SkipAbbey,
)
from carca_bot.i18n import Domain
from carca_bot.service import Played, Told, TurnView
from carca_bot.words import must_now, say, situation
from carca_bot.words import must_words as task_words

_T = Domain("bot")
_ = _T.gettext
ngettext = _T.ngettext
pgettext = _T.pgettext

MAX_CONTENT = 2000  # Discord's message length limit
SCORE_KINDS = ("score", "challenge", "king", "robber")
KIND_ORDER = ("road", "city", "monastery", "shrine", "abbey", "garden", "field", "barn", "goods",
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
    return task_words(must_now(view.must, view.tiles_left), yours=True)


def scored(name: str, score: int, resigned: bool) -> str:
    """'Ana 12', or 'Ana 12 (resigned)'."""
    if resigned:
        return _("{name} {score} (resigned)").format(name=safe_name(name), score=score)
    return f"{safe_name(name)} {score}"


def scores_line(view: TurnView) -> str:
    return " · ".join(scored(s.name, s.score, s.resigned) for s in view.standings)


def timer_words(view: TurnView) -> str:
    """'⏳ Turn ends <t:…:R>.' while a timed turn runs; the time per turn in a lobby."""
    timer = view.options.turn_timer
    if timer is None:
        return ""
    if view.status == "lobby":
        size = duration(timer)
        if view.options.auto_play:
            return _("⏳ Turn timer: {time} per turn (played for you when it runs out)."
                     ).format(time=size)
        return _("⏳ Turn timer: {time} per turn.").format(time=size)
    if view.status == "active" and view.deadline is not None:
        return _("⏳ This turn ends {when}.").format(when=f"<t:{int(view.deadline)}:R>")
    return ""


def duration(seconds: int) -> str:
    """'2 h 30 min', '45 min': a time per turn (a length, not a date)."""
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    if hours and minutes:
        return _("{hours} h {minutes} min").format(hours=hours, minutes=minutes)
    if hours:
        return _("{hours} h").format(hours=hours)
    return _("{minutes} min").format(minutes=seconds // 60)


def next_line(view: TurnView, tile: str | None = None, picture_below: bool = True) -> str:
    """Who must act next, with a mention so they are notified. `picture_below`: the
    message shows where the drawn tile fits under these words (not on the card)."""
    if view.status == "lobby":
        return sentence(situation(view), names_of(view)) + "."
    if view.deciding is None:
        return ""
    who = mention(view.deciding.user_id, view.deciding.name)
    if tile and not picture_below:
        place = _("{who}, your turn: you drew **{tile}**; press **My tile** to see where it "
                  "fits, or use `/carc place`.")
    elif tile:
        place = _("{who}, your turn: you drew **{tile}** (where it fits is below); place it "
                  "with `/carc place`.")
    else:
        place = _("{who}, your turn: press **My tile** or use `/carc place`.")
    said = {
        "choose": _("{who}, your turn: draw a tile or place your abbey."),
        "place": place,
        "finish": _("{who}, finish your turn and `/carc confirm`."),
        "wagon": _("{who}, your wagon's feature was scored: `/carc wagon` to move it or "
                   "return it."),
        "abbey_round": _("{who}, place your abbey (`/carc abbey`) or skip it."),
        "abbey": _("{who}, no tile is left to draw: place your abbey (`/carc abbey`)."),
    }
    must = must_now(view.must, view.tiles_left)
    if must in said:
        line = said[must].format(who=who, tile=tile)
    else:
        doing = safe_text(view, situation(view))
        line = _("{who}, {doing}.").format(who=who, doing=doing)
    if view.part == 2:  # a builder's double turn: the same turn goes on
        line += " " + _("(The second part of the turn: the builder's road or city grew.)")
    timer = timer_words(view)
    return line + (f" {timer}" if timer else "")


def describe(done: Played) -> str:
    """'**Ana** placed V at 2,8, turned 180°. **Ana** put a follower on E (east edge).'
    from a played action: one whole sentence per thing done (the placement first, then
    the figure, the recall and the token); empty for a discard or the end of the pile."""
    who = f"**{safe_name(done.by or '?')}**"
    said: dict[int, str] = {}
    for move in done.moves:
        match move:
            case ReturnWagon():
                return _("{who} took their wagon back.").format(who=who)
            case MoveWagon(pos, on):
                return _("{who} moved their wagon to {on} ({where}) at {square}.").format(
                    who=who, on=on, where=where_words(on), square=_xy(pos))
            case SkipAbbey():
                return _("{who} kept their abbey.").format(who=who)
            case PlaceAbbey(pos):
                said[0] = _("{who} placed their abbey at {square}.").format(
                    who=who, square=_xy(pos))
            case PlaceTile(tile, pos, rot):
                said[0] = _("{who} placed {tile} at {square}, turned {rotation}°.").format(
                    who=who, tile=tile, square=_xy(pos), rotation=rot * 90)
            case _:
                said.update(_step_words(who, move))
    return " ".join(said[k] for k in sorted(said)) if 0 in said else ""


def _step_words(who: str, move: object) -> dict[int, str]:
    """The figure (1), recall (2) and token (3) sentences of a turn, by their place."""
    match move:
        case Deploy(figure, on):
            return {1: _("{who} put {figure} on {on} ({where}).").format(
                who=who, figure=vocab.a_figure(figure), on=on, where=where_words(on))}
        case Recall():
            return {2: _("{who} recalled their abbot.").format(who=who)}
        case PlaceToken(pos, on, pair):
            return {3: _("{who} put a tunnel token (pair {pair}) on {on} at {square}.").format(
                who=who, pair=pair + 1, on=on, square=_xy(pos))}
    return {}


def _xy(square: tuple[int, int]) -> str:
    return f"{square[0]},{square[1]}"


def public_update(view: TurnView, actor: str | None = None, last: Played | None = None,
                  tile: str | None = None) -> str:
    """The message after a confirmed move: what happened, the scores, who is next."""
    lines = [move_lines(view, actor, last)]
    if view.status in ("active", "finished"):
        lines.append(_("Scores: {scores} · tiles left: {tiles}").format(
            scores=scores_line(view), tiles=view.tiles_left))
    lines.append(final_line(view) if view.finished else next_line(view, tile))
    return clip("\n".join(line for line in lines if line))


def move_lines(view: TurnView, actor: str | None = None, last: Played | None = None) -> str:
    """What the last command did and what it scored, one line each."""
    lines: list[str] = []
    said = describe(last) if last is not None else ""
    if said:
        lines.append(said)
    elif actor:
        lines.append(_("**{name}** moved.").format(name=safe_name(actor)))
    lines.extend(f"• {sentence(say(event, names_of(view)), names_of(view))}"
                 for event in view.events)
    return "\n".join(lines)


def catch_up(view: TurnView, lines: Iterable[Told], done: Iterable[Played],
             later_game: int | None = None) -> str:
    """A public post delivered late (Discord refused it, or the bot restarted first):
    what was played and said since the last post, then the game as it is now.
    `later_game`: a game begun in the channel since, among whose messages this lands."""
    said = [f"• {d}" for d in map(describe, done) if d]
    now = dataclasses.replace(view, events=tuple(lines))
    if later_game is None:
        head = _("📬 Game #{game}: this could not be posted when it happened.").format(
            game=view.game_id)
    else:
        head = _("📬 About the earlier game #{game}, not game #{now} now played here: "
                 "this could not be posted when it happened.").format(
            game=view.game_id, now=later_game)
    return clip("\n".join([head, *said, public_update(now)]))


def final_line(view: TurnView) -> str:
    if view.status == "cancelled":
        return _("The game was cancelled.")
    standing = [s for s in view.standings if not s.resigned]
    if not standing:
        return _("The game is over.")
    top = standing[0].score
    winners = [safe_name(s.name) for s in standing if s.score == top]
    if len(winners) == 1:
        return ngettext("🏆 **{name}** wins with {points} point!",
                        "🏆 **{name}** wins with {points} points!", top).format(
            name=winners[0], points=top)
    return ngettext("🏆 Shared victory for {names} with {points} point!",
                    "🏆 Shared victory for {names} with {points} points!", top).format(
        names=", ".join(winners), points=top)


def ranking(view: TurnView) -> str:
    return "\n".join(f"{i}. " + scored_line(s.name, s.score, s.resigned, safe_name)
                     for i, s in enumerate(view.standings, 1))


def scored_line(name: str, score: int, resigned: bool,
                show: Callable[[str], str]) -> str:
    """'Ana: 12' or 'Ana: 12 (resigned)' in a ranking."""
    if resigned:
        return _("{name}: {score} (resigned)").format(name=show(name), score=score)
    return f"{show(name)}: {score}"


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
        lines.append(_("• {kind}: {scores}").format(kind=vocab.kind_heading(kind), scores=who))
    return lines


def final_post(view: TurnView, action_line: str, events: list[Event], names: list[str],
               with_gardens: bool) -> str:
    """The last post of a game: winner and ranking first, then the final scoring grouped.

    Always fits one message: what does not fit is left to the attached full list.
    """
    head = [final_line(view), _("**Final ranking**"), ranking(view)]
    if action_line:
        head.insert(0, action_line)
    tail = _("The full list of scorings is in the attached file.")
    body = grouped(scorings([e for e in events if e.final], with_gardens), names)
    lines = [*head]
    if body:
        lines.append(_("**Final scoring** (points, and how many features, by kind):"))
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
    out = [_("Carcassonne game #{game}: final ranking").format(game=view.game_id)]
    out.extend(f"{i}. " + scored_line(s.name, s.score, s.resigned, _plain)
               for i, s in enumerate(view.standings, 1))
    listed = scorings(events, with_gardens)
    out.append("")
    out.append(_("During the game:"))
    out.extend(f"- {_plain(say(e, names))}" for e in listed if not e.final)
    out.append("")
    out.append(_("Final scoring:"))
    out.extend(f"- {_plain(say(e, names))}" for e in listed if e.final)
    return "\n".join(out) + "\n"


def _plain(words: str) -> str:
    return clip_to(clean(words), 400)


def private_update(view: TurnView) -> str:
    """What the acting player sees after a step: the turn so far and what comes next."""
    names = names_of(view)
    lines = [f"• {sentence(say(event, names), names)}" for event in view.events]
    if view.steps:
        so_far = "; ".join(safe_text(view, say(s)) for s in view.steps)
        lines.append(_("This turn so far: {steps}").format(steps=so_far))
    lines.append(sentence(situation(view), names) + ".")
    timer = timer_words(view)
    if timer:
        lines.append(timer)
    return clip("\n".join(lines))


def status_text(view: TurnView) -> str:
    lines = [_("Game #{game} · {status}").format(game=view.game_id,
                                                 status=vocab.status(view.status))]
    lines.append(_("Expansions: {expansions} · wagon rule: {rule}").format(
        expansions=vocab.expansions(view.options.expansions),
        rule=vocab.wagon_rule(view.options.wagon_rule)))
    for seat in view.seats:
        hand = ", ".join(vocab.held(k, v) for k, v in seat.in_hand.items())
        marker = "▶ " if view.deciding is not None and seat.seat == view.deciding.seat else "  "
        points = vocab.points(seat.score)
        if hand:
            points = _("{points} ({held})").format(points=points, held=hand)
        if seat.resigned:
            points = _("{points} · resigned").format(points=points)
        lines.append(f"{marker}{seat.seat + 1}. {safe_name(seat.name)}: {points}")
    if view.status == "active":
        lines.append(_("Tiles left: {tiles}").format(tiles=view.tiles_left))
    lines.append(sentence(situation(view), names_of(view)) + ".")
    timer = timer_words(view)
    if timer:
        lines.append(timer)
    return clip("\n".join(lines))


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[:MAX_CONTENT - 1] + "…"


def with_notes(content: str, notes: Iterable[str]) -> str:
    """`content` with notes on its last lines, clipped so that the notes always show."""
    tail = "\n".join(notes)
    if not tail:
        return clip(content)
    room = MAX_CONTENT - len(tail) - 1
    head = content if len(content) <= room else content[:max(room - 1, 0)] + "…"
    return f"{head}\n{tail}"
