"""Refusals for users and servers past their `Limits`, each naming the limit and the way on."""

from __future__ import annotations

from carca_bot.service.errors import LimitReached
from carca_bot.service.model import Limits
from carca_bot.store import Usage


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def check_games(limits: Limits, usage: Usage) -> None:
    """A user about to sit in (or host) one more game."""
    if usage.games_in >= limits.games_per_user:
        raise LimitReached(
            f"you are already in {_plural(usage.games_in, 'game')} (lobbies and running "
            f"games; the limit is {limits.games_per_user}): finish, resign from or leave "
            "one first")


def check_creation(limits: Limits, usage: Usage, new_thread: bool) -> None:
    """A user about to open a lobby (in a thread made for it, with `new_thread`)."""
    if usage.lobbies_hosted >= limits.lobbies_per_user:
        hosted = _plural(usage.lobbies_hosted, "open lobby", "open lobbies")
        raise LimitReached(
            f"you already host {hosted} (the limit is {limits.lobbies_per_user}): start or "
            "cancel one of them first")
    check_games(limits, usage)
    if usage.server_lobbies >= limits.lobbies_per_server:
        waiting = _plural(usage.server_lobbies, "open lobby", "open lobbies")
        raise LimitReached(
            f"this server already has {waiting} (the limit is {limits.lobbies_per_server}): "
            "join one of them, or try again when some have started")
    if new_thread and usage.threads >= limits.threads_per_day:
        raise LimitReached(
            f"you made {_plural(usage.threads, 'game thread')} in the last 24 hours (the "
            f"limit is {limits.threads_per_day}): create the game in this channel instead "
            "(without a thread), or try again tomorrow")


def check_start(limits: Limits, usage: Usage) -> None:
    """A server about to have one more running game."""
    if usage.server_games >= limits.games_per_server:
        raise LimitReached(
            f"this server already has {_plural(usage.server_games, 'running game')} (the "
            f"limit is {limits.games_per_server}): finish or cancel some first")


def check_import(limits: Limits, usage: Usage) -> None:
    if usage.imports >= limits.imports_per_hour:
        raise LimitReached(
            f"you imported {_plural(usage.imports, 'record')} in the last hour (the limit "
            f"is {limits.imports_per_hour}): try again later")
    check_games(limits, usage)
    check_start(limits, usage)
