"""The rules and the record spec the code implements live in `docs/`, as exact copies.

The reference folder `shared/` beside the checkout is the source; when it is there, the
copies must match it byte for byte (a change there must be copied here in the same commit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COPIES = {
    "docs/game-record.md": "spec/game-record.md",
    "docs/RULES.md": "rules/RULES.md",
    "docs/glossary-es.md": "rules/glossary-es.md",
    "carca_bot/engine/data/tiles.jsonl": "rules/tiles.jsonl",
}


def test_the_copies_are_in_the_repository() -> None:
    for ours in COPIES:
        assert (ROOT / ours).stat().st_size > 0, ours


@pytest.mark.skipif(not SHARED.is_dir(), reason="no shared/ reference folder beside the checkout")
@pytest.mark.parametrize("ours", sorted(COPIES))
def test_copy_matches_the_shared_reference(ours: str) -> None:
    source = SHARED / COPIES[ours]
    assert (ROOT / ours).read_bytes() == source.read_bytes(), (
        f"{ours} differs from {source}: copy it again (cp {source} {ours})")
