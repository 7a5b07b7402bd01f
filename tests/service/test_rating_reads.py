"""Issue 28's rating reads through the service: a profile with rating and uncertainty and
the people met lately, the rating history, and a head-to-head record."""

from __future__ import annotations

from itertools import pairwise

import pytest

from carca_bot.league import Pool
from carca_bot.service import BadInput, GameService, NoGameHere
from tests.service.helpers import ANA, BEN, CY, HERE, Clock, started
from tests.service.test_fair_ratings import join_and_resign
from tests.service.test_league_ratings import resigned_out

GUILD = HERE.guild


async def test_profile_history_and_head_to_head(service: GameService, clock: Clock) -> None:
    """Ana beats Ben twice and loses to him once, beats Cy once; an aborted game with Cy
    is left out of every record."""
    for winner, loser in ((ANA, BEN), (BEN, ANA), (ANA, CY), (ANA, BEN)):
        clock.now += 3600
        view = await resigned_out(service, await started(service, [winner, loser]), [loser])
    clock.now += 3600
    await join_and_resign(service, ANA, CY)

    card = await service.profile(GUILD, ANA.id)
    assert (card.games, card.wins, card.aborted) == (4, 3, 1)
    (duel,) = card.ratings
    assert duel.mu > 25 and 0 < duel.sigma < 25 / 3 and duel.rating == duel.mu - 3 * duel.sigma
    assert duel.opponents == 2 and duel.place is None  # two opponents: not listed yet
    assert [(o.user_id, o.games, o.wins, o.losses, o.draws) for o in card.recent_opponents] \
        == [(BEN.id, 3, 2, 1, 0), (CY.id, 1, 1, 0, 0)]  # Ben met last (the abort is out)

    points = await service.rating_history_of(GUILD, ANA.id, "duel")
    assert [p.games for p in points] == [1, 2, 3, 4]
    assert [p.after > p.before for p in points] == [True, False, True, True]
    assert all(a.after == pytest.approx(b.before) for a, b in pairwise(points))
    assert points[-1].mu == duel.mu and points[-1].sigma == duel.sigma
    assert await service.rating_history_of(GUILD, ANA.id, Pool.MULTI) == ()

    h2h = await service.versus(GUILD, ANA.id, BEN.id)
    assert (h2h.games, h2h.wins, h2h.losses, h2h.draws) == (3, 2, 1, 0)
    assert h2h.names == ("Ana", "Ben") and h2h.recent[0].game_id == view.game_id
    assert h2h.recent[0].places == (1, 2) and all(m.rated for m in h2h.recent)
    assert h2h.duel[0] == pytest.approx(duel.rating) and h2h.multi == (None, None)
    other_side = await service.versus(GUILD, BEN.id, ANA.id)
    assert (other_side.wins, other_side.losses) == (1, 2)
    assert (await service.versus(GUILD, ANA.id, CY.id)).games == 1  # the abort is out
    with pytest.raises(BadInput) as refused:
        await service.versus(GUILD, ANA.id, ANA.id)
    assert refused.value.code == "versus_self"
    with pytest.raises(NoGameHere):
        await service.rating_result(999)
