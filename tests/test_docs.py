"""The rules and the record spec the code implements live in `docs/`, as exact copies.

The reference folder `shared/` beside the checkout is the source; when it is there, the
copies must match it byte for byte (a change there must be copied here in the same commit).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import carca_bot

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COPIES = {
    "docs/game-record.md": "spec/game-record.md",
    "docs/RULES.md": "rules/RULES.md",
    "docs/glossary-es.md": "rules/glossary-es.md",
    "carca_bot/engine/data/tiles.jsonl": "rules/tiles.jsonl",
    # Beyond the seed rulebooks (Inns & Cathedrals, Traders & Builders). The rules sit one
    # folder down: their sources table names another project's file, which is no path here.
    "docs/rules/RULES-inns-traders.md": "rules/RULES-inns-traders.md",
    "carca_bot/engine/data/tiles-inns-traders.jsonl": "rules/tiles-inns-traders.jsonl",
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


def test_the_version_lives_in_one_place() -> None:
    """pyproject reads `carca_bot.__version__`; the changelog has a section for it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "carca_bot.__version__"}
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {carca_bot.__version__} " in changelog


def test_the_house_documents_exist() -> None:
    for name in ("ARCHITECTURE.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE"):
        assert (ROOT / name).read_text(encoding="utf-8").strip(), name
    assert "carca-bot contributors" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_the_readmes_python_runs() -> None:
    """The README's code is what a newcomer copies first: it must run as written."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [part.split("```", 1)[0] for part in readme.split("```python\n")[1:]]
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"print": lambda *args: None})
