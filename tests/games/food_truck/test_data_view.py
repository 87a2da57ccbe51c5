"""Component data checks and the per-viewer view."""

from __future__ import annotations

import pytest

from app.games.food_truck import ENGINE, data
from tests.games.contract import canonical, play_random

from .helpers import act, build


def test_component_data_matches_the_spec() -> None:
    assert len(data.ALL_CARDS) == 65 and sum(1 for c in data.ALL_CARDS if data.is_dessert(c)) == 5
    assert len(data.CARD_EFFECT) == 25 and data.effect_of("street_feast-e3") == "E3"
    assert data.meal_type("hot_dog-05") == "hot_dog" and data.VP_TARGET[5] == 2
    assert data.MEAL_BACKGROUNDS["burger"] == "blue" and data.MEAL_BACKGROUNDS["dessert"] == "pink"


def test_data_check_catches_a_wrong_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(data.STARTING_HAND, "burger", 3)
    with pytest.raises(data.DataError):
        data._validate()
    monkeypatch.undo()
    monkeypatch.setitem(data.CARD_EFFECT, "street_feast-e3", "E1")
    with pytest.raises(data.DataError):
        data._validate()


def test_owner_sees_their_pile_others_its_size() -> None:
    s = build(["a", "b", "c"], turn="a", piles={"a": ["sushi-01", "tacos-01"], "b": ["kebab-01"]},
              served={"c": ["salad-01"]}, trucks={"b": "E3"}, supply=["salad-02", "salad-03", "salad-04"])
    mine = ENGINE.view(s, "a")["seats"]
    assert mine["a"]["draw_pile"][:2] == ["sushi-01", "tacos-01"]
    assert mine["b"]["draw_pile"] is None and mine["b"]["draw_pile_count"] == len(s["seats"]["b"]["draw_pile"])
    assert mine["b"]["truck_current_effect"] == "E3" and mine["b"]["truck_pile_count"] == 4
    assert mine["c"]["served"] == {"salad": ["salad-01"]}
    spectator = ENGINE.view(s, None)
    assert spectator["viewer"] is None and all(spectator["seats"][p]["draw_pile"] is None for p in "abc")
    # A spectator sees exactly what a seat sees of the other seats.
    seat_b = ENGINE.view(s, "b")
    for p in ("a", "c"):
        assert canonical(seat_b["seats"][p]) == canonical(spectator["seats"][p])
    s, _ = act(s, "a", {"type": "reveal"})
    assert ENGINE.view(s, "b")["seats"]["a"]["served"]["sushi"] == ["sushi-01"]


def test_view_of_a_finished_game_carries_the_outcome() -> None:
    state, _ = play_random(ENGINE, 3, 9)
    view = ENGINE.view(state, None)
    out = ENGINE.outcome(state)
    assert view["outcome"] == out and view["phase"] == "over"
    assert out is not None and set(out["details"]) == {"0", "1", "2"}
    for seat, d in out["details"].items():
        assert d["vp"] == out["scores"][seat] == len(d["rounds_won"])
    assert ENGINE.view(ENGINE.new_game(["0", "1"], 1), None)["outcome"] is None


def test_options_describe_valid_defaults() -> None:
    for option in ENGINE.options:
        assert option["default"] in option["choices"]
    ENGINE.new_game(["0", "1"], 1, {o["id"]: o["default"] for o in ENGINE.options})
