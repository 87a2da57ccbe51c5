"""Road distances from a chain's entrances: roadcost, Dinnertime distance, marketing and local-manager range (§7)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from app.games.food_chain_magnate.map_build import (
    BRIDGE,
    ROAD,
    STEPS,
    TILE,
    Cell,
    Geometry,
    MapKey,
    _geometry,
    as_cell,
    as_cells,
    cost,
    house_cells,
    map_key,
    tile_key,
)
from app.games.toolkit import JSON

Entrances = tuple[Cell, ...]


def chain_entrances(restaurants: Iterable[JSON], owner: str, drive_in: bool) -> list[list[int]]:
    """Entrance squares of the owner's open restaurants; every corner of each with a drive-in (§6.3)."""
    out: set[Cell] = set()
    for rest in restaurants:
        if rest["owner"] != owner or not rest.get("open"):
            continue
        if drive_in:
            out.update(as_cells(rest["cells"]))
        else:
            out.add(as_cell(rest["entrance"]))
    return [list(x) for x in sorted(out)]


def _entrance_key(entrances: Iterable[Sequence[int]]) -> Entrances:
    return tuple(sorted(set(as_cells(entrances))))


def first_steps(g: Geometry, entrances: Entrances) -> list[tuple[int, Cell, int]]:
    """(cost, road square, heading index) of every first step out of an entrance (§7.1)."""
    out = []
    for e in entrances:
        for h, (dr, dc) in enumerate(STEPS):
            s1 = (e[0] + dr, e[1] + dc)
            if g.road(s1):
                out.append((cost(e, s1), s1, h))
    return out


def road_moves(g: Geometry, cell: Cell, heading: int) -> list[tuple[Cell, int]]:
    """Road squares a path on `cell` (entered going `heading`) may step to; bridges go straight on."""
    out = []
    straight_only = g.char(cell) == BRIDGE
    for h, (dr, dc) in enumerate(STEPS):
        if straight_only and h != heading:
            continue
        n = (cell[0] + dr, cell[1] + dc)
        if g.road(n):
            out.append((n, h))
    return out


@lru_cache(maxsize=64)
def _road_squares(key: MapKey) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """(road and bridge squares, bridge squares) of one map: `g.road` and `g.char(x) == BRIDGE` as set lookups."""
    g = _geometry(key)
    roads = frozenset((r, c) for r, line in enumerate(g.grid) for c, ch in enumerate(line) if ch in (ROAD, BRIDGE))
    return roads, frozenset(x for x in roads if g.char(x) == BRIDGE)


@lru_cache(maxsize=256)
def _road_costs(key: MapKey, entrances: Entrances) -> Mapping[Cell, int]:
    g = _geometry(key)
    roads, bridges = _road_squares(key)
    # 0-1 BFS over (square, heading): the heading only matters on a bridge square. The steps are `road_moves`
    # and `cost` written out on the road squares' set, as this runs for every chain's entrances.
    best_state: dict[tuple[Cell, int], int] = {}
    best: dict[Cell, int] = {}
    queue: deque[tuple[int, Cell, int]] = deque(sorted(first_steps(g, entrances)))
    while queue:
        c, x, h = queue.popleft()
        if best_state.get((x, h), c + 1) <= c:
            continue
        best_state[(x, h)] = c
        if c < best.get(x, c + 1):
            best[x] = c
        r, col = x
        tile = (r // TILE, col // TILE)
        straight_only = x in bridges
        for nh, (dr, dc) in enumerate(STEPS):
            if straight_only and nh != h:
                continue
            n = (r + dr, col + dc)
            if n not in roads:
                continue
            if (n[0] // TILE, n[1] // TILE) == tile:
                queue.appendleft((c, n, nh))
            else:
                queue.append((c + 1, n, nh))
    return best


def _costs(m: JSON, entrances: Iterable[Sequence[int]]) -> tuple[Geometry, Mapping[Cell, int]]:
    key = map_key(m)
    return _geometry(key), _road_costs(key, _entrance_key(entrances))


def road_costs(m: JSON, entrances: Iterable[Sequence[int]]) -> dict[Cell, int]:
    """roadcost (§7.2) of every road square reachable from the entrances: {(r, c): borders crossed}."""
    return dict(_costs(m, entrances)[1])


def _reach_cost(g: Geometry, rc: Mapping[Cell, int], targets: Iterable[Cell]) -> int | None:
    best: int | None = None
    for q in targets:
        for r in g.neighbours(q):
            if r in rc:
                v = rc[r] + cost(r, q)
                if best is None or v < best:
                    best = v
    return best


@lru_cache(maxsize=256)
def _square_costs(key: MapKey, entrances: Entrances) -> Mapping[Cell, int]:
    """`_reach_cost` of each single square with a reachable road beside it: a footprint's is the least of its
    squares', so a listing of footprints looks each square up instead of walking its neighbours again."""
    g = _geometry(key)
    rc = _road_costs(key, entrances)
    out: dict[Cell, int] = {}
    for r, v in rc.items():
        for q in g.neighbours(r):
            w = v + cost(r, q)
            if w < out.get(q, w + 1):
                out[q] = w
    return out


def house_distance(m: JSON, entrances: Iterable[Sequence[int]], house: JSON) -> int | None:
    """Dinnertime distance (§7.3) from the entrances to a house (garden included); None if not connected."""
    g, rc = _costs(m, entrances)
    return _reach_cost(g, rc, as_cells(house_cells(house)))


def in_marketing_range(m: JSON, entrances: Iterable[Sequence[int]], cells: Iterable[Sequence[int]],
                       reach: int) -> bool:
    """Whether a campaign on `cells` is within a road-range marketeer's `reach` (§7.4)."""
    g, rc = _costs(m, entrances)
    got = _reach_cost(g, rc, as_cells(cells))
    return got is not None and got <= reach


def tile_costs(m: JSON, entrances: Iterable[Sequence[int]]) -> dict[Cell, int]:
    """tilecost (§7.7): per reachable tile, the least roadcost of its road squares."""
    _, rc = _costs(m, entrances)
    out: dict[Cell, int] = {}
    for x, c in rc.items():
        t = tile_key(x)
        if c < out.get(t, c + 1):
            out[t] = c
    return out


def local_manager_tiles(m: JSON, entrances: Iterable[Sequence[int]], reach: int = 3) -> list[list[int]]:
    """Tiles on which a local manager's new entrance may lie (tilecost <= reach, §7.7, ruling R6)."""
    return [list(t) for t, c in sorted(tile_costs(m, entrances).items()) if c <= reach]
