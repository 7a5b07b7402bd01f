"""Words for players' data: the name an erased player's games keep, and the refusals of
the privacy commands (merged into `carca_bot.words.service.SERVICE_REFUSALS`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from carca_bot.i18n import Domain, speaking

_T = Domain("words")
_ = _T.gettext

Params = Mapping[str, Any]


def former_player(number: int, language: str) -> str:
    """The pseudonym of the `number`-th erased player in `language` ("Former player 7"):
    what their games, events and ratings name them by instead, for good (the service's
    `erase_user` takes this as its `pseudonym`). At most 32 characters, as a player's
    name in a record must be."""
    with speaking(language):
        return _("Former player {number}").format(number=number)


REFUSALS: dict[str, Callable[[Params], str]] = {
    "erase_plan_changed": lambda p: _(
        "what erasing your data involves changed while you were deciding (you joined or "
        "left a game or an event); nothing was erased: look at it again and confirm"),
    "bad_user_id": lambda p: _("that is not a user's id"),
}
