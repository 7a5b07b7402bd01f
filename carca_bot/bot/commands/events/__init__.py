"""`/carc-event`: tournaments and leagues on Discord (the group is in `group.py`; each
module beside it adds its subcommands when imported)."""

from carca_bot.bot.commands.events import entries, rounds, rulings, settings, standings
from carca_bot.bot.commands.events.group import events

__all__ = ["entries", "events", "rounds", "rulings", "settings", "standings"]
