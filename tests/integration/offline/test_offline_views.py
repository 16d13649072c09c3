"""/sw.js, /manifest.webmanifest, the offline page and the base layout's head, against collected
static files with a manifest (as with DEBUG off) in a folder of the test's own."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import NoReverseMatch, reverse

from caro.tutorials.loader import sync_guides
from caro.tutorials.models import Guide

pytestmark = pytest.mark.django_db
MANIFEST_STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Django's own manifest storage: the same staticfiles.json as whitenoise's, without compressing
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    """A STATIC_ROOT with everything collected (once for the module), and an extra static folder
    the tests may add files to."""
    root = tmp_path_factory.mktemp("static-root")
    extra = tmp_path_factory.mktemp("static-extra")
    (extra / "extra").mkdir()
    (extra / "extra" / "probe.js").write_text("export const VERSION = 1;\n")
    return root, extra


@pytest.fixture
def manifest_site(collected, settings):
    root, extra = collected
    with override_settings(STORAGES=MANIFEST_STORAGE, STATIC_ROOT=root,
                           STATICFILES_DIRS=[*settings.STATICFILES_DIRS, extra]):
        if not (root / "staticfiles.json").exists():
            call_command("collectstatic", interactive=False, verbosity=0)
        sync_guides()
        yield root, extra


def _reverse(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def _config(body: str) -> dict:
    match = re.match(r"self\.CARO_OFFLINE = (\{.*?\});\n", body)
    assert match, body[:200]
    return json.loads(match.group(1))


def test_the_worker_is_served_at_the_root_revalidated_on_every_use(client, manifest_site):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert "self.CaroSW" in body and 'self.addEventListener("fetch"' in body
    again = client.get("/sw.js", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


def test_the_worker_keeps_our_static_files_the_layouts_and_no_other_library_files(client, manifest_site):
    config = _config(client.get("/sw.js").content.decode())
    files = config["static"]["files"]
    assert config["static"]["url"] == "/static/"
    for name in ("js/records-queue.js", "js/offline/page.js", "js/room.js", "css/site.css", "favicon.svg",
                 "icons/icon-192.png", "tutorials/guides.css", "django_htmx/htmx-2.min.js"):
        assert name in files, name
    assert re.fullmatch(r"js/records-queue\.[0-9a-f]{12}\.js", files["js/records-queue.js"])
    assert not any(name.startswith("admin/") for name in files)
    assert "django_htmx/htmx-4.js" not in files  # a library's file the layout does not load
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])


def test_the_worker_keeps_the_pages_that_work_offline_and_every_guide(client, manifest_site):
    config = _config(client.get("/sw.js").content.decode())
    pages = {p["url"]: p for p in config["pages"]}
    assert pages["/"] == {"url": "/", "visitor": True, "anyQuery": False}
    assert pages["/jsi18n/"]["visitor"] and pages["/ngoai-tuyen/"]["visitor"]
    assert config["offline"] == "/ngoai-tuyen/"
    assert pages["/manifest.webmanifest"]["visitor"] is False
    guides = [g.get_absolute_url() for g in Guide.objects.filter(published=True)]
    assert len(guides) >= 10 and {"/huong-dan/", "/guides/"} <= set(pages)
    for url in guides:
        assert pages[url] == {"url": url, "visitor": False, "anyQuery": False}
    assert config["languages"] == ["vi", "en"]
    assert config["fallback"]["vi"].startswith("Trang này cần kết nối mạng")
    assert config["fallback"]["en"].startswith("This page needs an internet connection")


def test_a_new_static_file_is_kept_and_a_changed_one_changes_the_version(client, manifest_site):
    root, extra = manifest_site
    before = _config(client.get("/sw.js").content.decode())
    assert "extra/probe.js" in before["static"]["files"]
    (extra / "extra" / "added.js").write_text("export const ADDED = true;\n")
    (extra / "extra" / "probe.js").write_text("export const VERSION = 2;\n")
    try:
        call_command("collectstatic", interactive=False, verbosity=0)
        with override_settings(STORAGES={**MANIFEST_STORAGE}):  # a deploy: a new process reads the manifest
            after = _config(client.get("/sw.js").content.decode())
    finally:
        (extra / "extra" / "added.js").unlink()
        (extra / "extra" / "probe.js").write_text("export const VERSION = 1;\n")
        call_command("collectstatic", interactive=False, verbosity=0)
    assert "extra/added.js" in after["static"]["files"]
    assert after["static"]["files"]["extra/probe.js"] != before["static"]["files"]["extra/probe.js"]
    assert after["version"] != before["version"]


def test_a_new_guide_changes_the_version(client, manifest_site):
    before = _config(client.get("/sw.js").content.decode())
    guide = Guide.objects.filter(language="en").first()
    Guide.objects.create(key="new-guide", language="en", slug="a-new-guide", title="New", summary="", body="Text.",
                         order=99, published=True, preset=guide.preset)
    after = _config(client.get("/sw.js").content.decode())
    assert "/guides/a-new-guide/" in {p["url"] for p in after["pages"]}
    assert after["version"] != before["version"]
    assert after["static"] == before["static"]


def test_without_a_static_manifest_or_when_turned_off_the_worker_retires_itself(client, manifest_site, settings):
    settings.CARO_SERVICE_WORKER = False
    body = client.get("/sw.js").content.decode()
    assert "unregister()" in body and "CARO_OFFLINE" not in body
    assert "data-worker=" not in client.get("/").content.decode()


def test_static_files_on_another_origin_have_no_worker(client, manifest_site, settings):
    settings.STATIC_URL = "https://cdn.example/static/"
    assert "unregister()" in client.get("/sw.js").content.decode()
    assert "data-worker=" not in client.get("/").content.decode()


def test_debug_storage_has_no_worker(client):
    with override_settings(STORAGES={**MANIFEST_STORAGE, "staticfiles": {
            "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}):
        body = client.get("/sw.js").content.decode()
        html = client.get("/").content.decode()
    assert "unregister()" in body
    assert "data-worker=" not in html
    assert 'rel="manifest"' in html  # the manifest needs no worker


def test_every_page_links_the_manifest_theme_colour_icon_and_registers_the_worker(client, manifest_site):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#0b6e4f">' in html
    assert re.search(r'<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon\.[0-9a-f]{12}\.png">', html)
    boot = re.search(r"<script type=\"module\" src=\"/static/js/offline/page\.[0-9a-f]{12}\.js\"[^>]*>", html).group(0)
    assert 'data-worker="/sw.js"' in boot and 'data-visitor-language="vi"' in boot and 'data-visitor=""' in boot
    assert 'data-text-offline="Bạn đang ngoại tuyến' in boot
    # a guide is shown in its URL's language; the worker is told the visitor's own
    client.cookies["django_language"] = "vi"
    guide = client.get("/guides/").content.decode()
    assert '<html lang="en">' in guide and 'data-visitor-language="vi"' in guide


def test_the_web_manifest(client, manifest_site):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Caro trực tuyến" and data["short_name"] == "Caro" and data["lang"] == "vi"
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["theme_color"] == "#0b6e4f" and data["background_color"] == "#fbfaf7"
    icons = {(i["sizes"], i["purpose"]): i["src"] for i in data["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    # the on-device play pages as shortcuts, those that exist (CONTRACTS.md section 3)
    expected = [url for url in map(_reverse, ("play_computer", "play_local")) if url]
    assert [shortcut["url"] for shortcut in data["shortcuts"]] == expected
    root, _extra = manifest_site
    for src in icons.values():
        assert re.fullmatch(r"/static/icons/[\w-]+\.[0-9a-f]{12}\.png", src)
        assert (root / src.removeprefix("/static/")).exists()


@pytest.mark.parametrize("lang, sentence, guides", [
    ("vi", "Trang này cần kết nối mạng", "/huong-dan/"),
    ("en", "This page needs an internet connection", "/guides/"),
])
def test_the_offline_page_says_it_in_one_sentence_in_the_visitors_language(client, lang, sentence, guides):
    client.cookies["django_language"] = lang
    response = client.get("/ngoai-tuyen/")
    assert response.status_code == 200 and response["Content-Language"] == lang
    html = response.content.decode()
    text = re.search(r'<p class="offline-sentence"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert text.startswith(sentence)
    assert text.count(".") == 1 and text.rstrip().endswith(".")  # one sentence
    assert f'href="{guides}"' in text
    assert len(re.findall(r"<a href=", text)) == 3
