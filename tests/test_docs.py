"""The rules and the record spec the code implements live in `docs/`, as exact copies.

The reference folder `shared/` beside the checkout is the source; when it is there, the
copies must match it byte for byte (a change there must be copied here in the same commit).
"""

from __future__ import annotations

import re
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


# -- every repository path the documents name exists ------------------------------------------

# A path in backticks, with a folder and a file type; placeholders (a path with `<...>`,
# `NAME` or `*`) name files that are examples, and paths into `../shared/` another
# checkout. The documents are the house ones and `docs/*.md` (not its subfolders: the
# rules under `docs/rules/` are exact copies of the shared reference, naming its files).
DOC_PATH = re.compile(r"`([A-Za-z0-9_./-]+/[A-Za-z0-9_.-]+\.(?:py|md|json|jsonl|toml|txt|png))`")


def documents(root: Path) -> list[Path]:
    found = [root / "ARCHITECTURE.md", root / "CONTRIBUTING.md",
             *sorted((root / "docs").glob("*.md"))]
    return [p for p in found if p.exists()]


def missing_paths(root: Path) -> list[str]:
    """`DOC:LINE PATH` for each path a document names that is not in the repository (as
    written, or under `carca_bot/`)."""
    missing = []
    for doc in documents(root):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for found in DOC_PATH.finditer(line):
                path = found.group(1)
                if path.startswith(("../", "shared/")) or any(
                        mark in path for mark in ("NAME", "<", "*")):
                    continue
                if not ((root / path).exists() or (root / "carca_bot" / path).exists()):
                    missing.append(f"{doc.relative_to(root)}:{number} {path}")
    return missing


def test_every_path_the_documents_name_exists() -> None:
    assert missing_paths(ROOT) == []


def test_a_stale_path_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "carca_bot" / "bot").mkdir(parents=True)
    (tmp_path / "carca_bot" / "bot" / "client.py").write_text("", encoding="utf-8")
    (tmp_path / "ARCHITECTURE.md").write_text(
        "`bot/client.py` and `carca_bot/bot/client.py`, `bot/actions.py`\n"
        "`carca_bot/engine/expansions/<name>.py`, `../shared/rules/RULES.md`\n",
        encoding="utf-8")
    (tmp_path / "docs" / "x.md").write_text("`tests/test_gone.py`\n", encoding="utf-8")
    (tmp_path / "docs" / "rules").mkdir()
    (tmp_path / "docs" / "rules" / "y.md").write_text("`other/project.py`\n", encoding="utf-8")
    assert missing_paths(tmp_path) == ["ARCHITECTURE.md:1 bot/actions.py",
                                       "docs/x.md:1 tests/test_gone.py"]
