"""The dependency rules of design.md, checked on the source: engine <- bots <- games <- rooms/ranking."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imports(package: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize(
    "package, forbidden",
    [
        ("caro/engine", ("django", "celery", "channels", "caro.games", "caro.rooms", "caro.bots", "ranking", "accounts")),
        ("caro/bots", ("django", "celery", "channels", "caro.games", "caro.rooms", "ranking", "accounts")),
        ("caro/games", ("caro.rooms", "ranking", "caro.tutorials")),
    ],
)
def test_dependencies_point_one_way(package, forbidden):
    if not (ROOT / package).exists():
        pytest.skip(f"{package} does not exist yet")
    offenders = {
        path: sorted(n for n in names if any(n == f or n.startswith(f + ".") for f in forbidden))
        for path, names in _imports(ROOT / package).items()
    }
    assert {p: n for p, n in offenders.items() if n} == {}


def test_the_engine_imports_without_django_or_celery():
    code = (
        "import sys, caro.engine.caro, caro.engine.reversi, caro.engine.openings, caro.engine.records\n"
        "bad = [m for m in ('django', 'celery', 'channels') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, env={"PATH": "/usr/bin:/bin"})
