"""The slash command tree: `/carc`, the command group of a game in its channel, and the
list of top-level commands in the order they are synced (Discord lists them so).

`/carc`'s 25 subcommands (Discord's most) are defined by concern, each beside its
handler: `lobby.py`, `turn.py`, `looking.py`, `dashboard.py`, `ending.py`. Other
commands are top-level, registered with `@top_level` where they are defined, so a new
command in an existing module needs no other change (a new module is imported in
`commands/__init__.py`)."""

from __future__ import annotations

from typing import Any, TypeVar

from discord import app_commands

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
C = TypeVar("C", bound=AppCommand)
TOP_LEVEL: list[AppCommand] = []


def top_level(command: C) -> C:
    """Register a top-level command (in the order modules define them)."""
    TOP_LEVEL.append(command)
    return command


carc = top_level(app_commands.Group(name="carc", description="Carcassonne in this channel",
                                    guild_only=True))
