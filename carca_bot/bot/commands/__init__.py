"""Every slash command of the bot, by concern; each verb's handler is shared by its slash
command and its button and menu twins (`core.verbs`). Importing this package defines
every command and registers every component.

Where a verb lives: `/carc` (`tree.py`) holds the game of a channel: `lobby.py`,
`turn.py`, `looking.py`, `dashboard.py`, `ending.py`. Commands of their own:
`language.py` (/carc-language), `looking.py` (/carc-history, /carc-tiles), `events/`
(/carc-event, /carc-league), `ratings.py` (/carc-profile, /carc-leaderboard), `versus.py`
(/carc-versus), `admin.py` (/carc-admin: voiding rated results), `ai.py` (/carc-ai,
/carc-hint), `votes.py` (/carc-takeback and the vote buttons), `away.py` (/carc-away),
`notify.py` (/carc-notify), `privacy.py` (/carc-privacy). Autocomplete is in
`suggest.py`.
"""

from __future__ import annotations

# The modules define the commands in this order, and Discord lists them so.
# isort: off
from carca_bot.bot.commands import tree, lobby, turn, language, looking, dashboard, ending
from carca_bot.bot.commands import events, ratings, versus, ai, votes, away, notify, admin
from carca_bot.bot.commands import privacy
# isort: on
from carca_bot.bot.commands.tree import AppCommand

TOP_LEVEL: tuple[AppCommand, ...] = tuple(tree.TOP_LEVEL)

__all__ = ["TOP_LEVEL", "AppCommand", "admin", "ai", "away", "dashboard", "ending", "events",
           "language", "lobby", "looking", "notify", "privacy", "ratings", "turn", "versus",
           "votes"]
