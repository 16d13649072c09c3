"""Accounts pages in Vietnamese first (issue 10): allauth's own strings come from
accounts/allauth_locale (allauth ships no Vietnamese), its pages use the site's layout, and
Google log-in shows only when its keys are configured."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.test import Client, override_settings

from accounts.models import User

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "accounts" / "allauth_locale" / "vi" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}")

#: allauth's English that must not show on its pages in Vietnamese, and what shows instead.
PAGES = {
    "/tai-khoan/login/": (["Sign In", "Forgot your password?", "Remember Me"], ["Đăng nhập", "Quên mật khẩu?"]),
    "/tai-khoan/signup/": (["Sign Up", "Password (again)", "Already have an account?"], ["Đăng ký", "Mật khẩu (nhập lại)"]),
    "/tai-khoan/password/reset/": (["Reset My Password", "Forgotten your password?"], ["Đặt lại mật khẩu"]),
}
ACCOUNT_PAGES = {
    "/tai-khoan/password/change/": (["Change Password", "Current Password"], ["Đổi mật khẩu", "Mật khẩu hiện tại"]),
    "/tai-khoan/email/": (["Email Addresses", "Add Email"], ["Địa chỉ email", "Thêm email"]),
    "/tai-khoan/logout/": (["Are you sure you want to sign out?"], ["Bạn có chắc muốn đăng xuất?"]),
}


def test_the_allauth_catalog_is_translated_compiled_and_keeps_its_placeholders():
    po = polib.pofile(str(CATALOG / "django.po"))
    mo = {(e.msgctxt, e.msgid): e.msgstr for e in polib.mofile(str(CATALOG / "django.mo"))}
    assert len(po) > 200
    for entry in po:
        assert entry.msgstr and "fuzzy" not in entry.flags, entry.msgid
        assert sorted(PLACEHOLDER.findall(entry.msgid)) == sorted(PLACEHOLDER.findall(entry.msgstr)), entry.msgid
        assert mo.get((entry.msgctxt, entry.msgid)) == entry.msgstr, entry.msgid


def _check(client: Client, pages: dict) -> None:
    for url, (english, vietnamese) in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert 'class="site-header"' in page and 'class="account-page"' in page, url  # the site's layout
        for text in english:
            assert text not in page, (url, text)
        for text in vietnamese:
            assert text in page, (url, text)


@pytest.mark.django_db
def test_allauths_pages_are_in_vietnamese_in_the_sites_layout():
    _check(Client(HTTP_ACCEPT_LANGUAGE="vi"), PAGES)
    client = Client(HTTP_ACCEPT_LANGUAGE="vi")
    client.force_login(User.objects.create_user("LanAnh", password="mot-mat-khau-dai-42"),
                       backend="django.contrib.auth.backends.ModelBackend")
    _check(client, ACCOUNT_PAGES)


@pytest.mark.django_db
def test_allauths_pages_in_english():
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/tai-khoan/login/").content.decode()
    assert "Sign In" in page and "Đăng nhập" not in page.split('class="site-header"')[1].split("</header>")[1]


@pytest.mark.django_db
def test_google_log_in_shows_only_with_its_keys():
    assert "/tai-khoan/google/login/" not in Client().get("/tai-khoan/login/").content.decode()
    google = {"google": {"APPS": [{"client_id": "id-from-env", "secret": "secret-from-env", "key": ""}],
                         "SCOPE": ["profile", "email"]}}
    with override_settings(SOCIALACCOUNT_PROVIDERS=google):
        assert "/tai-khoan/google/login/" in Client().get("/tai-khoan/login/").content.decode()
