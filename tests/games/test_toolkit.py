"""The engines' shared toolkit: one rule for "the same action", and copies that share nothing they should not."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games import GAMES
from app.games.base import IllegalAction
from app.games.toolkit import copy_json, copy_state, is_listed, same_json
from tests.games.contract import canonical, containers, seats


def test_same_json_tells_booleans_integers_and_floats_apart() -> None:
    assert same_json({"a": [1, "x", None]}, {"a": [1, "x", None]})
    assert not same_json(1, True)
    assert not same_json(1, 1.0)
    assert not same_json(0, False)
    assert not same_json({"a": 1}, {"a": 1, "b": 2})
    assert not same_json([1, 2], [1, 2, 3])
    assert not same_json({"a": [1]}, {"a": [True]})


def test_is_listed_finds_only_the_exact_action() -> None:
    legal = [{"type": "take", "n": 1}, {"type": "pass"}]
    assert is_listed({"type": "take", "n": 1}, legal)
    assert is_listed({"type": "pass"}, legal)
    assert not is_listed({"type": "take", "n": True}, legal)
    assert not is_listed({"type": "take", "n": 1.0}, legal)
    assert not is_listed({"type": "take", "n": 1, "extra": 0}, legal)
    assert not is_listed("pass", legal)
    assert not is_listed({"type": "take", "n": 1}, [])
    # A look-alike listed first does not hide the exact action listed after it.
    assert is_listed({"n": 1}, [{"n": 1.0}, {"n": True}, {"n": 1}])
    assert is_listed({"n": True}, [{"n": 1}, {"n": True}])
    assert not is_listed({"n": 1}, [{"n": 1.0}, {"n": True}])
    # Documents orjson cannot write fall back to `same_json`.
    assert is_listed({"n": 1 << 70}, [{"n": 1 << 70}])
    assert not is_listed({"n": True}, [{"n": 1 << 0}])


def test_copy_json_is_equal_and_shares_no_container() -> None:
    doc = {"a": [1, 2.5, True, None, {"b": ["c", [3]]}], "d": {}, "e": "f"}
    copied = copy_json(doc)
    assert copied == doc and canonical(copied) == canonical(doc)
    assert list(copied) == list(doc)
    assert not containers(copied) & containers(doc)
    assert copy_json([1, [2]]) == [1, [2]] and copy_json(7) == 7


def test_copy_state_shares_exactly_the_static_keys_and_keeps_key_order() -> None:
    static = {"tiles": [[1, 2]]}
    state = {"z": [1], "map": static, "a": {"b": [2]}}
    copied = copy_state(state, frozenset({"map"}))
    assert list(copied) == ["z", "map", "a"] and copied == state
    assert copied["map"] is static
    assert not containers({k: v for k, v in copied.items() if k != "map"}) & containers(state)
    assert not containers(copy_state(state)) & containers(state)


def _with_scalar_changed(action: Any) -> list[Any]:
    """Copies of an action with one integer field written as `true`/`1.0`-like look-alikes of the same number."""
    out = []
    for key, value in action.items():
        if type(value) is int:
            out.append({**action, key: float(value)})
            if value in (0, 1):
                out.append({**action, key: bool(value)})
    return out


# Food Truck's actions hold only strings, so no number in them has a look-alike.
@pytest.mark.parametrize("game_id", ["food-chain-magnate", "food-truck-champion", "foodies"])
def test_every_engine_refuses_a_look_alike_of_a_listed_action(game_id: str) -> None:
    game = GAMES[game_id]
    rnd = random.Random(7)
    state = game.new_game(seats(max(game.min_players, 3)), 7, None)
    tried = 0
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        seat = rnd.choice(game.awaiting(state))
        legal = game.actions(state, seat)
        for action in legal:
            for look_alike in _with_scalar_changed(action):
                with pytest.raises(IllegalAction):
                    game.apply(state, seat, look_alike)
                tried += 1
        state = game.apply(state, seat, rnd.choice(legal)).state
    assert tried > 0, "no listed action had an integer field: the game reached no such choice"
