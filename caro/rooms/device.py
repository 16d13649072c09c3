"""Where games against the computer and on one device are played: pages of their own that run the
game in the browser (issue 26; CONTRACTS.md section 3, URL names `play_computer` and `play_local`).
The server makes no room for them; forms and links that start such a game send the browser there
with the game's choices in the query string, which the page reads."""

from __future__ import annotations

from urllib.parse import urlencode

#: The on-device pages by mode (CONTRACTS.md section 3).
DEVICE_PAGES = {"computer": "/choi-may/", "local": "/choi-hai-nguoi/"}
#: HTTP status of the redirect from a posted form to a page read with GET (See Other).
SEE_OTHER = 303


def device_page_url(mode: str, preset: str, size: int | None = None, win_length: int | None = None,
                    **choices) -> str:
    """The on-device page of `mode` ("computer" or "local") with a game's choices in its query
    string: `preset` (a caro preset slug or "reversi"), `size` and `win_length` (caro), and
    `choices` (`level`, `side`, `moves` as comma-separated squares, ...); empty values are left
    out. Raises KeyError for another mode."""
    query = {"preset": preset, "size": size, "win_length": win_length, **choices}
    return f"{DEVICE_PAGES[mode]}?{urlencode({k: v for k, v in query.items() if v not in (None, '')})}"
