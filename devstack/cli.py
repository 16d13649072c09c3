"""`dev.py run`, `dev.py test` and `dev.py manage`, after dev.py's bootstrap has put us inside `.venv`.

run     embedded PostgreSQL/Redis when DATABASE_URL/REDIS_URL are unset, migrate, compile
        translations, collectstatic (DEBUG off), then Daphne + one Celery worker + one Celery beat.
        `--web N`: N Daphne processes sharing HOST:PORT (SO_REUSEPORT; the kernel spreads the
        connections), each also alone on a port of its own (devstack/webs.py).
        A worker or beat that dies is started again after 1 s, 2 s, 4 s, ... (at most 30 s; back
        to 1 s once it had run for a minute), each restart logged. Daphne dying stops everything
        (exit 1): the site's address would be down anyway, and a crash loop there should be seen.
        Ctrl-C/SIGTERM stops everything (exit 0). While it runs, <data dir>/run.env (0600) holds
        the DATABASE_URL and REDIS_URL it uses, for `manage`.
        The embedded PostgreSQL and Redis are watched too: one that dies is logged and started
        again at once on the same port and data (again every second until it starts), so the
        site recovers by itself (the web processes and the worker reconnect).
test    embedded services on their own data folders and ports, then `python -m pytest --durations=25 ARGS`;
        exits with pytest's status, except that 5 ("no tests collected") becomes 1.
brain   the computer's Gomocup-protocol brain (static/js/computer/brain.js) under Node, on
        stdin/stdout: `dev.py brain --level hard --cpu-clock`; ARGS go to brain.js as they are.
        Node missing: a clear error, exit 127.
manage  `manage.py ARGS` against the services of `run`: those of a running `dev.py run` (from
        run.env), else the configured DATABASE_URL/REDIS_URL, else the embedded servers started
        for the command (migrations applied first) and stopped after it; exits with its status.

Environment read here (all optional):
  DATABASE_URL, REDIS_URL   use these servers instead of starting embedded ones
  SECRET_KEY                default: a random key generated once into <data dir>/secret_key
  HOST, PORT                Daphne's bind address (127.0.0.1) and port (8000) for `run`
  CARO_DATA_DIR             data folder (default: <repo>/.data)
Exported to children: DATABASE_URL, REDIS_URL, SECRET_KEY, DJANGO_SETTINGS_MODULE=caro.settings,
CARO_INSECURE_HTTP=1 (a plain-HTTP local site: settings relax their HTTPS-only parts; an explicit
value in the environment wins), and for `test` CHROMIUM_PATH=/usr/bin/chromium when that exists.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from devstack import postgres, ports, webs
from devstack import redis as redis_server
from devstack.errors import ServiceError
from devstack.procs import Child, Supervised, WatchedService, set_parent_death_signal, spawn, stop_all

# Default ports; a busy one is replaced by any free port.
PORTS = {"run": (54329, 63790), "test": (54339, 63799)}
CHROMIUM = Path("/usr/bin/chromium")
WEBSOCKET_MAX_MESSAGE_BYTES = 65536
"""Daphne drops a websocket message (and a frame) larger than this, as in production (compose.yaml);
below it the consumer answers: `too_large` over 2,048 bytes, close 4413 over 8,192 (docs/protocol.md)."""
RUN_ENV = "run.env"
MANAGE_WAIT_FOR_RUN = 120.0
"""How long `manage` waits for a starting `dev.py run` to publish its services."""


def daphne_argv(host: str, port: int, python: str = sys.executable, fds: tuple[int, int] | None = None) -> list[str]:
    """The Daphne command line of `run` (the test suite's live server uses the same): bound to
    host:port, or, with `fds` = (front fd, own fd), serving those two inherited listening sockets
    instead (one process of a group, devstack/webs.py). Daphne runs through `caro.webserver`,
    its command line with the access log written through logging (UTC times, as compose.yaml)."""
    bind = webs.daphne_fd_arguments(*fds) if fds else ["-b", host, "-p", str(port)]
    return [
        python, "-m", "caro.webserver", *bind,
        "--websocket-max-message-size", str(WEBSOCKET_MAX_MESSAGE_BYTES),
        "--websocket-max-frame-size", str(WEBSOCKET_MAX_MESSAGE_BYTES),
        "caro.asgi:application",
    ]


def worker_argv(python: str = sys.executable) -> list[str]:
    """One worker for the `celery` queue (clocks, absences, sweeps; the computer plays in the
    browser). No mingle/gossip: nothing here uses them, and mingle would add a second to every
    reconnect after a broker restart."""
    return [python, "-m", "celery", "-A", "caro", "worker", "-Q", "celery", "-l", "warning",
            "--without-mingle", "--without-gossip"]


class Shutdown(BaseException):
    """Raised from the SIGTERM handler to unwind into the cleanup code."""


def log(message: str) -> None:
    """Print a status line; never fail (a closed terminal or pipe must not stop the cleanup)."""
    try:
        print(f"dev: {message}", file=sys.stderr, flush=True)
    except OSError:
        pass


def data_dir(root: Path) -> Path:
    path = Path(os.environ.get("CARO_DATA_DIR") or root / ".data").absolute()
    path.mkdir(parents=True, exist_ok=True)
    return path


def try_lock(state: Path, name: str):
    """The open lock file <state>/<name>.lock, locked exclusively for the life of the process, or
    None if another process holds it."""
    handle = open(state / f"{name}.lock", "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def lock(state: Path, name: str):
    """Hold an exclusive lock on <state>/<name>.lock for the life of the process (returns the file).

    Raises SystemExit if another dev.py already holds it (two of them would share the data folder)."""
    handle = open(state / f"{name}.lock", "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        raise SystemExit(f"dev: another `dev.py {name}` (or `manage`) uses {state} (pid {handle.read().strip() or '?'})")
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def secret_key(state: Path) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in <state>/secret_key (0600)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = state / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


def start_services(mode: str, state: Path, env: dict[str, str], started: list) -> None:
    """Start embedded PostgreSQL/Redis for whichever URL is unset; put the URLs into `env`.

    Each server starts on its preferred port when that looks free, else on a free port; when the
    server then fails to bind (someone took the port in between), it retries on another free port
    (`ports.start_on_free_port`)."""
    pg_port, redis_port = PORTS[mode]
    suffix = "" if mode == "run" else f"-{mode}"
    if not env.get("DATABASE_URL"):
        t0 = time.monotonic()
        datadir = postgres.usable_pg_datadir(state / f"pg{suffix}")
        pg = ports.start_on_free_port(lambda port: postgres.start_postgres(datadir, port), pg_port, log=log)
        started.append(pg)
        env["DATABASE_URL"] = pg.url
        log(f"PostgreSQL on 127.0.0.1:{pg.port}, data in {datadir} ({time.monotonic() - t0:.1f} s)")
    else:
        log("DATABASE_URL is set: using that PostgreSQL")
    if not env.get("REDIS_URL"):
        redis = ports.start_on_free_port(
            lambda port: redis_server.start_redis(port, state / f"redis{suffix}"), redis_port, log=log)
        started.append(redis)
        env["REDIS_URL"] = redis.url
        log(f"Redis on 127.0.0.1:{redis.port}")
    else:
        log("REDIS_URL is set: using that Redis")


def watched_services(state: Path, started: list) -> list[WatchedService]:
    """The embedded servers of `started` as `WatchedService`s: each restarts on its own port and
    data folder."""
    watched = []
    for server in started:
        if isinstance(server, postgres.EmbeddedPostgres):
            watched.append(WatchedService("PostgreSQL", server, started, log=log,
                                          restart=lambda s=server: postgres.start_postgres(s.datadir, s.port)))
        elif isinstance(server, redis_server.EmbeddedRedis):
            watched.append(WatchedService("Redis", server, started, log=log,
                                          restart=lambda s=server: redis_server.start_redis(s.port, s.logfile.parent)))
    return watched


def stop_services(started: list) -> None:
    for server in reversed(started):
        try:
            server.stop()
        except Exception as exc:  # keep stopping the others
            log(f"could not stop {server!r}: {exc}")


def child_env(state: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")
    env["SECRET_KEY"] = secret_key(state)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("CARO_INSECURE_HTTP", "1")
    return env


def _raise_shutdown(signum, frame):
    raise Shutdown(signum)


def _wait(child: Child) -> int:
    while True:
        code = child.process.poll()
        if code is not None:
            return code
        time.sleep(0.1)


def prepare(root: Path, env: dict[str, str], children: list[Child], migrate: bool) -> None:
    argv = [sys.executable, "-m", "devstack.prepare"] + (["--migrate"] if migrate else [])
    child = spawn("prepare", argv, env, str(root))
    children.append(child)
    code = _wait(child)
    children.remove(child)
    if code != 0:
        raise SystemExit(f"dev: preparing the site failed (exit {code})")


def write_run_env(state: Path, env: dict[str, str]) -> Path:
    """<state>/run.env: the service URLs of this `run`, for `manage` (mode 0600: it has the password)."""
    path = state / RUN_ENV
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        for key in ("DATABASE_URL", "REDIS_URL"):
            handle.write(f"{key}={env[key]}\n")
    os.replace(tmp, path)
    return path


def read_run_env(state: Path) -> dict[str, str] | None:
    try:
        text = (state / RUN_ENV).read_text()
    except OSError:
        return None
    found = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    return found if {"DATABASE_URL", "REDIS_URL"} <= found.keys() else None


def cmd_run(root: Path, web_processes: int = 1) -> int:
    """`run` with `web_processes` Daphnes: one on HOST:PORT, or several sharing it (devstack/webs.py)."""
    state = data_dir(root)
    held = lock(state, "run")
    (state / RUN_ENV).unlink(missing_ok=True)  # left by a `run` that was killed
    host = os.environ.get("HOST") or "127.0.0.1"
    port = int(os.environ.get("PORT") or 8000)
    if not ports.port_is_free(port, host if host not in ("0.0.0.0", "") else "127.0.0.1"):
        log(f"port {port} on {host} is in use; set PORT to another one")
        return 1
    env = child_env(state)
    started: list = []
    children: list[Child] = []

    def body() -> int:
        # Ctrl-C stops everything even when started from a shell that ignored SIGINT (`cmd &`).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        t0 = time.monotonic()
        start_services("run", state, env, started)
        write_run_env(state, env)
        prepare(root, env, children, migrate=True)
        cwd = str(root)
        if web_processes == 1:
            group = None
            web_procs = [Supervised("web", daphne_argv(host, port), env, cwd, restart=False, children=children, log=log)]
        else:
            try:
                group = webs.bind_web_sockets(host or "0.0.0.0", port, web_processes)
            except OSError as exc:
                raise SystemExit(f"dev: could not listen on {host}:{port} ({exc}); set PORT to another one")
            web_procs = [Supervised(f"web{i + 1}", daphne_argv(host, port, fds=group.fds(i)), env, cwd, restart=False,
                                children=children, log=log, pass_fds=group.fds(i)) for i in range(web_processes)]
        supervised = [
            *web_procs,
            Supervised("worker", worker_argv(), env, cwd, restart=True, children=children, log=log),
            Supervised("beat", [sys.executable, "-m", "celery", "-A", "caro", "beat", "-l", "warning",
                                "-s", str(state / "celerybeat-schedule")], env, cwd, restart=True, children=children, log=log),
        ]
        for item in supervised:
            item.start()
        if group is not None:
            group.close()  # each Daphne holds its own copies now
        local = "127.0.0.1" if host in ("0.0.0.0", "") else host
        for web, own in zip(web_procs, group.own_ports if group else [port]):
            if not ports.wait_for_port(own, local, 60, web.child.process):
                raise SystemExit(f"dev: {web.name} did not start listening")
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "") else host
        if group is not None:
            own = ", ".join(f"{web.name} :{p}" for web, p in zip(web_procs, group.own_ports))
            log(f"{web_processes} web processes share port {port} (the kernel spreads connections: SO_REUSEPORT); "
                f"each alone on {own}")
        log(f"site ready in {time.monotonic() - t0:.1f} s: http://{shown}:{port}/  (Ctrl-C stops everything)")
        services = watched_services(state, started)
        while True:
            for service in services:
                service.poll()
            for item in supervised:
                code = item.poll()
                if code is not None:
                    log(f"{item.name} exited with status {code}; stopping everything")
                    raise SystemExit(1)
            time.sleep(0.2)

    try:
        code = _supervise(body, interrupted=0, children=children, started=started, held=held, stopping="stopping")
    finally:
        (state / RUN_ENV).unlink(missing_ok=True)
    log(f"stopped (exit {code})")
    return code


def cmd_manage(root: Path, args: list[str]) -> int:
    """`manage.py ARGS` against the same services as `run` (see the module docstring)."""
    state = data_dir(root)
    env = child_env(state)
    started: list = []
    children: list[Child] = []
    held = None
    deadline = time.monotonic() + MANAGE_WAIT_FOR_RUN
    while True:
        held = try_lock(state, "run")
        if held is not None:
            break
        running = read_run_env(state)
        if running:
            env.update(running)
            log("using the services of the running `dev.py run`")
            break
        if time.monotonic() > deadline:
            log(f"a `dev.py run` holds {state} but published no services; try again when it is up")
            return 1
        time.sleep(0.2)

    def body() -> int:
        if held is not None:
            start_services("run", state, env, started)
            if started and any(isinstance(s, postgres.EmbeddedPostgres) for s in started):
                migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env=env, cwd=str(root))
                if migrate.returncode != 0:
                    raise SystemExit(f"dev: migrate failed (exit {migrate.returncode})")
        # In our process group and with our terminal: interactive commands (createsuperuser, shell) work.
        command = subprocess.Popen([sys.executable, "manage.py", *args], env=env, cwd=str(root),
                                   preexec_fn=set_parent_death_signal)
        signal.signal(signal.SIGINT, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: command.send_signal(signal.SIGTERM))
        return command.wait()

    class _Unlocked:
        def close(self):
            pass

    return _supervise(body, interrupted=130, children=children, started=started, held=held or _Unlocked())


BRAIN = Path("static") / "js" / "computer" / "brain.js"
NODE_MISSING = ("dev.py brain: Node.js is not installed (the computer's brain runs under `node`); "
                "install Node 20 or later, e.g. `apt-get install nodejs`, and try again")


def brain_argv(root: Path, args: list[str], node: str | None = None) -> list[str] | None:
    """The command that runs the brain with ``args``: ``[node, <root>/static/js/computer/brain.js,
    *args]``, or None when ``node`` (default: looked up on PATH) is missing."""
    node = node or shutil.which("node")
    if node is None:
        return None
    return [node, str(root / BRAIN), *args]


def cmd_brain(root: Path, args: list[str]) -> int:
    """Replace this process with Node running the brain (stdin/stdout stay the caller's, and the
    brain's --cpu-clock measures its own process). Returns 127 with a clear error without Node."""
    argv = brain_argv(root, args)
    if argv is None:
        print(NODE_MISSING, file=sys.stderr)
        return 127
    sys.stdout.flush()
    os.execv(argv[0], argv)
    return 0  # pragma: no cover - execv does not return


TEST_DEFAULTS = ("--durations=25",)
"""pytest options `dev.py test` puts before the caller's: every run, CI's included, ends with its 25
slowest setups, calls and teardowns, so a log shows where the suite's time goes. A later
``--durations=N`` among the caller's arguments replaces it."""


def cmd_test(root: Path, pytest_args: list[str]) -> int:
    state = data_dir(root)
    held = lock(state, "test")
    env = child_env(state)
    if CHROMIUM.exists():
        env.setdefault("CHROMIUM_PATH", str(CHROMIUM))
    started: list = []
    children: list[Child] = []

    def body() -> int:
        start_services("test", state, env, started)
        prepare(root, env, children, migrate=False)
        # pytest stays in our process group so a terminal Ctrl-C reaches it directly.
        pytest = subprocess.Popen(
            [sys.executable, "-m", "pytest", *TEST_DEFAULTS, *pytest_args], env=env, cwd=str(root), preexec_fn=set_parent_death_signal,
        )
        signal.signal(signal.SIGINT, lambda *_: None)

        def forward_sigterm(*_):
            log(f"SIGTERM received (sender pid unknown); stopping pytest (pid {pytest.pid})")
            pytest.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, forward_sigterm)
        code = pytest.wait()
        if code < 0:
            log(f"pytest was stopped by signal {-code} ({signal.Signals(-code).name})")
            code = 128 - code
        if code == 5:
            log("pytest collected no tests: treating that as a failure")
            code = 1
        return code

    return _supervise(body, interrupted=130, children=children, started=started, held=held)


def _supervise(body, *, interrupted: int, children: list, started: list, held, stopping: str = "") -> int:
    """Run `body()` with SIGTERM raising `Shutdown`; whatever happens, stop the children and the
    services this command started, and release the data-folder lock. Returns the exit status:
    body's, `interrupted` after Ctrl-C/SIGTERM, or 1 after a failure."""
    previous = signal.signal(signal.SIGTERM, _raise_shutdown)
    try:
        return body()
    except (KeyboardInterrupt, Shutdown):
        if stopping:
            log(stopping)
        return interrupted
    except SystemExit as exc:
        if isinstance(exc.code, str):
            log(exc.code.removeprefix("dev: "))
        return 1
    except ServiceError as exc:
        log(str(exc))
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop_all(children, log=log)
        stop_services(started)
        signal.signal(signal.SIGTERM, previous)
        held.close()


USAGE = """usage: python3 dev.py run [--web N]    start the site (N Daphnes, Celery worker and beat)
       python3 dev.py test [PYTEST ARGS]  run the test suite
       python3 dev.py manage COMMAND [ARGS]  a manage.py command against run's services
       python3 dev.py brain [--level LEVEL] [--preset SLUG] [--cpu-clock]  the computer's Gomocup brain (Node)
       python3 dev.py setup            only create/update .venv"""


def main(argv: list[str], root: Path) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "run":
        parser = argparse.ArgumentParser(prog="dev.py run", description="Start the whole site.")
        parser.add_argument("--web", type=int, default=1, metavar="N",
                            help=f"web (Daphne) processes sharing PORT, 1..{webs.MAX_WEB_PROCESSES} (default 1)")
        options = parser.parse_args(rest)
        if not 1 <= options.web <= webs.MAX_WEB_PROCESSES:
            parser.error(f"--web must be 1..{webs.MAX_WEB_PROCESSES}")
        return cmd_run(root, options.web)
    if command == "test":
        return cmd_test(root, rest)
    if command == "manage" and rest:
        return cmd_manage(root, rest)
    if command == "brain":
        return cmd_brain(root, rest)
    if command == "setup" and not rest:
        return 0
    print(USAGE, file=sys.stderr)
    return 2
