"""Makes the README's example turn: a real command through the bot, the game card it
edits and the turn's ping.

Plays a seeded 3-player game through the offline Discord harness, then one more turn
with `/carc place ... confirm:true`, writes the card's picture to docs/turn-board.png
and prints the card's text and the ping. Run: python docs/turn_example.py
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from carca_bot.service import GameOptions, User, Where  # noqa: E402
from tests.bot.cards import assert_card_reply  # noqa: E402
from tests.bot.conftest import ANA, BEN, CY, BotHarness, offline_bot  # noqa: E402
from tests.bot.fake_discord import GUILD_ID  # noqa: E402

TURNS = 24


async def scoring_placement(bot: object, where: Where, tile: str,
                            placements: tuple[tuple[int, int, int], ...]
                            ) -> tuple[int, int, int] | None:
    for x, y, rot in placements:
        game = await bot.service.game(where)  # type: ignore[attr-defined]
        seat = game.deciding
        game.place_tile(seat, tile, (x, y), rot // 90)
        spots = [d for d in game.legal_deployments() if d.figure == "follower"]
        if spots:
            game.deploy(seat, "follower", spots[0].on)
        if any(e.kind == "score" and e.points and seat in e.players
               for e in game.end_turn(seat)):
            return x, y, rot
    return None


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with offline_bot(Path(tmp) / "example.sqlite3") as h:
            await example_turn(h)


async def example_turn(h: BotHarness) -> None:
    bot = h.bot
    where = Where(str(GUILD_ID), str(h.make.channel_id))
    await bot.service.create(where, User(str(ANA[0]), ANA[1]),
                             GameOptions(expansions=frozenset({"river", "abbot"}), seed=11))
    for p in (BEN, CY):
        await h.command(p, "join")
    await h.command(ANA, "start")
    players = {str(p[0]): p for p in (ANA, BEN, CY)}
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    for turn in range(TURNS + 20):
        view = await bot.service.status(where, None)
        assert view.deciding is not None and view.deciding.user_id is not None
        player = players[view.deciding.user_id]
        legal = await bot.service.legal_moves(where, User(str(player[0]), player[1]))
        x, y, rot = rng.choice(legal.placements)
        found = None
        if turn >= TURNS:  # show a turn that scores: try each placement on a snapshot
            found = await scoring_placement(bot, where, legal.tile or "", legal.placements)
            x, y, rot = found or (x, y, rot)
        options: dict[str, object] = {"square": f"{x},{y}", "rotation": rot,
                                      "confirm": True}
        if found or rng.random() < 0.4:
            spots = await h.autocomplete(player, "place", "on", square=f"{x},{y}",
                                         rotation=rot, figure="follower", on="")
            if spots:
                options.update(figure="follower", on=spots[0]["value"])
        requests = await h.command(player, "place", **options)
        if found:
            break
    shown = assert_card_reply(requests)
    (ROOT / "docs" / "turn-board.png").write_bytes(shown.card.files[0].data)
    said = " ".join(f"{k}:{v}" for k, v in options.items())
    print(f"/carc place {said}   (by {player[1]})\n")
    print(shown.card.text)
    if shown.ping is not None:
        print(f"\n(ping) {shown.ping.content}")


if __name__ == "__main__":
    asyncio.run(main())
