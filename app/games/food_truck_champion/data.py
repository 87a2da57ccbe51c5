"""Component data of Food Truck Champion, loaded from the package's JSON files and checked against the spec."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> Any:
    with open(_DIR / name, encoding="utf-8") as f:
        return json.load(f)


COMPONENTS: dict[str, Any] = _load("components.json")
_CARD_LIST: list[dict[str, Any]] = _load("cards.json")
_TRUCK_LIST: list[dict[str, Any]] = _load("trucks.json")
_START_LIST: list[dict[str, Any]] = _load("starting-orders.json")
TOKENS: dict[str, Any] = _load("tokens.json")

INGREDIENTS: list[str] = COMPONENTS["ingredients"]
STAFF_ACTIONS: list[str] = COMPONENTS["staff_actions"]
SECTIONS: list[str] = list(COMPONENTS["board_sections"])  # fridge, hired_staff, plating
OPENING_HAND: int = COMPONENTS["opening_hand"]
HAND_LIMIT: int = COMPONENTS["hand_limit"]
START_CAPACITY: dict[str, int] = {s: v["start_capacity"] for s, v in COMPONENTS["board_sections"].items()}
GRAY_ICONS: dict[str, int] = {s: v["gray_icons"] for s, v in COMPONENTS["board_sections"].items()}
SET_POINTS: int = COMPONENTS["scoring"]["profile_set_points"]
LOGO_POINTS: int = COMPONENTS["scoring"]["own_logo_ticket_points"]
END_TRIGGER_STACKS: int = COMPONENTS["end_trigger_exhausted_stacks"]
MIN_PLAYERS: int = COMPONENTS["players"]["min"]
MAX_PLAYERS: int = COMPONENTS["players"]["max"]
TOKEN_VALUES: list[str] = sorted(TOKENS["popularity_tokens"])  # "1", "2", "3"

# Every game card by id: {"id", "action", "ingredient", "ticket": {"icons", "logo", "dish"}}.
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in _CARD_LIST}
CARD_IDS: list[str] = [c["id"] for c in _CARD_LIST]
TRUCKS: dict[str, dict[str, Any]] = {t["id"]: t for t in _TRUCK_LIST}
TRUCK_IDS: list[str] = [t["id"] for t in _TRUCK_LIST]
OWNER_OF: dict[str, str] = {t["owner_card"]: t["id"] for t in _TRUCK_LIST}
# Every ticket face (game cards and Starting Orders): {"icons", "logo", "dish"}.
TICKETS: dict[str, dict[str, Any]] = {c["id"]: c["ticket"] for c in _CARD_LIST}
TICKETS.update({s["id"]: {"icons": s["icons"], "logo": s["logo"], "dish": s["dish"]} for s in _START_LIST})
STARTING_ORDERS: set[str] = {s["id"] for s in _START_LIST}


def market_size(n_players: int) -> int:
    """Number of market positions for a player count."""
    return int(COMPONENTS["market_positions_by_player_count"][str(n_players)])


def stack_shape(n_players: int) -> list[str]:
    """Top-to-bottom shape of each token stack ("P"/"C") for a player count."""
    return list(TOKENS["stacks_by_player_count"][str(n_players)]["top_to_bottom"])


def _check() -> None:
    """Fail loudly at import if the data files disagree with the spec's counts."""
    counts = COMPONENTS["components"]
    assert len(_CARD_LIST) == counts["game_cards"] == 95
    assert len(set(CARD_IDS)) == 95
    assert len(_TRUCK_LIST) == counts["food_truck_boards"] == counts["owner_cards"] == 5
    assert len(_START_LIST) == counts["starting_order_cards"] == 5
    assert len(INGREDIENTS) == 6 and len(STAFF_ACTIONS) == 5
    actions = Counter(c["action"] for c in _CARD_LIST)
    assert set(actions) == set(STAFF_ACTIONS) and set(actions.values()) == {19}
    logos = Counter(c["ticket"]["logo"] for c in _CARD_LIST)
    assert set(logos) == set(TRUCK_IDS) and set(logos.values()) == {19}
    sizes = Counter(len(c["ticket"]["icons"]) for c in _CARD_LIST)
    assert sizes == Counter({1: 20, 2: 45, 3: 30})
    faces = Counter(c["ingredient"] for c in _CARD_LIST)
    assert faces == Counter({i: 16 for i in INGREDIENTS if i != "Dairy"} | {"Dairy": 15})
    for ticket in TICKETS.values():
        assert set(ticket["icons"]) <= set(INGREDIENTS) and ticket["logo"] in TRUCKS
    for truck in _TRUCK_LIST:
        assert len(truck["flavor_profile"]) == 4 and set(truck["flavor_profile"]) <= set(INGREDIENTS)
        assert truck["starting_order"] in STARTING_ORDERS
    assert TOKENS["popularity_tokens"] == {"1": 8, "2": 8, "3": 8}
    assert TOKENS["critique_tokens"] == counts["critique_tokens"] == 6
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        shape = stack_shape(n)
        assert shape.count("C") * 3 == 6 and shape[-1] == "C"
        assert shape.count("P") == TOKENS["stacks_by_player_count"][str(n)]["popularity_per_stack"] <= 8
        assert 95 - OPENING_HAND * n - market_size(n) > 0


_check()
