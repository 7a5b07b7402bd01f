"""Behind PgBouncer in transaction pooling (docs/postgresql.md, "PgBouncer"): with
CARCA_DB_PGBOUNCER=1 the store works, games included, across many games at once on
fewer server connections than the processes ask for; without it PgBouncer refuses the
connection (the time-outs sent as startup parameters), and the start-up check says so.

PgBouncer is optional: without its binary these tests skip (also under CI, which does
not install it; the Debian package is `pgbouncer`).
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from carca_bot.ops import database_problem
from carca_bot.pgops import check_postgres
from carca_bot.service import GameOptions, GameService, TurnOrder, User, Where
from tests.store.pg_server import PgServer, create_database

BINARY = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def bouncer(pg_server: PgServer) -> Iterator[int]:
    """PgBouncer in transaction pooling in front of the test server: its port."""
    if not Path(BINARY).is_file():
        pytest.skip("no pgbouncer here (optional: the Debian package pgbouncer)")
    folder = Path(tempfile.mkdtemp(prefix="carca-bouncer-"))
    port = _free_port()
    (folder / "users.txt").write_text('"postgres" ""\n')
    (folder / "pgbouncer.ini").write_text(f"""[databases]
* = host=127.0.0.1 port={pg_server.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/users.txt
pool_mode = transaction
default_pool_size = 3
max_client_conn = 200
logfile = {folder}/log
pidfile = {folder}/pid
""")
    prefix: list[str] = []
    if os.geteuid() == 0:  # PgBouncer refuses to run as root
        account = pwd.getpwnam("postgres")
        for path in [folder, *folder.iterdir()]:
            os.chown(path, account.pw_uid, account.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    proc = subprocess.Popen([*prefix, BINARY, str(folder / "pgbouncer.ini")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        give_up = time.monotonic() + 30
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if proc.poll() is not None or time.monotonic() > give_up:
                log = (folder / "log").read_text() if (folder / "log").exists() else ""
                pytest.fail(f"pgbouncer did not start: {log[-2000:]}")
            time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def through(bouncer: int, pg_server: PgServer) -> AsyncIterator[str]:
    url = await create_database(pg_server)
    yield url.replace(f":{pg_server.port}/", f":{bouncer}/")


async def test_without_the_setting_pgbouncer_refuses_and_it_is_said(through: str) -> None:
    problem = str(await database_problem(through))
    assert problem.startswith("cannot use postgresql://") and "startup parameter" in problem


async def test_games_through_pgbouncer(through: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARCA_DB_PGBOUNCER", "1")
    assert await database_problem(through) is None  # creates the tables through it
    service = await GameService.open(through)
    try:
        games = [Where("g", f"c{n}") for n in range(8)]
        for n, where in enumerate(games):
            await service.create(where, User(f"a{n}", "Ana"), GameOptions(seed=n))
            await service.join(where, User(f"b{n}", "Ben"))
            await service.start(where, User(f"a{n}", "Ana"))

        async def moves(where: Where) -> int:
            for _ in range(6):
                view = await service.status(where)
                assert view.deciding is not None and view.deciding.user_id is not None
                user = User(view.deciding.user_id, "P")
                x, y, rot = (await service.legal_moves(where, user)).placements[0]
                await service.play_turn(where, user, TurnOrder(at=(x, y), rot=rot),
                                        expect=view.version)
            return (await service.status(where)).moves

        # 8 games at once on 3 server connections: each transaction may get another
        done = await asyncio.gather(*(moves(where) for where in games))
        assert all(n >= 6 for n in done)
    finally:
        await service.close()
    report = await check_postgres(through)
    assert report.ok and report.games == 8, report.lines()
