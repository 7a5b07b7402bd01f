"""Every slash command of the bot, by concern; each verb's handler is shared by its slash
command and its button and menu twins (`core.verbs`). Importing this package defines
every command and registers every component, in the order Discord lists them.

Where a verb lives: `/carc` (`carc.py`) holds the game of a channel: `lobby.py`,
`turn.py`, `looking.py`, `dashboard.py`, `ending.py`. Commands of their own:
`language.py` (/carc-language), `looking.py` (/carc-history, /carc-tiles),
`events/` (/carc-event), `ratings.py` (/carc-profile, /carc-leaderboard), `ai.py`
(/carc-ai, /carc-hint), `votes.py` (/carc-takeback and the vote buttons), `away.py`
(/carc-away), `notify.py` (/carc-notify). Autocomplete is in `suggest.py`.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

# isort: off (the order of /carc's subcommands)
# isort: on
from carca_bot.bot.commands import (
    ai,
    away,
    dashboard,
    ending,
    language,
    lobby,
    looking,
    notify,
    ratings,
    turn,
    votes,
)
from carca_bot.bot.commands.carc import carc
from carca_bot.bot.commands.events import events

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
# The top-level commands, in the order they are synced (Discord lists them so).
TOP_LEVEL: tuple[AppCommand, ...] = (
    carc, language.language_command, looking.history_command, looking.tiles_command, events,
    ratings.profile_command, ratings.leaderboard_command, ai.ai, ai.hint_command,
    votes.takeback_command, away.away_command, notify.notify_command)

__all__ = ["TOP_LEVEL", "dashboard", "ending", "lobby", "turn"]
