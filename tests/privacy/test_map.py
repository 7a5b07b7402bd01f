"""The privacy map and the privacy notice match the database the migrations make, on
SQLite and PostgreSQL: a column added by a later migration fails here until it is
classified in `carca_bot/store/privacy_map.py` and described in docs/PRIVACY.md."""

from __future__ import annotations

import re
from pathlib import Path

from carca_bot.service.privacy_rewrite import REWRITERS
from carca_bot.store import Store
from carca_bot.store.privacy_map import TABLES, Use, live_columns, unclassified
from carca_bot.store.schema import MIGRATIONS

NOTICE = Path(__file__).resolve().parents[2] / "docs" / "PRIVACY.md"


async def schema_of(target: str) -> dict[str, tuple[str, ...]]:
    store = await Store.open(target)
    try:
        return await live_columns(store._db, store.backend)
    finally:
        await store.close()


def notice_columns(text: str) -> dict[str, set[str]]:
    """The notice's reference: each "### `table`" section and the `columns` its table
    lists (the first cell of each row)."""
    found: dict[str, set[str]] = {}
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        title = re.match(r"`(\w+)`", section)
        if title is None:
            continue
        found[title.group(1)] = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    return found


async def test_every_column_of_the_schema_is_classified(db_target: str) -> None:
    schema = await schema_of(db_target)
    assert "seats" in schema and "display_name" in schema["seats"]
    assert unclassified(schema) == []


async def test_every_column_of_the_schema_is_in_the_notice(db_target: str) -> None:
    schema = await schema_of(db_target)
    described = notice_columns(NOTICE.read_text(encoding="utf-8"))
    assert {t: set(c) for t, c in schema.items()} == described


async def test_a_column_added_later_fails_until_it_is_classified(db_target: str) -> None:
    """What another branch's migration does: a new column is caught by both checks."""
    store = await Store.open(db_target)
    try:
        await store._db.execute("ALTER TABLE seats ADD COLUMN nickname TEXT")
        await store._db.execute("CREATE TABLE badges (user_id TEXT, badge TEXT)")
        schema = await live_columns(store._db, store.backend)
    finally:
        await store.close()
    assert unclassified(schema) == ["unclassified: badges.badge", "unclassified: badges.user_id",
                                    "unclassified: seats.nickname"]
    described = notice_columns(NOTICE.read_text(encoding="utf-8"))
    assert "nickname" not in described["seats"] and "badges" not in described


def test_the_notice_reader_reads_sections() -> None:
    text = "### `t`\n\n| column | what |\n|---|---|\n| `a` | x |\n| `b` | y |\n\n### `u`\n"
    assert notice_columns(text) == {"t": {"a", "b"}, "u": set()}


def test_the_map_is_consistent() -> None:
    """Every name the map uses is a column of its table; rows an erasure rewrites can
    be found again by a key; JSON columns name a rewriter that exists."""
    assert len(MIGRATIONS) >= 11
    for table, spec in TABLES.items():
        names = set(spec.columns)
        assert set(spec.key) <= names, table
        for link in (spec.game, spec.event, spec.server):
            assert link is None or link in names, (table, link)
        for column, col in spec.columns.items():
            assert col.of is None or col.of in names, (table, column)
            assert col.when is None or col.when[0] in names, (table, column)
            if col.use is Use.JSON:
                assert col.rewriter in REWRITERS and (col.names or col.ids), (table, column)
            if col.use in (Use.NAME, Use.CLEAR):
                assert col.of is not None, (table, column)
            if col.use in (Use.ID, Use.NAME, Use.CLEAR, Use.JSON, Use.TEXT, Use.VERSION):
                assert spec.key, f"{table}.{column} is rewritten: the table needs a key"
        for channel, message in spec.messages:
            assert {channel, message} <= names, table
