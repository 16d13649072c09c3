"""compose.yaml and Dockerfile: the production stack's shape, checked by parsing (no Docker engine here).

No database needed: these tests only read files.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

# PyYAML belongs in the `test` extra of pyproject.toml; until it is there, skip (visibly, -ra) rather
# than break collection of the whole suite.
yaml = pytest.importorskip("yaml", reason="PyYAML is not installed (add it to the test extra)")

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("migrate", "web", "worker", "beat")
REQUIRED_ENV = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS")


@pytest.fixture(scope="module")
def services() -> dict:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data["services"]


def argv(value) -> list[str]:
    """A compose command/healthcheck in list or string form, as an argument list."""
    return list(value) if isinstance(value, list) else shlex.split(value)


def env(service: dict) -> dict[str, str]:
    value = service.get("environment", {})
    if isinstance(value, list):  # KEY=VALUE form
        value = dict(item.split("=", 1) for item in value)
    return {key: str(val) for key, val in value.items()}


def condition(service: dict, dependency: str) -> str:
    return service["depends_on"][dependency]["condition"]


def test_all_services_present(services):
    assert {"postgres", "redis", "migrate", "web", "worker", "beat"} <= set(services)


def test_postgres(services):
    pg = services["postgres"]
    assert pg["image"].startswith("postgres:16")
    assert "pg_isready" in " ".join(argv(pg["healthcheck"]["test"]))
    assert any(str(v).endswith(":/var/lib/postgresql/data") for v in pg["volumes"])
    assert pg["environment"]["POSTGRES_PASSWORD"].startswith("${"), "password comes from the environment"


def test_redis(services):
    redis = services["redis"]
    assert redis["image"].startswith("redis:7")
    assert argv(redis["healthcheck"]["test"])[-2:] == ["redis-cli", "ping"]


def test_migrate_is_one_shot_after_postgres(services):
    migrate = services["migrate"]
    assert argv(migrate["command"]) == ["python", "manage.py", "migrate", "--noinput"]
    assert migrate["restart"] == "no"
    assert condition(migrate, "postgres") == "service_healthy"


def test_web_runs_daphne_after_migrate_and_redis(services):
    web = services["web"]
    assert argv(web["command"]) == ["python", "-m", "caro.webserver", "-b", "0.0.0.0", "-p", "8000", "--proxy-headers",
                                    "--websocket-max-message-size", "65536", "caro.asgi:application"]
    assert condition(web, "migrate") == "service_completed_successfully"
    assert condition(web, "redis") == "service_healthy"
    test = argv(web["healthcheck"]["test"])
    assert test[:3] == ["CMD", "python", "-c"]
    assert "http://localhost:8000/healthz" in test[3]
    compile(test[3], "<healthcheck>", "exec")  # the one-liner is valid Python
    assert importlib.util.find_spec("caro.asgi") is not None


def test_worker_and_exactly_one_beat(services):
    worker, beat = services["worker"], services["beat"]
    assert argv(worker["command"])[:4] == ["celery", "-A", "caro", "worker"]
    assert argv(beat["command"])[:4] == ["celery", "-A", "caro", "beat"]
    assert beat["deploy"]["replicas"] == 1
    assert beat.get("scale", 1) == 1
    for name in ("worker", "beat"):
        assert condition(services[name], "migrate") == "service_completed_successfully"
        assert condition(services[name], "redis") == "service_healthy"
    runs_beat = [name for name, svc in services.items() if "beat" in argv(svc.get("command", []))]
    assert runs_beat == ["beat"]
    assert "-B" not in argv(worker["command"]) and "--beat" not in argv(worker["command"])
    # one queue: the computer plays in the browser (issue 26), no task computes a move
    command = argv(worker["command"])
    assert "-Q" in command and set(command[command.index("-Q") + 1].split(",")) == {"celery"}


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_share_environment(services, name):
    values = env(services[name])
    for key in REQUIRED_ENV:
        assert values.get(key), f"{name} lacks {key}"
    assert values["DEBUG"] == "0"
    assert values["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in values["DATABASE_URL"]
    assert values["REDIS_URL"] == "redis://redis:6379/0"
    # No committed secret: SECRET_KEY is interpolated from the environment and required.
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]*\}", values["SECRET_KEY"])
    assert "localhost" not in values["ALLOWED_HOSTS"], "no localhost in production hosts"
    assert values == env(services["web"]), "all app services get the same environment"


def test_dockerfile():
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert "gettext" in text
    assert "collectstatic --noinput" in text
    assert "compilemessages" in text
    assert re.search(r"^USER (?!root)\S+", text, re.M), "the image does not run as root"
    # nothing is compiled into the image: the computer plays in the browser (issue 26)
    assert "numba" not in text.lower() and "warm_up" not in text and "pybots" not in text
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", ".data", ".env"} <= set(ignored)


def nginx_config() -> str:
    """deploy/nginx.conf without its comments."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def directives(block: str) -> list[list[str]]:
    """The simple directives of an nginx block's text, each as its words (nested blocks included)."""
    return [part.split() for part in re.split(r"[;{}]", block) if part.strip()]


def block(text: str, header: str) -> str:
    """The body of the first `header { ... }` block in `text` (braces balanced)."""
    start = re.search(re.escape(header) + r"\s*\{", text)
    assert start, f"no `{header}` block"
    depth, i = 1, start.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[start.end():i - 1]


def test_web_replicas_sit_behind_a_websocket_capable_proxy(services):
    """Issue 17: web replicas behind an official nginx image whose configuration is in the
    repository, mounted read-only where nginx reads it; only the proxy is published."""
    web, proxy = services["web"], services["proxy"]
    assert web["deploy"]["replicas"] >= 2
    assert "ports" not in web, "only the proxy reaches the replicas (forwarded headers are trusted)"
    assert re.fullmatch(r"nginx:1\.(2[89]|[3-9]\d)(\.\d+)?", proxy["image"]), "official image, >= 1.28 (`resolve`)"
    mounts = [str(v).split(":") for v in proxy["volumes"]]
    assert ["./deploy/nginx.conf", "/etc/nginx/conf.d/default.conf", "ro"] in mounts
    assert (ROOT / "deploy" / "nginx.conf").is_file()
    assert condition(proxy, "web") == "service_healthy"
    published = [str(p) for p in proxy["ports"]]
    assert published == ["${WEB_PUBLISH:-127.0.0.1:8000}:8080"], "on the host's loopback by default"
    assert "--proxy-headers" in argv(web["command"])


def test_the_proxy_config_balances_over_every_replica_and_upgrades_websockets():
    text = nginx_config()
    upstream = directives(block(text, "upstream web"))
    assert ["server", "web:8000", "resolve"] in upstream, "every replica's address, re-resolved on scaling"
    assert ["zone", "web", "64k"] in upstream and ["least_conn"] in upstream
    assert any(d[0] == "resolver" and d[1] == "127.0.0.11" for d in directives(text)), "Docker's DNS"
    server = block(text, "server")
    assert ["listen", "8080"] in directives(server)
    location = directives(block(server, "location /"))
    assert ["proxy_pass", "http://$web_upstream"] in location
    # Issue 27: a room's sockets on one replica (consistent hash of the code), HTTP by fewest connections.
    rooms = directives(block(text, "upstream web_rooms"))
    assert ["server", "web:8000", "resolve"] in rooms and ["hash", "$room_code", "consistent"] in rooms
    code_map = directives(block(text, "map $uri $room_code"))
    assert code_map[0][0].startswith('"~^/ws/room/') and code_map[0][1] == "$code"
    assert directives(block(text, "map $room_code $web_upstream")) == [['""', "web"], ["default", "web_rooms"]]
    assert ["proxy_http_version", "1.1"] in location, "websockets need HTTP/1.1 upstream"
    assert ["proxy_set_header", "Upgrade", "$http_upgrade"] in location
    assert ["proxy_set_header", "Connection", "$connection_upgrade"] in location
    upgrade_map = directives(block(text, "map $http_upgrade $connection_upgrade"))
    assert ["default", "upgrade"] in upgrade_map
    assert ["proxy_set_header", "Host", "$http_host"] in location, "with its port (caro/origin.py)"
    assert ["proxy_set_header", "X-Forwarded-For", "$remote_addr"] in location, "overwritten, not appended"
    assert ["proxy_set_header", "X-Forwarded-Proto", "$forwarded_proto"] in location
    timeout = next(d[1] for d in location if d[0] == "proxy_read_timeout")
    seconds = int(timeout[:-1]) * {"s": 1, "m": 60, "h": 3600}[timeout[-1]]
    assert seconds > 60, "an idle websocket between moves outlives nginx's 60 s default"


def test_the_proxy_limits_requests_per_address_but_not_static_files():
    """Attacker run: public pages had no limit at all (300 requests from one address, all served)."""
    text = nginx_config()
    zone = next(d for d in directives(text) if d[0] == "limit_req_zone")
    assert zone[1] == "$limit_key" and zone[2].startswith("zone=per_address:")
    assert directives(block(text, "map $uri $limit_key")) == [['"~^/static/"', '""'], ["default", "$binary_remote_addr"]]
    server = directives(block(text, "server"))
    assert ["limit_req", "zone=per_address", "burst=120", "nodelay"] in server
    assert ["limit_req_status", "429"] in server and ["error_page", "429", "@too_many_requests"] in server
    refusal = directives(block(text, "location @too_many_requests"))
    assert ["add_header", "Retry-After", "1", "always"] in refusal
