"""The pieces on the map kept in the state (houses, restaurants, campaigns) and queries over them."""

from __future__ import annotations

from app.games.food_chain_magnate import map as fcm_map
from app.games.toolkit import JSON

# The state's keys that never change after setup (the built map): copies of the state share them.
STATIC = frozenset({"map"})


def occupied(state: JSON, *, ignore_restaurant: int | None = None) -> list[list[int]]:
    """Every non-empty square; a restaurant being moved does not block itself."""
    rests = [r for r in state["restaurants"] if r["id"] != ignore_restaurant]
    cells = fcm_map.occupied_cells(state["map"], state["houses"], rests, state["campaigns"])
    return [list(c) for c in sorted(cells)]


def entrances_of(state: JSON, seat: str) -> list[list[int]]:
    """Entrance squares of the seat's open restaurants (every corner with drive-ins)."""
    drive_in = bool(state["p"][seat]["r"]["drive_in"])
    rests = [r for r in state["restaurants"] if not r.get("dead")]
    return fcm_map.chain_entrances(rests, seat, drive_in)


def house(state: JSON, number: int) -> JSON:
    """The house with that number."""
    return next(h for h in state["houses"] if h["number"] == number)


def restaurants_of(state: JSON, seat: str) -> list[JSON]:
    """The seat's restaurants on the board (open or coming soon)."""
    return [r for r in state["restaurants"] if r["owner"] == seat]


def demand_cap(h: JSON) -> int:
    """3 demand tokens, 5 with a garden (§4.5)."""
    return 5 if h.get("garden") else 3
