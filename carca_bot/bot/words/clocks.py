"""A game's clock in words, and the clock options of `/carc create` read into rules.

The service holds the rules (`ClockRules`) and checks them; here the create command's
options (a preset, custom hours, quiet hours, a time zone, what happens when time runs
out) become one value the service takes, and everything that can be refused before it
is refused with a sentence naming the option.
"""

from __future__ import annotations

import functools

from carca_bot.bot.words.refused import Refused
from carca_bot.bot.words.safe import plain, safe_name
from carca_bot.bot.words.text import duration
from carca_bot.i18n import N_, Domain
from carca_bot.service import ClockRules, TurnView
from carca_bot.service.zones import zone_names, zone_problem

_T = Domain("bot")
_ = _T.gettext

HOUR = 3600
MAX_BANK_HOURS = 720  # 30 days: a bank longer than that is a game nobody plays
MAX_CAP_HOURS = 2160  # 90 days
CUSTOM_CAP_BANKS = 3  # a custom clock without a cap may save up three banks

TIMEOUT_WORDS = {
    "play": N_("when a player's time runs out, their turn is played for them"),
    "skip": N_("when a player's time runs out, their turn is skipped"),
    "vote": N_("when a player's time runs out, the others may vote to expel them"),
}
# Offered first by the time zone autocomplete, before anything is typed.
COMMON_ZONES = ("UTC", "Europe/Madrid", "Europe/London", "Europe/Berlin", "America/New_York",
                "America/Chicago", "America/Los_Angeles", "America/Mexico_City",
                "America/Bogota", "America/Lima", "America/Argentina/Buenos_Aires",
                "America/Santiago", "America/Sao_Paulo", "Asia/Tokyo", "Australia/Sydney")


@functools.cache
def _zones() -> tuple[str, ...]:
    """Every zone a clock may use, sorted: the tz database's own list (the service's
    `zones.zone_names`), so neither `localtime` (the host's zone), `posixrules`,
    `Factory` nor the `posix/` and `right/` copies are ever offered."""
    return tuple(sorted(zone_names()))


def time_zones(current: str, limit: int = 25) -> list[str]:
    """Zones whose name holds what was typed (any part, any case); common ones first."""
    typed = current.strip().lower().replace(" ", "_")
    if not typed:
        return list(COMMON_ZONES[:limit])
    found = [z for z in COMMON_ZONES if typed in z.lower()]
    found += [z for z in _zones() if typed in z.lower() and z not in found]
    return found[:limit]


def time_zone(name: str) -> str:
    """A zone name as given, if clocks may use it (the service's `zones.zone_problem`:
    the tz database's names only); else a refusal naming the option, the name echoed
    clipped."""
    name = name.strip()
    problem = zone_problem(name) if name else "unknown_time_zone"
    if problem == "time_zone_too_long":
        raise Refused(_("that time zone name is too long ({n} characters): pick one from "
                        "the list, e.g. Europe/Madrid or America/Mexico_City (the time_zone "
                        "option)").format(n=len(name)))
    if problem is not None:
        raise Refused(_("{zone} is not a time zone I know: pick one from the list, e.g. "
                        "Europe/Madrid or America/Mexico_City (the time_zone option)").format(
            zone=f"'{plain(name, 40)}'"))
    return name


def clock_choice(preset: str | None, bank_hours: int | None, increment_hours: int | None,
                 cap_hours: int | None, quiet_start: int | None, quiet_end: int | None,
                 zone: str | None, on_timeout: str | None) -> str | dict[str, object] | None:
    """What `GameOptions.clock` is given (see `service.model.clock_rules`), or None for
    no clock. A custom clock starts from the preset if one is chosen, else needs at
    least `bank_hours` (the increment is then a bank, the cap three banks)."""
    custom = {k: v for k, v in (("bank", bank_hours), ("increment", increment_hours),
                                ("cap", cap_hours)) if v is not None}
    extras = quiet_start is not None or quiet_end is not None or zone or on_timeout
    if preset is None and not custom:
        if extras:
            raise Refused(_("quiet hours, a time zone and what happens when time runs out "
                            "belong to a clock: choose one with the clock option, or give "
                            "bank_hours"))
        return None
    quiet = _quiet(quiet_start, quiet_end)
    if not custom and not extras:
        return preset
    value: dict[str, object] = {} if preset is None else {"preset": preset}
    value.update({k: v * HOUR for k, v in _banks(preset, custom).items()})
    if quiet is not None:
        value["quiet"] = quiet
    if zone:
        value["timezone"] = time_zone(zone)
    if on_timeout:
        value["on_timeout"] = on_timeout
    return value


def _quiet(start: int | None, end: int | None) -> list[int] | None:
    """The quiet hours as minutes of the day (start, end); both or neither given."""
    if (start is None) != (end is None):
        raise Refused(_("give both quiet_start and quiet_end (the hours the clocks stop "
                        "and start again), or neither"))
    if start is None or end is None:
        return None
    if start == end:
        raise Refused(_("quiet hours must not start and end at the same hour"))
    return [start * 60, end * 60]


def _banks(preset: str | None, custom: dict[str, int]) -> dict[str, int]:
    """A custom clock's hours: without a preset, the bank is needed, the increment is a
    bank and the cap three banks unless given; the cap is never below the bank."""
    if preset is None:
        if "bank" not in custom:
            raise Refused(_("a custom clock needs bank_hours (the time each player starts "
                            "with); or choose a preset with the clock option"))
        custom = {"increment": custom["bank"],
                  "cap": max(custom["bank"], CUSTOM_CAP_BANKS * custom["bank"]), **custom}
    if "cap" in custom and "bank" in custom and custom["cap"] < custom["bank"]:
        raise Refused(_("cap_hours ({cap}) must be at least bank_hours ({bank}): a bank "
                        "may not start above its cap").format(cap=custom["cap"],
                                                              bank=custom["bank"]))
    return custom


def _clock_time(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def clock_words(rules: ClockRules | None) -> str:
    """'⏱️ Clock: 24 h to start, +24 h per move, at most 72 h.' and the rest of the
    rules, one sentence each; empty for a game without a clock."""
    if rules is None:
        return ""
    lines = [_("⏱️ Clock: {bank} to start, +{increment} per move, at most {cap}.").format(
        bank=duration(rules.bank), increment=duration(rules.increment),
        cap=duration(rules.cap)) if rules.increment else
        _("⏱️ Clock: {bank} for the whole game, at most {cap}.").format(
            bank=duration(rules.bank), cap=duration(rules.cap))]
    if rules.quiet is not None:
        lines.append(_("Quiet hours {start}–{end} ({zone}): the clocks stop.").format(
            start=_clock_time(rules.quiet.start), end=_clock_time(rules.quiet.end),
            zone=rules.timezone))
    elif rules.timezone != "UTC":
        lines.append(_("Time zone: {zone}.").format(zone=rules.timezone))
    if rules.vacation_days:
        lines.append(_("Up to {days} days of vacation a month (`/carc-away`).").format(
            days=rules.vacation_days))
    lines.append(_(TIMEOUT_WORDS[rules.on_timeout]).capitalize() + ".")
    return " ".join(lines)


def banks_words(view: TurnView) -> str:
    """'Clocks: Ana 20 h · Ben 3 h 10 min (on vacation)'; empty without a clock."""
    if view.options.clock is None or view.status != "active":
        return ""
    parts = []
    for seat in view.seats:
        if seat.bank is None or seat.resigned:
            continue
        said = f"{safe_name(seat.name)} {duration(int(seat.bank))}"
        if seat.on_vacation:
            said = _("{player} (on vacation)").format(player=said)
        parts.append(said)
    line = _("Clocks (as each turn began): {banks}").format(banks=" · ".join(parts))
    if view.deadline is not None and view.deciding is not None:
        line += " " + _("{name}'s time runs out {when}.").format(
            name=safe_name(view.deciding.name), when=f"<t:{int(view.deadline)}:R>")
    return line


def add_clock_lines(text: str, view: TurnView) -> str:
    """`text` with the clock's rules (and, in a running game, its banks) below it."""
    lines = [line for line in (clock_words(view.options.clock), banks_words(view)) if line]
    return "\n".join([text, *lines]) if lines else text


__all__ = ["add_clock_lines", "banks_words", "clock_choice", "clock_words", "time_zone",
           "time_zones"]
