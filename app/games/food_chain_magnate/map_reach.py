"""Which houses a marketing campaign reaches: billboards, mailboxes, airplanes, radios (§4.4)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from app.games.food_chain_magnate.map_build import (
    TILE,
    Cell,
    MapKey,
    _geometry,
    as_cells,
    house_cells,
    map_key,
    tile_key,
)
from app.games.toolkit import JSON


@lru_cache(maxsize=64)
def _blocks(key: MapKey) -> dict[Cell, int]:
    """Label every non-road square with its mailbox block (4-connected, bounded by roads and the edge)."""
    g = _geometry(key)
    label: dict[Cell, int] = {}
    for r in range(g.rows):
        for c in range(g.cols):
            if (r, c) in label or g.road((r, c)):
                continue
            n = len(label)
            label[(r, c)] = n
            todo = [(r, c)]
            while todo:
                x = todo.pop()
                for y in g.neighbours(x):
                    if y not in label and not g.road(y):
                        label[y] = n
                        todo.append(y)
    return label


def mailbox_block(m: JSON, cells: Iterable[list[int]]) -> set[Cell]:
    """The squares of the block a mailbox on `cells` reaches (flood fill over non-road squares)."""
    label = _blocks(map_key(m))
    ids = {label[x] for x in as_cells(cells) if x in label}
    return {x for x, n in label.items() if n in ids}


def _reaches(key: MapKey, campaign: JSON) -> Callable[[Cell], bool]:
    """A test telling whether a house or garden square is reached by the campaign."""
    g = _geometry(key)
    kind = campaign["type"]
    if kind == "billboard":
        near = {n for x in as_cells(campaign["cells"]) for n in g.neighbours(x)}
        return near.__contains__
    if kind == "mailbox":
        label = _blocks(key)
        ids = {label[x] for x in as_cells(campaign["cells"]) if x in label}
        return lambda x: label.get(x, -1) in ids
    if kind == "airplane":
        lo, hi = campaign["offset"], campaign["offset"] + campaign["covers"]
        axis = 1 if campaign["edge"] in ("N", "S") else 0  # N/S planes fly over columns
        return lambda x: lo <= x[axis] < hi
    if kind == "radio":
        tr, tc = tile_key(as_cells(campaign["cells"])[0])
        return lambda x: abs(x[0] // TILE - tr) <= 1 and abs(x[1] // TILE - tc) <= 1
    raise ValueError(f"unknown campaign type {kind!r}")


def campaign_reach(m: JSON, houses: Iterable[JSON], campaign: JSON) -> list[int]:
    """Numbers of the houses the campaign reaches, ascending; a garden square counts as the house (§4.4)."""
    reached = _reaches(map_key(m), campaign)
    return sorted(h["number"] for h in houses if any(reached(x) for x in as_cells(house_cells(h))))
