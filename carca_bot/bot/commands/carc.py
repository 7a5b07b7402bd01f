"""`/carc`: the command group of a game in its channel. Its 25 subcommands (Discord's
most) are defined by concern, each beside its handler: `lobby.py` (create, join, leave,
start, import), `turn.py` (a turn's steps), `looking.py` (board, status, score, export,
rules), `dashboard.py` (games) and `ending.py` (resign, kick, cancel). New commands go
beside `/carc` as commands of their own (`/carc-notify`, ...)."""

from __future__ import annotations

from discord import app_commands

carc = app_commands.Group(name="carc", description="Carcassonne in this channel",
                          guild_only=True)
