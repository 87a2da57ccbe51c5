"""`apply` works on a copy that shares only untouched truck boards with its input, in every phase."""

from __future__ import annotations

import random
from typing import Any

from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.rules import working_copy
from app.games.food_truck_champion.zones import board_to_read
from tests.games.contract import canonical, containers, seats


def test_a_working_copy_shares_nothing_but_the_boards_until_they_are_looked_up() -> None:
    state = ENGINE.new_game(seats(3), 5)
    copy = working_copy(state)
    shared = containers({k: v for k, v in copy.items() if k != "boards"}) & containers(state)
    assert not shared
    board = copy["boards"]["1"]
    assert board is not state["boards"]["1"] and canonical(board) == canonical(state["boards"]["1"])
    assert not containers(board) & containers(state)
    assert copy["boards"]["1"] is board, "a board is copied once"
    assert all(b is not state["boards"][s] for s, b in copy["boards"].items()), "items() copies too"
    assert list(copy["boards"]) == list(state["boards"])


def test_apply_shares_only_unchanged_boards_with_its_input() -> None:
    seen: set[tuple[Any, ...]] = set()
    for n in (2, 3, 5):
        rnd = random.Random(n)
        state = ENGINE.new_game(seats(n), 40 + n)
        while ENGINE.outcome(state) is None:
            seat = rnd.choice(ENGINE.awaiting(state))
            before = canonical(state)
            new = ENGINE.apply(state, seat, rnd.choice(ENGINE.actions(state, seat))).state
            assert canonical(state) == before
            assert type(new["boards"]) is dict
            kept = {s for s, b in new["boards"].items() if b is state["boards"][s]}
            untouched = set().union(*(containers(state["boards"][s]) for s in kept))
            assert containers(new) & containers(state) == untouched
            rnd_ = state["round"]
            seen.add((state["phase"], rnd_ and rnd_["stage"], rnd_ and rnd_["critique"] is not None,
                      state["pending"] and state["pending"]["kind"], bool(kept)))
            state = new
    assert {"decide", "resolve", "critique", "market"} <= {p[1] for p in seen}
    assert {"discard", "token", "place_token"} <= {p[3] for p in seen}
    assert any(p[2] for p in seen) and any(p[4] for p in seen)


def test_a_board_read_inside_apply_is_not_copied_and_a_later_lookup_still_copies_it() -> None:
    state = ENGINE.new_game(seats(3), 5)
    copy = working_copy(state)
    assert board_to_read(copy, "1") is state["boards"]["1"]
    assert board_to_read(state, "1") is state["boards"]["1"]
    looked_up = copy["boards"]["1"]
    assert looked_up is not state["boards"]["1"]
    assert board_to_read(copy, "1") is looked_up, "once copied, the step reads its own copy"
