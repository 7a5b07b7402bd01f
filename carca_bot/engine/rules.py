"""The hooks of every expansion, in the order their rules apply within one hook point.

The hook points (see `expansions/__init__.py` and `state.Rules`): `placement`,
`turn_scoring`, `turn_end` and `final`. The core calls the hooks of the
expansions in play, in `ORDER`.
"""

from __future__ import annotations

from carca_bot.engine.expansions import abbey_mayor, cult, king_robber, river
from carca_bot.engine.state import Rules

ORDER: tuple[Rules, ...] = (
    Rules("river", placement=river.placement),
    Rules("abbot"),  # a figure (figures.py) and the Recall step (expansions/abbot.py)
    Rules("cult", placement=cult.placement, turn_scoring=cult.challenges),
    Rules("abbey_mayor", turn_scoring=abbey_mayor.barns, final=abbey_mayor.final),
    Rules("king_robber", turn_end=king_robber.titles, final=king_robber.final),
    Rules("tunnel"),  # the PlaceToken step (expansions/tunnel.py)
)
BY_NAME = {rules.name: rules for rules in ORDER}


def active(expansions: frozenset[str]) -> tuple[Rules, ...]:
    """The rules of the expansions in play, in hook order."""
    return tuple(rules for rules in ORDER if rules.name in expansions)
