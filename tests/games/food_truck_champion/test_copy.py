"""`copy_state` is a deep copy: equal to its input and sharing no list or dict with it, in every phase."""

from __future__ import annotations

import random
from typing import Any

from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.rules import copy_state
from tests.games.contract import canonical, seats


def containers(doc: Any) -> list[int]:
    """The ids of every list and dict inside `doc` (itself included)."""
    out: list[int] = []
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            out.append(id(x))
            stack.extend(x.values())
        elif isinstance(x, list):
            out.append(id(x))
            stack.extend(x)
    return out


def test_copy_state_is_a_deep_copy_along_random_games() -> None:
    seen_phases: set[tuple[Any, ...]] = set()
    for n in (2, 3, 5):
        rnd = random.Random(n)
        state = ENGINE.new_game(seats(n), 40 + n)
        while True:
            copied = copy_state(state)
            assert canonical(copied) == canonical(state)
            assert not set(containers(copied)) & set(containers(state))
            rnd_ = state["round"]
            seen_phases.add((state["phase"], rnd_ and rnd_["stage"], rnd_ and rnd_["critique"] is not None,
                             state["pending"] and state["pending"]["kind"], state["neutral"] is not None))
            if ENGINE.outcome(state) is not None:
                break
            seat = rnd.choice(ENGINE.awaiting(state))
            state = ENGINE.apply(state, seat, rnd.choice(ENGINE.actions(state, seat))).state
    stages = {p[1] for p in seen_phases}
    assert {"decide", "resolve", "critique", "market"} <= stages
    assert {"discard", "token", "place_token"} <= {p[3] for p in seen_phases}
    assert any(p[2] for p in seen_phases) and "over" in {p[0] for p in seen_phases}
