"""Refusals for users and servers past their `Limits`: the code names the limit, `count`
is what is held and `limit` the most allowed (the words say the way on)."""

from __future__ import annotations

from carca_bot.service.errors import LimitReached
from carca_bot.service.model import Limits
from carca_bot.store import Usage


def check_games(limits: Limits, usage: Usage) -> None:
    """A user about to sit in (or host) one more game."""
    if usage.games_in >= limits.games_per_user:
        raise LimitReached("games_per_user", count=usage.games_in,
                           limit=limits.games_per_user)


def check_creation(limits: Limits, usage: Usage, new_thread: bool) -> None:
    """A user about to open a lobby (in a thread made for it, with `new_thread`)."""
    if usage.lobbies_hosted >= limits.lobbies_per_user:
        raise LimitReached("lobbies_per_user", count=usage.lobbies_hosted,
                           limit=limits.lobbies_per_user)
    check_games(limits, usage)
    if usage.server_lobbies >= limits.lobbies_per_server:
        raise LimitReached("lobbies_per_server", count=usage.server_lobbies,
                           limit=limits.lobbies_per_server)
    if new_thread and usage.threads >= limits.threads_per_day:
        raise LimitReached("threads_per_day", count=usage.threads,
                           limit=limits.threads_per_day)


def check_start(limits: Limits, usage: Usage) -> None:
    """A server about to have one more running game."""
    if usage.server_games >= limits.games_per_server:
        raise LimitReached("games_per_server", count=usage.server_games,
                           limit=limits.games_per_server)


def check_import(limits: Limits, usage: Usage) -> None:
    if usage.imports >= limits.imports_per_hour:
        raise LimitReached("imports_per_hour", count=usage.imports,
                           limit=limits.imports_per_hour)
    check_games(limits, usage)
    check_start(limits, usage)
