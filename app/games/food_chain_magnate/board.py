"""The pieces on the map kept in the state (houses, restaurants, campaigns) and queries over them."""

from __future__ import annotations

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.map_build import Cell
from app.games.toolkit import JSON

# The state's keys that never change after setup (the built map): copies of the state share them.
STATIC = frozenset({"map"})


def occupied_squares(state: JSON, *, ignore_restaurant: int | None = None) -> frozenset[Cell]:
    """The squares the pieces cover (houses and gardens, restaurants, campaigns on the board); a restaurant being
    moved does not block itself. The placement functions count the printed map's filled squares as well."""
    out: set[Cell] = set()
    for h in state["houses"]:
        out.update((x[0], x[1]) for x in h["cells"])
        out.update((x[0], x[1]) for x in h.get("garden") or ())
    for r in state["restaurants"]:
        if r["id"] != ignore_restaurant:
            out.update((x[0], x[1]) for x in r["cells"])
    for camp in state["campaigns"]:
        out.update((x[0], x[1]) for x in camp.get("cells") or ())
    return frozenset(out)


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


def listed_cell(x: object) -> Cell | None:
    """The cell `x` equals (by ==, as an action is looked up in a list of legal ones): [row, col] with numbers
    equal to integers; None for anything no listed cell equals."""
    if not isinstance(x, list) or len(x) != 2:
        return None
    out = []
    for v in x:
        if isinstance(v, float) and v.is_integer() or isinstance(v, int):
            out.append(int(v))
        else:
            return None
    return out[0], out[1]


def listed_cells(xs: object) -> list[Cell] | None:
    """`listed_cell` of each item of a list; None if any is not a cell."""
    if not isinstance(xs, list):
        return None
    out = [listed_cell(x) for x in xs]
    return None if any(c is None for c in out) else [c for c in out if c is not None]


def if_equal(candidate: JSON, action: JSON) -> list[JSON]:
    """[candidate] when the action equals it (by ==, as in a lookup in the list of legal actions), else []."""
    return [candidate] if candidate == action else []
