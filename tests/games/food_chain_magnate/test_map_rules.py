"""Map geometry, one rule at a time: board drawing, roads and bridges, distances, reach, placements."""

from __future__ import annotations

import pytest

from app.games.food_chain_magnate import map as M
from app.games.food_chain_magnate.map_build import TILES

SIZES = {2: (3, 3), 3: (3, 4), 4: (4, 4), 5: (4, 5)}


def one(tile: str, rotation: int = 0) -> dict:
    return M.map_from_layout([[(tile, rotation)]])


def house(m: dict, number: int) -> dict:
    return next(h for h in M.printed_houses(m) if h["number"] == number)


# ---------------------------------------------------------------- drawing the board


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_build_map_draws_distinct_tiles_of_the_right_size(players: int) -> None:
    rows, cols = SIZES[players]
    m, rng = M.build_map(rows, cols, 1234)
    ids = [t["id"] for row in m["tiles"] for t in row]
    assert (m["rows"], m["cols"]) == (rows, cols) and len(m["tiles"]) == rows
    assert len(ids) == len(set(ids)) == rows * cols and set(ids) <= set(TILES)
    assert all(t["rotation"] in (0, 1, 2, 3) for row in m["tiles"] for t in row)
    assert len(m["grid"]) == 5 * rows and all(len(line) == 5 * cols for line in m["grid"])
    assert rng != 1234


def test_build_map_is_deterministic_and_seed_dependent() -> None:
    assert M.build_map(4, 5, 7) == M.build_map(4, 5, 7)
    maps = {str(M.build_map(3, 3, seed)[0]["tiles"]) for seed in range(20)}
    assert len(maps) == 20
    rotations = {t["rotation"] for seed in range(20) for row in M.build_map(3, 3, seed)[0]["tiles"] for t in row}
    assert rotations == {0, 1, 2, 3}


def test_build_map_grid_is_the_rotated_tiles() -> None:
    m, _ = M.build_map(4, 5, 99)
    for tr, row in enumerate(m["tiles"]):
        for tc, t in enumerate(row):
            expected = M.rotate_grid(TILES[t["id"]]["grid"], t["rotation"])
            got = [m["grid"][5 * tr + r][5 * tc: 5 * tc + 5] for r in range(5)]
            assert got == expected


def test_build_map_five_players_uses_all_twenty_tiles() -> None:
    m, _ = M.build_map(4, 5, 3)
    assert sorted(t["id"] for row in m["tiles"] for t in row) == sorted(TILES)
    assert sorted(h["number"] for h in M.printed_houses(m)) == [2, 4, 5, 7, 8, 10, 12, 13, 15, 16, 18]
    assert len(m["drinks"]) == 13


def test_printed_houses_start_without_garden() -> None:
    assert M.printed_houses(one("A")) == [{"number": 2, "cells": [[3, 0], [3, 1], [4, 0], [4, 1]], "garden": None}]


# ---------------------------------------------------------------- roads, bridges, borders


def test_road_cost_counts_tile_borders() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    rc = M.road_costs(m, [[1, 3]])
    assert rc[(2, 2)] == 0 and rc[(2, 4)] == 0 and rc[(2, 5)] == 1 and rc[(0, 7)] == 1
    assert all(v == (0 if c < 5 else 1) for (r, c), v in rc.items())


def test_roads_meeting_a_road_less_edge_dead_end() -> None:
    # Tile D has no south exit, so tile A's north road below it is never reached.
    m = M.map_from_layout([[("D", 0)], [("A", 0)]])
    rc = M.road_costs(m, [[1, 3]])  # (1,3) touches D's ring at (0,3) and (1,4)
    assert rc and all(r < 5 for r, _ in rc)


def test_bridge_roads_cross_without_connecting() -> None:
    g = one("G")
    assert set(M.road_costs(g, [[4, 1]])) == {(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)}
    assert set(M.road_costs(g, [[3, 0]])) == {(2, 0), (2, 1), (2, 2), (2, 3), (2, 4)}


def test_bridge_route_goes_straight_through() -> None:
    # Tile P: lemonade (1,0) beside the west-east road, beer (4,3) beside the north-south road.
    p = one("P")
    assert M.road_route_source_sets(p, [[0, 1]], 0) == [[], [[4, 3]]]
    assert M.road_route_source_sets(p, [[3, 0]], 0) == [[[1, 0]]]


def test_roads_connect_across_a_border_anywhere_adjacent() -> None:
    # Two ring tiles side by side: the rings touch along the whole shared edge.
    m = M.map_from_layout([[("C", 0), ("C", 0)]])
    rc = M.road_costs(m, [[3, 1]])  # touches (3,0) on the west ring
    assert rc[(0, 5)] == 1 and rc[(4, 9)] == 1 and rc[(3, 4)] == 0


def test_unconnected_house_has_no_distance() -> None:
    # Tile E: the house touches only road 2; entrance (1,2) touches only road 1.
    e = one("E")
    assert M.house_distance(e, [[1, 2]], house(e, 8)) is None
    assert M.road_costs(e, [[1, 2]]) and not M.in_marketing_range(e, [[1, 2]], [[3, 1]], 9)
    assert M.house_distance(e, [], house(e, 8)) is None


def test_house_across_a_border_is_on_both_tiles() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    # A new house on (3,4)(3,5)(4,4)(4,5) lies on tiles A and I; it touches road (2,4) on tile A
    # and road (2,5) on tile I, so each chain reaches it without paying the border.
    new = {"number": 9, "cells": [[3, 4], [3, 5], [4, 4], [4, 5]], "garden": [[3, 3], [4, 3]]}
    assert M.house_distance(m, [[1, 3]], new) == 0  # via (2,4) on tile A
    assert M.house_distance(m, [[1, 6]], new) == 0  # via (2,5) on tile I


def test_house_reached_through_its_garden() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    h15 = house(m, 15)
    assert M.house_distance(m, [[1, 3]], h15) == 1
    with_garden = dict(h15, garden=[[3, 7], [4, 7]])
    assert M.house_distance(m, [[1, 3]], with_garden) == 1
    far = M.map_from_layout([[("H", 0)]])  # house 13 at (3,1)(3,2)(4,1)(4,2): touches row 2
    h13 = house(far, 13)
    assert M.house_cells(dict(h13, garden=[[3, 3], [4, 3]]))[-2:] == [[3, 3], [4, 3]]


def test_drive_in_makes_every_corner_an_entrance() -> None:
    rest = {"owner": "0", "cells": [[0, 3], [0, 4], [1, 3], [1, 4]], "entrance": [1, 3], "open": True}
    closed = {"owner": "0", "cells": [[3, 5], [3, 6], [4, 5], [4, 6]], "entrance": [3, 5], "open": False}
    other = {"owner": "1", "cells": [[0, 5], [0, 6], [1, 5], [1, 6]], "entrance": [1, 6], "open": True}
    assert M.chain_entrances([rest, closed, other], "0", False) == [[1, 3]]
    assert M.chain_entrances([rest, closed, other], "0", True) == [[0, 3], [0, 4], [1, 3], [1, 4]]


def test_entrance_next_to_two_roads_may_use_either() -> None:
    # Map gamma: entrance (0,4) as a drive-in corner touches (0,5); corner (1,3) touches (2,3) on tile Q.
    m = M.map_from_layout([[("Q", 0), ("C", 0)]])
    rc = M.road_costs(m, [[0, 4], [1, 3]])
    assert rc[(2, 3)] == 0 and rc[(0, 5)] == 1


# ---------------------------------------------------------------- ranges


def test_tile_costs_and_local_manager_range() -> None:
    row = M.map_from_layout([[("A", 0), ("B", 0), ("O", 0), ("R", 0), ("T", 0)]])
    assert M.tile_costs(row, [[1, 1]]) == {(0, 0): 0, (0, 1): 1, (0, 2): 2, (0, 3): 3, (0, 4): 4}
    assert M.local_manager_tiles(row, [[1, 1]]) == [[0, 0], [0, 1], [0, 2], [0, 3]]
    assert M.local_manager_tiles(row, [[1, 1]], reach=1) == [[0, 0], [0, 1]]


def test_marketing_range_counts_the_campaign_square() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    # (3,5) on tile I touches road (2,5), which costs 1 from an entrance on tile A.
    assert M.in_marketing_range(m, [[1, 3]], [[3, 5]], 1)
    assert not M.in_marketing_range(m, [[1, 3]], [[3, 5]], 0)
    # (3,4) on tile A touches (2,4) at cost 0 -> range 0 suffices.
    assert M.in_marketing_range(m, [[1, 3]], [[3, 4]], 0)


# ---------------------------------------------------------------- campaign reach


def test_airplanes_cover_columns_or_rows() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    houses = M.printed_houses(m)
    assert M.campaign_reach(m, houses, {"type": "airplane", "edge": "N", "offset": 1, "covers": 1}) == [2]
    assert M.campaign_reach(m, houses, {"type": "airplane", "edge": "S", "offset": 2, "covers": 5}) == []
    assert M.campaign_reach(m, houses, {"type": "airplane", "edge": "S", "offset": 5, "covers": 5}) == [15]
    assert M.campaign_reach(m, houses, {"type": "airplane", "edge": "W", "offset": 4, "covers": 1}) == [2, 15]
    assert M.campaign_reach(m, houses, {"type": "airplane", "edge": "E", "offset": 0, "covers": 3}) == []


def test_airplane_reaches_a_house_by_its_garden() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    h14 = {"number": 14, "cells": [[3, 5], [3, 6], [4, 5], [4, 6]], "garden": [[3, 7], [4, 7]]}
    plane = {"type": "airplane", "edge": "N", "offset": 7, "covers": 1}
    assert M.campaign_reach(m, [h14], plane) == [14]
    billboard = {"type": "billboard", "cells": [[3, 3], [4, 3]]}
    assert M.campaign_reach(m, [h14], billboard) == []


def test_radio_is_clipped_at_the_board_edge() -> None:
    m, _ = M.build_map(3, 3, 5)
    houses = M.printed_houses(m)
    centre = M.campaign_reach(m, houses, {"type": "radio", "cells": [[7, 7]]})
    assert centre == sorted(h["number"] for h in houses)
    corner = M.campaign_reach(m, houses, {"type": "radio", "cells": [[0, 0]]})
    expected = sorted(h["number"] for h in houses if any(r < 10 and c < 10 for r, c in h["cells"]))
    assert corner == expected


def test_mailbox_blocks_are_four_connected_and_bridges_separate() -> None:
    m = M.map_from_layout([[("A", 0), ("I", 0)]])
    assert M.mailbox_block(m, [[0, 3]]) == {(r, c) for r in (0, 1) for c in range(3, 7)}
    g = one("G")
    blocks = {frozenset(M.mailbox_block(g, [x])) for x in ([0, 0], [0, 4], [4, 0], [4, 4])}
    assert len(blocks) == 4
    houses = M.printed_houses(g)
    assert M.campaign_reach(g, houses, {"type": "mailbox", "cells": [[3, 0], [4, 0], [3, 1], [4, 1]]}) == []
    assert M.campaign_reach(g, houses, {"type": "mailbox", "cells": [[1, 1]]}) == [12]


def test_unknown_campaign_type_is_an_error() -> None:
    with pytest.raises(ValueError):
        M.campaign_reach(one("A"), [], {"type": "zeppelin", "cells": []})


# ---------------------------------------------------------------- restaurants


ALPHA = [[("A", 0), ("I", 0)]]


def test_restaurant_check_codes() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [])
    ok = [[0, 3], [0, 4], [1, 3], [1, 4]]
    assert M.check_restaurant(m, occ, ok, [1, 3]) is None
    assert M.check_restaurant(m, occ, [[0, 3], [0, 4], [1, 3], [1, 5]], [1, 3]) == "bad_shape"
    assert M.check_restaurant(m, occ, [[0, 3], [0, 4], [1, 3]], [1, 3]) == "bad_shape"
    assert M.check_restaurant(m, occ, [[4, 3], [4, 4], [5, 3], [5, 4]], [4, 3]) == "off_map"
    assert M.check_restaurant(m, occ, [[0, 2], [0, 3], [1, 2], [1, 3]], [1, 3]) == "square_occupied"
    assert M.check_restaurant(m, occ, ok, [2, 3]) == "entrance_not_corner"
    assert M.check_restaurant(m, occ, ok, [0, 4]) == "entrance_not_by_road"
    assert M.check_restaurant(m, occ, ok, [1, 3], forbidden_entrance_tiles=[[0, 0]]) == "entrance_tile_taken"
    assert M.check_restaurant(m, occ, ok, [1, 3], entrance_tiles=[[0, 1]]) == "out_of_range"
    assert M.check_restaurant(m, occ, ok, [1, 3], entrance_tiles=[[0, 0]]) is None


def test_restaurant_may_straddle_a_border_with_the_entrance_elsewhere() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [])
    cells = [[0, 4], [0, 5], [1, 4], [1, 5]]
    assert M.check_restaurant(m, occ, cells, [1, 5], forbidden_entrance_tiles=[[0, 0]]) is None
    assert M.check_restaurant(m, occ, cells, [1, 4], forbidden_entrance_tiles=[[0, 0]]) == "entrance_tile_taken"


def test_restaurant_placements_agree_with_checks() -> None:
    m = M.map_from_layout(ALPHA)
    blocking = {"owner": "0", "cells": [[0, 3], [0, 4], [1, 3], [1, 4]], "entrance": [1, 3], "open": True}
    occ = M.occupied_cells(m, M.printed_houses(m), [blocking], [])
    listed = M.restaurant_placements(m, occ, forbidden_entrance_tiles=[[0, 0]])
    assert listed and all(M.check_restaurant(m, occ, p["cells"], p["entrance"],
                                             forbidden_entrance_tiles=[[0, 0]]) is None for p in listed)
    assert all(e[1] >= 5 for e in (p["entrance"] for p in listed))
    assert {"cells": [[0, 5], [0, 6], [1, 5], [1, 6]], "entrance": [1, 6]} in listed
    # Moving/rotating in place: the restaurant's own squares count as empty.
    occ_without = M.occupied_cells(m, M.printed_houses(m), [], [])
    rotations = [p for p in M.restaurant_placements(m, occ_without) if p["cells"] == blocking["cells"]]
    assert [p["entrance"] for p in rotations] == [[0, 3], [1, 3], [1, 4]]


# ---------------------------------------------------------------- houses and gardens


def test_house_check_codes() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [])
    cells = [[3, 4], [3, 5], [4, 4], [4, 5]]
    assert M.check_house(m, occ, cells, [[3, 6], [4, 6]]) is None
    assert M.check_house(m, occ, cells, [[3, 7], [4, 7]]) == "bad_shape"
    assert M.check_house(m, occ, cells, [[3, 6]]) == "bad_shape"
    assert M.check_house(m, occ, [[3, 3], [3, 4], [4, 3], [4, 5]], [[3, 6], [4, 6]]) == "bad_shape"
    assert M.check_house(m, occ, cells, [[5, 4], [5, 5]]) == "off_map"
    assert M.check_house(m, occ, [[3, 6], [3, 7], [4, 6], [4, 7]], [[3, 8], [4, 8]]) == "square_occupied"
    far = M.map_from_layout([[("D", 0)]])
    far_occ = M.occupied_cells(far, M.printed_houses(far), [], [])
    assert M.check_house(far, far_occ, [[3, 1], [3, 2], [4, 1], [4, 2]], [[3, 3], [4, 3]]) == "not_by_road"


def test_house_placements_agree_with_checks() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [])
    listed = M.house_placements(m, occ)
    assert {"cells": [[3, 4], [3, 5], [4, 4], [4, 5]], "garden": [[3, 6], [4, 6]]} in listed
    assert all(M.check_house(m, occ, p["cells"], p["garden"]) is None for p in listed)
    assert len({str(p) for p in listed}) == len(listed)


def test_garden_check_codes_and_placements() -> None:
    m = M.map_from_layout(ALPHA)
    houses = M.printed_houses(m)
    occ = M.occupied_cells(m, houses, [], [])
    h15 = houses[1]
    assert M.garden_placements(m, occ, h15) == [[[3, 7], [4, 7]]]
    assert M.check_garden(m, occ, h15, [[3, 7], [4, 7]]) is None
    assert M.check_garden(m, occ, h15, [[3, 6], [4, 6]]) == "bad_shape"
    assert M.check_garden(m, occ, h15, [[2, 8], [2, 9]]) == "square_occupied"
    assert M.check_garden(m, occ, h15, [[5, 8], [5, 9]]) == "off_map"
    assert M.check_garden(m, occ, dict(h15, garden=[[3, 7], [4, 7]]), [[3, 7], [4, 7]]) == "has_garden"
    assert M.garden_placements(m, occ, dict(h15, garden=[[3, 7], [4, 7]])) == []
    placed = {"number": 9, "cells": [[3, 4], [3, 5], [4, 4], [4, 5]], "garden": None}
    assert M.check_garden(m, occ, placed, [[3, 6], [4, 6]]) == "not_printed_house"
    assert M.garden_placements(m, occ, placed) == []
    assert M.garden_placements(m, occ, houses[0]) == []  # house 2: road east, board edge west/south


# ---------------------------------------------------------------- campaigns


def test_campaign_check_codes() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [])
    assert M.check_campaign(m, occ, [[3, 3], [3, 4], [4, 3], [4, 4], [3, 5], [4, 5]], [3, 2]) is None
    assert M.check_campaign(m, occ, [[3, 3], [4, 3], [3, 4], [4, 4], [3, 5], [4, 5]], [2, 3]) is None
    assert M.check_campaign(m, occ, [[3, 3], [3, 4], [3, 5]], [2, 2]) == "bad_shape"
    assert M.check_campaign(m, occ, [[4, 3], [5, 3]], [2, 1]) == "off_map"
    assert M.check_campaign(m, occ, [[3, 2]], [1, 1]) == "square_occupied"
    assert M.check_campaign(m, occ, [[3, 8]], [1, 1]) == "square_occupied"
    assert M.check_campaign(m, occ, [[4, 6]], [1, 1]) == "not_by_road"
    assert M.check_campaign(m, occ, [[3, 6]], [1, 1], entrances=[[1, 3]], reach=0) == "out_of_range"
    assert M.check_campaign(m, occ, [[3, 6]], [1, 1], entrances=[], reach=5) == "out_of_range"


def test_campaign_placements_agree_with_checks() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [{"type": "billboard", "cells": [[3, 3]]}])
    for size in ([1, 1], [2, 1], [3, 2], [2, 2]):
        listed = M.campaign_placements(m, occ, size)
        assert all(M.check_campaign(m, occ, p, size) is None for p in listed)
        assert [[3, 3]] not in listed
    in_range = M.campaign_placements(m, occ, [1, 1], entrances=[[1, 3]], reach=0)
    assert in_range and all(c < 5 for p in in_range for _, c in p)


def test_airplane_placements_and_codes() -> None:
    m = M.map_from_layout(ALPHA)  # 5 square rows x 10 square columns
    listed = M.airplane_placements(m, 3)
    assert len(listed) == 8 + 8 + 3 + 3
    assert all(M.check_airplane(m, p["edge"], p["offset"], 3) is None for p in listed)
    assert M.check_airplane(m, "E", 3, 3) == "off_map"
    assert M.check_airplane(m, "N", -1, 1) == "off_map"
    assert M.check_airplane(m, "N", 5, 5) is None
    assert M.check_airplane(m, "up", 0, 1) == "bad_edge"
    assert M.airplane_placements(m, 5) and not [p for p in M.airplane_placements(m, 5) if p["edge"] == "E" and p["offset"] > 0]


def test_drinks_of_counts_by_type() -> None:
    m = M.map_from_layout([[("N", 0), ("S", 0), ("T", 0)]])
    assert M.drinks_of(m, [[1, 1], [3, 5], [1, 11]], 3) == {"beer": 6, "lemonade": 3}
    assert M.drinks_of(m, [], 2) == {}


# ---------------------------------------------------------------- several entrances, caching


def test_drive_in_routes_start_from_any_corner() -> None:
    # Map beta with Red's restaurant as a drive-in: corner (4,1) touches no road, (3,1) touches (2,1).
    m = M.map_from_layout([[("N", 0), ("S", 0), ("T", 0)]])
    corners = [[3, 0], [3, 1], [4, 0], [4, 1]]
    assert M.road_route_source_sets(m, corners, 2) == M.road_route_source_sets(m, [[3, 0], [3, 1]], 2)
    # A second restaurant on tile T adds its own routes: the union of both sets of routes.
    both = M.road_route_source_sets(m, [[3, 1], [3, 11]], 0)
    assert both == sorted(M.road_route_source_sets(m, [[3, 1]], 0) + M.road_route_source_sets(m, [[3, 11]], 0))
    assert M.entrance_tiles([[3, 1], [3, 11], [4, 1]]) == [[0, 0], [0, 2]]
    assert M.air_route_source_sets(m, [[0, 0], [0, 2]], 0) == [[[1, 1]], [[1, 11]]]


def test_no_route_without_a_road_beside_the_entrance() -> None:
    m = M.map_from_layout([[("N", 0), ("S", 0), ("T", 0)]])
    assert M.road_route_source_sets(m, [[4, 4]], 3) == []
    assert M.road_route_source_sets(m, [], 3) == []
    assert M.road_costs(m, [[4, 4]]) == {}


def test_returned_lists_are_fresh_copies() -> None:
    m = M.map_from_layout(ALPHA)
    occ = [list(x) for x in sorted(M.occupied_cells(m, M.printed_houses(m), [], []))]
    first = M.restaurant_placements(m, occ)
    first[0]["cells"][0][0] = 99
    first.clear()
    assert M.restaurant_placements(m, occ)[0]["cells"][0][0] != 99
    spots = M.campaign_placements(m, occ, [1, 1])
    spots[0][0][0] = 99
    assert M.campaign_placements(m, occ, [1, 1])[0][0][0] != 99
    rc = M.road_costs(m, [[1, 3]])
    rc.clear()
    assert M.road_costs(m, [[1, 3]])


def test_occupied_accepts_lists_or_tuples() -> None:
    m = M.map_from_layout(ALPHA)
    as_set = M.occupied_cells(m, M.printed_houses(m), [], [])
    as_list = [list(x) for x in as_set]
    assert M.house_placements(m, as_set) == M.house_placements(m, as_list)
    assert M.check_house(m, as_list, [[3, 4], [3, 5], [4, 4], [4, 5]], [[3, 6], [4, 6]]) is None


def test_campaigns_and_houses_block_squares() -> None:
    m = M.map_from_layout(ALPHA)
    new_house = {"number": 9, "cells": [[3, 4], [3, 5], [4, 4], [4, 5]], "garden": [[3, 6], [4, 6]]}
    plane = {"type": "airplane", "edge": "N", "offset": 0, "covers": 1}
    board = {"type": "billboard", "cells": [[3, 3]]}
    occ = M.occupied_cells(m, M.printed_houses(m) + [new_house], [], [plane, board])
    assert {(3, 3), (3, 6), (4, 6), (3, 4)} <= occ
    assert M.check_campaign(m, occ, [[4, 3]], [1, 1]) is None
    assert M.check_campaign(m, occ, [[3, 3]], [1, 1]) == "square_occupied"
    assert M.garden_placements(m, occ, M.printed_houses(m)[1]) == [[[3, 7], [4, 7]]]


def test_checks_refuse_malformed_json() -> None:
    m = M.map_from_layout(ALPHA)
    occ = M.occupied_cells(m, M.printed_houses(m), [], [])
    good = [[0, 3], [0, 4], [1, 3], [1, 4]]
    for bad in (None, "x", [[0, 3]] * 4, [[0, "3"], [0, 4], [1, 3], [1, 4]], [[0, 3, 1], [0, 4], [1, 3], [1, 4]],
                [[True, 3], [0, 4], [1, 3], [1, 4]]):
        assert M.check_restaurant(m, occ, bad, [1, 3]) == "bad_shape"  # type: ignore[arg-type]
        assert M.check_campaign(m, occ, bad, [2, 2]) == "bad_shape"  # type: ignore[arg-type]
        assert M.check_house(m, occ, bad, [[3, 6], [4, 6]]) == "bad_shape"  # type: ignore[arg-type]
    assert M.check_restaurant(m, occ, good, "1,3") == "bad_shape"  # type: ignore[arg-type]
    assert M.check_garden(m, occ, M.printed_houses(m)[1], [[3, 7], "x"]) == "bad_shape"  # type: ignore[list-item]
    assert M.check_airplane(m, "N", "0", 1) == "off_map"  # type: ignore[arg-type]
    assert M.check_airplane(m, "N", True, 1) == "off_map"
