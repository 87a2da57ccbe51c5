"""Working step 4b, buyers collect drinks (§6.3.4, §7.5, §7.6)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import entrances_of
from app.games.food_chain_magnate.data import DRINKS
from app.games.food_chain_magnate.employees import ability, card, cards_of_kind
from app.games.food_chain_magnate.milestones import holds
from app.games.food_chain_magnate.players import unused_at_work, use
from app.games.toolkit import JSON

ROUTE_BUYERS = cards_of_kind("drinks_road_route", "drinks_air_route")
ANY_DRINK_BUYERS = cards_of_kind("drinks_any")


def per_source(state: JSON, seat: str, buyer: str) -> int:
    """Drinks per source (or the errand boy's drinks), +1 with the errand-boy milestone."""
    ab = ability(buyer)
    base = int(ab.get("per_source", ab.get("amount", 0)))
    return base + (1 if holds(state, seat, "first_errand_boy_played") else 0)


def buyer_range(state: JSON, seat: str, buyer: str) -> int:
    """Route range, +1 with the cart-operator milestone (errand boys have none)."""
    return int(card(buyer)["range"]["value"]) + (1 if holds(state, seat, "first_cart_operator_played") else 0)


def source_sets(state: JSON, seat: str, buyer: str) -> list[list[list[int]]]:
    """Distinct non-empty sets of drink sources one route of this buyer can collect."""
    entrances = entrances_of(state, seat)
    if not entrances:
        return []
    reach = buyer_range(state, seat, buyer)
    if ability(buyer)["kind"] == "drinks_air_route":
        tiles = sorted({tuple(fcm_map.tile_of(e)) for e in entrances})
        sets = fcm_map.air_route_source_sets(state["map"], [list(t) for t in tiles], reach)
    else:
        sets = fcm_map.road_route_source_sets(state["map"], entrances, reach)
    return [s for s in sets if s]


def drink_actions(state: JSON, seat: str) -> list[JSON]:
    """Errand boys pick a drink type; route buyers pick a collectable set of sources."""
    p = state["p"][seat]
    out: list[JSON] = []
    for buyer in ANY_DRINK_BUYERS:
        if unused_at_work(p, buyer) > 0:
            out.extend({"type": "buy", "card": buyer, "drink": d} for d in DRINKS)
    for buyer in ROUTE_BUYERS:
        if unused_at_work(p, buyer) > 0:
            out.extend({"type": "buy", "card": buyer, "sources": s} for s in source_sets(state, seat, buyer))
    return out


def buy(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Put the collected drinks into stock."""
    if action not in drink_actions(state, seat):
        raise IllegalAction("cannot_buy", "That buyer cannot collect those drinks now.")
    p = state["p"][seat]
    buyer = action["card"]
    n = per_source(state, seat, buyer)
    got = {action["drink"]: n} if buyer in ANY_DRINK_BUYERS else fcm_map.drinks_of(state["map"], action["sources"], n)
    use(p, buyer)
    for drink, amount in got.items():
        p["stock"][drink] += amount
    events.append({"type": "drinks_collected", "player": seat, "card": buyer, "drinks": dict(got),
                   "visible_to": None})
