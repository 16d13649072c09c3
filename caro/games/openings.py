"""The opening procedure of a stored game (RIF, Swap2): its engine machine and what clients see of it.

The engine's machines (`caro.engine.openings`) speak of the seats "first" and "second" (who began
as tentative Black and who did not); a game speaks of host and guest. `Game.opening` keeps the
procedure's kind, which seat is "first", and the log of applied steps; the machine is rebuilt by
replaying the log. The stones the steps placed are ordinary `Move` rows (X and O alternate, as in
both procedures), so the board, the record and the replay need nothing else.

Pure functions of the game row (no queries), like `caro.games.state`.
"""

from __future__ import annotations

from caro.engine.caro import PRESETS, Opening, Rules
from caro.engine.coords import square_name
from caro.engine.openings import FIRST, OPENINGS, SECOND, RifOpening, Step
from caro.games.models import Game, Seat, Side

#: Chebyshev radius of the area a RIF placement must lie in, by step (RIF §4: move 1 on the centre,
#: move 2 in the central 3×3, move 3 in the central 5×5).
RIF_AREAS = {Step.PLACE_1: 0, Step.PLACE_2: 1, Step.PLACE_3: 2}


def procedure_of(preset: str) -> str:
    """The opening procedure of a caro preset: "rif", "swap2" or "" (a free opening)."""
    found = PRESETS.get(preset)
    return "" if found is None or found.opening == Opening.FREE else str(found.opening.value)


def new_opening(kind: str) -> dict:
    """`Game.opening` of a new game with procedure `kind` ("rif", "swap2", or "" / "free": {})."""
    if kind in ("", "free"):
        return {}
    if kind not in OPENINGS:
        raise ValueError(f"unknown opening procedure {kind!r}")
    return {"kind": kind, "first": "", "log": []}


def machine_for(game: Game):
    """The engine machine of `game` (a `Swap2Opening` or `RifOpening`) after every logged step.

    Raises ValueError for a game without an opening procedure. Stored steps were validated when
    they were applied, so replaying them never raises for a stored game."""
    if not game.opening:
        raise ValueError("this game has no opening procedure")
    machine = OPENINGS[game.opening["kind"]](Rules.from_dict(game.rules))
    for entry in game.opening.get("log", []):
        machine.apply(entry)
    return machine


def step_sides(game: Game) -> list[str]:
    """The side ("X" Black / "O" White) each logged step's seat held when it took that step, in
    log order: colours are tentative during the procedure, and a swap (RIF) or a choice (Swap2)
    changes them only after that step, so the side held now may differ. [] without a procedure."""
    if not game.opening:
        return []
    machine = OPENINGS[game.opening["kind"]](Rules.from_dict(game.rules))
    sides = []
    for entry in game.opening.get("log", []):
        sides.append(machine.colors[machine_seat(game, entry["seat"])])
        machine.apply(entry)
    return sides


def machine_seat(game: Game, seat: str) -> str:
    """The machine's name ("first"/"second") of the game's `seat` ("host"/"guest")."""
    return FIRST if seat == game.opening["first"] else SECOND


def game_seat(game: Game, machine_seat_name: str) -> str:
    """The game's seat ("host"/"guest") of the machine's `machine_seat_name`."""
    first = game.opening["first"]
    return first if machine_seat_name == FIRST else Seat.other(first)


def host_side_of(game: Game, machine) -> str:
    """The side the host plays by the machine's (tentative or final) colours."""
    return machine.colors[machine_seat(game, Seat.HOST)]


def actor_seat(game: Game, machine) -> str:
    """The game's seat that must act now (after the opening: the seat whose colour is to move)."""
    return game_seat(game, machine.actor)


def area(machine) -> list[str] | None:
    """The squares the next RIF placement may use (the central 1×1, 3×3 or 5×5), or None when
    the next stone may go anywhere (or no stone is to be placed)."""
    if not isinstance(machine, RifOpening) or machine.state not in RIF_AREAS:
        return None
    size = machine.board.rules.size
    radius, centre = RIF_AREAS[machine.state], size // 2
    return [square_name(c, r) for r in range(centre - radius, centre + radius + 1)
            for c in range(centre - radius, centre + radius + 1)]


def view(game: Game) -> dict | None:
    """The `opening` field of the `state` frame (docs/protocol.md), or None without a procedure.

    Shape: `{"kind", "step", "done", "actor" (the side the acting seat holds now, tentatively),
    "allowed" (action kinds), "area" (squares for the next placement, or null: anywhere),
    "offers" (RIF: the two offered 5th moves while White selects, else []), "swapped" (the seats'
    colours differ from the start), "log": [{"step", "kind", "by" (the side that person holds
    now), "as" (the colour that person held when taking the step), "squares" (stones placed or
    offered), "color" (Swap2 choice, or null), "plies"}]}`.
    """
    if not game.opening or not game.opening.get("first"):
        return None
    machine = machine_for(game)
    first_side_now = game.side_of(game.opening["first"])
    log = []
    for entry, side_then in zip(game.opening.get("log", []), step_sides(game)):
        squares = list(entry.get("squares") or ([entry["square"]] if entry.get("square") else []))
        log.append({"step": entry.get("step"), "kind": entry.get("kind"), "by": game.side_of(entry["seat"]),
                    "as": side_then, "squares": squares, "color": entry.get("color"),
                    "plies": entry.get("plies", [])})
    done = machine.finished
    return {
        "kind": game.opening["kind"],
        "step": machine.state.value,
        "done": done,
        "actor": None if done else game.side_of(actor_seat(game, machine)),
        "allowed": sorted(machine.allowed),
        "area": area(machine),
        "offers": list(getattr(machine, "offers", ())) if machine.state == Step.SELECT_5 else [],
        "swapped": first_side_now != Side.X,
        "log": log,
    }
