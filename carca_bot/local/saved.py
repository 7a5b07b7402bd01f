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
from carca_bot.i18n import Domain
from carca_bot.service import GameOptions, GameRow, GameService, User, Where

_T = Domain("local")
_ = _T.gettext

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
            parts.append(_("seed {seed}").format(seed=self.seed))
        return "; ".join(parts)


def expansions_text(expansions: frozenset[str]) -> str:
    """The expansions by their ids (what `--expansions` takes), in a sentence."""
    if not expansions:
        return _("the base game only")
    return _("with {expansions}").format(
        expansions=", ".join(e for e in EXPANSIONS if e in expansions))


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
        found.append(_("players {names}").format(names=", ".join(asked.names)))
    if asked.expansions is not None and asked.expansions != saved.expansions:
        found.append(expansions_text(asked.expansions))
    if asked.seed is not None and asked.seed != saved.seed:
        found.append(_("seed {seed}").format(seed=asked.seed))
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
            listed = ", ".join(str(r.id) for r in rows) or _("none")
            return _("there is no unfinished local game {game} in {db} (unfinished games: "
                     "{listed})").format(game=game_id, db=db_name, listed=listed)
        rows = found
    if new or not rows:
        taken = await service.store.game_ids()
        return Where(LOCAL, f"{TABLE}-{max(taken, default=0) + 1}"), None
    row, others = rows[0], rows[1:]
    saved = await saved_table(service, row)
    what = _("{names}; {expansions}").format(
        names=", ".join(saved.names or []),
        expansions=expansions_text(saved.expansions or frozenset()))
    differ = "; ".join(differences(asked, saved))
    if differ and game_id is None:
        return _("{db} holds an unfinished game {game} ({what}), not the game you asked for "
                 "({differ}).\nRun again with --new to start the game you asked for (game "
                 "{game} stays saved: --game {game} resumes it), or without options to resume "
                 "it.").format(db=db_name, game=row.id, what=what, differ=differ)
    if differ:
        return _("game {game} is {what}, not what you asked for ({differ}): leave out the "
                 "other options to resume it, or use --new").format(game=row.id, what=what,
                                                                   differ=differ)
    note = _("resuming game {game} ({what}) from {db}; to start a new game instead, run with "
             "--new (this one stays saved: --game {game} resumes it)").format(
        game=row.id, what=what, db=db_name)
    if others:
        note += "\n" + _("other unfinished games: {games} (--game ID)").format(
            games=", ".join(str(r.id) for r in others))
    return Where(row.guild_id, row.channel_id), note
