"""Setup for 2-5 players (worked example 1), component data, registration."""

from __future__ import annotations

import pytest

from app.games import GAMES
from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.data import CARDS, TICKETS, TRUCKS
from tests.games.contract import canonical, seats
from tests.games.food_truck_champion.helpers import check_invariant

P4 = ["P", "P", "P", "P", "C", "P", "P", "P", "P", "C"]
P3 = ["P", "P", "P", "C", "P", "P", "P", "C"]


def test_registered_with_contract_attributes() -> None:
    assert GAMES["food-truck-champion"] is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 5)
    assert ENGINE.title == "Food Truck Champion" and ENGINE.description and ENGINE.options == []


def test_card_data_matches_the_spec() -> None:
    assert len(CARDS) == 95
    assert CARDS["ftc-046"] == {"id": "ftc-046", "action": "Manager", "ingredient": "Dairy", "ticket": {
        "icons": ["Meat", "Vegetable", "Seasoning"], "logo": "toro_taqueria", "dish": "Holy Mole Salad"}}
    assert TICKETS["ftc-010"]["dish"] == "Pate en Croute"
    assert TRUCKS["bear_burgers"]["flavor_profile"] == ["Grain", "Grain", "Meat", "Dairy"]
    assert TICKETS["start-green_machine"]["icons"] == ["Vegetable", "Fruit"]


@pytest.mark.parametrize(("n", "deck", "market", "shape"), [(2, 81, 6, P3), (3, 75, 8, P3), (4, 71, 8, P4),
                                                            (5, 67, 8, P4)])
def test_example_1_setup_shapes(n: int, deck: int, market: int, shape: list[str]) -> None:
    state = ENGINE.new_game(seats(n), 11)
    check_invariant(state)
    assert len(state["deck"]) == deck
    assert len(state["market"]) == market and all(len(p) == 1 for p in state["market"])
    assert state["stacks"] == {"1": shape, "2": shape, "3": shape}
    unused = 8 - shape.count("P")
    assert state["box_tokens"] == {"1": unused, "2": unused, "3": unused}
    trucks = [b["truck"] for b in state["boards"].values()]
    assert len(set(trucks)) == n
    for board in state["boards"].values():
        assert len(board["hand"]) == 4 and board["owner"] == "board"
        assert board["plating"] == [{"card": TRUCKS[board["truck"]]["starting_order"], "on": []}]
        assert board["fridge"] == board["hired_staff"] == board["completed"] == board["awards"] == []
    assert state["order"][0] == state["first_player"]
    assert sorted(state["order"]) == seats(n)
    assert ENGINE.awaiting(state) == [state["first_player"]]
    if n == 2:
        neutral = state["neutral"]
        assert neutral["owner"] in {TRUCKS[t]["owner_card"] for t in TRUCKS if t not in trucks}
        assert neutral["stack"] == []
    else:
        assert state["neutral"] is None


def test_setup_is_deterministic_and_seed_dependent() -> None:
    assert canonical(ENGINE.new_game(seats(4), 5)) == canonical(ENGINE.new_game(seats(4), 5))
    assert canonical(ENGINE.new_game(seats(4), 5)) != canonical(ENGINE.new_game(seats(4), 6))


def test_seat_ids_are_not_assumed() -> None:
    state = ENGINE.new_game(["ana", "bo", "cy"], 3)
    assert set(state["boards"]) == {"ana", "bo", "cy"}
    check_invariant(state)


@pytest.mark.parametrize("players", [["0"], seats(6), ["a", "a", "b"]])
def test_bad_player_lists_are_refused(players: list[str]) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(players, 1)
