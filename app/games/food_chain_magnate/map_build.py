"""The map's tiles: loading and checking tiles.json, rotation, drawing the board, square lookup."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.games.rng import Rng
from app.games.toolkit import JSON

Cell = tuple[int, int]
TILE = 5
ROAD = "#"
BRIDGE = "X"
EMPTY = "."
HOUSE = "H"
DRINK_CHARS: dict[str, str] = {"B": "beer", "L": "lemonade", "S": "soft_drink"}
LEGEND = {ROAD, BRIDGE, EMPTY, HOUSE, *DRINK_CHARS}
STEPS: tuple[Cell, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W


def _load_tiles() -> dict[str, JSON]:
    path = Path(__file__).parent / "data" / "tiles.json"
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    return {t["id"]: t for t in doc["tiles"]}


def rotate_grid(grid: Sequence[str], quarter_turns: int) -> list[str]:
    """The 5x5 grid turned clockwise `quarter_turns` times: new[r][c] = old[4 - c][r] (§5.1)."""
    out = list(grid)
    for _ in range(quarter_turns % 4):
        out = ["".join(out[TILE - 1 - c][r] for c in range(TILE)) for r in range(TILE)]
    return out


def _rotate_cell(cell: Sequence[int], quarter_turns: int) -> Cell:
    r, c = cell[0], cell[1]
    for _ in range(quarter_turns % 4):
        r, c = c, TILE - 1 - r
    return r, c


def _check_tiles(tiles: dict[str, JSON]) -> None:
    """Assert the counts of §5.3: 20 tiles of 5x5, 11 printed houses, 13 drinks, 2 bridges."""
    assert sorted(tiles) == list("ABCDEFGHIJKLMNOPQRST"), "tiles A..T"
    drinks: dict[str, int] = {}
    numbers: list[int] = []
    for tid, t in tiles.items():
        grid = t["grid"]
        assert len(grid) == TILE and all(len(row) == TILE for row in grid), tid
        assert set("".join(grid)) <= LEGEND, tid
        house_cells = {(r, c) for r in range(TILE) for c in range(TILE) if grid[r][c] == HOUSE}
        listed = {tuple(x) for h in t["houses"] for x in h["cells"]}
        assert house_cells == listed and len(listed) == 4 * len(t["houses"]), tid
        for h in t["houses"]:
            rs = sorted({x[0] for x in h["cells"]})
            cs = sorted({x[1] for x in h["cells"]})
            assert len(rs) == 2 == len(cs) and rs[1] == rs[0] + 1 and cs[1] == cs[0] + 1, tid
            numbers.append(h["number"])
        for d in t["drinks"]:
            r, c = d["cell"]
            assert DRINK_CHARS.get(grid[r][c]) == d["type"], tid
            drinks[d["type"]] = drinks.get(d["type"], 0) + 1
        bridges = sorted(tuple(b) for b in t.get("bridges", []))
        assert bridges == sorted((r, c) for r in range(TILE) for c in range(TILE) if grid[r][c] == BRIDGE), tid
    assert sorted(numbers) == [2, 4, 5, 7, 8, 10, 12, 13, 15, 16, 18], "11 printed houses"
    assert drinks == {"beer": 5, "lemonade": 4, "soft_drink": 4}, "13 drink sources"
    assert sum(len(t.get("bridges", [])) for t in tiles.values()) == 2, "bridges on G and P"


TILES: dict[str, JSON] = _load_tiles()
_check_tiles(TILES)

MapKey = tuple[int, int, tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class Geometry:
    """The derived, immutable square grid of one map (shared by every cached computation)."""

    rows: int  # in squares
    cols: int
    grid: tuple[str, ...]
    tile_rows: int
    tile_cols: int
    houses: tuple[tuple[int, tuple[Cell, ...]], ...]  # printed: (number, cells)
    drinks: tuple[tuple[Cell, str], ...]  # (cell, type), row-major

    def char(self, cell: Cell) -> str:
        """The legend character of a square, "" off the board."""
        r, c = cell
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return self.grid[r][c]
        return ""

    def inside(self, cell: Cell) -> bool:
        """Whether the square is on the board."""
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def road(self, cell: Cell) -> bool:
        """Whether the square is a road or bridge square."""
        return self.char(cell) in (ROAD, BRIDGE)

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The on-board orthogonal neighbours, in N E S W order."""
        out = []
        for dr, dc in STEPS:
            n = (cell[0] + dr, cell[1] + dc)
            if self.inside(n):
                out.append(n)
        return out


def map_key(m: JSON) -> MapKey:
    """A hashable key of the map's tiles (the only fields read back from the JSON)."""
    return (
        m["rows"],
        m["cols"],
        tuple((t["id"], t["rotation"]) for row in m["tiles"] for t in row),
    )


@lru_cache(maxsize=64)
def _geometry(key: MapKey) -> Geometry:
    rows, cols, flat = key
    lines = [[""] * cols for _ in range(rows * TILE)]
    houses: list[tuple[int, tuple[Cell, ...]]] = []
    for i, (tid, rot) in enumerate(flat):
        tr, tc = divmod(i, cols)
        tile = TILES[tid]
        grid = rotate_grid(tile["grid"], rot)
        for r in range(TILE):
            lines[tr * TILE + r][tc] = grid[r]
        for h in tile["houses"]:
            cells = sorted(_rotate_cell(x, rot) for x in h["cells"])
            houses.append((h["number"], tuple((tr * TILE + r, tc * TILE + c) for r, c in cells)))
    grid_rows = tuple("".join(parts) for parts in lines)
    drinks = tuple(
        ((r, c), DRINK_CHARS[ch])
        for r, line in enumerate(grid_rows)
        for c, ch in enumerate(line)
        if ch in DRINK_CHARS
    )
    return Geometry(rows * TILE, cols * TILE, grid_rows, rows, cols, tuple(sorted(houses)), drinks)


def geometry(m: JSON) -> Geometry:
    """The cached square geometry of a map JSON."""
    return _geometry(map_key(m))


def map_from_layout(layout: Sequence[Sequence[tuple[str, int]]]) -> JSON:
    """A map from rows of (tile id, clockwise quarter turns); for hand-made states and tests."""
    rows = len(layout)
    cols = len(layout[0]) if rows else 0
    assert rows > 0 and cols > 0 and all(len(row) == cols for row in layout), "rectangular layout"
    tiles = [[{"id": tid, "rotation": rot % 4} for tid, rot in row] for row in layout]
    for row in tiles:
        for t in row:
            assert t["id"] in TILES, t["id"]
    m: JSON = {"rows": rows, "cols": cols, "tiles": tiles}
    g = geometry(m)
    m["grid"] = list(g.grid)
    m["houses"] = [{"number": n, "cells": [list(x) for x in cells]} for n, cells in g.houses]
    m["drinks"] = [{"type": t, "cell": list(x)} for x, t in g.drinks]
    return m


def build_map(rows: int, cols: int, rng_state: int) -> tuple[JSON, int]:
    """Draw rows x cols distinct tiles and their rotations from the seeded generator (§1.3)."""
    rng = Rng(rng_state)
    ids = sorted(TILES)
    assert 0 < rows * cols <= len(ids), "the box has 20 tiles"
    rng.shuffle(ids)
    drawn = ids[: rows * cols]
    layout = [[(drawn[r * cols + c], rng.below(4)) for c in range(cols)] for r in range(rows)]
    return map_from_layout(layout), rng.state


def printed_houses(m: JSON) -> list[JSON]:
    """The printed houses of the map as House JSON (garden None), by number."""
    return [
        {"number": n, "cells": [list(x) for x in cells], "garden": None}
        for n, cells in geometry(m).houses
    ]


def tile_of(cell: Sequence[int]) -> list[int]:
    """The [tile_row, tile_col] holding a square."""
    return [cell[0] // TILE, cell[1] // TILE]


def square(m: JSON, cell: Sequence[int]) -> str:
    """The legend character of a map square (§5.1); "" off the board."""
    return geometry(m).char((cell[0], cell[1]))


def on_map(m: JSON, cell: Sequence[int]) -> bool:
    """Whether the square is on the board."""
    return geometry(m).inside((cell[0], cell[1]))


def is_road(m: JSON, cell: Sequence[int]) -> bool:
    """Whether the square is a road (or bridge) square."""
    return geometry(m).road((cell[0], cell[1]))


def as_cell(x: Sequence[int]) -> Cell:
    """A JSON cell as a tuple."""
    return (x[0], x[1])


def as_cells(xs: Iterable[Sequence[int]]) -> list[Cell]:
    """JSON cells as tuples."""
    return [(x[0], x[1]) for x in xs]


def house_cells(house: JSON) -> list[list[int]]:
    """A house's squares plus its garden's squares."""
    return [list(x) for x in house["cells"]] + [list(x) for x in house.get("garden") or []]


def cost(a: Cell, b: Cell) -> int:
    """The cost of a step between adjacent squares: 1 across a tile border, else 0 (§7.1)."""
    return 0 if (a[0] // TILE, a[1] // TILE) == (b[0] // TILE, b[1] // TILE) else 1


def tile_key(cell: Cell) -> Cell:
    """The tile of a square as a tuple."""
    return (cell[0] // TILE, cell[1] // TILE)
