"""A game's options: what its creator chose (expansions, timer or clock, seats, language,
AI and hints), checked when they are made and stored as JSON with the game.

Every name here is also importable from `service.model`, where callers have always
found it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.engine.setup import WAGON_RULES
from carca_bot.service.clocks import PRESETS, ClockRules, QuietHours
from carca_bot.service.errors import BadInput

MAX_PLAYERS = 6
MIN_TIMER = 60  # seconds
MIN_AI_SECONDS, MAX_AI_SECONDS = 0.1, 10.0  # what an AI seat may be given to think
# The languages a game or a preference may be set to: `carca_bot.i18n.LANGUAGES` (the
# service speaks none of them itself; tests/service/test_language.py keeps them equal).
# `check_language` reads it here, so a test adding the pseudo-locale patches it here.
LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class GameOptions:
    """Choices made when a game is created; stored as JSON with the game."""

    expansions: frozenset[str] = frozenset()
    wagon_rule: str = "c2"
    turn_timer: int | None = None  # seconds per decision; None: no timer
    auto_play: bool = False  # when the timer runs out, play the turn for the player
    max_players: int = MAX_PLAYERS
    allow_solo: bool = False  # the host may start alone
    # None: a secret random seed at creation. Never shown while the game can deal.
    seed: int | None = field(default=None, repr=False)
    tunnel_pairs: int | None = None
    start: tuple[str, int] | None = None  # start tile and quarter turns (imported records)
    analysis: bool = False  # an imported record: the host plays every seat
    language: str = DEFAULT_LANGUAGE  # what the game's public posts speak (LANGUAGES)
    # A turn-based clock (time bank per player; see `clock_rules` for the forms it is
    # given in); a game has either this or `turn_timer`, or neither.
    clock: ClockRules | None = None
    # A game that changes nobody's rating (games are rated by default: see ratings_ops).
    unrated: bool = False
    hints: bool = False  # the player to act may ask the AI for a move (`GameService.hint`)
    # Seconds an AI seat may think per decision; None: its level's default (`ai_play`).
    ai_seconds: float | None = None

    def __post_init__(self) -> None:
        unknown = sorted(self.expansions - set(EXPANSIONS))
        if unknown:
            raise BadInput("unknown_expansion", name=unknown[0], choices=EXPANSIONS)
        if self.wagon_rule not in WAGON_RULES:
            raise BadInput("unknown_wagon_rule", rule=self.wagon_rule)
        if self.turn_timer is not None and self.turn_timer < MIN_TIMER:
            raise BadInput("timer_too_short", seconds=MIN_TIMER)
        if not 1 <= self.max_players <= MAX_PLAYERS:
            raise BadInput("bad_max_players", most=MAX_PLAYERS)
        if self.tunnel_pairs is not None and self.tunnel_pairs < 0:
            raise BadInput("bad_tunnel_pairs")
        if self.auto_play and self.turn_timer is None:
            raise BadInput("auto_play_needs_timer")
        if self.clock is not None:
            if self.turn_timer is not None:
                raise BadInput("clock_and_timer")
            code = self.clock.problem()
            if code is not None:
                raise BadInput(code)
        check_language(self.language)
        if self.ai_seconds is not None and not MIN_AI_SECONDS <= self.ai_seconds <= MAX_AI_SECONDS:
            raise BadInput("bad_ai_seconds", seconds=MIN_AI_SECONDS, most=MAX_AI_SECONDS)

    def to_json(self) -> dict[str, Any]:
        return {
            "expansions": [e for e in EXPANSIONS if e in self.expansions],
            "wagon_rule": self.wagon_rule,
            "turn_timer": self.turn_timer,
            "auto_play": self.auto_play,
            "max_players": self.max_players,
            "allow_solo": self.allow_solo,
            "seed": self.seed,
            "tunnel_pairs": self.tunnel_pairs,
            "start": None if self.start is None else list(self.start),
            "analysis": self.analysis,
            "language": self.language,
            "clock": None if self.clock is None else clock_json(self.clock),
            "unrated": self.unrated,
            "hints": self.hints,
            "ai_seconds": self.ai_seconds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOptions:
        start = data.get("start")
        return cls(
            expansions=frozenset(data.get("expansions", ())),
            wagon_rule=data.get("wagon_rule", "c2"),
            turn_timer=data.get("turn_timer"),
            auto_play=bool(data.get("auto_play", False)),
            max_players=int(data.get("max_players", MAX_PLAYERS)),
            allow_solo=bool(data.get("allow_solo", False)),
            seed=data.get("seed"),
            tunnel_pairs=data.get("tunnel_pairs"),
            start=None if start is None else (str(start[0]), int(start[1])),
            analysis=bool(data.get("analysis", False)),
            language=str(data.get("language", DEFAULT_LANGUAGE)),  # none before languages
            clock=None if data.get("clock") is None else clock_rules(data["clock"]),
            unrated=bool(data.get("unrated", False)),
            hints=bool(data.get("hints", False)),  # none before AI players
            ai_seconds=None if data.get("ai_seconds") is None else float(data["ai_seconds"]),
        )


CLOCK_KEYS = frozenset({"preset", "bank", "increment", "cap", "quiet", "timezone",
                        "vacation_days", "reminders", "on_timeout"})


def clock_rules(value: object) -> ClockRules:
    """A game's clock from what a front end or the stored options give.

    A preset name ("fast", "normal", "slow"), a `ClockRules`, or a JSON object: every
    key of `clock_json`'s form, or `"preset"` and the keys that change it, e.g.
    `{"preset": "normal", "on_timeout": "vote", "timezone": "Europe/Madrid",
    "quiet": [1380, 420]}` (quiet hours as minutes of the day, start and end).
    BadInput with the rules' own refusal code when they cannot run a game.
    """
    if isinstance(value, ClockRules):
        rules = value
    elif isinstance(value, str):
        if value not in PRESETS:
            raise BadInput("unknown_clock_preset", name=value[:20], choices=tuple(PRESETS))
        rules = PRESETS[value]
    elif isinstance(value, Mapping):
        rules = _custom_clock(value)
    else:
        raise BadInput("bad_clock")
    code = rules.problem()
    if code is not None:
        raise BadInput(code)
    return rules


def _custom_clock(data: Mapping[str, Any]) -> ClockRules:
    if set(data) - CLOCK_KEYS:
        raise BadInput("bad_clock")
    preset = data.get("preset")
    if preset is None and not {"bank", "increment", "cap"} <= set(data):
        raise BadInput("bad_clock")
    base = clock_rules(preset) if preset is not None else None
    try:
        quiet = data.get("quiet", "base")
        if quiet == "base":
            hours = base.quiet if base is not None else None
        elif quiet is None:
            hours = None
        else:
            start, end = quiet
            hours = QuietHours(int(start), int(end))
        return ClockRules(
            bank=int(data.get("bank", base.bank if base else 0)),
            increment=int(data.get("increment", base.increment if base else 0)),
            cap=int(data.get("cap", base.cap if base else 0)),
            quiet=hours,
            vacation_days=int(data.get("vacation_days", base.vacation_days if base else 0)),
            reminders=tuple(float(r) for r in data.get(
                "reminders", base.reminders if base else (0.5, 0.1))),
            on_timeout=str(data.get("on_timeout", base.on_timeout if base else "play")),
            timezone=str(data.get("timezone", base.timezone if base else "UTC")),
        )
    except (TypeError, ValueError):
        raise BadInput("bad_clock") from None


def clock_json(rules: ClockRules) -> dict[str, Any]:
    """The clock as stored with the game's options: every rule spelled out, so changing
    a preset later changes no running game."""
    return {
        "bank": rules.bank, "increment": rules.increment, "cap": rules.cap,
        "quiet": None if rules.quiet is None else [rules.quiet.start, rules.quiet.end],
        "timezone": rules.timezone, "vacation_days": rules.vacation_days,
        "reminders": list(rules.reminders), "on_timeout": rules.on_timeout,
    }


def check_language(language: object) -> str:
    """`language` if it is one players may choose; BadInput("unknown_language") if not."""
    if not isinstance(language, str) or language not in LANGUAGES:
        raise BadInput("unknown_language", language=str(language)[:20], choices=LANGUAGES)
    return language
