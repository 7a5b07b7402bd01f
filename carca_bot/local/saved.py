"""Which game a `carca-bot local` run plays: a new one, or an unfinished one it says
it resumes.

Every local game has its own table (`Where("local", "terminal-N")`), so starting a
new game never sets an unfinished one aside for good: `--game ID` resumes any of
them. A run that asks for players, expansions or a seed that differ from the
unfinished game's starts nothing and says what to type instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from carca_bot.engine.catalogue import EXPANSIONS
from carca_bot.service import GameOptions, GameRow, GameService, User, Where

LOCAL = "local"
TABLE = "terminal"  # table names start with this ("terminal" alone in older databases)


@dataclass(frozen=True)
class Table:
    """What a game is, as far as the command line can ask for it; None: not asked."""

    names: list[str] | None
    expansions: frozenset[str] | None
    seed: int | None

    def describe(self) -> str:
        parts = []
        if self.names is not None:
            parts.append(", ".join(self.names))
        if self.expansions is not None:
            parts.append(expansions_text(self.expansions))
        if self.seed is not None:
            parts.append(f"seed {self.seed}")
        return "; ".join(parts)


def expansions_text(expansions: frozenset[str]) -> str:
    if not expansions:
        return "the base game only"
    return "with " + ", ".join(e for e in EXPANSIONS if e in expansions)


async def unfinished(service: GameService) -> list[GameRow]:
    """The local hot-seat games not over yet, the most recently played first."""
    rows = []
    for game_id in await service.store.game_ids():
        row = await service.store.game(game_id)
        if (row is not None and row.live and row.guild_id == LOCAL
                and row.channel_id.startswith(TABLE)):
            rows.append(row)
    return sorted(rows, key=lambda r: (r.updated_at, r.id), reverse=True)


async def saved_table(service: GameService, row: GameRow) -> Table:
    view = await service.status(Where(row.guild_id, row.channel_id), None, row.id)
    options = GameOptions.from_json(row.options)
    return Table(sorted(s.name for s in view.seats), options.expansions, options.seed)


def differences(asked: Table, saved: Table) -> list[str]:
    """What the command line asked for that the saved game is not."""
    found = []
    if asked.names is not None and sorted(asked.names) != saved.names:
        found.append(f"players {', '.join(asked.names)}")
    if asked.expansions is not None and asked.expansions != saved.expansions:
        found.append(expansions_text(asked.expansions))
    if asked.seed is not None and asked.seed != saved.seed:
        found.append(f"seed {asked.seed}")
    return found


async def choose_table(service: GameService, asked: Table, new: bool, game_id: int | None,
                       db_name: str) -> tuple[Where, str | None] | str:
    """Where to play and what to say about it first, or why nothing starts (exit 2)."""
    rows = []
    for row in await unfinished(service):
        if row.status == "lobby":  # a start-up interrupted before the deal: nothing to lose
            await service.cancel(Where(row.guild_id, row.channel_id), User(row.host_id, ""))
        else:
            rows.append(row)
    if game_id is not None:
        found = [r for r in rows if r.id == game_id]
        if not found:
            listed = ", ".join(str(r.id) for r in rows) or "none"
            return (f"there is no unfinished local game {game_id} in {db_name} "
                    f"(unfinished games: {listed})")
        rows = found
    if new or not rows:
        taken = await service.store.game_ids()
        return Where(LOCAL, f"{TABLE}-{max(taken, default=0) + 1}"), None
    row, others = rows[0], rows[1:]
    saved = await saved_table(service, row)
    what = f"{', '.join(saved.names or [])}; {expansions_text(saved.expansions or frozenset())}"
    differ = differences(asked, saved)
    if differ and game_id is None:
        return (f"{db_name} holds an unfinished game {row.id} ({what}), not the game you "
                f"asked for ({'; '.join(differ)}).\n"
                f"Run again with --new to start the game you asked for (game {row.id} stays "
                f"saved: --game {row.id} resumes it), or without options to resume it.")
    if differ:
        return (f"game {row.id} is {what}, not what you asked for ({'; '.join(differ)}): "
                f"leave out the other options to resume it, or use --new")
    note = (f"resuming game {row.id} ({what}) from {db_name}; to start a new game instead, "
            f"run with --new (this one stays saved: --game {row.id} resumes it)")
    if others:
        note += f"\nother unfinished games: {', '.join(str(r.id) for r in others)} (--game ID)"
    return Where(row.guild_id, row.channel_id), note
