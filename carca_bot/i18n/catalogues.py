"""Extract, update, compile and check the gettext catalogues (needs Babel).

    python -m carca_bot.i18n.catalogues update   # after changing any player-facing text
    python -m carca_bot.i18n.catalogues check    # what CI runs (tests/test_catalogues.py)

`update` extracts every domain's strings from its folders, merges them into each
language's `.po` (new strings arrive untranslated and marked fuzzy when Babel guesses
one), and compiles the `.mo` files that ship in the package, so a plain `pip install .`
needs no Babel. `check` fails when the `.po` files and the code disagree, when a
Spanish entry is missing, fuzzy or drops a `{field}`, or when a `.mo` is stale.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from carca_bot import __version__
from carca_bot.i18n import LANGUAGES, LOCALE_DIR

PACKAGE = LOCALE_DIR.parent
# Each domain's sources, relative to the package: a module speaks through its folder's
# domain (tests/test_catalogues.py checks every `Domain("...")` against this table).
DOMAINS: dict[str, tuple[str, ...]] = {
    "words": ("words", "engine/expansions"),  # the expansions' records name things (N_)
    "render": ("render",),
    "bot": ("bot",),
    "local": ("local", "cli.py", "ops.py"),
    "replay_html": ("replay_html",),
}
# Extraction methods beyond Babel's "python", by domain: (a file pattern in the domain's
# folders, the method as "module:function"). The bot's slash commands are written once,
# in English, where they are defined; their words are extracted from the command tree
# itself (`carca_bot.bot.translator.extract`), named by string so i18n imports no bot.
METHODS: dict[str, list[tuple[str, str]]] = {
    "bot": [("commands/__init__.py", "carca_bot.bot.translator:extract")],
}
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")  # English is the source
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # no churn in the headers
_FIELD = re.compile(r"\{[^{}]*\}")
# The engine marks a name with its plural as `N_plural(singular, plural)` (engine/msgids.py).
KEYWORDS = {**DEFAULT_KEYWORDS, "N_plural": (1, 2)}


def po_path(language: str, domain: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def mo_path(language: str, domain: str) -> Path:
    return po_path(language, domain).with_suffix(".mo")


def _extracted(domain: str) -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    for source in DOMAINS[domain]:
        path = PACKAGE / source
        if path.is_dir():
            methods = [*METHODS.get(domain, []), ("**.py", "python")]
            for name, line, message, _comments, context in extract_from_dir(
                    path, method_map=methods, keywords=KEYWORDS,
                    directory_filter=lambda d: Path(d).name != "art"):
                yield f"{source}/{name}", line, message, context
        elif path.exists():
            for line, message, _comments, context in extract_from_file("python", path,
                                                                       keywords=KEYWORDS):
                yield source, line, message, context


def template(domain: str) -> Catalog:
    """What the code says now, for `domain`."""
    catalog = Catalog(domain=domain, project="carca-bot", version=__version__,
                      creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False)
    for where, line, message, context in _extracted(domain):
        catalog.add(message, None, [(where, line)], context=context)
    return catalog


def _read(path: Path, language: str, domain: str) -> Catalog:
    if not path.exists():
        return Catalog(locale=language, domain=domain, project="carca-bot",
                       creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False)
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, ignore_obsolete=True)
    return out.getvalue()


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def update() -> list[Path]:
    """Merge the code's strings into every catalogue and compile them; the files written."""
    written = []
    for domain in DOMAINS:
        fresh = template(domain)
        for language in LANGUAGES:
            catalog = _read(po_path(language, domain), language, domain)
            catalog.update(fresh, update_creation_date=False)
            catalog.revision_date = FIXED_DATE
            po_path(language, domain).parent.mkdir(parents=True, exist_ok=True)
            for path, data in ((po_path(language, domain), _po_bytes(catalog)),
                               (mo_path(language, domain), _mo_bytes(catalog))):
                if not path.exists() or path.read_bytes() != data:
                    path.write_bytes(data)
                    written.append(path)
    return written


def _key(message: Message) -> tuple[str, str | None]:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return msgid, message.context


def _fields(text: str | Sequence[str] | None) -> set[str]:
    texts = (text,) if isinstance(text, str) else tuple(text or ())
    return {field for t in texts for field in _FIELD.findall(t)}


def problems() -> list[str]:
    """Everything that makes the catalogues disagree with the code; empty when all is well."""
    found: list[str] = []
    for domain in DOMAINS:
        wanted = {_key(m) for m in template(domain) if m.id}
        for language in LANGUAGES:
            path = po_path(language, domain)
            if not path.exists():
                found.append(f"{path.relative_to(PACKAGE)}: missing (run update)")
                continue
            catalog = _read(path, language, domain)
            have = {_key(m) for m in catalog if m.id}
            for msgid, context in sorted(wanted - have, key=str):
                found.append(f"{language}/{domain}: not in the catalogue: {msgid!r} "
                             f"(context {context!r}; run update)")
            for msgid, context in sorted(have - wanted, key=str):
                found.append(f"{language}/{domain}: no longer in the code: {msgid!r} "
                             f"(context {context!r}; run update)")
            if language in TRANSLATED:
                found.extend(_translation_problems(language, domain, catalog))
            mo = mo_path(language, domain)
            if not mo.exists() or mo.read_bytes() != _mo_bytes(catalog):
                found.append(f"{mo.relative_to(PACKAGE)}: stale (run update)")
    return found


def _translation_problems(language: str, domain: str, catalog: Catalog) -> Iterator[str]:
    for message in catalog:
        if not message.id:
            continue
        label = f"{language}/{domain}: {_key(message)[0]!r}"
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            yield f"{label}: fuzzy (check the translation, then remove the fuzzy flag)"
        elif not all(strings):
            yield f"{label}: not translated"
        elif _fields(message.string) != _fields(message.id):
            yield (f"{label}: the translation's fields {sorted(_fields(message.string))} "
                   f"differ from {sorted(_fields(message.id))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m carca_bot.i18n.catalogues",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("update", "check"))
    args = parser.parse_args(argv)
    if args.command == "update":
        for path in update():
            print(f"wrote {path.relative_to(PACKAGE.parent)}")
        return 0
    found = problems()
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
