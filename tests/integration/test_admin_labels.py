"""Every model and field name of the site's own apps reads in Vietnamese in the admin (issue 13)."""

import html as html_lib
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User

SITE_APPS = ("accounts", "games", "rooms", "tutorials", "ranking", "moderation")
#: Labels that are the same word in both languages.
SAME_IN_BOTH = {"ID", "X", "O"}


def _labels():
    for model in apps.get_models():
        if model._meta.app_label not in SITE_APPS:
            continue
        yield model.__name__, model._meta.verbose_name
        yield model.__name__, model._meta.verbose_name_plural
        for field in model._meta.get_fields():
            if field.concrete and not field.auto_created and hasattr(field, "verbose_name"):
                yield f"{model.__name__}.{field.name}", field.verbose_name


@pytest.mark.parametrize("name, label", list(_labels()), ids=lambda v: v if isinstance(v, str) else None)
def test_every_model_and_field_label_is_translated(name, label):
    with translation.override("en"):
        english = str(label)
    with translation.override("vi"):
        vietnamese = str(label)
    assert vietnamese != english or english in SAME_IN_BOTH, f"{name}: {english!r} is not translated"


def _help_texts():
    for model in apps.get_models():
        if model._meta.app_label not in SITE_APPS:
            continue
        for field in model._meta.get_fields():
            if field.concrete and not field.auto_created and getattr(field, "help_text", ""):
                yield f"{model.__name__}.{field.name}", field.help_text


@pytest.mark.parametrize("name, text", list(_help_texts()), ids=lambda v: v if isinstance(v, str) else None)
def test_every_help_text_is_translated(name, text):
    with translation.override("en"):
        english = str(text)
    with translation.override("vi"):
        vietnamese = str(text)
    assert vietnamese != english, f"{name}: help text {english!r} is not translated"


# -- the admin's pages as a moderator sees them -------------------------------------------------

#: Texts the admin shows that are the same in both languages: names, the brand, what the
#: moderator's own row holds, and what django-allauth declares without a translatable label.
SAME_ON_PAGES = {"›", "Caro", "Google", "English", "Moderators", "Caro 15×15", "root-admin",
                 "root@example.com", "User:", "Settings:", "Provider:", "App:", "Account:"}


def _page_texts(html: str) -> set[str]:
    """The visible texts of a page (text nodes, titles, placeholders, labels) with a word in them."""
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    texts = {" ".join(m.split()) for m in re.findall(r">([^<>]+)<", html)}
    texts |= set(re.findall(r'(?:title|placeholder|aria-label)="([^"]+)"', html))
    return {html_lib.unescape(t) for t in texts if re.search(r"[A-Za-z]{3,}", t)}


def _admin_pages() -> list[str]:
    pages = ["/admin/"]
    for model in admin.site._registry:
        meta = model._meta
        pages.append(reverse("admin:app_list", args=[meta.app_label]))
        pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
        if meta.app_label == "axes":  # its lists (empty here) carry its filters and actions
            pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
    return list(dict.fromkeys(pages))


@pytest.mark.django_db
def test_the_admin_pages_have_no_english_left_in_vietnamese():
    """Django's admin and auth (strings its vi catalogue lacks) and django-axes (no vi at all) read
    in Vietnamese: caro/vendor_locale. Every text the same in both languages is a leftover."""
    root = User.objects.create_superuser("root-admin", "root@example.com", None)
    left = {}
    for page in _admin_pages():
        texts = {}
        for lang in ("vi", "en"):
            client = Client(HTTP_ACCEPT_LANGUAGE=lang)
            client.force_login(root, backend="django.contrib.auth.backends.ModelBackend")
            response = client.get(page)
            if response.status_code == 403:  # axes' lists allow no adding
                break
            assert response.status_code == 200, page
            texts[lang] = _page_texts(response.content.decode())
        if len(texts) == 2 and (same := texts["vi"] & texts["en"] - SAME_ON_PAGES):
            left[page] = sorted(same)
    assert left == {}


@pytest.mark.django_db
def test_the_admin_names_the_site_and_its_player_and_game_pages_read_in_vietnamese():
    """New-user trial: the Vietnamese admin said "Trang quản trị cho Django", showed two "Tài khoản"
    sections (ours and django-allauth's), a "Player" fieldset and "Game 15 (Đã kết thúc)"."""
    from tests.integration.ranking.builders import account, rated_game

    root = User.objects.create_superuser("root-admin", "root@example.com", None)
    game = rated_game(account(), account(), moves=2)
    client = Client(HTTP_ACCEPT_LANGUAGE="vi")
    client.force_login(root, backend="django.contrib.auth.backends.ModelBackend")
    index = client.get("/admin/").content.decode()
    assert "Quản trị Caro" in index and "Django" not in " ".join(_page_texts(index))
    sections = re.findall(r'<caption>\s*<a [^>]*>([^<]+)</a>', index)
    assert len(sections) == len(set(sections)), sections
    user_page = client.get(reverse("admin:accounts_user_change", args=[root.pk])).content.decode()
    assert re.search(r"<h2[^>]*>\s*Người chơi\s*</h2>", user_page) and "Player" not in _page_texts(user_page)
    game_page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert f"Ván {game.pk} (" in game_page and not re.search(rf"\bGame {game.pk}\b", game_page)
