"""A throwaway PostgreSQL server for tests, from the PostgreSQL installed on the machine.

`shared_server()` starts one per test process the first time a test asks (initdb into a
temporary folder, then `postgres` on a free loopback port, its socket in that folder),
and stops it and deletes the folder when the process exits. Each test then makes its
own database (`fresh_database`), so tests never see each other's rows.

PostgreSQL refuses to run as root: as root (here and in CI) the server runs as the
`postgres` system user, through `runuser`. Without the binaries the tests that need a
server skip, saying why, except where the `CI` variable is set, where they fail: CI
must never pass by skipping them. `PG_BIN` may name the folder of the binaries.

Other test folders use it as tests/store/conftest.py does: the fixtures `pg_server`
(the running server) and `pg_url` (a new empty database, dropped after the test), or
`shared_server()` and `fresh_database()` directly.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import asyncpg
import pytest

START_TIMEOUT = 60  # seconds pg_ctl waits for the server to accept connections
SERVER_USER = "postgres"  # the system account that runs the server when we are root
# Fast and unsafe: a test server's data is worth nothing after the run.
SETTINGS = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200 -c listen_addresses=127.0.0.1")


class NoPostgres(Exception):
    """No PostgreSQL to start here; the message says what is missing."""


def find_bindir() -> Path:
    """The folder with initdb, pg_ctl and postgres: PG_BIN (and only it, when set), else
    the newest /usr/lib/postgresql/*/bin (Debian), else the PATH."""
    if os.environ.get("PG_BIN"):
        folder = Path(os.environ["PG_BIN"])
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
        raise NoPostgres(f"PG_BIN={folder} has no initdb, pg_ctl and postgres")
    candidates: list[Path] = []
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    candidates += reversed(versions)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
    raise NoPostgres("no PostgreSQL server binaries (initdb, pg_ctl, postgres) found: "
                     "install the Debian package postgresql, or set PG_BIN")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PgServer:
    """A running server; `url(name)` is how the store reaches database `name` on it."""

    bindir: Path
    folder: Path
    port: int
    as_user: list[str]  # the command prefix that runs a tool as the server's user

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    @classmethod
    def start(cls) -> PgServer:
        bindir = find_bindir()
        as_user: list[str] = []
        folder = Path(tempfile.mkdtemp(prefix="carca-pg-"))
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise NoPostgres(f"running as root and there is no {SERVER_USER!r} user to "
                                 "run PostgreSQL as (it refuses to run as root)") from None
            runuser = shutil.which("runuser")
            if runuser is None:
                raise NoPostgres("running as root and there is no runuser to run "
                                 "PostgreSQL as another user")
            os.chown(folder, account.pw_uid, account.pw_gid)
            as_user = [runuser, "-u", SERVER_USER, "--"]
        server = cls(bindir, folder, 0, as_user)
        try:
            server._run("initdb", "-D", str(server.data), "-A", "trust", "-U", "postgres",
                        "-E", "UTF8", "--locale=C", "--no-sync")
            server._listen()
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return server

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.as_user, str(self.bindir / tool), *args],
                              capture_output=True, text=True, timeout=START_TIMEOUT + 30,
                              check=False)
        if done.returncode != 0:
            raise NoPostgres(f"{tool} failed ({done.returncode}): "
                             f"{(done.stderr or done.stdout).strip()[-2000:]}")

    def _listen(self) -> None:
        """Start on a free port (another program may take it first: try again)."""
        for attempt in range(3):
            self.port = _free_port()
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"),
                          "-w", "-t", str(START_TIMEOUT), "-o",
                          f"-p {self.port} -k {self.folder} {SETTINGS}", "start")
                return
            except NoPostgres:
                if attempt == 2:
                    log = self.folder / "log"
                    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                    raise NoPostgres(f"postgres did not start: {tail}") from None

    def pids(self) -> list[int]:
        """The server's processes: the postmaster, then its children (one per
        connection, and its helpers)."""
        main = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[1]) == main:
                        children.append(int(entry.name))
        return [main, *sorted(children)]

    def pause(self) -> list[int]:
        """Stop the whole server (SIGSTOP), as a hung machine or a long network cut
        looks to its clients: connections open, nothing answered. Returns the
        processes stopped, for `resume`."""
        stopped = self.pids()
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        return stopped

    def resume(self, stopped: list[int]) -> None:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def halt(self) -> None:
        """Shut the server down (its clients' connections end; new ones are refused)
        until `start_again`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def start_again(self) -> None:
        """Start a halted server on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w",
                  "-t", str(START_TIMEOUT), "-o",
                  f"-p {self.port} -k {self.folder} {SETTINGS}", "start")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.resume(self.pids())  # a paused server does not stop
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


_lock = threading.Lock()
_server: PgServer | None = None
_failure: NoPostgres | None = None
_names = itertools.count()


def shared_server() -> PgServer:
    """The server of this test process, started on first use; raises NoPostgres (the
    same one every time) when there is none to start."""
    global _server, _failure
    with _lock:
        if _failure is not None:
            raise _failure
        if _server is None:
            try:
                _server = PgServer.start()
            except NoPostgres as exc:
                _failure = exc
                raise
            atexit.register(_server.stop)
        return _server


async def create_database(server: PgServer, name: str | None = None) -> str:
    """A new empty database on `server`; returns its URL."""
    name = name or f"t{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return server.url(name)


async def drop_database(server: PgServer, url: str) -> None:
    name = url.rsplit("/", 1)[-1]
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@contextlib.asynccontextmanager
async def fresh_database(server: PgServer) -> AsyncIterator[str]:
    """A new empty database for one test, dropped after it."""
    url = await create_database(server)
    try:
        yield url
    finally:
        await asyncio.shield(drop_database(server, url))


def server_or_skip() -> PgServer:
    """The shared server; without one the test skips, saying why, or fails under CI."""
    try:
        return shared_server()
    except NoPostgres as exc:
        refuse(exc)


def refuse(exc: NoPostgres) -> NoReturn:
    """Skip the test that needs PostgreSQL, saying why; under CI fail it instead."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the PostgreSQL tests, but: {exc}", pytrace=False)
    pytest.skip(f"no PostgreSQL server for the tests: {exc}")


# Fixtures: a conftest imports them (`from tests.store.pg_server import pg_server, pg_url`)
# to offer them in its folder.


@pytest.fixture(scope="session")
def pg_server() -> PgServer:
    return server_or_skip()


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    async with fresh_database(pg_server) as url:
        yield url
