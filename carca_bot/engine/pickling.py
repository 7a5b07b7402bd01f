"""Frozen dataclasses that cross to the bot's worker processes, picklable compiled too.

Pickle rebuilds an object by making it bare and then setting its fields. A frozen
dataclass refuses that setting once mypyc has compiled it (setup.py's optional build:
`FrozenInstanceError` as a worker unpickles a game's `Setup` or a move), so every AI
answer and every picture of the compiled bot fell back to its stand-in. A reducer
that rebuilds the object through its constructor works in both builds, and the
constructor's own checks (`Setup.__post_init__`) run on the way in.
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any


def by_constructor(*classes: type) -> None:
    """Pickle instances of these dataclasses as a call of their constructor."""
    for cls in classes:
        copyreg.pickle(cls, _rebuilt)


def _rebuilt(obj: Any) -> tuple[type, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))
