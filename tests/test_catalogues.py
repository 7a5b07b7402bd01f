"""The catalogues agree with the code, Spanish is complete, and languages are chosen right."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from carca_bot.i18n import DEFAULT, PSEUDO, Domain, current, language_of, speaking
from carca_bot.i18n.catalogues import DOMAINS, PACKAGE, problems
from carca_bot.i18n.pseudo import pseudo, untranslated


def test_the_catalogues_match_the_code_and_spanish_is_complete() -> None:
    """CI fails on a string missing from a catalogue, untranslated in Spanish, or stale."""
    assert problems() == []


@pytest.mark.parametrize(("locale", "language"), [
    ("es-ES", "es"), ("es-419", "es"), ("es_MX.UTF-8", "es"), ("ES", "es"),
    ("en-US", "en"), ("en-GB", "en"), ("fr", DEFAULT), ("", DEFAULT), (None, DEFAULT),
    ("C.UTF-8", DEFAULT), ("qps", PSEUDO),
])
def test_locales_map_to_our_languages(locale: str | None, language: str) -> None:
    assert language_of(locale) == language


def test_each_task_speaks_its_own_language() -> None:
    """Two interactions at once, one Spanish and one English, do not mix."""
    seen: dict[str, list[str]] = {"es": [], "en": []}

    async def talk(language: str) -> None:
        with speaking(language):
            for _ in range(3):
                seen[language].append(current())
                await asyncio.sleep(0)

    async def both() -> None:
        await asyncio.gather(talk("es"), talk("en"))

    asyncio.run(both())
    assert seen == {"es": ["es"] * 3, "en": ["en"] * 3}
    assert current() == DEFAULT


def test_the_pseudo_language_marks_translated_text_and_keeps_fields() -> None:
    marked = pseudo("Place {tile} at <t:10:R>, `/carc place`")
    assert marked.startswith("⟦") and marked.endswith("⟧")
    assert "{tile}" in marked and "<t:10:R>" in marked and "`/carc place`" in marked
    assert untranslated(marked.format(tile="CRF")) == []
    assert untranslated("Ana: " + marked) == ["Ana"]
    assert untranslated("Ana: " + marked, allowed=frozenset({"Ana"})) == []
    nested = pseudo("{who} placed {tile}").format(who=pseudo("the king"), tile="CRF")
    assert untranslated(nested + " and more") == ["and", "more"]
    with speaking(PSEUDO):
        assert Domain("words").gettext("a city") == "⟦á çítý⟧"
        assert Domain("words").ngettext("{n} tile", "{n} tiles", 2) == "⟦{n} tílés⟧"
        assert Domain("words").ngettext("{n} tile", "{n} tiles", 1) == "⟦{n} tílé⟧"


def _domains_named(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "Domain" and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}


def test_every_module_speaks_through_its_folders_domain() -> None:
    """Extraction is by folder, so a string in another folder's domain would be lost."""
    owner = {source: domain for domain, sources in DOMAINS.items() for source in sources}
    wrong: list[str] = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "i18n":
            continue
        named = _domains_named(path)
        expected = owner.get(rel.parts[0]) or owner.get(str(rel))
        wrong.extend(f"{rel}: Domain({name!r}), expected {expected!r}"
                     for name in named if name != expected)
    assert wrong == []
