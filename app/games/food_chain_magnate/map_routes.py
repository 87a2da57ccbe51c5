"""Buyers' drink routes: road routes of cart operators and truck drivers, air routes of zeppelins (§7.5, §7.6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from app.games.food_chain_magnate.map_build import (
    TILE,
    Cell,
    Geometry,
    MapKey,
    _geometry,
    as_cell,
    as_cells,
    cost,
    geometry,
    map_key,
    tile_key,
)
from app.games.food_chain_magnate.map_roads import Entrances, _entrance_key, first_steps, road_moves
from app.games.toolkit import JSON

SourceSet = frozenset[Cell]


@lru_cache(maxsize=64)
def _sources_beside(key: MapKey) -> dict[Cell, SourceSet]:
    """For every road square, the drink sources adjacent to it (what a route passing it collects)."""
    g = _geometry(key)
    drinks = {x for x, _ in g.drinks}
    out: dict[Cell, SourceSet] = {}
    for r, line in enumerate(g.grid):
        for c, _ in enumerate(line):
            if g.road((r, c)):
                out[(r, c)] = frozenset(n for n in g.neighbours((r, c)) if n in drinks)
    return out


@lru_cache(maxsize=256)
def _road_sets(key: MapKey, entrances: Entrances, reach: int) -> tuple[tuple[Cell, ...], ...]:
    g = _geometry(key)
    beside = _sources_beside(key)
    found: set[SourceSet] = set()
    seen: set[tuple[Cell, Cell | None, int, int, SourceSet]] = set()
    stack: list[tuple[Cell, Cell | None, int, int, SourceSet]] = []
    for c, s1, h in first_steps(g, entrances):
        if c <= reach:
            stack.append((s1, None, h, c, frozenset()))
    while stack:
        x, prev, h, c, got = stack.pop()
        got = got | beside[x]
        state = (x, prev, h, c, got)
        if state in seen:
            continue
        seen.add(state)
        found.add(got)
        for n, nh in road_moves(g, x, h):
            # No U-turns (ruling R9): never step straight back onto the previous square.
            if n == prev:
                continue
            nc = c + cost(x, n)
            if nc <= reach:
                stack.append((n, x, nh, nc, got))
    return tuple(sorted(tuple(sorted(s)) for s in found))


def road_route_source_sets(m: JSON, entrances: Iterable[Sequence[int]], reach: int) -> list[list[list[int]]]:
    """Every distinct set of drink sources one road route of cost <= reach can pass (§7.5), sorted."""
    sets = _road_sets(map_key(m), _entrance_key(entrances), reach)
    return [[list(x) for x in s] for s in sets]


@lru_cache(maxsize=64)
def _tile_sources(g: Geometry) -> dict[Cell, tuple[Cell, ...]]:
    out: dict[Cell, list[Cell]] = {}
    for x, _ in g.drinks:
        out.setdefault(tile_key(x), []).append(x)
    return {t: tuple(xs) for t, xs in out.items()}


@lru_cache(maxsize=256)
def _air_sets(key: MapKey, starts: tuple[Cell, ...], reach: int) -> tuple[tuple[Cell, ...], ...]:
    g = _geometry(key)
    per_tile = _tile_sources(g)
    visited_sets: set[frozenset[Cell]] = set()

    def fly(path: list[Cell]) -> None:
        visited_sets.add(frozenset(path))
        if len(path) - 1 >= reach:
            return
        tr, tc = path[-1]
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            t = (tr + dr, tc + dc)
            if 0 <= t[0] < g.tile_rows and 0 <= t[1] < g.tile_cols and t not in path:
                path.append(t)
                fly(path)
                path.pop()

    for s in starts:
        fly([s])
    found = {frozenset(x for t in tiles for x in per_tile.get(t, ())) for tiles in visited_sets}
    return tuple(sorted(tuple(sorted(s)) for s in found))


def air_route_source_sets(m: JSON, start_tiles: Iterable[Sequence[int]], reach: int) -> list[list[list[int]]]:
    """Every distinct set of drink sources a zeppelin collects from the start tiles with <= reach moves (§7.6)."""
    starts = tuple(sorted(set(as_cells(start_tiles))))
    return [[list(x) for x in s] for s in _air_sets(map_key(m), starts, reach)]


def entrance_tiles(entrances: Iterable[Sequence[int]]) -> list[list[int]]:
    """The distinct tiles of the given entrance squares (zeppelin start tiles)."""
    return [list(t) for t in sorted({(x[0] // TILE, x[1] // TILE) for x in entrances})]


def maximal_source_sets(sets: Iterable[Sequence[Sequence[int]]]) -> list[list[list[int]]]:
    """The sets not strictly contained in another one, in their given order."""
    frozen = [frozenset(as_cells(s)) for s in sets]
    out = []
    for i, s in enumerate(frozen):
        if not any(s < t for j, t in enumerate(frozen) if j != i):
            out.append([list(x) for x in sorted(s)])
    return out


def drinks_of(m: JSON, sources: Iterable[Sequence[int]], per_source: int) -> dict[str, int]:
    """Drinks collected from the given source squares, `per_source` each: {type: count}."""
    kinds = {x: t for x, t in geometry(m).drinks}
    out: dict[str, int] = {}
    for x in sources:
        t = kinds[as_cell(x)]
        out[t] = out.get(t, 0) + per_source
    return dict(sorted(out.items()))
