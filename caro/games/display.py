"""Human-readable, translated descriptions of rules (the one-line summary shown everywhere), and
text as pages may show it (`printable`)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from caro.games.kinds import kind_for_choice, kind_of
from caro.games.openings import procedure_of, step_sides


def printable(text: str) -> str:
    """`text` without control and format characters (a bidi override, a zero-width space, an
    escape; spaces are kept), trimmed: what people type or files hold, as pages may show it."""
    return "".join(ch for ch in text if ch.isprintable() or ch == " ").strip()


def summary(kind, rules: dict, move_time_ms: int | None = None, bank_ms: int = 0, increment_ms: int = 0) -> str:
    """One short line such as "15×15 · chặn hai đầu · 1 phút/nước" in the active language."""
    parts = kind.describe(rules)
    if bank_ms:
        parts.append(bank_label(bank_ms, increment_ms))
    elif move_time_ms:
        parts.append(clock_label(move_time_ms))
    return " · ".join(parts)


def choice_summary(choice: str, size: int, win_length: int, move_time_ms: int | None) -> str:
    """The one-line summary of a rule choice on the home page (a caro preset slug, or "reversi"),
    with its opening procedure (RIF, Swap2) as a game's summary names it."""
    kind = kind_for_choice(choice)
    line = summary(kind, kind.rules_for(choice, size, win_length), move_time_ms)
    return line + _opening_part(procedure_of(choice) if kind.has_options else "")


def _opening_part(procedure: str) -> str:
    """" · RIF opening" / " · Swap2 opening" for an opening procedure; "" for none."""
    if not procedure:
        return ""
    return " · " + (_("RIF opening") if procedure == "rif" else _("Swap2 opening"))


def game_summary(game) -> str:
    """The one-line summary of a game's rules and clock ("no clock" when it has none: games
    against the computer and on one device) and its opening procedure, if any."""
    line = summary(kind_of(game), game.rules, game.move_time_ms, game.bank_ms, game.increment_ms)
    if not game.move_time_ms and not game.bank_ms:
        line += " · " + _("no clock")
    return line + _opening_part((game.opening or {}).get("kind") or "")


def clock_label(move_time_ms: int) -> str:
    """"1 min/move", "30 s/move" in the active language."""
    seconds = move_time_ms // 1000
    if seconds % 60 == 0:
        return ngettext("%(n)d min/move", "%(n)d min/move", seconds // 60) % {"n": seconds // 60}
    return ngettext("%(n)d s/move", "%(n)d s/move", seconds) % {"n": seconds}


def bank_label(bank_ms: int, increment_ms: int) -> str:
    """"5 min + 2 s" (total time per player, plus the time added after each move)."""
    if not increment_ms:
        return _("%(min)d min in all") % {"min": bank_ms // 60_000}
    return _("%(min)d min + %(inc)d s") % {"min": bank_ms // 60_000, "inc": increment_ms // 1000}


def opening_lines(game, names: dict[str, str]) -> list[str]:
    """The steps of a game's opening procedure (RIF, Swap2) in words, in order, e.g. "X (Lan)
    placed stone 1 on H8." or "O (Minh) swapped sides."; [] without one. Each step names the side
    its person held at that step (`openings.step_sides`: a swap changes it only after the step) by
    the site's X and O (a game with an opening draws the first mover's stones as X:
    `Game.mark_of`), never "Black" / "White". `names` are the players' names by side (the side
    each person holds at the end)."""
    lines = []
    for entry, side_then in zip((game.opening or {}).get("log", []), step_sides(game)):
        who = _("%(colour)s (%(name)s)") % {"colour": game.mark_of(side_then),
                                             "name": names.get(game.side_of(entry["seat"]), "")}
        squares = ", ".join(entry.get("squares") or ([entry["square"]] if entry.get("square") else []))
        kind = entry.get("kind")
        if kind == "place":
            lines.append(_("%(who)s placed stone %(n)s on %(square)s.") % {"who": who, "n": entry["plies"][0], "square": squares})
        elif kind == "swap":
            lines.append(_("%(who)s swapped sides.") % {"who": who})
        elif kind == "keep":
            lines.append(_("%(who)s kept their side.") % {"who": who})
        elif kind == "offer":
            lines.append(_("%(who)s offered %(squares)s for the 5th move.") % {"who": who, "squares": squares})
        elif kind == "select":
            lines.append(_("%(who)s picked %(square)s as the 5th move.") % {"who": who, "square": squares})
        elif kind == "choose":
            colour = game.mark_of(entry.get("color") or "X")
            lines.append(_("%(who)s chose %(colour)s.") % {"who": who, "colour": colour})
    return lines
