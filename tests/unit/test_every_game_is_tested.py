"""The tests about every game take every registered game, by construction: a game registered
tomorrow is in each of them without a line changed (tests/every_game.py).

A made-up game registered before collection (tests/fake_game.py) shows up in the parameters
of every test about every game; no test spells out a list of the games by hand; and the
conformance test sees a leak that names no card, and a view without a key bitka reads."""
from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from games.engine import view_keys as keys
from games.registry import GAMES
from tests import fake_game
from tests.games import test_every_game

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
# Besides those taking their games from tests/every_game.py, the tests about every game that
# parametrize over GAMES themselves.
OVER_GAMES = ("tests/games/test_every_game.py", "tests/games/test_calls_change_something.py")


def _every_game_files() -> list[str]:
    found = set(OVER_GAMES)
    for path in TESTS.rglob("test_*.py"):
        if path == Path(__file__):
            continue
        text = path.read_text(encoding="utf-8")
        if "tests.every_game" in text or "from tests import every_game" in text:
            found.add(str(path.relative_to(ROOT)))
    return sorted(found)


def test_a_new_game_shows_up_in_every_test_about_every_game():
    files = _every_game_files()
    assert {"tests/api/test_what_every_reader_sees.py", "tests/api/test_corrections.py"} <= set(files)
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "tests.fake_game",
                                "-p", "no:cacheprovider", *files], cwd=ROOT, capture_output=True, text=True,
                               timeout=300)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    ids = defaultdict(list)  # each test function's parameter ids
    for line in collected.stdout.splitlines():
        if "::" in line and "[" in line:
            function, _, params = line.partition("[")
            ids[function].append(params.rstrip("]"))
    # A test about every game: one whose parameters begin with the names of three games or more.
    about_every_game = {f: p for f, p in ids.items() if len({i.split("-")[0] for i in p} & set(GAMES)) >= 3}
    assert set(OVER_GAMES) <= {f.split("::")[0] for f in about_every_game}, collected.stdout[-2000:]
    missing = sorted(f for f, p in about_every_game.items() if not any(i.split("-")[0] == fake_game.NAME for i in p))
    assert not missing, f"a game registered is not in: {missing}"
    for name in GAMES:  # and every game really registered is in each
        lacking = sorted(f for f, p in about_every_game.items() if not any(i.split("-")[0] == name for i in p))
        assert not lacking, f"{name} is not in: {lacking}"


def _games_listed(node: ast.AST, names: set[str]) -> set[str]:
    """The games a list, tuple, set or dict literal names directly (as elements, or keys)."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = node.elts
    elif isinstance(node, ast.Dict):
        items = [k for k in node.keys if k is not None]
    else:
        return set()
    return {i.value for i in items if isinstance(i, ast.Constant) and i.value in names}


def test_no_test_lists_the_games_by_hand():
    """A literal naming three games or more is a list of the games that a new one is not in:
    a test about every game takes them from GAMES. Each game's own tests (tests/games/<game>/)
    and the rules files read again (tests/oracles/) are game by game."""
    names, found = set(GAMES), []
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(TESTS)
        if relative.parts[0] == "games" and relative.parts[1] in names or relative.parts[0] == "oracles":
            continue  # a game's own tests, and the rules files read again, game by game
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            listed = _games_listed(node, names)
            if len(listed) >= 3:
                found.append(f"tests/{relative}:{node.lineno}: {sorted(listed)}")
    assert not found, "\n".join(found)


def test_the_conformance_test_sees_a_leak_that_names_no_card(monkeypatch):
    """A view that adds the suits each seat still holds names no card, yet tells a reader
    where hidden cards lie: the test every game passes refuses it."""
    name = next(iter(GAMES))
    game = GAMES[name]

    def view(state, plain=game.sight.view):
        return {**plain(state), "suits": [sorted({c[-1] for c in held if c}) for held in game.moves.held(state)]}

    monkeypatch.setitem(GAMES, name, replace(game, sight=replace(game.sight, view=view)))
    with pytest.raises(AssertionError, match="tells apart the worlds"):
        test_every_game.test_random_hands_dealt_whole_and_seat_by_seat(name, 0)


@pytest.mark.parametrize("changed, said", [
    (lambda shown: {k: v for k, v in shown.items() if k != keys.HELD}, "no 'held'"),
    (lambda shown: {**shown, keys.DEALER: str(shown[keys.DEALER])}, "'dealer' is '[0-9]', not a seat"),
    (lambda shown: {**shown, keys.CURRENT: [[p["seat"], p["card"]] for p in shown.get(keys.CURRENT) or ()]
                    or [[0, "AS"]]}, "'current' is .*, not a list of \\{seat, card\\}"),
    (lambda shown: {**shown, "game": "fake"}, "'game' is the projection's own"),
])
def test_the_conformance_test_holds_each_view_to_the_keys_bitka_reads(monkeypatch, changed, said):
    """A view that leaves out a key the service reads, gives one in another shape, or holds
    one the hand's projection adds itself is refused (games/engine/view_keys.py)."""
    name = next(iter(GAMES))
    game = GAMES[name]

    def view(state, plain=game.sight.view):
        return changed(plain(state))

    monkeypatch.setitem(GAMES, name, replace(game, sight=replace(game.sight, view=view)))
    with pytest.raises(AssertionError, match=said):
        test_every_game.test_random_hands_dealt_whole_and_seat_by_seat(name, 0)
