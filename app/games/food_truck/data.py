"""Component data of Food Truck, loaded from the package's JSON files and checked against the spec's counts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"

DESSERT = "dessert"
BLUE = "blue"


def _load(name: str) -> Any:
    with open(_DIR / name, encoding="utf-8") as f:
        return json.load(f)


class DataError(ValueError):
    """The package's component data does not match the spec."""


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise DataError(f"food-truck data: {what}")


_COMPONENTS = _load("components.json")
_MEALS = _load("meals.json")
_TRUCKS = _load("trucks.json")

#: card id -> meal type ("dessert" for Desserts)
CARD_TYPE: dict[str, str] = {c["id"]: c["type"] for c in _MEALS["cards"]}
#: card id -> position in the data file, used to keep collections in a stable order
CARD_INDEX: dict[str, int] = {c["id"]: i for i, c in enumerate(_MEALS["cards"])}
ALL_CARDS: list[str] = [c["id"] for c in _MEALS["cards"]]
CARD_BACKGROUND: dict[str, str] = {c["id"]: c["background"] for c in _MEALS["cards"]}
MEAL_NAMES: dict[str, str] = {t["type"]: t["name"] for t in _MEALS["types"]}
MEAL_BACKGROUNDS: dict[str, str] = {t["type"]: t["background"] for t in _MEALS["types"]}
STARTING_HAND: dict[str, int] = dict(_COMPONENTS["starting_hand"])
VP_TARGET: dict[int, int] = {int(k): v for k, v in _COMPONENTS["vp_target_by_player_count"].items()}
MIN_PLAYERS: int = _COMPONENTS["players"]["min"]
MAX_PLAYERS: int = _COMPONENTS["players"]["max"]
VP_TOKENS: int = _COMPONENTS["components"]["victory_point_tokens"]

#: effect id ("E1".."E5") -> {"name", "windows", "text"}
EFFECTS: dict[str, dict[str, Any]] = {
    e["id"]: {"name": e["name"], "windows": list(e["windows"]), "text": e["text"]} for e in _TRUCKS["effects"]
}
#: truck id -> display name, in data order
TRUCK_NAMES: dict[str, str] = {t["id"]: t["name"] for t in _TRUCKS["trucks"]}
#: truck id -> its five Truck card ids
TRUCK_CARDS: dict[str, list[str]] = {t["id"]: list(t["cards"]) for t in _TRUCKS["trucks"]}
#: Truck card id -> effect id
CARD_EFFECT: dict[str, str] = {c["id"]: c["effect"] for c in _TRUCKS["cards"]}


def _validate() -> None:
    comp = _COMPONENTS["components"]
    types = Counter(CARD_TYPE.values())
    _check(len(ALL_CARDS) == comp["meal_cards"] == 65, "65 Meal cards incl. Desserts")
    _check(len(set(ALL_CARDS)) == len(ALL_CARDS), "unique Meal card ids")
    _check(types[DESSERT] == comp["dessert_cards"] == 5, "5 Dessert cards")
    for t in _MEALS["types"]:
        _check(types[t["type"]] == t["copies"], f"copies of {t['type']}")
    backgrounds = Counter(CARD_BACKGROUND.values())
    _check(backgrounds == Counter({"blue": 25, "green": 35, "pink": 5}), "25 blue, 35 green, 5 pink cards")
    _check(STARTING_HAND == {DESSERT: 1, "burger": 2, "pizza": 1, "fries_drink": 1, "takeaway_box": 1},
           "starting hand")
    for meal, count in STARTING_HAND.items():
        _check(types[meal] >= MAX_PLAYERS * count, f"enough {meal} for {MAX_PLAYERS} starting hands")
    _check(list(EFFECTS) == ["E1", "E2", "E3", "E4", "E5"], "effects E1..E5")
    _check(len(TRUCK_CARDS) == 5 and len(CARD_EFFECT) == comp["truck_cards"] == 25, "5 trucks, 25 Truck cards")
    for truck, cards in TRUCK_CARDS.items():
        _check(sorted(CARD_EFFECT[c] for c in cards) == list(EFFECTS), f"{truck}: one card of each effect")
    _check(VP_TARGET == {2: 3, 3: 3, 4: 3, 5: 2}, "VP target by player count")
    _check(comp["victory_point_tokens"] == 9 and comp["first_player_marker"] == 1, "VP tokens and marker")
    _check((MIN_PLAYERS, MAX_PLAYERS) == (2, 5), "2-5 players")


_validate()


def meal_type(card: str) -> str:
    """The meal type of a Meal card ("dessert" for Desserts)."""
    return CARD_TYPE[card]


def is_dessert(card: str) -> bool:
    """Whether a card is a Dessert (always served, never blocks)."""
    return CARD_TYPE[card] == DESSERT


def effect_of(truck_card: str) -> str:
    """The effect id (E1..E5) printed on a Truck card."""
    return CARD_EFFECT[truck_card]


def in_card_order(cards: list[str]) -> list[str]:
    """The cards sorted in the data file's order (a stable, meaningless order for unordered sets)."""
    return sorted(cards, key=CARD_INDEX.__getitem__)
