"""Both engines agree, always: random games played by the browser engine, replayed by this one.

``tests/js/differential/random_games.js`` plays ``GAMES`` seeded random games per rule set with the
browser engine (static/js/engine) and prints, for every attempt (a move, an opening action, an
undo, and refused tries made on purpose: occupied, junk and off-board squares, the wrong side or
seat, Renju fouls, out-of-step opening actions, discs that flip nothing), either the reason code
of its refusal or a CRC-32 of the state after it. This test replays each game with the Python
engine in the same process that reads Node's output, computes the same fields (``CARO_FIELDS``,
``REVERSI_FIELDS``: verdict and winning line, position text, legal moves, Renju foul points,
refused-five note, opening state, actor, allowed actions, colours and stored object; for Reversi
the flips, passes and result) and compares at every ply. On a disagreement it asks Node for that
one game with the full fields and names the first field that differs.

Moves are biased toward the mover's own lines and the stones already played, so fives, overlines,
blocked runs and fouls happen often; the counts are printed in pytest's summary. The seed is fixed
(``ENGINES_AGREE_SEED`` overrides it, to explore other games).

The games have a head start (tests/head_start.py): the session runs each rule set's generator from
the end of collection, and the test replays that run's output (the same command, so the same
games), or runs the generator itself, reading its output as it comes, when the head start has not
reached it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest

from caro.engine import reversi
from caro.engine.caro import PRESETS, Board, Rules
from caro.engine.errors import IllegalMove
from caro.engine.explain import foul_points, refused_five
from caro.engine.openings import OPENINGS
from tests.head_start import runs_ahead

ROOT = Path(__file__).resolve().parents[3]
GENERATOR = ROOT / "tests" / "js" / "differential" / "random_games.js"
GAMES = 2000
"""Random games per rule set (issue 26: at least 2,000)."""
SEED = int(os.environ.get("ENGINES_AGREE_SEED", "26"))
RULE_SETS = [
    "caro-vn", "freestyle", "exact-five", "caro-exact", "caro-edge-open", "renju", "renju-rif", "swap2",
    "freestyle-11-w4", "caro-vn-13-w6", "caro-edge-open-19-w4", "exact-five-11-w6", "reversi",
]
"""The rule sets of random_games.js: every preset at its own rules (with its RIF or Swap2 opening),
four on other board sizes and win lengths, and Reversi."""
NODE_TIMEOUT_S = 900
"""Wall-time limit of one rule set's Node process (a few seconds of CPU; the rest is a loaded machine)."""

CARO_FIELDS = ("returned", "position", "legal moves", "foul points", "outcome", "refused five",
               "opening state", "actor", "allowed", "colours", "offers", "stored opening")
REVERSI_FIELDS = ("returned", "position", "legal moves", "moves", "passes", "outcome", "last move")


def _returned(result: object) -> str:
    return result if isinstance(result, str) else "-"


def caro_fields(board: Board, machine, result: object) -> list[str]:
    """The Python side of random_games.js's ``caroFields``, field for field."""
    outcome = board.outcome
    moves = board.moves
    note = refused_five(board, moves[-1]) if moves else None
    fields = [
        _returned(result),
        board.position(),
        ",".join(board.legal_moves()),
        ",".join(f"{square}:{kind}" for square, kind in foul_points(board).items()),
        "-" if outcome is None else f"{outcome.winner or '-'}:{outcome.termination.value}:{','.join(outcome.line)}",
        "-" if note is None else f"{note['kind']}:{','.join(note['line'])}",
    ]
    if machine is not None:
        fields += [machine.state.value, machine.actor, ",".join(sorted(machine.allowed)),
                   machine.colors["first"] + machine.colors["second"], ",".join(getattr(machine, "offers", ())),
                   json.dumps(machine.to_dict(), separators=(",", ":"))]
    return fields


def reversi_fields(board: reversi.Board, result: object, last: reversi.MoveResult | None) -> list[str]:
    """The Python side of random_games.js's ``reversiFields``, field for field."""
    outcome = board.outcome
    return [
        _returned(result),
        board.position(),
        ",".join(board.legal_moves()),
        "".join(board.moves),
        str(board.passes),
        "-" if outcome is None else f"{outcome.winner or '-'}:{outcome.black}:{outcome.white}",
        "-" if last is None else f"{last.square}:{','.join(last.flips)}:{'true' if last.passed else 'false'}",
    ]


class Disagreement(Exception):
    """The engines differ at ``step`` (an index into the game's steps)."""

    def __init__(self, step: int, what: str) -> None:
        super().__init__(f"step {step}: {what}")
        self.step = step


class Replay:
    """One game of the trace replayed on the Python engine; ``stats`` counts what happened."""

    def __init__(self, game: dict, stats: Counter) -> None:
        self.game, self.stats = game, stats
        self.machine = None
        self.last = None  # Reversi: what the last accepted move did
        if game["rules"] is None:
            self.board = reversi.Board()
            self.fields = lambda result: reversi_fields(self.board, result, self.last)
        else:
            rules = Rules.from_dict(game["rules"])
            if game["opening"] == "free":
                self.board = Board(rules)
            else:
                self.machine = OPENINGS[game["opening"]](rules)
                self.board = self.machine.board
            self.fields = lambda result: caro_fields(self.board, self.machine, result)

    def run(self, full: bool = False):
        """Replay every step; yield ``(step index, Python's answer, the browser's answer)``. An
        answer is ``[reason]`` or ``[reason, foul kind]`` for a refusal, else ``[CRC-32 of the
        fields]`` (``[fields]`` when ``full``), as the trace writes it after the step itself."""
        for n, step in enumerate(self.game["steps"]):
            browser = step[ENTRY_LENGTH[step[0]]:]
            try:
                result = self.act(step)
            except IllegalMove as error:
                yield n, [error.reason] + ([str(error.foul)] if error.foul is not None else []), browser
                continue
            values = self.fields(result)
            self.values = values
            yield n, [values if full else zlib.crc32("|".join(values).encode())], browser

    def act(self, step: list):
        kind = step[0]
        if kind == "p":
            result = self.board.play(step[1], side=step[2])
            if isinstance(self.board, reversi.Board):
                self.last = result
            return result
        if kind == "a":
            return self.machine.apply(step[1], seat=step[2])
        if kind == "u":
            square = self.board.undo()
            self.last = None
            return square
        if kind == "x":
            return self.board.pass_turn()
        raise AssertionError(f"unknown step {step!r}")

    def check(self) -> None:
        """Compare every step with the browser engine's answer; count the events."""
        steps = self.game["steps"]
        for n, answer, browser in self.run():
            step = steps[n]
            if answer != browser:
                raise Disagreement(n, f"{step[:ENTRY_LENGTH[step[0]]]!r}: browser {browser!r}, Python {answer!r}")
            self.count(step, answer)
        self.count_end()

    def count(self, step: list, answer: list) -> None:
        """Count a step from the fields just compared (``self.values``)."""
        stats = self.stats
        if isinstance(answer[0], str):
            stats[f"refused {answer[0]}" + (f" ({answer[1]})" if len(answer) > 1 else "")] += 1
            return
        stats["undos" if step[0] == "u" else "opening actions" if step[0] == "a" else "plies"] += 1
        fields = dict(zip(REVERSI_FIELDS if isinstance(self.board, reversi.Board) else CARO_FIELDS, self.values))
        if "last move" in fields:
            if step[0] == "p" and fields["last move"].endswith(":true"):
                stats["automatic passes"] += 1
            return
        for point in filter(None, fields["foul points"].split(",")):
            stats[f"foul points ({point.partition(':')[2]})"] += 1
        if step[0] == "p" and fields["refused five"] != "-":
            stats[f"refused fives ({fields['refused five'].partition(':')[0]})"] += 1

    def count_end(self) -> None:
        stats, outcome = self.stats, self.board.outcome
        stats["games"] += 1
        if outcome is None:
            stats["unfinished"] += 1
        elif isinstance(self.board, reversi.Board):
            stats[f"won by {outcome.winner}" if outcome.winner else "drawn"] += 1
        elif outcome.winner is None:
            stats[f"drawn ({outcome.termination.value})"] += 1
        else:
            longer = len(outcome.line) > self.board.rules.win_length
            stats[f"won by {outcome.winner}" + (" (longer than the win length)" if longer else "")] += 1


ENTRY_LENGTH = {"p": 3, "a": 3, "u": 1, "x": 1}
"""Items of a trace step before the answer: ["p", square, side] (a move), ["a", action, seat] (an
opening action), ["u"] (undo), ["x"] (a Reversi pass)."""


def generator_argv(node: str, rule_set: str, games: int, *extra: str) -> list[str]:
    return [node, str(GENERATOR), "--set", rule_set, "--games", str(games), "--seed", str(SEED), *extra]


def explain(node: str, rule_set: str, index: int) -> str:
    """The first field where the engines differ in game ``index``, from Node's full fields."""
    argv = generator_argv(node, rule_set, index + 1, "--game", str(index), "--full")
    game = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    names = REVERSI_FIELDS if game["rules"] is None else CARO_FIELDS
    lines = [f"rerun: node {' '.join(argv[1:])}"]
    for n, answer, browser in Replay(game, Counter()).run(full=True):
        if answer == browser:
            continue
        lines.append(f"step {n} {game['steps'][n][:ENTRY_LENGTH[game['steps'][n][0]]]!r}:")
        if isinstance(answer[0], list) and isinstance(browser[0], list):
            for name, mine, theirs in zip(names, answer[0], browser[0]):
                if mine != theirs:
                    lines.append(f"  {name}: browser {theirs[:300]!r}\n  {' ' * len(name)}  Python  {mine[:300]!r}")
        else:
            lines.append(f"  browser {str(browser)[:600]}\n  Python  {str(answer)[:600]}")
        break
    return "\n".join(lines)


def _commands(item) -> dict:
    """The head start's command of a `test_engines_agree_on_random_games` item (tests/head_start.py):
    the rule set's random games, the same argv the test runs."""
    node = shutil.which("node")
    rule_set = item.callspec.params["rule_set"]
    return {f"random games {rule_set}": (generator_argv(node, rule_set, GAMES), NODE_TIMEOUT_S)} if node else {}


def _check_games(lines, rule_set: str, stats: Counter) -> tuple[int, Disagreement] | None:
    """Replay each game (a JSON line of random_games.js) until the first disagreement: (its game
    index, the disagreement), or None when every game agrees."""
    for line in lines:
        game = json.loads(line)
        try:
            Replay(game, stats).check()
        except Disagreement as disagreement:
            return game["game"], disagreement
    return None


@pytest.mark.timeout(NODE_TIMEOUT_S + 60)
@pytest.mark.parametrize("rule_set", RULE_SETS)
@runs_ahead(_commands)
def test_engines_agree_on_random_games(rule_set: str, node: str, engines_agree_stats: dict, head_start):
    stats: Counter = Counter()
    ahead = head_start and head_start.take(f"random games {rule_set}")
    if ahead is not None:  # the games were generated ahead (the same command): replay its output
        failure = _check_games(ahead.stdout.splitlines(), rule_set, stats)
        returncode, stderr = ahead.returncode, ahead.stderr
    else:
        with subprocess.Popen(generator_argv(node, rule_set, GAMES), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT) as process:
            failure = _check_games(process.stdout, rule_set, stats)
            if failure is not None:
                process.kill()
            stderr = process.stderr.read()
            process.wait(timeout=NODE_TIMEOUT_S)
        returncode = process.returncode
    if failure is not None:
        index, disagreement = failure
        pytest.fail(f"the engines disagree in {rule_set} game {index} (seed {SEED}), {disagreement}\n"
                    f"{explain(node, rule_set, index)}", pytrace=False)
    assert returncode == 0, stderr
    assert stats["games"] == GAMES and stats["unfinished"] == 0, stats
    engines_agree_stats[rule_set] = stats


def test_the_rule_sets_are_the_generators(node: str):
    """RULE_SETS names exactly the sets random_games.js plays (and every preset is among them)."""
    listed = json.loads(subprocess.run([node, str(GENERATOR), "--list"], capture_output=True, text=True,
                                       check=True, cwd=ROOT).stdout)
    assert list(listed) == RULE_SETS
    assert set(PRESETS) <= set(RULE_SETS)
    for slug, preset in PRESETS.items():
        assert listed[slug] == {"rules": preset.rules.to_dict(), "opening": preset.opening.value}
