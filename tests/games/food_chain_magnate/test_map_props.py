"""Map geometry over many random boards, checked against slow independent implementations."""

from __future__ import annotations

import random

import pytest

from app.games.food_chain_magnate import map as M

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
SIZES = [(3, 3), (3, 4), (4, 4), (4, 5)]


def grid_of(m: dict) -> list[str]:
    return m["grid"]


def char(m: dict, x: tuple[int, int]) -> str:
    g = grid_of(m)
    return g[x[0]][x[1]] if 0 <= x[0] < len(g) and 0 <= x[1] < len(g[0]) else ""


def road(m: dict, x: tuple[int, int]) -> bool:
    return char(m, x) in ("#", "X")


def step_cost(a: tuple[int, int], b: tuple[int, int]) -> int:
    return 0 if (a[0] // 5, a[1] // 5) == (b[0] // 5, b[1] // 5) else 1


def slow_road_costs(m: dict, entrances: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Relax (square, heading) labels until nothing changes (Bellman-Ford)."""
    label: dict[tuple[tuple[int, int], int], int] = {}
    for e in entrances:
        for h, (dr, dc) in enumerate(STEPS):
            s = (e[0] + dr, e[1] + dc)
            if road(m, s):
                label[(s, h)] = min(label.get((s, h), 99), step_cost(e, s))
    changed = True
    while changed:
        changed = False
        for (x, h), c in list(label.items()):
            for nh, (dr, dc) in enumerate(STEPS):
                if char(m, x) == "X" and nh != h:
                    continue
                n = (x[0] + dr, x[1] + dc)
                if road(m, n) and c + step_cost(x, n) < label.get((n, nh), 99):
                    label[(n, nh)] = c + step_cost(x, n)
                    changed = True
    out: dict[tuple[int, int], int] = {}
    for (x, _), c in label.items():
        out[x] = min(out.get(x, 99), c)
    return out


def slow_route_sets(m: dict, entrance: tuple[int, int], reach: int, max_len: int) -> set[frozenset]:
    """Enumerate every no-U-turn walk of up to max_len squares and collect the sources it passes."""
    sources = {tuple(d["cell"]) for d in m["drinks"]}
    out: set[frozenset] = set()

    def beside(x: tuple[int, int]) -> frozenset:
        return frozenset((x[0] + dr, x[1] + dc) for dr, dc in STEPS) & sources

    def walk(path: list[tuple[int, int]], heading: int, c: int, got: frozenset) -> None:
        out.add(got)
        if len(path) >= max_len:
            return
        x = path[-1]
        for nh, (dr, dc) in enumerate(STEPS):
            n = (x[0] + dr, x[1] + dc)
            if not road(m, n) or (len(path) > 1 and n == path[-2]):
                continue
            if char(m, x) == "X" and nh != heading:
                continue
            nc = c + step_cost(x, n)
            if nc <= reach:
                path.append(n)
                walk(path, nh, nc, got | beside(n))
                path.pop()

    for h, (dr, dc) in enumerate(STEPS):
        s = (entrance[0] + dr, entrance[1] + dc)
        if road(m, s) and step_cost(entrance, s) <= reach:
            walk([s], h, step_cost(entrance, s), beside(s))
    return out


def random_entrances(m: dict, rnd: random.Random, k: int) -> list[tuple[int, int]]:
    empties = [(r, c) for r, line in enumerate(grid_of(m)) for c, ch in enumerate(line)
               if ch == "." and any(road(m, (r + dr, c + dc)) for dr, dc in STEPS)]
    return rnd.sample(empties, k)


@pytest.mark.parametrize("rows,cols", SIZES)
def test_road_costs_match_a_slow_relaxation(rows: int, cols: int) -> None:
    rnd = random.Random(rows * 10 + cols)
    for seed in range(6):
        m, _ = M.build_map(rows, cols, seed)
        ents = random_entrances(m, rnd, rnd.choice([1, 2, 4]))
        fast = M.road_costs(m, [list(e) for e in ents])
        assert fast == slow_road_costs(m, ents)
        for x, c in fast.items():
            # Every border crossed costs 1, so a square is never cheaper than its tile distance.
            assert c >= min(abs(x[0] // 5 - e[0] // 5) + abs(x[1] // 5 - e[1] // 5) for e in ents)


def test_route_sets_match_walk_enumeration() -> None:
    rnd = random.Random(5)
    for seed in range(40):
        m, _ = M.build_map(2, 2, seed)
        for e in random_entrances(m, rnd, 2):
            for reach in (0, 1, 2):
                fast = {frozenset(tuple(x) for x in s) for s in M.road_route_source_sets(m, [list(e)], reach)}
                assert fast == slow_route_sets(m, e, reach, 26), (seed, e, reach)


@pytest.mark.parametrize("rows,cols", SIZES)
def test_route_sources_are_beside_roads_in_range(rows: int, cols: int) -> None:
    rnd = random.Random(rows + cols)
    for seed in range(5):
        m, _ = M.build_map(rows, cols, 100 + seed)
        ents = [list(e) for e in random_entrances(m, rnd, 3)]
        rc = M.road_costs(m, ents)
        for reach in (2, 3, 4):
            sets = M.road_route_source_sets(m, ents, reach)
            assert sets == sorted(sets) and len({str(s) for s in sets}) == len(sets)
            for s in sets:
                for x in s:
                    assert any(rc.get((x[0] + dr, x[1] + dc), 99) <= reach for dr, dc in STEPS)


def test_zeppelin_reaches_every_source_of_a_small_board() -> None:
    for seed in range(10):
        m, _ = M.build_map(2, 2, seed)
        all_sources = sorted(d["cell"] for d in m["drinks"])
        for start in ([0, 0], [1, 1]):
            sets = M.air_route_source_sets(m, [start], 3)
            assert M.maximal_source_sets(sets) == [all_sources]
            one_tile = M.air_route_source_sets(m, [start], 0)
            assert one_tile == [sorted(d["cell"] for d in m["drinks"] if M.tile_of(d["cell"]) == start)]


@pytest.mark.parametrize("rows,cols", SIZES)
def test_mailbox_blocks_stop_exactly_at_roads(rows: int, cols: int) -> None:
    rnd = random.Random(rows * cols)
    m, _ = M.build_map(rows, cols, rows * cols)
    for x in random_entrances(m, rnd, 6):
        block = M.mailbox_block(m, [list(x)])
        assert x in block
        for y in block:
            assert not road(m, y)
            for dr, dc in STEPS:
                n = (y[0] + dr, y[1] + dc)
                assert char(m, n) == "" or road(m, n) or n in block


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3)])
def test_placement_lists_equal_brute_force_checks(rows: int, cols: int) -> None:
    m, _ = M.build_map(rows, cols, 42)
    houses = M.printed_houses(m)
    occ = M.occupied_cells(m, houses, [], [])
    n_r, n_c = 5 * rows, 5 * cols
    tops = [(r, c) for r in range(-1, n_r) for c in range(-1, n_c)]

    def sq(top: tuple[int, int], h: int, w: int) -> list[list[int]]:
        return [[top[0] + i, top[1] + j] for i in range(h) for j in range(w)]

    rests = [{"cells": sq(t, 2, 2), "entrance": e} for t in tops for e in sq(t, 2, 2)
             if M.check_restaurant(m, occ, sq(t, 2, 2), e, forbidden_entrance_tiles=[[0, 0]]) is None]
    assert sorted(map(str, rests)) == sorted(map(str, M.restaurant_placements(
        m, occ, forbidden_entrance_tiles=[[0, 0]])))
    sides = lambda t: [sq((t[0] - 1, t[1]), 1, 2), sq((t[0], t[1] + 2), 2, 1),  # noqa: E731
                       sq((t[0] + 2, t[1]), 1, 2), sq((t[0], t[1] - 1), 2, 1)]
    new_houses = [{"cells": sq(t, 2, 2), "garden": g} for t in tops for g in sides(t)
                  if M.check_house(m, occ, sq(t, 2, 2), g) is None]
    assert sorted(map(str, new_houses)) == sorted(map(str, M.house_placements(m, occ)))
    ents = [list(e) for e in random_entrances(m, random.Random(1), 1)]
    for size in ([1, 1], [2, 1], [3, 1], [2, 2], [3, 2]):
        shapes = {(size[0], size[1]), (size[1], size[0])}
        brute = {str(sq(t, h, w)) for t in tops for h, w in shapes
                 if M.check_campaign(m, occ, sq(t, h, w), size, entrances=ents, reach=2) is None}
        assert brute == set(map(str, M.campaign_placements(m, occ, size, entrances=ents, reach=2)))


@pytest.mark.parametrize("rows,cols", SIZES)
def test_every_printed_house_is_reached_by_a_radio_on_its_tile(rows: int, cols: int) -> None:
    m, _ = M.build_map(rows, cols, 11)
    houses = M.printed_houses(m)
    for h in houses:
        radio = {"type": "radio", "cells": [h["cells"][0]]}
        assert h["number"] in M.campaign_reach(m, houses, radio)
