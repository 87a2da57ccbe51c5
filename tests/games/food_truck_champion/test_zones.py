"""The zone helpers the rule steps and the views share: what a ticket still needs, section capacities."""

from __future__ import annotations

from app.games.food_truck_champion.data import SECTIONS
from app.games.food_truck_champion.setup import new_board
from app.games.food_truck_champion.zones import capacities, capacity, need


def test_need_is_the_icons_minus_the_placed_ingredients_in_alphabetical_order() -> None:
    # ftc-002 shows Grain, Grain, Meat; ftc-001 and ftc-004 are Grain, ftc-007 is Meat.
    assert need({"card": "ftc-002", "on": []}) == ["Grain", "Grain", "Meat"]
    assert need({"card": "ftc-002", "on": ["ftc-001"]}) == ["Grain", "Meat"]
    assert need({"card": "ftc-002", "on": ["ftc-007", "ftc-004"]}) == ["Grain"]
    assert need({"card": "ftc-002", "on": ["ftc-001", "ftc-007", "ftc-004"]}) == []


def test_need_of_a_starting_order() -> None:
    assert need({"card": "start-bear_burgers", "on": []}) == ["Grain", "Meat"]
    # ftc-001 shows Vegetable, Seasoning.
    assert need({"card": "ftc-001", "on": []}) == ["Seasoning", "Vegetable"]


def test_capacities_are_the_capacity_of_each_section() -> None:
    board = new_board("bear_burgers")
    board["gray"] = {"fridge": 1, "hired_staff": 0, "plating": 2}
    assert capacities(board) == {section: capacity(board, section) for section in SECTIONS}
    assert capacities(board) == {"fridge": 3, "hired_staff": 2, "plating": 4}
