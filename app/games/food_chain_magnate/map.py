"""Food Chain Magnate map geometry: tiles, roads, distances, campaign reach, placements.

Public API of the map (spec §4.4, §5, §6.3.4-§6.3.6, §7). Everything here is a pure
function of JSON data; internal caches are keyed on immutable copies of it.

JSON shapes (a cell is ``[row, col]`` in global square coordinates, row 0 north):

- ``Map``  (static, lives in the game state, e.g. ``state["map"]``)::

      {"rows": 3, "cols": 3,                         # size in tiles
       "tiles": [[{"id": "A", "rotation": 1}, ...], ...],   # rows x cols, rotation = quarter turns clockwise
       "grid": ["..#....#..", ...],                  # derived: 5*rows strings of 5*cols chars (legend §5.1)
       "houses": [{"number": 2, "cells": [[3, 0], ...]}, ...],  # derived: printed houses, by number
       "drinks": [{"type": "beer", "cell": [1, 1]}, ...]}      # derived: drink sources, row-major

  Only ``rows``, ``cols`` and ``tiles`` are read back; the rest is derived for the
  engine, the view and the renderer.
- ``House``: ``{"number": int, "cells": [4 cells], "garden": [2 cells] | None}``
  (printed houses start with ``"garden": None``; see ``printed_houses``).
- ``Restaurant`` (fields read here): ``{"owner": seat, "cells": [4 cells],
  "entrance": cell, "open": bool}``.
- ``Campaign`` (fields read here): on the board ``{"type": "billboard" | "mailbox" |
  "radio", "cells": [cells]}``; airplane ``{"type": "airplane", "edge": "N" | "E" |
  "S" | "W", "offset": int, "covers": 1 | 3 | 5}`` -- N/S airplanes fly over square
  columns ``offset .. offset+covers-1``, E/W airplanes over square rows.
- ``Tile``: ``[tile_row, tile_col]``.

Building the map:

- ``build_map(rows, cols, rng_state) -> (Map, rng_state)``: draw rows*cols of the 20
  tiles and a rotation for each with ``app.games.rng`` (spec §1.3 step 2). The size
  per player count is in setup.json (2p 3x3, 3p 3x4, 4p 4x4, 5p 4x5).
- ``map_from_layout(layout) -> Map``: ``layout`` = rows of ``(tile_id, rotation)``;
  for tests and hand-made states (spec §10 maps).
- ``rotate_grid(grid, quarter_turns) -> list[str]``: a 5x5 tile grid turned clockwise.
- ``printed_houses(m) -> list[House]``: the printed houses, garden None, by number.
- ``tile_of(cell) -> Tile``; ``square(m, cell) -> str`` (legend char; "" off the map);
  ``is_road(m, cell) -> bool``; ``on_map(m, cell) -> bool``.
- ``house_cells(house) -> list[cell]``: house squares plus garden squares.
- ``occupied_cells(m, houses, restaurants, campaigns) -> set[tuple[int, int]]``: every
  non-empty square (roads, bridges, drinks, houses, gardens, restaurants, on-board
  campaigns). Pass it to the placement functions (remove a restaurant's own cells
  before asking where a regional manager may move/rotate it).

Distances and ranges (§7):

- ``chain_entrances(restaurants, owner, drive_in) -> list[cell]``: entrance squares of
  the owner's *open* restaurants (all 4 corners each if ``drive_in``).
- ``road_costs(m, entrances) -> dict[tuple[int, int], int]``: ``roadcost`` (§7.2) for
  every reachable road square (cached).
- ``house_distance(m, entrances, house) -> int | None``: §7.3 distance, None = not
  connected.
- ``in_marketing_range(m, entrances, cells, reach) -> bool``: §7.4.
- ``tile_costs(m, entrances) -> dict[tuple[int, int], int]``: §7.7 ``tilecost`` per tile.
- ``local_manager_tiles(m, entrances, reach=3) -> list[Tile]``: tiles a local
  manager's new entrance may lie on.

Buyers (§6.3.4, §7.5, §7.6):

- ``road_route_source_sets(m, entrances, reach) -> list[list[cell]]``: every distinct
  set of drink sources one road route (no U-turns, bridges straight) can pass, each
  sorted, the list sorted; ``[]`` (a route passing nothing) is included when possible.
- ``air_route_source_sets(m, start_tiles, reach) -> list[list[cell]]``: the same for a
  zeppelin (distinct orthogonally adjacent tiles, up to ``reach`` moves).
- ``entrance_tiles(entrances) -> list[Tile]``: the distinct tiles of entrance squares
  (the zeppelin's possible start tiles).
- ``maximal_source_sets(sets) -> list[list[cell]]``: drop sets contained in another.
- ``drinks_of(m, sources, per_source) -> dict[str, int]``: drinks collected, by type.

Campaign reach (§4.4):

- ``campaign_reach(m, houses, campaign) -> list[int]``: house numbers the campaign
  reaches (ascending).
- ``mailbox_block(m, cells) -> set[tuple[int, int]]``: the block a mailbox on ``cells``
  floods (for display and tests).

Placements (§1.5, §4.3, §5.4, §6.3.5, §6.3.6). Each ``*_placements`` lists every legal
placement; each ``check_*`` returns None when legal or a stable error code
(``off_map``, ``bad_shape``, ``square_occupied``, ``not_by_road``,
``entrance_not_corner``, ``entrance_not_by_road``, ``entrance_tile_taken``,
``out_of_range``, ``not_printed_house``, ``has_garden``, ``bad_edge``):

- ``restaurant_placements(m, occupied, *, entrance_tiles=None, forbidden_entrance_tiles=())
  -> list[{"cells": [4 cells], "entrance": cell}]``: ``entrance_tiles`` (if given)
  restricts the entrance's tile (local manager); ``forbidden_entrance_tiles`` is the
  setup rule (tiles of entrances already placed).
- ``check_restaurant(m, occupied, cells, entrance, *, entrance_tiles=None,
  forbidden_entrance_tiles=()) -> str | None``.
- ``house_placements(m, occupied) -> list[{"cells": [4 cells], "garden": [2 cells]}]``.
- ``check_house(m, occupied, cells, garden) -> str | None``.
- ``garden_placements(m, occupied, house) -> list[[2 cells]]`` (empty if it has one).
- ``check_garden(m, occupied, house, garden) -> str | None``.
- ``campaign_placements(m, occupied, size, *, entrances=None, reach=None)
  -> list[[cells]]``: footprints ``size`` = ``[a, b]`` in both orientations, empty,
  touching a road; with ``entrances`` and ``reach`` also in marketing range.
- ``check_campaign(m, occupied, cells, size, *, entrances=None, reach=None) -> str | None``.
- ``has_restaurant_placement``, ``has_house_placement``, ``has_campaign_placement`` (the arguments of the
  listing): whether it lists anything, stopping at the first placement found.
- ``restaurant_anchors(m, occupied, *, ...) -> list[cell]``: the sorted distinct north-west squares of the
  restaurant listing; ``restaurant_entrances(m, occupied, anchor, *, ...) -> list[cell]``: the listed
  entrances of the restaurant on ``anchor``, computed for that square alone.
- ``house_squares(m, occupied) -> list[tuple of 4 cells]``: the sorted distinct house squares of the house
  listing; ``house_gardens(m, occupied, house) -> list[[2 cells]]``: the listed gardens of one house.
- ``campaign_spot_ok(m, occupied, size, cells, *, entrances=None, reach=None) -> bool``: whether the
  campaign listing holds ``cells`` (sorted row-major), checked for that footprint alone.
- ``airplane_placements(m, covers) -> list[{"edge": str, "offset": int}]``.
- ``check_airplane(m, edge, offset, covers) -> str | None``.

All cells returned are lists ``[r, c]``, sorted row-major inside a piece.
"""

from __future__ import annotations

from app.games.food_chain_magnate.map_build import (
    build_map,
    house_cells,
    is_road,
    map_from_layout,
    on_map,
    printed_houses,
    rotate_grid,
    square,
    tile_of,
)
from app.games.food_chain_magnate.map_place import (
    airplane_placements,
    campaign_placements,
    campaign_spot_ok,
    check_airplane,
    check_campaign,
    check_garden,
    check_house,
    check_restaurant,
    garden_placements,
    has_campaign_placement,
    has_house_placement,
    has_restaurant_placement,
    house_gardens,
    house_placements,
    house_squares,
    occupied_cells,
    restaurant_anchors,
    restaurant_entrances,
    restaurant_placements,
)
from app.games.food_chain_magnate.map_reach import campaign_reach, mailbox_block
from app.games.food_chain_magnate.map_roads import (
    chain_entrances,
    house_distance,
    in_marketing_range,
    local_manager_tiles,
    road_costs,
    tile_costs,
)
from app.games.food_chain_magnate.map_routes import (
    air_route_source_sets,
    drinks_of,
    entrance_tiles,
    maximal_source_sets,
    road_route_source_sets,
)

__all__ = [
    "air_route_source_sets",
    "airplane_placements",
    "build_map",
    "campaign_placements",
    "campaign_reach",
    "campaign_spot_ok",
    "chain_entrances",
    "check_airplane",
    "check_campaign",
    "check_garden",
    "check_house",
    "check_restaurant",
    "drinks_of",
    "entrance_tiles",
    "garden_placements",
    "has_campaign_placement",
    "has_house_placement",
    "has_restaurant_placement",
    "house_gardens",
    "house_cells",
    "house_distance",
    "house_placements",
    "house_squares",
    "in_marketing_range",
    "is_road",
    "local_manager_tiles",
    "mailbox_block",
    "map_from_layout",
    "maximal_source_sets",
    "occupied_cells",
    "on_map",
    "printed_houses",
    "restaurant_anchors",
    "restaurant_entrances",
    "restaurant_placements",
    "road_costs",
    "road_route_source_sets",
    "rotate_grid",
    "square",
    "tile_costs",
    "tile_of",
]
