"""Map geometry: the §10 worked examples (E1, E2, E8, E9, E10) and the tile data."""

from __future__ import annotations

from app.games.food_chain_magnate import map as M
from app.games.food_chain_magnate.map_build import TILES

H2 = [[3, 0], [3, 1], [4, 0], [4, 1]]
H15 = [[3, 8], [3, 9], [4, 8], [4, 9]]
HOUSE_14 = {"number": 14, "cells": [[3, 5], [3, 6], [4, 5], [4, 6]], "garden": [[3, 7], [4, 7]]}


def alpha() -> dict:
    """Map α: tile A and tile I, both unrotated (§10)."""
    return M.map_from_layout([[("A", 0), ("I", 0)]])


def beta() -> dict:
    """Map β: tiles N, S, T (§10 E9)."""
    return M.map_from_layout([[("N", 0), ("S", 0), ("T", 0)]])


def gamma() -> dict:
    """Map γ: tiles Q, C (§10 E10)."""
    return M.map_from_layout([[("Q", 0), ("C", 0)]])


def house(m: dict, number: int) -> dict:
    return next(h for h in M.printed_houses(m) if h["number"] == number)


# ---------------------------------------------------------------- tile data and rotation


def test_tiles_data_loaded_and_checked() -> None:
    assert sorted(TILES) == list("ABCDEFGHIJKLMNOPQRST")
    assert all(len(t["grid"]) == 5 for t in TILES.values())


def test_rotation_formula_and_full_turn() -> None:
    grid = TILES["E"]["grid"]
    once = M.rotate_grid(grid, 1)
    assert all(once[r][c] == grid[4 - c][r] for r in range(5) for c in range(5))
    assert M.rotate_grid(grid, 4) == list(grid)
    assert M.rotate_grid(M.rotate_grid(grid, 3), 1) == list(grid)


def test_rotated_tile_moves_houses_and_drinks() -> None:
    # Tile A turned once clockwise: house 2 goes from the south-west to the north-west corner.
    m = M.map_from_layout([[("A", 1)]])
    assert m["grid"] == ["HH#..", "HH#..", "#####", "..#..", "..#.."]
    assert m["houses"] == [{"number": 2, "cells": [[0, 0], [0, 1], [1, 0], [1, 1]]}]
    e = M.map_from_layout([[("E", 2)]])
    # Beer at local (1,1) turns twice to (3,3).
    assert e["drinks"] == [{"type": "beer", "cell": [3, 3]}]


def test_map_alpha_matches_the_spec_drawing() -> None:
    m = alpha()
    assert m["grid"] == ["..#....#..", "..#....#..", "##########", "HH#.....HH", "HH#.....HH"]
    assert house(m, 2)["cells"] == H2 and house(m, 15)["cells"] == H15
    assert M.square(m, [2, 5]) == "#" and M.is_road(m, [2, 5]) and not M.is_road(m, [3, 5])
    assert M.square(m, [5, 0]) == "" and not M.on_map(m, [0, 10])
    assert M.tile_of([3, 8]) == [0, 1]


def test_map_beta_and_gamma_match_the_spec_drawings() -> None:
    assert beta()["grid"] == [
        "..#....#S...#..",
        ".B#....#...L#..",
        "###############",
        ".....B.#....#..",
        ".......#....#..",
    ]
    assert beta()["drinks"] == [
        {"type": "soft_drink", "cell": [0, 8]},
        {"type": "beer", "cell": [1, 1]},
        {"type": "lemonade", "cell": [1, 11]},
        {"type": "beer", "cell": [3, 5]},
    ]
    assert gamma()["grid"] == ["..#..#####", "..#..#.HH#", "######.HH#", ".S...#...#", ".....#####"]


# ---------------------------------------------------------------- E1 / E2 distances


def test_e1_dinnertime_distances() -> None:
    m = alpha()
    houses = {2: house(m, 2), 14: HOUSE_14, 15: house(m, 15)}
    red = [[1, 6]]
    blue = [[1, 3]]
    got = {(n, who): M.house_distance(m, ents, h) for n, h in houses.items()
           for who, ents in (("red", red), ("blue", blue))}
    assert got == {(2, "red"): 1, (2, "blue"): 0, (14, "red"): 0, (14, "blue"): 1,
                   (15, "red"): 0, (15, "blue"): 1}


def test_e1_entrances_from_restaurants() -> None:
    restaurants = [
        {"owner": "red", "cells": [[0, 5], [0, 6], [1, 5], [1, 6]], "entrance": [1, 6], "open": True},
        {"owner": "blue", "cells": [[0, 3], [0, 4], [1, 3], [1, 4]], "entrance": [1, 3], "open": True},
    ]
    assert M.chain_entrances(restaurants, "red", False) == [[1, 6]]
    assert M.chain_entrances(restaurants, "blue", False) == [[1, 3]]
    occupied = M.occupied_cells(alpha(), M.printed_houses(alpha()), restaurants, [])
    assert {(0, 5), (1, 6), (3, 0)} <= occupied


def test_e2_house_15_distances() -> None:
    m = alpha()
    assert M.house_distance(m, [[1, 6]], house(m, 15)) == 0  # Red
    assert M.house_distance(m, [[1, 3]], house(m, 15)) == 1  # Blue


# ---------------------------------------------------------------- E8 campaigns


def test_e8_radio_reaches_its_tile_and_the_neighbours() -> None:
    m = alpha()
    radio = {"type": "radio", "cells": [[1, 1]]}
    assert M.campaign_reach(m, M.printed_houses(m), radio) == [2, 15]


def test_e8_mailbox_block() -> None:
    m = alpha()
    block = M.mailbox_block(m, [[3, 3]])
    assert block == {(r, c) for r in (3, 4) for c in range(3, 10)}
    mailbox = {"type": "mailbox", "cells": [[3, 3]]}
    assert M.campaign_reach(m, M.printed_houses(m), mailbox) == [15]


def test_e8_billboard_touches_house_15_only() -> None:
    m = alpha()
    billboard = {"type": "billboard", "cells": [[3, 7], [4, 7]]}
    assert M.campaign_reach(m, M.printed_houses(m), billboard) == [15]


# ---------------------------------------------------------------- E9 buyers


def test_e9_cart_operator_sources() -> None:
    m = beta()
    sets = M.road_route_source_sets(m, [[3, 1]], 2)
    best = [s for s in sets if len(s) == max(len(t) for t in sets)]
    assert best == [[[0, 8], [1, 1], [3, 5]], [[1, 1], [1, 11], [3, 5]]]
    assert M.maximal_source_sets(sets) == best
    assert M.drinks_of(m, best[0], 2) == {"beer": 4, "soft_drink": 2}
    assert M.drinks_of(m, best[1], 2) == {"beer": 4, "lemonade": 2}


def test_e9_no_u_turn_keeps_three_sources_at_range_3() -> None:
    m = beta()
    assert max(len(s) for s in M.road_route_source_sets(m, [[3, 1]], 3)) == 3
    # Errand milestone / truck driver: 3 per source on the same routes -> 9 drinks.
    best = M.maximal_source_sets(M.road_route_source_sets(m, [[3, 1]], 3))
    assert {sum(M.drinks_of(m, s, 3).values()) for s in best} == {9}


def test_e9_zeppelin_collects_all_four_sources() -> None:
    m = beta()
    starts = M.entrance_tiles([[3, 1]])
    assert starts == [[0, 0]]
    sets = M.air_route_source_sets(m, starts, 4)
    best = M.maximal_source_sets(sets)
    assert best == [[[0, 8], [1, 1], [1, 11], [3, 5]]]
    assert M.drinks_of(m, best[0], 2) == {"beer": 4, "lemonade": 2, "soft_drink": 2}


# ---------------------------------------------------------------- E10 entrance across a border, range


def test_e10_distance_is_one_when_the_entrance_road_is_on_another_tile() -> None:
    m = gamma()
    h5 = house(m, 5)
    assert h5["cells"] == [[1, 7], [1, 8], [2, 7], [2, 8]]
    assert M.house_distance(m, [[0, 4]], h5) == 1
    assert M.house_distance(m, [[1, 4]], h5) == 1


def test_e10_billboard_at_range_two() -> None:
    m = gamma()
    assert M.in_marketing_range(m, [[0, 4]], [[3, 4]], 2)
    assert not M.in_marketing_range(m, [[0, 4]], [[3, 4]], 1)
    assert M.in_marketing_range(m, [[0, 4]], [[3, 4]], 3)
    restaurant = {"owner": "blue", "cells": [[0, 3], [0, 4], [1, 3], [1, 4]], "entrance": [0, 4], "open": True}
    occupied = M.occupied_cells(m, M.printed_houses(m), [restaurant], [])
    assert M.check_campaign(m, occupied, [[3, 4]], [1, 1], entrances=[[0, 4]], reach=2) is None
    assert M.check_campaign(m, occupied, [[3, 4]], [1, 1], entrances=[[0, 4]], reach=1) == "out_of_range"
    assert [[3, 4]] in M.campaign_placements(m, occupied, [1, 1], entrances=[[0, 4]], reach=2)
