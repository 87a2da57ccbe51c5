"""Which houses a marketing campaign reaches: billboards, mailboxes, airplanes, radios (§4.4)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from app.games.food_chain_magnate.map_build import (
    Cell,
    Geometry,
    MapKey,
    _geometry,
    as_cells,
    house_cells,
    map_key,
    tile_key,
)

JSON = dict[str, Any]


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


def _touched(g: Geometry, campaign: JSON, key: MapKey) -> set[Cell] | None:
    """Squares whose houses the campaign reaches; None means 'use the tile test' (radio)."""
    kind = campaign["type"]
    if kind == "billboard":
        return {n for x in as_cells(campaign["cells"]) for n in g.neighbours(x)}
    if kind == "mailbox":
        label = _blocks(key)
        ids = {label[x] for x in as_cells(campaign["cells"]) if x in label}
        return {x for x, n in label.items() if n in ids}
    if kind == "airplane":
        lo, hi = campaign["offset"], campaign["offset"] + campaign["covers"]
        if campaign["edge"] in ("N", "S"):
            return {(r, c) for r in range(g.rows) for c in range(lo, hi)}
        return {(r, c) for r in range(lo, hi) for c in range(g.cols)}
    if kind == "radio":
        return None
    raise ValueError(f"unknown campaign type {kind!r}")


def campaign_reach(m: JSON, houses: Iterable[JSON], campaign: JSON) -> list[int]:
    """Numbers of the houses the campaign reaches, ascending; a garden square counts as the house (§4.4)."""
    key = map_key(m)
    g = _geometry(key)
    touched = _touched(g, campaign, key)
    out = []
    if touched is None:
        tr, tc = tile_key(as_cells(campaign["cells"])[0])
        for house in houses:
            tiles = {tile_key(x) for x in as_cells(house_cells(house))}
            if any(abs(t[0] - tr) <= 1 and abs(t[1] - tc) <= 1 for t in tiles):
                out.append(house["number"])
    else:
        for house in houses:
            if any(x in touched for x in as_cells(house_cells(house))):
                out.append(house["number"])
    return sorted(out)
