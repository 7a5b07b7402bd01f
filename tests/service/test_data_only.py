"""The service speaks data only: refusals are codes, notes are codes, the outbox stores
data; every code it can send has words in English and Spanish."""

from __future__ import annotations

import ast
import json
import re
import sqlite3
from pathlib import Path

import pytest

from carca_bot.engine.events import Event
from carca_bot.engine.moves import Deploy, Move, PlaceTile
from carca_bot.i18n import speaking
from carca_bot.service import (
    BadInput,
    GameOptions,
    GameService,
    IllegalMoveError,
    NotAllowed,
    Note,
    NotNow,
    ServiceError,
    Told,
)
from carca_bot.service.errors import SAID
from carca_bot.service.outbox import told_json, told_of
from carca_bot.words import say
from carca_bot.words.service import NOT_NOW, NOTES, SERVICE_REFUSALS
from tests.service.helpers import ANA, BEN, HERE, Clock, lines, said, started, who

SERVICE = Path(__file__).resolve().parents[2] / "carca_bot" / "service"
ERRORS = {"ServiceError", "NoGameHere", "NotInGame", "NotYourTurn", "NotAllowed", "ChannelBusy",
          "NotNow", "IllegalMoveError", "BadInput", "Unavailable", "LimitReached",
          "SavedNotShown", "GameMovedOn", "errors.ChannelBusy", "errors.GameMovedOn"}


def _calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(SERVICE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found.append((path.name, node))
    return found


def _name(func: ast.expr) -> str:
    return ast.unparse(func)


def test_no_service_refusal_is_a_sentence() -> None:
    """Every refusal the service raises names a code with words, never a sentence."""
    codes: set[str] = set()
    bad: list[str] = []
    for where, call in _calls():
        if _name(call.func) not in ERRORS or not call.args:
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            codes.add(first.value)
        elif isinstance(first, ast.JoinedStr) and ast.unparse(first) == "f'must_{must}'":
            continue  # NotNow(f"must_{must}"): the NOT_NOW table
        elif _name(first) not in ("exc.code", "MOVED_ON", "SAVED", "code"):
            bad.append(f"{where}: {ast.unparse(call)}")
    assert bad == []
    assert not {c for c in codes if " " in c}, "a sentence is not a code"
    assert codes - set(SERVICE_REFUSALS) - set(NOT_NOW) == set()
    assert SAID not in codes


def test_every_note_the_service_makes_has_words() -> None:
    codes = {call.args[0].value for _, call in _calls()
             if _name(call.func) == "Note" and call.args
             and isinstance(call.args[0], ast.Constant)}
    codes |= {"played_for_resigned", "played_for_late"}  # passed to `_auto` by name
    assert codes and codes - set(NOTES) == set()


def test_the_service_imports_no_words() -> None:
    """(tests/test_layers.py says the same for every layer; this names the reason.)"""
    for path in SERVICE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert not any(n.startswith(("carca_bot.words", "carca_bot.i18n"))
                           for n in names), path.name


def test_refusals_say_themselves_in_english_and_spanish() -> None:
    cases: list[ServiceError] = [
        NotNow("must_place"), NotAllowed("game_full", limit=4),
        BadInput("unknown_language", language="fr", choices=("en", "es")),
        NotAllowed("not_your_turn", must="place", name="Ana"),
        NotAllowed("games_per_user", count=1, limit=20),
    ]
    english = [say(e) for e in cases]
    assert english == [
        "first place your tile", "the game is full (4 players)",
        "unknown language 'fr': use en or es",
        "not your turn: waiting for Ana to place a tile",
        "you are already in 1 game (lobbies and running games; the limit is 20): finish, "
        "resign from or leave one first"]
    with speaking("es"):
        spanish = [say(e) for e in cases]
    assert all(s != e for s, e in zip(spanish, english, strict=True)), spanish
    assert "Ana" in spanish[3]


def test_steps_and_notes_are_data_said_by_words() -> None:
    assert say(PlaceTile("U", (1, 0), 1)) == "U at 1,0 turned 90"
    assert say(Deploy("follower", "E")) == "follower on E"
    assert say(Note("joined", {"name": "Ana 2"})) == "Ana 2 joined"
    assert say(Note("lobby_expired", {"days": 7.0})) == \
        "the lobby was closed: it was not started within 7 days"
    assert say("stored by an older version") == "stored by an older version"
    with speaking("es"):
        assert say(Deploy("follower", "E")) == "seguidor en E"


@pytest.mark.parametrize("item", [
    Event("score", (0,), 4, "city", ((0, 0), (0, 1)), "city",
          {"tiles": 2, "pennants": 0, "each": 2, "final": False}, 0, True, False),
    Event("challenge", (1,), 0, "city", (), "challenge",
          {"winner": "city", "winner_at": (1, 2), "loser": "monastery", "loser_at": (3, 4)}),
    Note("game_starts", {"order": ["Ben", "Ana"]}),
    Note("cancelled"),
    "a sentence stored by an older version",
])
def test_the_outbox_form_round_trips(item: Told) -> None:
    stored = json.loads(json.dumps(told_json(item)))
    if isinstance(item, Event):
        assert set(stored) == {"event"}
    elif isinstance(item, Note):
        assert set(stored) == {"note"}
    back = told_of(stored)
    assert back == item
    assert say(back, ["Ana", "Ben"]) == say(item, ["Ana", "Ben"])


def test_an_unreadable_outbox_item_is_kept_as_text() -> None:
    assert told_of({"future": {"x": 1}}) == '{"future": {"x": 1}}'
    assert told_of({"note": {"params": {}}}) == '{"note": {"params": {}}}'


async def test_the_outbox_stores_data_and_the_catch_up_says_it(db: Path, clock: Clock) -> None:
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service, (ANA, BEN))
        (owed,) = await service.pending_posts()
        catch = await service.events_since(owed.game_id, owed.posted_version)
        assert catch.lines == (Note("game_starts", {"order": [s.name for s in view.seats]}),)
        assert lines(catch) == said(view)
    finally:
        await service.close()
    with sqlite3.connect(db) as raw:
        (stored,) = raw.execute("SELECT lines FROM public_events").fetchone()
    assert json.loads(stored) == [{"note": {"code": "game_starts",
                                            "params": {"order": [s.name for s in view.seats]}}}]


async def test_an_old_plain_outbox_row_is_posted_as_it_is(db: Path, clock: Clock) -> None:
    """Rows a version before data stored are sentences: delivered word for word."""
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service, (ANA, BEN))
        (owed,) = await service.pending_posts()
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE public_events SET lines = ? WHERE game_id = ?",
                        (json.dumps(["Ana +2 for an old sentence", {"note": {
                            "code": "cancelled", "params": {}}}]), view.game_id))
        catch = await service.events_since(owed.game_id, owed.posted_version)
        assert catch.lines == ("Ana +2 for an old sentence", Note("cancelled"))
        assert lines(catch) == ["Ana +2 for an old sentence", "the game was cancelled"]
    finally:
        await service.close()


async def test_an_engine_refusal_keeps_its_code_params_and_names(db: Path,
                                                                clock: Clock) -> None:
    service = await GameService.open(db, clock=clock)
    try:
        view = await started(service, (ANA, BEN), GameOptions(seed=7))
        player = who(view)
        await service.begin_turn(HERE, player)
        with pytest.raises(IllegalMoveError) as refused:
            await service.place_tile(HERE, player, 9, 9, 0)
        err = refused.value
        assert err.engine and err.code == "tile_no_neighbour"
        assert err.params["square"] == (9, 9) and sorted(err.names) == ["Ana", "Ben"]
        assert "does not touch any placed tile" in say(err)
    finally:
        await service.close()


def _sample(code: str) -> dict[str, object]:
    """Params enough for any service refusal's words."""
    from carca_bot.engine.errors import IllegalMove

    rule = IllegalMove("no_tiles_left")
    return {"text": "Said", "figure": "follower", "tile": "U", "square": (1, 2), "game": 3,
            "must": "place", "name": "Ana", "limit": 4, "count": 2, "action": "join",
            "choices": ("en", "es"), "rule": "c3", "seconds": 60, "most": 6,
            "language": "fr", "scope": "x", "size": 5000, "detail": "", "index": 1,
            "refusal": rule, "days": 7}


@pytest.mark.parametrize("code", sorted(set(SERVICE_REFUSALS) - {"said"}) + sorted(NOT_NOW))
def test_every_service_refusal_is_translated(code: str) -> None:
    from carca_bot.i18n.pseudo import untranslated

    with speaking("qps"):
        text = say(NotAllowed(code, **_sample(code)))
    assert untranslated(text, frozenset({"Ana", "U", "fr", "c3", "x", "en", "es"})) == [], text


@pytest.mark.parametrize("code", sorted(NOTES))
def test_every_note_is_translated(code: str) -> None:
    from carca_bot.i18n.pseudo import untranslated

    with speaking("qps"):
        text = say(Note(code, {"name": "Ana", "order": ["Ana", "Ben"], "days": 7,
                               "target": "Ben", "votes": 1, "needed": 2, "seconds": 5400,
                               "deadline": 1_700_000_000.0}))
    assert untranslated(text, frozenset({"Ana", "Ben"})) == [], text


def test_every_clock_refusal_has_words() -> None:
    """The clock's refusal codes are passed on by variable (`BadInput(code)`), so the
    code scan above cannot see them: every code `ClockRules.problem`,
    `QuietHours.problem` and `vacation_problem` can return has words."""
    source = (SERVICE / "clocks.py").read_text(encoding="utf-8")
    codes = {node.value for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and re.fullmatch(r"[a-z]+(_[a-z]+)+", node.value)}
    assert {"clock_out_of_range", "no_vacations", "vacation_days_used"} <= codes
    assert codes - set(SERVICE_REFUSALS) == set()


def test_steps_prompts_and_labels_are_translated() -> None:
    from carca_bot.engine.moves import (
        DeclareEnd,
        Discard,
        Draw,
        EndTurn,
        MoveWagon,
        PlaceAbbey,
        PlaceToken,
        Recall,
        ReturnWagon,
        SkipAbbey,
    )
    from carca_bot.i18n.pseudo import untranslated
    from carca_bot.words import feature_label, must_words, prompt

    moves: list[Move] = [
        PlaceTile("U", (1, 0), 1), PlaceAbbey((1, 1)), Deploy("abbot", "C"), Recall(),
        PlaceToken((0, 0), "N", 0), Discard("U"), MoveWagon((0, 1), "N"), ReturnWagon(),
        SkipAbbey(), EndTurn(), Draw(), DeclareEnd()]
    musts = ("join", "choose", "place", "finish", "wagon", "abbey_round", "over")
    with speaking("qps"):
        texts = [say(m) for m in moves]
        texts += [prompt(m, name) for m in musts for name in (None, "Ana")]
        texts += [prompt("place", None, "U")]
        texts += [must_words(m, yours) for m in musts for yours in (False, True)]
        texts += [feature_label(k, w) for k, w in (("field", "SW"), ("city", "N"),
                                                   ("barn", "NW"), ("monastery", "C"),
                                                   ("road", "E"), ("field", "N"))]
    for text in texts:
        # a label inside a sentence is marked twice: take the inner marks out first
        while (flat := re.sub("⟦[^⟦⟧]*⟧", "", text)) != text and "⟦" in flat:
            text = flat
        assert untranslated(text, frozenset({"Ana", "U", "C", "N"})) == [], text
