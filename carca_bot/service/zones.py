"""The time zones a clock may use: IANA names from the tz database, and nothing else.

`zoneinfo.ZoneInfo` opens whatever file a name points to under the system's zone
folders, so on its own it accepts `localtime` (the host's zone, which says where the
bot runs and changes with the host), `posixrules`, the `right/...` and `posix/...`
copies and `Factory` (a placeholder zone, not a place), and a name too long for a
file name raises `OSError`. The tz database's own list of zones (the `tzdata`
package's `zones` file, a dependency) is what players may choose from; its one
placeholder, `Factory`, is left out. Names are checked for length before anything
else, so no name reaches the file system unchecked.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from zoneinfo import available_timezones

MAX_ZONE_CHARS = 64  # the longest name in the database is 32 characters
# In the database, but not places: a clock there would run on nobody's time.
NOT_PLACES = frozenset({"Factory"})
# What a system's zone folders hold beside the database's zones (read only when the
# `tzdata` package is missing, which pyproject rules out).
_NOT_ZONES = ("posix/", "right/", "posixrules", "localtime", "Factory")


@cache
def zone_names() -> frozenset[str]:
    """Every time zone a clock may use (read once)."""
    try:
        listed = resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover - tzdata is required
        names = {z for z in available_timezones() if not z.startswith(_NOT_ZONES)}
    else:
        names = set(listed.split())
    return frozenset(names - NOT_PLACES)


def zone_problem(name: object) -> str | None:
    """The refusal code for a time zone name that is not one players may use, else None:
    `time_zone_too_long` (over MAX_ZONE_CHARS characters) or `unknown_time_zone`."""
    if not isinstance(name, str):
        return "unknown_time_zone"
    if len(name) > MAX_ZONE_CHARS:
        return "time_zone_too_long"
    return None if name in zone_names() else "unknown_time_zone"
