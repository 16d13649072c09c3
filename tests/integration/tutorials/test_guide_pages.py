"""Guide pages, seeding, the HTML cache and the admin editor with its live preview, through the
Django test client on the real PostgreSQL test database."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from caro.tutorials.loader import read_sources, sync_guides
from caro.tutorials.models import Guide

pytestmark = pytest.mark.django_db

KEYS = ["caro-rules", "blocked-ends", "rule-sets", "reversi-rules", "glossary"]
URLS = {
    ("vi", "caro-rules"): "/huong-dan/luat-choi-caro/",
    ("vi", "blocked-ends"): "/huong-dan/luat-chan-hai-dau/",
    ("vi", "rule-sets"): "/huong-dan/cac-bo-luat/",
    ("vi", "reversi-rules"): "/huong-dan/luat-co-lat/",
    ("vi", "glossary"): "/huong-dan/thuat-ngu/",
    ("en", "caro-rules"): "/guides/caro-rules/",
    ("en", "blocked-ends"): "/guides/blocked-two-ends/",
    ("en", "rule-sets"): "/guides/rule-sets/",
    ("en", "reversi-rules"): "/guides/reversi-rules/",
    ("en", "glossary"): "/guides/glossary/",
}


@pytest.fixture(autouse=True)
def guides():
    """The guides as seeded by migrate (re-seeded in case a transactional test flushed them)."""
    sync_guides()
    return Guide.objects.all()


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_superuser("editor", "editor@example.com", "pw-123456-long")
    client.force_login(user)
    return user


def test_all_five_guides_exist_in_both_languages(guides):
    assert sorted((g.language, g.key) for g in guides) == sorted(URLS)
    assert {g.get_absolute_url() for g in guides} == set(URLS.values())


@pytest.mark.parametrize(("language", "key"), sorted(URLS))
def test_every_guide_renders(client, language, key):
    guide = Guide.objects.get(language=language, key=key)
    response = client.get(URLS[(language, key)])
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<article class="guide" lang="{language}"' in html
    assert f"<h1>{guide.title}</h1>" in html
    source = next(s for s in read_sources() if s.language == language and s.source.key == key)
    diagrams = source.source.body.count("```diagram")
    assert html.count('<figure class="diagram"') == diagrams > 0
    assert html.count('role="img"') == diagrams
    assert f'href="/?preset={guide.preset}"' in html  # play now with these rules
    other = "en" if language == "vi" else "vi"
    assert f'hreflang="{other}" href="{URLS[(other, key)]}"' in html  # the other language version
    assert "This guide cannot be shown" not in html
    if key != "glossary":
        assert 'class="toc"' in html
    # Every link between guides in the text points at a real guide page of the same language.
    body = html[html.index('<div class="guide-body">'):html.index('<p class="play-now">')]
    for href in set(re.findall(r'href="(/(?:huong-dan|guides)/[^"#]+/)(?:#[^"]*)?"', body)):
        assert href in URLS.values() and href.startswith("/huong-dan/" if language == "vi" else "/guides/")


def test_anchors_between_guides_exist(client):
    html = client.get("/huong-dan/luat-chan-hai-dau/").content.decode()
    assert 'href="/huong-dan/luat-choi-caro/#cach-doc-toa-do"' in html
    target = client.get("/huong-dan/luat-choi-caro/").content.decode()
    assert 'id="cach-doc-toa-do"' in target
    assert 'id="reading-coordinates"' in client.get("/guides/caro-rules/").content.decode()


@pytest.mark.parametrize(("url", "language"), [("/huong-dan/", "vi"), ("/guides/", "en")])
def test_index_lists_the_guides_in_order(client, url, language):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    positions = [html.index(URLS[(language, key)]) for key in KEYS]
    assert positions == sorted(positions)


def test_unknown_and_unpublished_guides(client, staff):
    assert client.get("/huong-dan/khong-co/").status_code == 404
    Guide.objects.filter(language="vi", key="glossary").update(published=False)
    assert client.get("/huong-dan/thuat-ngu/").status_code == 200  # staff may look
    client.logout()
    assert client.get("/huong-dan/thuat-ngu/").status_code == 404
    # Links to the unpublished guide fall back to the guide list instead of breaking the page.
    response = client.get("/huong-dan/luat-choi-caro/")
    assert response.status_code == 200 and "/huong-dan/thuat-ngu/" not in response.content.decode()


def test_rendered_html_is_cached_by_content_hash(client):
    client.get("/guides/caro-rules/")
    guide = Guide.objects.get(language="en", key="caro-rules")
    assert guide.render_key and guide.html and guide.toc
    # A matching key serves the stored HTML as it is ...
    Guide.objects.filter(pk=guide.pk).update(html=guide.html + "<p>from-the-cache</p>")
    assert "from-the-cache" in client.get("/guides/caro-rules/").content.decode()
    # ... and a changed body changes the key, so the page is rendered again.
    Guide.objects.filter(pk=guide.pk).update(body=guide.body + "\n\nA new closing line.\n")
    html = client.get("/guides/caro-rules/").content.decode()
    assert "from-the-cache" not in html and "A new closing line." in html


def test_a_broken_stored_body_never_breaks_the_page(client):
    Guide.objects.filter(language="en", key="glossary").update(body="Text\n\n```diagram\nx Z99\n```\n", render_key="")
    response = client.get("/guides/glossary/")
    assert response.status_code == 200
    assert "This guide cannot be shown right now" in response.content.decode()


def test_seeding_is_idempotent_and_keeps_admin_edits():
    assert sync_guides() == {"created": [], "updated": [], "kept": []}
    guide = Guide.objects.get(language="vi", key="caro-rules")
    guide.body += "\nEdited in the admin.\n"
    guide.title = "Changed"
    guide.save()
    assert sync_guides()["kept"] == ["vi/caro-rules"]  # an admin edit wins over the file
    guide.refresh_from_db()
    assert guide.title == "Changed" and "Edited in the admin." in guide.body
    assert sync_guides(force=True)["updated"] == ["vi/caro-rules"]
    guide.refresh_from_db()
    assert guide.title == "Luật chơi cờ caro" and "Edited in the admin." not in guide.body


def test_seed_command_recreates_missing_guides():
    Guide.objects.filter(key="glossary").delete()
    call_command("seed_guides")
    assert Guide.objects.filter(key="glossary").count() == 2


def test_header_links_to_the_guides(client):
    html = client.get("/").content.decode()
    assert 'href="/huong-dan/"' in html
    client.cookies["django_language"] = "en"
    assert 'href="/guides/"' in client.get("/").content.decode()


# -- admin -------------------------------------------------------------------------------------


def test_admin_change_page_has_the_live_preview(client, staff):
    guide = Guide.objects.get(language="vi", key="caro-rules")
    response = client.get(f"/admin/tutorials/guide/{guide.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="guide-preview" data-url="/admin/tutorials/guide/preview/"' in html
    assert re.search(r"tutorials/admin-preview(\.[0-9a-f]+)?\.js", html)  # hashed when DEBUG is off


def test_admin_preview_renders_diagrams(client, staff):
    body = "## Hi\n\n```diagram\nview D4:L12\nx E8-H8\no D8\nturn O\nclaim blocks O: I8 J8\n```\n"
    response = client.post("/admin/tutorials/guide/preview/", {"body": body, "language": "vi"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="preview-ok"' in html and "<svg" in html and 'id="hi"' in html


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        ("Intro\n\n```diagram\nx E8\nstone F8\n```\n", 5, "unknown keyword"),
        ("A\n\n```diagram\nx E8-H8\no D8\nclaim blocks O: I8\n```\n", 6, "is false"),
        ("A\n\n[x](guide:missing)\n", 3, "no guide with key"),
        ("A\n\n```diagram\nx E8\n", 3, "never closed"),
    ],
)
def test_admin_preview_shows_clear_errors_with_the_line(client, staff, body, line, fragment):
    response = client.post("/admin/tutorials/guide/preview/", {"body": body, "language": "en"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-testid="preview-error"' in html and 'role="alert"' in html
    assert f"Dòng {line}" in html and fragment in html  # the admin speaks Vietnamese by default
    assert "Traceback" not in html


def test_admin_preview_needs_staff_and_post(client, staff):
    assert client.get("/admin/tutorials/guide/preview/").status_code == 405
    client.logout()
    response = client.post("/admin/tutorials/guide/preview/", {"body": "x", "language": "vi"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def _form(guide: Guide, **changes) -> dict:
    data = {f: getattr(guide, f) for f in ("key", "language", "slug", "title", "summary", "order", "preset", "body")}
    data["published"] = "on"
    data.update(changes)
    return data


def test_admin_save_refuses_bad_markup_with_the_line(client, staff):
    guide = Guide.objects.get(language="en", key="glossary")
    bad = guide.body + "\n```diagram\nx E8\no E8\n```\n"
    response = client.post(f"/admin/tutorials/guide/{guide.pk}/change/", _form(guide, body=bad))
    assert response.status_code == 200  # the form again, with the error on the body field
    line = bad.count("\n") - 1
    assert f"Line {line}: E8 already holds a stone" in response.content.decode()
    assert Guide.objects.get(pk=guide.pk).body == guide.body


def test_admin_save_refuses_a_false_claim_and_accepts_a_true_one(client, staff):
    guide = Guide.objects.get(language="en", key="glossary")
    false = guide.body + "\n```diagram\nx E8-H8\nclaim blocks O: I8\n```\n"
    response = client.post(f"/admin/tutorials/guide/{guide.pk}/change/", _form(guide, body=false))
    assert "is false" in response.content.decode()
    true = guide.body + "\n```diagram\nx E8-H8\nclaim blocks O: none\n```\n"
    response = client.post(f"/admin/tutorials/guide/{guide.pk}/change/", _form(guide, body=true))
    assert response.status_code == 302
    html = client.get("/guides/glossary/").content.decode()
    assert html.count('<figure class="diagram"') == 3
