"""The person's plan in the Food Chain Magnate browser test, as pure functions of the view: what to do next.

tests/e2e/test_fcm.py clicks whatever `decide` chooses; tests/games/food_chain_magnate/test_e2e_plan.py plays the same
plan straight against the engine and the server's bot on random maps, which the browser test meets one at a time
(a table's seed is random).

The plan: one billboard of pizza, from a marketing trainee, beside a house on the roads of the first restaurant, and
kitchen trainees cooking what that house wants. The server's bot only cooks burgers this early, so a house that wants
pizza buys it from us, and one that wants both (the bot's billboard reaches it too) buys it once we cook both.

What goes wrong on some random maps, and what the plan does about it:
- The first restaurant must leave a billboard spot beside a house on its roads. Its own four squares are no spot, and
  the billboard tiles at two players are 2x1, 3x1 and 3x2 (`site_value`).
- The bot's restaurant can take the squares beside our houses: while it has not placed its restaurant we pass (it
  never passes, so we place right after it, knowing where it is).
- The bot places its first billboard before ours in round 2 when its chain is first in turn order (both chains put
  one marketeer to work, so round 1's order stays), and takes one tile and spot, perhaps the only ones left beside our
  houses: we pick the site that can still sell whatever it takes, beside a billboard of ours or to a house its
  billboard reaches that we are nearer to than the bot (it buys from the nearest chain with the food).
- A billboard beside a house off our roads sells nothing and keeps the marketeer busy for good (the first billboards
  are eternal): we place one only beside a house on our roads.
- A few maps leave no such site (some have no house at all): `prospects` says so before we place, and the browser test
  deals a new table then.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.data import CAMPAIGNS
from app.games.food_chain_magnate.employees import card, structure_capacity

JSON = dict[str, Any]
Cell = tuple[int, int]
Footprint = frozenset[Cell]
Spot = tuple[int, Footprint]  # a billboard tile's number and the squares it would cover

# What the person hires, round by round: a marketeer for the billboard, cooks for the pizza, else waitresses.
HIRES = {1: "marketing_trainee", 2: "kitchen_trainee", 3: "kitchen_trainee", 5: "kitchen_trainee"}
MARKETEER = "marketing_trainee"
FOODS = ("burger", "pizza")


def billboard_tiles(view: JSON) -> list[int]:
    """The billboard tiles still in the supply (one of each size at two players)."""
    return [n for n in view["campaign_supply"] if CAMPAIGNS[n]["type"] == "billboard"]


def our_entrances(view: JSON, seat: str) -> list[list[int]]:
    p = view["p"][seat]
    drive_in = bool((p.get("r") or {}).get("drive_in"))
    return fcm_map.chain_entrances([r for r in view["restaurants"] if not r.get("dead")], seat, drive_in)


def served_houses(view: JSON, entrances: list[list[int]]) -> set[int]:
    """The houses on the roads of these entrances (the only ones that can buy from us)."""
    return {h["number"] for h in view["houses"] if fcm_map.house_distance(view["map"], entrances, h) is not None}


def reach(view: JSON, cells: list[list[int]]) -> set[int]:
    return set(fcm_map.campaign_reach(view["map"], view["houses"], {"type": "billboard", "cells": cells}))


def footprint(cells: list[list[int]]) -> Footprint:
    return frozenset((int(r), int(c)) for r, c in cells)


def billboards_at_houses(view: JSON, taken: set[Cell]) -> dict[Spot, tuple[list[list[int]], set[int]]]:
    """Every free spot of a billboard tile in the supply beside a road and a house, with the houses."""
    out: dict[Spot, tuple[list[list[int]], set[int]]] = {}
    for number in billboard_tiles(view):
        for cells in fcm_map.campaign_placements(view["map"], taken, CAMPAIGNS[number]["size"]):
            if houses := reach(view, cells):
                out[(number, footprint(cells))] = (cells, houses)
    return out


def good_spots(view: JSON, billboards: dict[Spot, tuple[list[list[int]], set[int]]],
               entrances: list[list[int]]) -> dict[Spot, set[int]]:
    """The billboard footprints a marketing trainee at these entrances could take, with the houses on their roads
    each reaches (those reaching none left out)."""
    served = served_houses(view, entrances)
    trainee_range = card(MARKETEER)["range"]["value"]
    return {f: houses & served for f, (cells, houses) in billboards.items()
            if houses & served and fcm_map.in_marketing_range(view["map"], entrances, cells, trainee_range)}


def rival_billboards(view: JSON, seat: str, taken: set[Cell]) -> list[tuple[int, Footprint, set[int]]]:
    """The tiles and spots another chain's marketing trainee could take with its first billboard, with the houses
    each reaches (they will want that chain's food)."""
    trainee_range = card(MARKETEER)["range"]["value"]
    out: list[tuple[int, Footprint, set[int]]] = []
    for other in view["players"]:
        entrances = our_entrances(view, other) if other != seat else []
        if not entrances:
            continue
        for number in billboard_tiles(view):
            out.extend((number, footprint(c), reach(view, c)) for c in fcm_map.campaign_placements(
                view["map"], taken, CAMPAIGNS[number]["size"], entrances=entrances, reach=trainee_range))
    return out


def nearer_than_rivals(view: JSON, seat: str, entrances: list[list[int]]) -> set[int]:
    """The houses these entrances are strictly nearer to than every other chain's: they buy from us first when we
    have what they want, whatever the waitresses and the turn order (prices are all $10 this early)."""
    rivals = [e for s in view["players"] if s != seat for e in our_entrances(view, s)]
    out = set()
    for h in view["houses"]:
        ours = fcm_map.house_distance(view["map"], entrances, h)
        theirs = fcm_map.house_distance(view["map"], rivals, h) if rivals else None
        if ours is not None and (theirs is None or ours < theirs):
            out.add(h["number"])
    return out


def site_value(view: JSON, seat: str, site: JSON, spots: dict[Spot, set[int]],
               rivals: list[tuple[int, Footprint, set[int]]]) -> tuple[int, int, int, float]:
    """How good a first restaurant on this site is for the plan: (the houses we can still sell to whichever tile
    and spot a rival chain before us in turn order takes with its first billboard: beside one of our own billboards,
    or one its billboard reaches that we are nearer to; the houses our billboards can reach; their spots; closeness
    to all houses)."""
    here = footprint(site["cells"])
    spots = {s: h for s, h in spots.items() if not s[1] & here}
    houses = set().union(*spots.values())
    worst = len(houses)
    if view["turn_order"][0] != seat:  # the bot chooses its first billboard before us (round 2 keeps this order)
        nearer = nearer_than_rivals(view, seat, [site["entrance"]])
        for number, rival, reached in rivals:
            if rival & here:
                continue  # the rival cannot put it there once we stand there
            left = set().union(*(h for (n, f), h in spots.items() if n != number and not f & rival))
            worst = min(worst, len(left | (reached & nearer)))
    closeness = sum(1 / (1 + d) for h in view["houses"]
                    if (d := fcm_map.house_distance(view["map"], [site["entrance"]], h)) is not None)
    return worst, len(houses), len(spots), closeness


def ranked_sites(view: JSON, acts: list[JSON], seat: str) -> list[tuple[tuple[int, int, int, float], JSON]]:
    """The listed restaurant sites ({"cells", "entrance"}) with their site_value, best first."""
    m = view["map"]
    taken = fcm_map.occupied_cells(m, view["houses"], view["restaurants"], view["campaigns"])
    forbidden = [fcm_map.tile_of(r["entrance"]) for r in view["restaurants"]]
    sites = fcm_map.restaurant_placements(m, taken, forbidden_entrance_tiles=forbidden)
    pending = view.get("pending") or {}
    doors = [a["entrance"] for a in acts if a["type"] == "restaurant_entrance"]
    if doors:
        sites = [s for s in sites if s["cells"][0] == pending.get("cell") and s["entrance"] in doors]
    else:
        anchors = [a["cell"] for a in acts if a["type"] == "restaurant_at"]
        sites = [s for s in sites if s["cells"][0] in anchors]
    assert sites, f"no restaurant site among {acts[:3]}"
    rivals = rival_billboards(view, seat, taken)
    billboards = billboards_at_houses(view, taken)
    by_door: dict[Cell, dict[Spot, set[int]]] = {}
    scored = []
    for site in sites:
        door = (site["entrance"][0], site["entrance"][1])
        if door not in by_door:  # a restaurant only takes away the spots on its own squares (site_value)
            by_door[door] = good_spots(view, billboards, [site["entrance"]])
        scored.append((site_value(view, seat, site, by_door[door], rivals), site))
    scored.sort(key=lambda x: x[0], reverse=True)  # stable: the first listed of equal sites
    return scored


def waits_for_rivals(view: JSON, acts: list[JSON], seat: str) -> bool:
    """Whether to pass at the first restaurant placement: another chain has yet to place (the bot never passes, so
    we place right after it)."""
    return {"type": "pass"} in acts and not any(r["owner"] != seat for r in view["restaurants"])


def prospects(view: JSON, acts: list[JSON], seat: str) -> int:
    """At our first restaurant placement: how many houses the best site still lets us sell to, whatever the rival's
    first billboard does (0: this map cannot promise a sale to the plan)."""
    return ranked_sites(view, acts, seat)[0][0][0]


def site_choice(view: JSON, acts: list[JSON], seat: str) -> JSON:
    """The best site's top-left square, then its door."""
    best = ranked_sites(view, acts, seat)[0][1]
    if any(a["type"] == "restaurant_entrance" for a in acts):
        return {"type": "restaurant_entrance", "entrance": best["entrance"]}
    return {"type": "restaurant_at", "cell": best["cells"][0]}


def restaurant_choice(view: JSON, acts: list[JSON], seat: str) -> JSON:
    """Pass while the bot has not placed its restaurant; else the best site."""
    return {"type": "pass"} if waits_for_rivals(view, acts, seat) else site_choice(view, acts, seat)


def spot_value(view: JSON, seat: str, cells: list[list[int]]) -> tuple[int, int, int, int] | None:
    """A billboard footprint's worth to us: None unless it reaches a house on our roads; better when such a house
    is reached by no other campaign (it will want only our pizza), when it reaches more of them and when they are
    nearer."""
    entrances = our_entrances(view, seat)
    houses = reach(view, cells) & served_houses(view, entrances)
    if not houses:
        return None
    others = {n for c in view["campaigns"] for n in fcm_map.campaign_reach(view["map"], view["houses"], c)}
    distances = [d for h in view["houses"] if h["number"] in houses
                 and (d := fcm_map.house_distance(view["map"], entrances, h)) is not None]
    return int(bool(houses - others)), len(houses - others), len(houses), -min(distances)


def best_spot(view: JSON, seat: str, spots: list[list[list[int]]]) -> tuple[tuple[int, ...], list[list[int]]] | None:
    scored = [(v, cells) for cells in spots if (v := spot_value(view, seat, cells)) is not None]
    return max(scored, key=lambda x: x[0]) if scored else None


def billboard_tile(view: JSON, seat: str, tiles: list[JSON]) -> JSON | None:
    """The billboard tile (the smaller on a tie) with the best spot in range beside a house on our roads, if any."""
    m = view["map"]
    taken = fcm_map.occupied_cells(m, view["houses"], view["restaurants"], view["campaigns"])
    entrances = our_entrances(view, seat)
    best: tuple[tuple[tuple[int, ...], int], JSON] | None = None
    for tile in tiles:
        trainee_range = card(tile["marketeer"])["range"]["value"]
        spots = fcm_map.campaign_placements(m, taken, CAMPAIGNS[tile["number"]]["size"], entrances=entrances,
                                            reach=trainee_range)
        found = best_spot(view, seat, spots)
        if found is not None and (best is None or (found[0], tile["number"]) > best[0]):
            best = ((found[0], tile["number"]), tile)
    return best[1] if best else None


def our_houses(view: JSON, seat: str) -> list[int]:
    """The houses on our roads that our campaigns reach, by number."""
    served = served_houses(view, our_entrances(view, seat))
    reached = {n for c in view["campaigns"] if c["owner"] == seat
               for n in fcm_map.campaign_reach(view["map"], view["houses"], c)}
    return sorted(served & reached)


def food_to_cook(view: JSON, seat: str) -> str:
    """The food a house that would buy from us still misses for its whole order, the house missing the fewest
    first: one our billboard reaches (no rival cooks pizza this early), or one we are nearer to than the rivals."""
    stock = Counter({g: n for g, n in view["p"][seat]["stock"].items() if n})
    best: tuple[int, int, str] | None = None
    nearer = nearer_than_rivals(view, seat, our_entrances(view, seat))
    for number in sorted(set(our_houses(view, seat)) | nearer):
        wants = Counter(view["demand"].get(str(number), []))
        if not wants or set(wants) - set(FOODS):
            continue
        missing = wants - stock
        if missing:
            food = "pizza" if missing["pizza"] else "burger"
            key = (sum(missing.values()), number, food)
            if best is None or key < best:
                best = key
    return best[2] if best else "pizza"


def structure_choice(view: JSON, acts: list[JSON], seat: str, plan: JSON) -> JSON:
    """Every hand card that still fits goes to work, in name order (kitchen, marketing, waitress); the first time
    a card is placed, it is taken back once (the renderer's pyramid click), then placed again."""
    chosen = view["secret"][seat]["work"]
    if chosen and not plan.get("took_back"):
        return {"type": "take_back", "card": chosen[0]}
    for a in sorted((a for a in acts if a["type"] == "work"), key=lambda a: a["card"]):
        if structure_capacity([*chosen, a["card"]], view["ceo_slots"])[0]:
            return a
    return {"type": "submit"}


def work_choice(view: JSON, acts: list[JSON], seat: str, plan: JSON) -> JSON:
    step = view["work"]["step"]
    kinds = {a["type"] for a in acts}
    if step == "recruit":
        hire = {"type": "hire", "card": HIRES.get(view["round"], "waitress")}
        if hire in acts:
            return hire
    elif step == "marketing":
        if "advertise" in kinds:
            longest = max(a["duration"] for a in acts if a["type"] == "advertise" and a["good"] == "pizza")
            return {"type": "advertise", "good": "pizza", "duration": longest}
        spots = [a for a in acts if a["type"] == "campaign_at"]
        if spots:
            found = best_spot(view, seat, [a["cells"] for a in spots])
            assert found is not None, "the billboard tile was chosen for a spot that is gone"
            return next(a for a in spots if a["cells"] == found[1])
        tiles = [a for a in acts if a["type"] == "campaign" and CAMPAIGNS[a["number"]]["type"] == "billboard"]
        tile = billboard_tile(view, seat, tiles) if not our_houses(view, seat) else None
        if tile is not None:  # else none in range reaches a house on our roads now: a later round may
            return tile
    elif step == "food_and_drinks":
        food = food_to_cook(view, seat)
        cooks = [a for a in acts if a["type"] == "produce" and a["good"] == food]
        if cooks:
            return cooks[0]
    return {"type": "done"}


def decide(view: JSON, acts: list[JSON], seat: str, plan: JSON) -> JSON:
    """The person's next move, one of `acts`. `plan` holds what the test noted: took_back."""
    phase = view["phase"]
    if phase == "first_restaurants":
        return restaurant_choice(view, acts, seat)
    if phase == "reserve":
        return {"type": "reserve", "card": "reserve_100"}
    if phase == "restructuring":
        return structure_choice(view, acts, seat, plan)
    if phase == "order_of_business":
        return min((a for a in acts if a["type"] == "position"), key=lambda a: a["position"])
    if phase == "payday_firing":
        return {"type": "submit"}
    if phase in ("payday_forced", "cleanup"):
        return acts[0]  # short of cash for a free cook's salary, or a freezer too full: the first card or good
    if phase == "working":
        return work_choice(view, acts, seat, plan)
    raise AssertionError(f"unexpected phase {phase} with actions {acts[:3]}")
