"""`/carc-event`: the command group of tournaments and leagues, and what its commands
share: who acts (as the service's permission checks see them) and the event named.

The service runs the event (`carca_bot.service.league_ops`); the commands are split by
what they do: `creating.py` (create), `entries.py` (list, sign up, withdraw),
`rounds.py` (start and pair, which open each pairing's game in a thread), `pairings.py`
(why each match of a round was made), `rulings.py` (an organiser's result, forfeit and
appeal), `standings.py` and `settings.py` (the organiser role). Leagues (divisions over
seasons) are `/carc-league`, in `leagues.py`."""

from __future__ import annotations

from discord import app_commands

from carca_bot.bot.commands.tree import top_level
from carca_bot.bot.core.act import Act
from carca_bot.bot.core.reply import is_admin
from carca_bot.service import Actor, EventInfo

events = top_level(app_commands.Group(name="carc-event", description="Tournaments and "
                                                                     "leagues on this server",
                                      guild_only=True))
EventNumber = app_commands.Range[int, 1, 10**12]
MatchId = app_commands.Range[str, 1, 20]


def actor(act: Act) -> Actor:
    """The user as the service's permission checks see them: roles and Manage Server.

    discord.py keeps a member's role ids even when the server is not in its cache
    (`Member.roles` would need the cache), hence `_roles`.
    """
    roles = frozenset(str(r) for r in getattr(act.interaction.user, "_roles", ()) or ())
    return Actor(act.user.id, act.user.name, roles, is_admin(act.interaction))


async def info_of(act: Act, event: int) -> EventInfo:
    """The event, if it is this server's (the service refuses another server's)."""
    return await act.service.event_info(event, act.here.guild)
