"""Audit of the engine against the spec (food-truck.md): cases the other test files did not pin down."""

from __future__ import annotations

import pytest

from app.games.food_truck import ENGINE
from tests.games.contract import seats

from .helpers import act, build, refused


@pytest.mark.parametrize("truck", [["wheely_good"], {"id": "wheely_good"}])
def test_a_malformed_truck_choice_is_refused_not_crashed(truck: object) -> None:
    # Architecture, game contract: `apply` "either returns a valid new state or raises IllegalAction".
    # An unhashable truck id must not reach the dict lookup, which would raise TypeError.
    s = ENGINE.new_game(seats(3), 1, {"first_player": "1"})
    assert refused(s, "0", {"type": "choose_truck", "truck": truck}) == "no_such_truck"


def test_after_a_share_each_holder_blocks_the_other_unless_another_effect_applies() -> None:
    # Spec F10: "After a legal share, both holders block everyone else, including each other's later cards of
    # that type unless another effect applies." F7: E2 may target either single of a shared meal.
    s = build(["a", "b", "c"], turn="b", served={"a": ["tacos-01"], "b": ["tacos-02"]},
              piles={"b": ["tacos-03"], "c": ["tacos-04"]}, trucks={"b": "E5", "c": "E2"},
              supply=["salad-01", "salad-02", "salad-03"])
    s, _ = act(s, "b", {"type": "reveal"})
    # b's own Tacos does not count; a's is the one other single: b may share again and so builds a pile.
    s, _ = act(s, "b", {"type": "play_truck", "effect": "E5"})
    assert s["seats"]["b"]["served"]["tacos"] == ["tacos-02", "tacos-03"] and s["turn"] == "c"
    # c sends back a's single, but b's Tacos pile still blocks c's Tacos.
    s, _ = act(s, "c", {"type": "reveal"})
    plays = [a for a in ENGINE.actions(s, "c") if a["type"] == "play_truck"]
    assert plays == [{"type": "play_truck", "effect": "E2", "seat": "a", "meal": "tacos"}]
    s, ev = act(s, "c", plays[0])
    assert s["seats"]["c"]["eliminated"] and [e["blocked_by"] for e in ev if e["type"] == "eliminated"] == [["b"]]
