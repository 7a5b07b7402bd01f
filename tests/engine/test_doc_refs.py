"""Docstrings and comments cite the repository's copies of the rules and the record spec."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A citation of RULES.md or game-record.md not written as its path under docs/.
BARE = re.compile(r"(?<!docs/)\b(RULES\.md|game-record\.md)|shared/(spec|rules)")


def test_every_citation_names_the_docs_copy() -> None:
    bad = []
    for folder in ("carca_bot/engine", "tests/engine"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".json", ".md"} or path.name == "test_doc_refs.py":
                continue
            for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if BARE.search(line):
                    bad.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert bad == []
    assert (ROOT / "docs" / "RULES.md").is_file() and (ROOT / "docs" / "game-record.md").is_file()
