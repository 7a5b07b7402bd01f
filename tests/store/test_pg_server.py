"""The test server: found where Debian puts it or where PG_BIN says; without it the
PostgreSQL tests skip, saying why, except under CI, where they fail."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from tests.store.pg_server import NoPostgres, PgServer, find_bindir, refuse


def test_pg_bin_is_the_only_place_looked_at_when_set(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PG_BIN", str(tmp_path))
    with pytest.raises(NoPostgres, match=f"PG_BIN={tmp_path} has no initdb"):
        find_bindir()


def test_without_postgres_a_test_skips_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no PostgreSQL server for the tests: "
                                                    "no binaries"):
        refuse(NoPostgres("no binaries"))


def test_without_postgres_under_ci_a_test_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run the PostgreSQL tests"):
        refuse(NoPostgres("no binaries"))


async def test_the_server_runs_as_postgres_and_serves_new_databases(pg_server: PgServer,
                                                                    pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT current_database()") == pg_url.rsplit("/", 1)[1]
        assert await conn.fetchval("SHOW fsync") == "off"  # a throwaway server, fast
    finally:
        await conn.close()
    assert pg_server.url().endswith(f":{pg_server.port}/postgres")
