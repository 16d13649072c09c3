"""The page scripts take their texts from Django's JavaScript catalogue (djangojs domain), not from a
view: every gettext() literal in static/js is translated to Vietnamese and compiled."""

import gettext
import json
import re
from pathlib import Path

import polib
import pytest

from accounts.guests import create_guest
from caro.rooms import services as rooms

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))
CALL = re.compile(r'(?<![\w.])(?:gettext|gettext_noop)\(\s*"((?:[^"\\]|\\.)+)"\s*\)')


def _literals() -> set[str]:
    found = set()
    for path in SCRIPTS:
        found |= {m.replace('\\"', '"') for m in CALL.findall(path.read_text(encoding="utf-8"))}
    return found


def test_every_script_string_is_translated_in_the_djangojs_catalogue():
    po = polib.pofile(str(LOCALE / "vi" / "LC_MESSAGES" / "djangojs.po"))
    translated = {e.msgid for e in po.translated_entries() if "fuzzy" not in e.flags}
    literals = _literals()
    assert len(literals) > 40
    assert sorted(literals - translated) == [], "run makemessages -d djangojs and translate"


def test_the_compiled_djangojs_catalogue_is_current():
    po = polib.pofile(str(LOCALE / "vi" / "LC_MESSAGES" / "djangojs.po"))
    with open(LOCALE / "vi" / "LC_MESSAGES" / "djangojs.mo", "rb") as f:
        mo = gettext.GNUTranslations(f)
    for entry in po.translated_entries():
        if not entry.msgid_plural:
            assert mo.gettext(entry.msgid) == entry.msgstr, f"stale .mo for {entry.msgid!r}"


@pytest.mark.django_db
def test_the_catalogue_view_serves_the_interface_language(client):
    your_turn = json.dumps("Đến lượt bạn.")  # the catalogue is JSON inside JavaScript
    vi = client.get("/jsi18n/").content.decode()
    assert your_turn in vi and "django.gettext" in vi
    client.cookies["django_language"] = "en"
    en = client.get("/jsi18n/").content.decode()
    assert your_turn not in en


@pytest.mark.django_db
def test_a_record_page_asks_for_the_catalogue_in_its_own_language(client):
    """/en/game/N/ in a browser set to Vietnamese: the page is English, and so must be its scripts'
    words (the analysis panel); ?language= picks the catalogue's language, an unknown one is ignored."""
    from tests.integration.records.builders import play_game

    game, _x, _o = play_game(["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"])
    your_turn = json.dumps("Đến lượt bạn.")
    html = client.get(f"/en/game/{game.pk}/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert 'src="/jsi18n/?language=en"' in html
    assert your_turn not in client.get("/jsi18n/?language=en", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    client.cookies["django_language"] = "en"
    assert your_turn in client.get("/jsi18n/?language=vi").content.decode()
    assert your_turn not in client.get("/jsi18n/?language=xx").content.decode()  # the cookie's English


@pytest.mark.django_db
def test_the_room_page_loads_the_catalogue_and_no_strings_from_the_view(client):
    room = rooms.create_room(create_guest())
    html = client.get(f"/r/{room.code}/").content.decode()
    assert 'src="/jsi18n/"' in html
    module = re.search(r"js/room[.\w]*\.js", html)
    assert module and html.index('src="/jsi18n/"') < module.start()  # gettext exists before the module runs
    assert "room-i18n" not in html


def _vi_texts() -> str:
    """Every Vietnamese text the site shows: both catalogues' translations and the guides."""
    texts = [e.msgstr for name in ("django.po", "djangojs.po")
             for e in polib.pofile(str(LOCALE / "vi" / "LC_MESSAGES" / name))]
    texts += [p.read_text(encoding="utf-8") for p in (ROOT / "caro" / "tutorials" / "guides" / "vi").glob("*.md")]
    return "\n".join(texts)


def test_one_vietnamese_word_for_each_thing_everywhere():
    """New-user trial: the Reversi pass was "mất lượt" in games and "bỏ lượt" in the guide;
    Cancel was "Huỷ" beside "hủy" elsewhere (the modern spelling, "Hủy", is the site's)."""
    js = polib.pofile(str(LOCALE / "vi" / "LC_MESSAGES" / "djangojs.po"))
    assert js.find("pass").msgstr == "bỏ lượt"
    texts = _vi_texts()
    assert "mất lượt" not in texts and "bỏ lượt" in texts
    assert "uỷ" not in texts.lower() and "Hủy" in texts
