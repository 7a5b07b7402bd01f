"""`/carc-event`: tournaments on Discord (the group is in `group.py`; each module beside it
adds its subcommands when imported), and `/carc-league`, leagues of divisions over
seasons (`leagues.py`)."""

from carca_bot.bot.commands.events import (
    creating,
    entries,
    leagues,
    pairings,
    rounds,
    rulings,
    settings,
    standings,
)
from carca_bot.bot.commands.events.group import events

__all__ = ["creating", "entries", "events", "leagues", "pairings", "rounds", "rulings", "settings",
           "standings"]
