"""Where pieces may go: restaurants, new houses, gardens and campaigns (§1.5, §4.3, §5.4, §6.3.5, §6.3.6).

Each `check_*` returns None for a legal placement or a stable error code; each
`*_placements` lists every legal placement (cells sorted row-major). The `has_*` functions say whether any
placement is legal, stopping at the first; `restaurant_anchors`, `restaurant_entrances`, `house_squares` and
`house_gardens` give the parts of a listing that one choice of a placement offers, and `campaign_spot_ok` checks one
footprint, each by the very rules of its listing. Every function takes the occupied squares as cells; squares the
printed map fills (roads, houses, drinks) count as occupied whether they are among them or not.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from app.games.food_chain_magnate.map_build import (
    BRIDGE,
    EMPTY,
    ROAD,
    STEPS,
    Cell,
    Geometry,
    MapKey,
    _geometry,
    as_cell,
    as_cells,
    geometry,
    house_cells,
    map_key,
    tile_key,
)
from app.games.food_chain_magnate.map_roads import _entrance_key, _square_costs, in_marketing_range
from app.games.toolkit import JSON

EDGES = ("N", "E", "S", "W")


def occupied_cells(m: JSON, houses: Iterable[JSON], restaurants: Iterable[JSON],
                   campaigns: Iterable[JSON]) -> set[Cell]:
    """Every non-empty square: roads, bridges, drinks, houses, gardens, restaurants, on-board campaigns."""
    g = geometry(m)
    out = {(r, c) for r, line in enumerate(g.grid) for c, ch in enumerate(line) if ch != EMPTY}
    for house in houses:
        out.update(as_cells(house_cells(house)))
    for rest in restaurants:
        out.update(as_cells(rest["cells"]))
    for camp in campaigns:
        out.update(as_cells(camp.get("cells") or []))
    return out


@lru_cache(maxsize=64)
def _open_ground(key: MapKey) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """(empty squares of the printed map, squares with a road neighbour) of one map."""
    g = _geometry(key)
    empty = frozenset((r, c) for r, line in enumerate(g.grid) for c, ch in enumerate(line) if ch == EMPTY)
    # `g.road` of each on-board neighbour, by the grid's characters (this runs for every map a process meets)
    roads = frozenset((r, c) for r, line in enumerate(g.grid) for c, ch in enumerate(line) if ch in (ROAD, BRIDGE))
    by_road = frozenset((r, c) for r, c in empty if any((r + dr, c + dc) in roads for dr, dc in STEPS))
    return empty, by_road


def _free_now(key: MapKey, occupied: frozenset[Cell]) -> tuple[frozenset[Cell], frozenset[Cell]]:
    empty, by_road = _open_ground(key)
    return empty - occupied, by_road


def _frozen(occupied: Iterable[Sequence[int]]) -> frozenset[Cell]:
    if isinstance(occupied, frozenset):  # already cells as tuples (board.occupied_squares)
        return occupied
    return frozenset(as_cells(occupied))


def _tiles(tiles: Iterable[Sequence[int]] | None) -> frozenset[Cell] | None:
    return None if tiles is None else frozenset(as_cells(tiles))


def _client_cells(xs: Any) -> list[Cell] | None:
    """Cells from untrusted JSON: a list of [int, int]; None if malformed."""
    if not isinstance(xs, list):
        return None
    out = []
    for x in xs:
        if not (isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)):
            return None
        out.append((x[0], x[1]))
    return out


def _rect(top: Cell, height: int, width: int) -> list[Cell]:
    return [(top[0] + dr, top[1] + dc) for dr in range(height) for dc in range(width)]


def _is_rect(cells: list[Cell], height: int, width: int) -> bool:
    if len(cells) != height * width or len(set(cells)) != len(cells):
        return False
    top = min(cells)
    return sorted(cells) == _rect(top, height, width)


def _free(g: Geometry, occupied: Collection[Cell], cells: Iterable[Cell]) -> str | None:
    cells = list(cells)
    if not all(g.inside(x) for x in cells):
        return "off_map"
    if any(x in occupied or g.char(x) != EMPTY for x in cells):
        return "square_occupied"
    return None


def _by_road(g: Geometry, cells: Iterable[Cell]) -> bool:
    return any(g.road(n) for x in cells for n in g.neighbours(x))


def _occupied_set(occupied: Iterable[Sequence[int]]) -> Collection[Cell]:
    if isinstance(occupied, frozenset):
        return occupied
    return set(as_cells(occupied))


def _out(cells: Iterable[Cell]) -> list[list[int]]:
    return [list(x) for x in sorted(cells)]


# ---------------------------------------------------------------- restaurants


def check_restaurant(m: JSON, occupied: Iterable[Sequence[int]], cells: Sequence[Sequence[int]],
                     entrance: Sequence[int], *, entrance_tiles: Iterable[Sequence[int]] | None = None,
                     forbidden_entrance_tiles: Iterable[Sequence[int]] = ()) -> str | None:
    """None if a 2x2 restaurant on `cells` with this entrance corner may be placed, else an error code."""
    g = geometry(m)
    sq = _client_cells(cells)
    ent = _client_cells([entrance])
    if sq is None or ent is None or not _is_rect(sq, 2, 2):
        return "bad_shape"
    problem = _free(g, _occupied_set(occupied), sq)
    if problem:
        return problem
    e = ent[0]
    if e not in sq:
        return "entrance_not_corner"
    if not _by_road(g, [e]):
        return "entrance_not_by_road"
    if tile_key(e) in {as_cell(t) for t in forbidden_entrance_tiles}:
        return "entrance_tile_taken"
    if entrance_tiles is not None and tile_key(e) not in {as_cell(t) for t in entrance_tiles}:
        return "out_of_range"
    return None


def _restaurant_spot_iter(key: MapKey, occupied: frozenset[Cell], allowed: frozenset[Cell] | None,
                          forbidden: frozenset[Cell]) -> Iterator[tuple[tuple[Cell, ...], Cell]]:
    g = _geometry(key)
    free, by_road = _free_now(key, occupied)
    for r in range(g.rows - 1):
        for c in range(g.cols - 1):
            sq = _rect((r, c), 2, 2)
            if not all(x in free for x in sq):
                continue
            for e in sq:
                t = tile_key(e)
                if e in by_road and t not in forbidden and (allowed is None or t in allowed):
                    yield tuple(sq), e


@lru_cache(maxsize=128)
def _restaurant_spots(key: MapKey, occupied: frozenset[Cell], allowed: frozenset[Cell] | None,
                      forbidden: frozenset[Cell]) -> tuple[tuple[tuple[Cell, ...], Cell], ...]:
    return tuple(_restaurant_spot_iter(key, occupied, allowed, forbidden))


def restaurant_placements(m: JSON, occupied: Iterable[Sequence[int]], *,
                          entrance_tiles: Iterable[Sequence[int]] | None = None,
                          forbidden_entrance_tiles: Iterable[Sequence[int]] = ()) -> list[JSON]:
    """Every legal {"cells", "entrance"} for a restaurant (setup rule via forbidden_entrance_tiles)."""
    spots = _restaurant_spots(map_key(m), _frozen(occupied), _tiles(entrance_tiles),
                              frozenset(as_cells(forbidden_entrance_tiles)))
    return [{"cells": _out(sq), "entrance": list(e)} for sq, e in spots]


def has_restaurant_placement(m: JSON, occupied: Iterable[Sequence[int]], *,
                             entrance_tiles: Iterable[Sequence[int]] | None = None,
                             forbidden_entrance_tiles: Iterable[Sequence[int]] = ()) -> bool:
    """Whether `restaurant_placements` would list anything."""
    spots = _restaurant_spot_iter(map_key(m), _frozen(occupied), _tiles(entrance_tiles),
                                  frozenset(as_cells(forbidden_entrance_tiles)))
    return next(spots, None) is not None


def restaurant_anchors(m: JSON, occupied: Iterable[Sequence[int]], *,
                       entrance_tiles: Iterable[Sequence[int]] | None = None,
                       forbidden_entrance_tiles: Iterable[Sequence[int]] = ()) -> list[Cell]:
    """The distinct north-west squares of `restaurant_placements`, sorted."""
    return list(_restaurant_anchors(map_key(m), _frozen(occupied), _tiles(entrance_tiles),
                                    frozenset(as_cells(forbidden_entrance_tiles))))


@lru_cache(maxsize=128)
def _restaurant_anchors(key: MapKey, occupied: frozenset[Cell], allowed: frozenset[Cell] | None,
                        forbidden: frozenset[Cell]) -> tuple[Cell, ...]:
    # `_restaurant_spot_iter`'s squares, each taken at its first legal entrance
    g = _geometry(key)
    free, by_road = _free_now(key, occupied)
    out = []
    for r in range(g.rows - 1):
        for c in range(g.cols - 1):
            if (r, c) not in free:
                continue
            sq = _rect((r, c), 2, 2)
            if all(x in free for x in sq) and any(
                    e in by_road and tile_key(e) not in forbidden and (allowed is None or tile_key(e) in allowed)
                    for e in sq):
                out.append((r, c))
    return tuple(out)


def restaurant_entrances(m: JSON, occupied: Iterable[Sequence[int]], anchor: Cell, *,
                         entrance_tiles: Iterable[Sequence[int]] | None = None,
                         forbidden_entrance_tiles: Iterable[Sequence[int]] = ()) -> list[Cell]:
    """The entrances of `restaurant_placements` whose north-west square is `anchor`, in the listing's order."""
    key = map_key(m)
    g = _geometry(key)
    if not (0 <= anchor[0] < g.rows - 1 and 0 <= anchor[1] < g.cols - 1):
        return []
    free, by_road = _free_now(key, _frozen(occupied))
    sq = _rect(anchor, 2, 2)
    if not all(x in free for x in sq):
        return []
    allowed, forbidden = _tiles(entrance_tiles), frozenset(as_cells(forbidden_entrance_tiles))
    return [e for e in sq if e in by_road and tile_key(e) not in forbidden and (allowed is None or tile_key(e) in allowed)]


# ---------------------------------------------------------------- houses and gardens


def garden_sides(house: Sequence[Cell]) -> list[list[Cell]]:
    """The four 2x1 strips along the sides of a 2x2 house (N, E, S, W), possibly off the board."""
    r, c = min(house)
    return [
        [(r - 1, c), (r - 1, c + 1)],
        [(r, c + 2), (r + 1, c + 2)],
        [(r + 2, c), (r + 2, c + 1)],
        [(r, c - 1), (r + 1, c - 1)],
    ]


def _garden_shape_ok(house: list[Cell], garden: list[Cell]) -> bool:
    return _is_rect(house, 2, 2) and sorted(garden) in [sorted(s) for s in garden_sides(house)]


def check_house(m: JSON, occupied: Iterable[Sequence[int]], cells: Sequence[Sequence[int]],
                garden: Sequence[Sequence[int]]) -> str | None:
    """None if a new 2x3 house+garden piece may go on these squares (§6.3.5), else an error code."""
    g = geometry(m)
    house, yard = _client_cells(cells), _client_cells(garden)
    if house is None or yard is None or not _garden_shape_ok(house, yard):
        return "bad_shape"
    problem = _free(g, _occupied_set(occupied), house + yard)
    if problem:
        return problem
    if not _by_road(g, house + yard):
        return "not_by_road"
    return None


def _house_spot_iter(key: MapKey, occupied: frozenset[Cell]) -> Iterator[tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
    g = _geometry(key)
    free, by_road = _free_now(key, occupied)
    for r in range(g.rows - 1):
        for c in range(g.cols - 1):
            house = _rect((r, c), 2, 2)
            if not all(x in free for x in house):
                continue
            for yard in garden_sides(house):
                if all(x in free for x in yard) and any(x in by_road for x in house + yard):
                    yield tuple(house), tuple(sorted(yard))


@lru_cache(maxsize=128)
def _house_spots(key: MapKey, occupied: frozenset[Cell]) -> tuple[tuple[tuple[Cell, ...], tuple[Cell, ...]], ...]:
    return tuple(_house_spot_iter(key, occupied))


def house_placements(m: JSON, occupied: Iterable[Sequence[int]]) -> list[JSON]:
    """Every legal {"cells": house squares, "garden": garden squares} for a new house."""
    return [{"cells": _out(h), "garden": _out(y)} for h, y in _house_spots(map_key(m), _frozen(occupied))]


def has_house_placement(m: JSON, occupied: Iterable[Sequence[int]]) -> bool:
    """Whether `house_placements` would list anything."""
    return next(_house_spot_iter(map_key(m), _frozen(occupied)), None) is not None


def house_squares(m: JSON, occupied: Iterable[Sequence[int]]) -> list[tuple[Cell, ...]]:
    """The distinct house squares of `house_placements`, sorted."""
    out: list[tuple[Cell, ...]] = []
    for h, _ in _house_spots(map_key(m), _frozen(occupied)):
        if not out or out[-1] != h:
            out.append(h)
    return out


def house_gardens(m: JSON, occupied: Iterable[Sequence[int]], house: tuple[Cell, ...]) -> list[list[list[int]]]:
    """The gardens of `house_placements` whose house squares are `house` (sorted), in the listing's order."""
    key = map_key(m)
    g = _geometry(key)
    top = house[0] if house else (-1, -1)
    if not (0 <= top[0] < g.rows - 1 and 0 <= top[1] < g.cols - 1) or list(house) != _rect(top, 2, 2):
        return []
    free, by_road = _free_now(key, _frozen(occupied))
    if not all(x in free for x in house):
        return []
    return [_out(yard) for yard in garden_sides(list(house))
            if all(x in free for x in yard) and any(x in by_road for x in [*house, *yard])]


def _printed_numbers(g: Geometry) -> set[int]:
    return {n for n, _ in g.houses}


def check_garden(m: JSON, occupied: Iterable[Sequence[int]], house: JSON,
                 garden: Sequence[Sequence[int]]) -> str | None:
    """None if this garden may be added to this printed house (§5.4), else an error code."""
    g = geometry(m)
    if house["number"] not in _printed_numbers(g):
        return "not_printed_house"
    if house.get("garden"):
        return "has_garden"
    yard = _client_cells(garden)
    if yard is None or not _garden_shape_ok(as_cells(house["cells"]), yard):
        return "bad_shape"
    return _free(g, _occupied_set(occupied), yard)


def garden_placements(m: JSON, occupied: Iterable[Sequence[int]], house: JSON) -> list[list[list[int]]]:
    """Every legal garden (2 squares) for a printed house without one; [] otherwise."""
    g = geometry(m)
    if house["number"] not in _printed_numbers(g) or house.get("garden"):
        return []
    occ = _occupied_set(occupied)
    return [_out(yard) for yard in garden_sides(as_cells(house["cells"])) if not _free(g, occ, yard)]


# ---------------------------------------------------------------- campaigns


def _shapes(size: Sequence[int]) -> list[tuple[int, int]]:
    a, b = size[0], size[1]
    return [(a, b)] if a == b else [(a, b), (b, a)]


def check_campaign(m: JSON, occupied: Iterable[Sequence[int]], cells: Sequence[Sequence[int]],
                   size: Sequence[int], *, entrances: Iterable[Sequence[int]] | None = None,
                   reach: int | None = None) -> str | None:
    """None if an on-board campaign of `size` may cover `cells` (§4.3), else an error code.

    With `entrances` and `reach`, the placement must also be in road range (§7.4).
    """
    g = geometry(m)
    sq = _client_cells(cells)
    if sq is None or not any(_is_rect(sq, h, w) for h, w in _shapes(size)):
        return "bad_shape"
    problem = _free(g, _occupied_set(occupied), sq)
    if problem:
        return problem
    if not _by_road(g, sq):
        return "not_by_road"
    if reach is not None and not in_marketing_range(m, entrances or [], sq, reach):
        return "out_of_range"
    return None


def _campaign_fits(free: frozenset[Cell], by_road: frozenset[Cell], square_costs: Mapping[Cell, int] | None,
                   reach: int | None, sq: list[Cell]) -> bool:
    if not all(x in free for x in sq) or not any(x in by_road for x in sq):
        return False
    if square_costs is not None and reach is not None:
        got = min((square_costs[x] for x in sq if x in square_costs), default=None)
        if got is None or got > reach:
            return False
    return True


def _campaign_spot_iter(key: MapKey, occupied: frozenset[Cell], size: tuple[int, int],
                        entrances: tuple[Cell, ...] | None, reach: int | None) -> Iterator[tuple[Cell, ...]]:
    g = _geometry(key)
    free, by_road = _free_now(key, occupied)
    costs = _square_costs(key, entrances or ()) if reach is not None else None
    for h, w in _shapes(size):
        for r in range(g.rows - h + 1):
            for c in range(g.cols - w + 1):
                if (r, c) not in free:  # the north-west square, before building the footprint
                    continue
                sq = _rect((r, c), h, w)
                if _campaign_fits(free, by_road, costs, reach, sq):
                    yield tuple(sq)


@lru_cache(maxsize=256)
def _campaign_spots(key: MapKey, occupied: frozenset[Cell], size: tuple[int, int],
                    entrances: tuple[Cell, ...] | None, reach: int | None) -> tuple[tuple[Cell, ...], ...]:
    return tuple(sorted(_campaign_spot_iter(key, occupied, size, entrances, reach)))


def campaign_placements(m: JSON, occupied: Iterable[Sequence[int]], size: Sequence[int], *,
                        entrances: Iterable[Sequence[int]] | None = None,
                        reach: int | None = None) -> list[list[list[int]]]:
    """Every legal footprint (cells) for an on-board campaign of `size`, optionally within road range."""
    ents = None if reach is None else _entrance_key(entrances or [])
    spots = _campaign_spots(map_key(m), _frozen(occupied), (size[0], size[1]), ents, reach)
    return [_out(sq) for sq in spots]


def has_campaign_placement(m: JSON, occupied: Iterable[Sequence[int]], size: Sequence[int], *,
                           entrances: Iterable[Sequence[int]] | None = None, reach: int | None = None) -> bool:
    """Whether `campaign_placements` would list anything."""
    ents = None if reach is None else _entrance_key(entrances or [])
    return _has_campaign_spot(map_key(m), _frozen(occupied), (size[0], size[1]), ents, reach)


# A step asks this for every campaign tile in the supply: tiles of one size share the answer.
@lru_cache(maxsize=256)
def _has_campaign_spot(key: MapKey, occupied: frozenset[Cell], size: tuple[int, int],
                       entrances: tuple[Cell, ...] | None, reach: int | None) -> bool:
    return next(_campaign_spot_iter(key, occupied, size, entrances, reach), None) is not None


def campaign_spot_ok(m: JSON, occupied: Iterable[Sequence[int]], size: Sequence[int], cells: Sequence[Cell], *,
                     entrances: Iterable[Sequence[int]] | None = None, reach: int | None = None) -> bool:
    """Whether `campaign_placements` lists `cells` (sorted row-major)."""
    key = map_key(m)
    g = _geometry(key)
    sq = list(cells)
    if not sq:
        return False
    top = sq[0]
    shapes = [(h, w) for h, w in _shapes(size) if sq == _rect(top, h, w)]
    if not any(0 <= top[0] <= g.rows - h and 0 <= top[1] <= g.cols - w for h, w in shapes):
        return False
    free, by_road = _free_now(key, _frozen(occupied))
    costs = _square_costs(key, _entrance_key(entrances or [])) if reach is not None else None
    return _campaign_fits(free, by_road, costs, reach, sq)


def check_airplane(m: JSON, edge: str, offset: int, covers: int) -> str | None:
    """None if an airplane beside `edge` flying over `covers` lines from `offset` fits the board."""
    if edge not in EDGES:
        return "bad_edge"
    g = geometry(m)
    lines = g.cols if edge in ("N", "S") else g.rows
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= lines - covers:
        return "off_map"
    return None


def airplane_placements(m: JSON, covers: int) -> list[JSON]:
    """Every {"edge", "offset"} where an airplane covering `covers` rows/columns fits (§4.3)."""
    g = geometry(m)
    out: list[JSON] = []
    for edge in EDGES:
        lines = g.cols if edge in ("N", "S") else g.rows
        out.extend({"edge": edge, "offset": k} for k in range(lines - covers + 1))
    return out
