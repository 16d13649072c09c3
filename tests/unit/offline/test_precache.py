"""What the service worker keeps and its version (caro.offline.precache), the manifest's colours
and icons (caro.offline.webapp): pure parts, no database."""

import re
import struct
from pathlib import Path

from caro.offline import icons, precache, webapp
from caro.offline.precache import Page

ROOT = Path(__file__).resolve().parents[3]


def test_static_paths_in_finds_src_and_href_under_static_url_only():
    html = ('<link rel="stylesheet" href="/static/css/site.0123456789ab.css">'
            '<script src="/static/django_htmx/htmx-2.min.aaaaaaaaaaaa.js" defer></script>'
            '<link rel="icon" href="/static/favicon.svg?v=2"><a href="/huong-dan/">x</a>'
            '<img src="https://cdn.example/static/x.png">')
    assert precache.static_paths_in(html, "/static/") == {
        "css/site.0123456789ab.css", "django_htmx/htmx-2.min.aaaaaaaaaaaa.js", "favicon.svg"}


def test_select_static_keeps_our_files_and_the_layouts_not_other_library_files():
    manifest = {
        "js/room.js": "js/room.111111111111.js",
        "js/engine/caro.js": "js/engine/caro.222222222222.js",
        "django_htmx/htmx-2.min.js": "django_htmx/htmx-2.min.333333333333.js",
        "django_htmx/htmx-4.js": "django_htmx/htmx-4.444444444444.js",
        "admin/css/base.css": "admin/css/base.555555555555.css",
    }
    own = {"js/room.js", "js/engine/caro.js", "js/new-module.js"}  # collected later: not served yet
    layout = {"django_htmx/htmx-2.min.333333333333.js"}  # as the layout's HTML names it
    assert precache.select_static(manifest, own, layout) == {
        "django_htmx/htmx-2.min.js": "django_htmx/htmx-2.min.333333333333.js",
        "js/engine/caro.js": "js/engine/caro.222222222222.js",
        "js/room.js": "js/room.111111111111.js",
    }


def test_library_files_are_told_from_ours(tmp_path, settings):
    settings.BASE_DIR = tmp_path
    assert precache.is_library_path(tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "x" / "static" / "a.js")
    assert precache.is_library_path(Path("/usr/lib/python3/dist-packages/django/contrib/admin/static/a.css"))
    assert not precache.is_library_path(tmp_path / "static" / "js" / "room.js")
    assert not precache.is_library_path(tmp_path / "caro" / "tutorials" / "static" / "tutorials" / "guides.css")


def test_version_changes_with_the_static_manifest_the_pages_and_the_rest():
    pages = [Page("/", True), Page("/huong-dan/", False)]
    base = precache.version_of("aaaaaaaaaaaa", pages, "{}")
    assert re.fullmatch(r"[0-9a-f]{16}", base)
    assert precache.version_of("aaaaaaaaaaaa", list(pages), "{}") == base
    assert precache.version_of("bbbbbbbbbbbb", pages, "{}") != base
    assert precache.version_of("aaaaaaaaaaaa", pages + [Page("/guides/", False)], "{}") != base
    assert precache.version_of("aaaaaaaaaaaa", [Page("/", True, any_query=True), pages[1]], "{}") != base
    assert precache.version_of("aaaaaaaaaaaa", pages, '{"pageTimeoutMs": 1}') != base


def _css_variable(name: str) -> str:
    css = (ROOT / "static" / "css" / "site.css").read_text(encoding="utf-8")
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{3,8}})", css).group(1).lower()


def test_the_manifest_colours_are_the_style_sheets():
    assert webapp.THEME_COLOR == _css_variable("accent")
    assert webapp.BACKGROUND_COLOR == _css_variable("bg")


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_every_icon_is_a_png_of_its_stated_size():
    for name, size, _purpose in webapp.ICONS + ((webapp.APPLE_TOUCH_ICON[0], webapp.APPLE_TOUCH_ICON[1], "apple"),):
        assert _png_size(ROOT / "static" / name) == (size, size), name
    purposes = {(size, purpose) for _name, size, purpose in webapp.ICONS}
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= purposes


def test_the_icons_are_drawn_from_the_favicon():
    drawn = icons.icons()
    assert set(drawn) == {Path(name).name for name, _s, _p in webapp.ICONS} | {"apple-touch-icon.png"}
    favicon = (ROOT / "static" / "favicon.svg").read_text(encoding="utf-8")
    for name, (svg, _size) in drawn.items():
        # the same marks (the X's two strokes and the O) in every icon
        assert all(mark in svg for mark in re.findall(r"<(?:path|circle)[^>]*/>", favicon)), name
    maskable = drawn["icon-maskable-512.png"][0]
    # the paper reaches the edges: the background square is the whole view box
    box = re.search(r'viewBox="([^"]+)"', maskable).group(1).split()
    rect = re.search(r'<rect x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"', maskable).groups()
    assert [float(v) for v in box] == [float(v) for v in rect]
