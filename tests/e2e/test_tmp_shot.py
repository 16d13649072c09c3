from tests.e2e.test_lifecycle_ui import _room, _context, _open, _off_loop
import pytest
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]
def test_shot(browser, live_server_url):
    room, x, o = _room(["H8", "H9", "I8"], first="rps", move_time_ms=0, bank_ms=300_000, increment_ms=2000)
    cx, co = _context(browser, "vi", 360), _context(browser, "vi", 1280)
    px = _open(cx, live_server_url, x, room); po = _open(co, live_server_url, o, room)
    po.click('[data-testid="choice-offer_draw"]')
    px.locator('[data-testid="choice-accept_draw"]').wait_for()
    po.close()
    px.locator('[data-testid="absence"]').wait_for(state="visible")
    px.screenshot(path="/tmp/shot360.png", full_page=True)
    po = _open(co, live_server_url, o, room)
    po.screenshot(path="/tmp/shot1280.png")
