"""The dependency rules of docs/architecture.md, checked on the source.

Each package of the site lists the site packages it may import; anything else is an upward or
sideways import. A second test finds import cycles among the site's modules, counting imports
inside functions too (so none can hide a cycle there).
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Every site package, and the site packages it may import (besides itself). Third-party
#: libraries are not listed here, except that the pure layers may not use Django, Celery or Channels.
ALLOWED = {
    "caro.engine": set(),
    # The whole page or one part of it for htmx (caro/partials): a leaf below every app, as the
    # engine is, so the apps whose pages swap parts (lobby, ranking, records) share one helper.
    # It sits here and not in `caro` (the project package, which imports every app) or in one of
    # the apps (they would import sideways); it imports no site package, only Django.
    "caro.partials": set(),
    "accounts": set(),
    "caro.games": {"caro.engine", "accounts"},
    "caro.tutorials": {"caro.engine"},
    # Pairing reuses rooms for the games it makes (rematches, the room page); rooms never import ranking.
    "ranking": {"caro.engine", "caro.games", "caro.rooms", "accounts", "caro.partials"},
    "caro.rooms": {"caro.engine", "caro.games", "accounts"},
    # Record pages link a live game to its room and draw positions with the guides' renderer.
    "caro.records": {"caro.engine", "caro.games", "caro.rooms", "caro.tutorials", "accounts", "caro.partials"},
    # The project package: settings, URLs, ASGI/Celery apps and the site-wide pages wire the apps.
    "caro": {"caro.engine", "caro.games", "caro.rooms", "caro.tutorials", "caro.records", "accounts", "ranking",
             "lobby", "caro.partials"},
    # The site's life (issue 30): the public lobby of open rooms, the live games to watch, the featured
    # game, who is here. It reads every app below it; nothing imports it but the project package
    # (URLs, ASGI routing); the home page includes its parts through its template tags.
    "lobby": {"caro.engine", "caro.games", "caro.rooms", "caro.records", "accounts", "ranking", "caro.partials"},
    # Moderation acts on everything below it (bans on accounts, annulments and aborts through the
    # game service, closing rooms and hiding chat through rooms, the game diagram from tutorials);
    # nothing imports it (caro's URLs include it by name; its app config connects its receiver).
    "moderation": {"caro.engine", "caro.games", "caro.rooms", "caro.tutorials", "caro.records", "accounts",
                   "ranking"},
    "devstack": set(),
}
PURE = {"caro.engine"}
#: The Python computer players of before issue 26, kept as the benchmarks' reference opponent
#: (bench/pybots, numba in the `bench` extra): the computer plays in the browser now, and no
#: process of the site imports them or numba (docs/architecture.md).
BENCH_ONLY = ("bench", "caro.bots", "numba", "llvmlite")
FRAMEWORKS = ("django", "celery", "channels", "daphne")
SITE_ROOTS = ("caro", "accounts", "ranking", "moderation", "lobby", "devstack")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _site_modules() -> dict[str, Path]:
    modules = {}
    for root in SITE_ROOTS:
        for path in (ROOT / root).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


def _imports(path: Path, module: str) -> set[str]:
    """Every module `path` imports, anywhere in the file (absolute names; relative ones resolved)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            names.add(base)
            names |= {f"{base}.{alias.name}" for alias in node.names}
    return names


def _owner(module: str) -> str | None:
    """The package of ALLOWED that `module` belongs to (the longest matching prefix)."""
    matches = [p for p in ALLOWED if module == p or module.startswith(p + ".")]
    return max(matches, key=len) if matches else None


def test_every_site_package_is_listed():
    owners = {_owner(module) for module in _site_modules()}
    assert None not in owners


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_imports_only_what_it_may(package):
    offenders = {}
    for module, path in _site_modules().items():
        if _owner(module) != package:
            continue
        bad = set()
        for name in _imports(path, module):
            target = _owner(name)
            if target is not None and target != package and target not in ALLOWED[package]:
                bad.add(name)
            if package in PURE and name.split(".")[0] in FRAMEWORKS:
                bad.add(name)
        if bad:
            offenders[module] = sorted(bad)
    assert offenders == {}


def test_no_site_module_imports_the_python_bots_or_numba():
    offenders = {}
    for module, path in _site_modules().items():
        bad = sorted(name for name in _imports(path, module)
                     if any(name == root or name.startswith(root + ".") for root in BENCH_ONLY))
        if bad:
            offenders[module] = bad
    assert offenders == {}
    assert not list((ROOT / "caro" / "bots").glob("**/*.py"))  # (an older checkout may keep __pycache__)


def test_the_sites_processes_load_no_bot():
    """What a web process and a Celery worker import (the ASGI app with every URL and consumer,
    the Celery app with every task) holds no bot and no numba."""
    code = (
        "import os, sys\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'caro.settings'); os.environ['DEBUG'] = '1'\n"
        "import django; django.setup()\n"
        "from caro.asgi import application\n"
        "from django.urls import get_resolver; get_resolver().url_patterns\n"
        "from caro.celery import app; app.loader.import_default_modules(); app.autodiscover_tasks(force=True)\n"
        "import caro.games.tasks, caro.rooms.consumers, ranking.consumers\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('bench', 'numba', 'llvmlite') or m.startswith('caro.bots'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                   env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://unused@127.0.0.1:1/unused",
                        "REDIS_URL": "redis://127.0.0.1:1/0"})


def test_the_site_modules_have_no_import_cycle():
    modules = _site_modules()
    graph = {}
    for module, path in modules.items():
        targets = set()
        for name in _imports(path, module):
            # `from a.b import c` names either the module a.b.c or a name inside a.b.
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                targets.add(name)
        graph[module] = targets
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_engine_imports_without_django_or_celery():
    code = (
        "import sys, caro.engine.caro, caro.engine.reversi, caro.engine.openings, caro.engine.records,"
        " caro.engine.explain, caro.engine.names\n"
        "bad = [m for m in ('django', 'celery', 'channels') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, env={"PATH": "/usr/bin:/bin"})


#: Single modules of Django apps that are pure like the engine (no Django, Celery or Channels).
PURE_MODULES = {"ranking.elo", "ranking.chart"}


@pytest.mark.parametrize("module", sorted(PURE_MODULES))
def test_pure_modules_import_no_framework_and_only_pure_site_code(module):
    path = _site_modules()[module]
    names = _imports(path, module)
    frameworks = {name for name in names if name.split(".")[0] in FRAMEWORKS}
    impure = {name for name in names if _owner(name) not in (None, *PURE) and name not in PURE_MODULES}
    assert frameworks == set() and impure == set()


def test_the_elo_functions_import_without_django():
    code = (
        "import sys, ranking.elo, ranking.chart\n"
        "bad = [m for m in ('django', 'celery', 'channels') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, env={"PATH": "/usr/bin:/bin"})
