"""Accounts in real Chromium (issue 10): sign up and see the name in the header; a wrong password
five times locks the log-in out; a guest renames by clicking their name. Phone and desktop size,
Vietnamese first; screenshots to test-results/screens/ (git-ignored)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.conf import settings

from accounts.guests import create_guest
from accounts.models import User
from tests.e2e.helpers import _context, _login, _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
PASSWORD = "mot-mat-khau-dai-42"


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_sign_up_and_see_the_name_in_the_header(browser, live_server_url, lang, width):
    context = _context(browser, lang, width)
    page = context.new_page()
    page.goto(live_server_url + "/")
    page.click(".nav-signup")
    page.wait_for_selector("main form input[name=username]")
    assert page.evaluate(NO_OVERFLOW) <= 0
    _shot(page, f"signup-{lang}-{width}.png")
    name = f"Lan_{random.randrange(10**6)}"
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name.lower()}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    menu = page.locator('[data-testid="user-menu"] summary')
    menu.wait_for()
    assert menu.inner_text().strip() == name
    assert page.evaluate(NO_OVERFLOW) <= 0
    menu.click()
    page.locator('[data-testid="logout"]').wait_for()
    _shot(page, f"account-menu-{lang}-{width}.png")
    assert User.objects.filter(username=name, is_guest=False).exists()
    context.close()


def test_a_wrong_password_five_times_is_locked_out(browser, live_server_url):
    name = f"Minh{random.randrange(10**6)}"
    _off_loop(lambda: User.objects.create_user(name, email=f"{name}@example.com", password=PASSWORD))
    context = _context(browser, "vi", 360)
    page = context.new_page()
    page.goto(live_server_url + "/tai-khoan/login/")
    for attempt in range(settings.ACCOUNT_LOCKOUT_FAILURES):
        page.fill("input[name=login]", name)
        page.fill("input[name=password]", f"sai-{attempt}")
        page.click("main form button[type=submit]")
        page.wait_for_load_state()
        if attempt < settings.ACCOUNT_LOCKOUT_FAILURES - 1:
            page.get_by_text("không đúng").wait_for()
    page.locator('[data-testid="lockout"]').wait_for()
    assert "Tạm khóa đăng nhập" in page.inner_text("h1")
    assert page.evaluate(NO_OVERFLOW) <= 0
    _shot(page, "lockout-vi-360.png")
    # The right password is refused too while the lockout lasts.
    page.goto(live_server_url + "/tai-khoan/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.locator('[data-testid="lockout"]').wait_for()
    assert page.locator('[data-testid="user-menu"]').count() == 0
    context.close()


def test_a_guest_renames_by_clicking_their_name(browser, live_server_url):
    guest = _off_loop(create_guest)
    context = _context(browser, "vi", 360)
    _login(context, live_server_url, guest)
    page = context.new_page()
    page.goto(live_server_url + "/")
    page.click('[data-testid="guest-name"]')
    field = page.locator('[data-testid="guest-name-form"] input[name=name]')
    field.wait_for()
    field.fill("ab")
    page.click('[data-testid="guest-name-form"] button[type=submit]')
    page.get_by_text("từ 3 đến 20 ký tự").wait_for()
    assert page.evaluate(NO_OVERFLOW) <= 0
    _shot(page, "guest-rename-vi-360.png")
    page.locator('[data-testid="guest-name-form"] input[name=name]').fill("Hoa_Sen")
    page.click('[data-testid="guest-name-form"] button[type=submit]')
    page.locator('[data-testid="guest-name"]', has_text="Hoa_Sen").wait_for()
    assert _off_loop(lambda: User.objects.get(pk=guest.pk).display_name) == "Hoa_Sen"
    context.close()
