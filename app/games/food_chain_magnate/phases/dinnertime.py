"""Phase 4, dinnertime (§6.4): houses buy from the cheapest connected chain that has everything."""

from __future__ import annotations

from collections import Counter

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.bank import pay_out
from app.games.food_chain_magnate.board import entrances_of
from app.games.food_chain_magnate.data import DRINKS, MILESTONES
from app.games.food_chain_magnate.employees import ability, cards_of_kind, kind_at_work
from app.games.food_chain_magnate.milestones import award, held_before_this_round, holds
from app.games.food_chain_magnate.players import active_seats
from app.games.toolkit import JSON

BASE_PRICE = 10
WAITRESS = cards_of_kind("waitress")[0]
SALE_BONUS = {"burger": "first_burger_marketed", "pizza": "first_pizza_marketed",
              **{d: "first_drink_marketed" for d in DRINKS}}


def price_parts(state: JSON, seat: str) -> list[JSON]:
    """What moves the unit price off $10: price cards at work (grouped) and the lower-prices milestone."""
    p = state["p"][seat]
    parts: list[JSON] = []
    for card in sorted(set(p["work"])):
        if ability(card)["kind"] == "price":
            count = p["work"].count(card)
            parts.append({"source": card, "count": count, "delta": count * int(ability(card)["delta"])})
    if holds(state, seat, "first_to_lower_prices"):
        parts.append({"source": "first_to_lower_prices", "count": 1,
                      "delta": int(MILESTONES["first_to_lower_prices"]["params"]["price_delta"])})
    return parts


def unit_price(state: JSON, seat: str) -> int:
    """$10 adjusted by pricing, discount and luxuries managers at work and the lower-prices milestone."""
    return BASE_PRICE + sum(int(part["delta"]) for part in price_parts(state, seat))


def sale_bonus(state: JSON, seat: str, good: str) -> int:
    """+$5 per item with the matching 'marketed' milestone (never doubled)."""
    milestone = SALE_BONUS[good]
    return int(MILESTONES[milestone]["params"]["sale_bonus"]["amount"]) if holds(state, seat, milestone) else 0


def waitress_tip(state: JSON, seat: str) -> int:
    """$3 per waitress, $5 with the waitress milestone."""
    if holds(state, seat, "first_waitress_played"):
        return int(MILESTONES["first_waitress_played"]["params"]["waitress_tip"])
    return int(ability(WAITRESS)["tip"])


def has_cfo(state: JSON, seat: str) -> bool:
    """A CFO at work, or a CEO doing CFO work thanks to the $100 milestone from an earlier round."""
    p = state["p"][seat]
    return bool(kind_at_work(p["work"], "cfo")) or held_before_this_round(state, seat, "first_to_have_100")


def consider_chain(state: JSON, seat: str, house: JSON, need: Counter[str]) -> JSON:
    """One chain's bid for a house: price, distance, total, waitresses, or why it cannot serve."""
    p = state["p"][seat]
    bid: JSON = {"player": seat, "unit_price": unit_price(state, seat), "distance": None, "total": None,
                 "waitresses": len(kind_at_work(p["work"], "waitress"))}
    if p["bankrupt"]:
        bid["reason"] = "bankrupt"
        return bid
    entrances = entrances_of(state, seat)
    dist = fcm_map.house_distance(state["map"], entrances, house) if entrances else None
    if dist is None:
        bid["reason"] = "not_connected" if entrances else "no_open_restaurant"
        return bid
    bid["distance"] = dist
    bid["total"] = bid["unit_price"] + dist
    missing = {g: n - p["stock"][g] for g, n in sorted(need.items()) if p["stock"][g] < n}
    if missing:
        bid["reason"] = "missing_goods"
        bid["missing"] = missing
    return bid


def _rank_key(state: JSON, bid: JSON) -> tuple[int, int, int]:
    # Lowest price + distance, then most waitresses, then earliest in this round's turn order (§6.4 1.4).
    return (int(bid["total"]), -int(bid["waitresses"]), state["turn_order"].index(bid["player"]))


def why_lost(state: JSON, bid: JSON, winner: JSON) -> str:
    """The tie-break level at which a serving chain lost to the winner."""
    if bid["total"] > winner["total"]:
        return "higher_total"
    if bid["waitresses"] < winner["waitresses"]:
        return "fewer_waitresses"
    return "later_in_turn_order"


def serve_house(state: JSON, house: JSON, earned: dict[str, int], events: list[JSON]) -> None:
    """One house's dinner: the winning chain must serve the whole order; the event tells why it won."""
    key = str(house["number"])
    goods = state["demand"].get(key, [])
    need = Counter(goods)
    bids = [consider_chain(state, seat, house, need) for seat in active_seats(state)]
    able = sorted((b for b in bids if "reason" not in b), key=lambda b: _rank_key(state, b))
    garden = bool(house.get("garden"))
    if not able:
        events.append({"type": "no_sale", "house": house["number"], "goods": list(goods), "garden": garden,
                       "rivals": bids, "visible_to": None})
        return
    winner = able[0]
    seat = winner["player"]
    for bid in able[1:]:
        bid["reason"] = why_lost(state, bid, winner)
    p = state["p"][seat]
    price = int(winner["unit_price"])
    factor = 2 if garden else 1
    bonuses: list[JSON] = []
    for good in sorted(need):
        each = sale_bonus(state, seat, good)
        if each:
            bonuses.append({"good": good, "count": need[good], "each": each, "milestone": SALE_BONUS[good]})
    for good in goods:
        p["stock"][good] -= 1
    income = len(goods) * price * factor + sum(b["count"] * b["each"] for b in bonuses)
    del state["demand"][key]
    events.append({"type": "sale", "player": seat, "house": house["number"], "goods": list(goods),
                   "unit_price": price, "base_price": BASE_PRICE, "price_parts": price_parts(state, seat),
                   "garden": garden, "factor": factor, "distance": winner["distance"], "total": winner["total"],
                   "waitresses": winner["waitresses"], "bonuses": bonuses, "income": income,
                   "rivals": [b for b in bids if b["player"] != seat], "visible_to": None})
    earned[seat] += settle_income(state, seat, income, events)


def settle_income(state: JSON, seat: str, amount: int, events: list[JSON]) -> int:
    """Pay income from the bank; a negative amount is paid to the bank, bankrupting a chain short of cash."""
    if amount >= 0:
        pay_out(state, seat, amount, events)
        return amount
    p = state["p"][seat]
    paid = min(p["cash"], -amount)
    p["cash"] -= paid
    state["bank"] += paid
    if paid < -amount and not p["bankrupt"]:
        p["bankrupt"] = True
        events.append({"type": "bankrupt", "player": seat, "visible_to": None})
    return -paid


def dinnertime(state: JSON, events: list[JSON]) -> None:
    """Run the whole phase: houses in number order, waitresses, CFOs, cash milestones."""
    events.append({"type": "dinnertime", "visible_to": None})
    earned = {s: 0 for s in state["players"]}
    for house in sorted(state["houses"], key=lambda h: h["number"]):
        if state["demand"].get(str(house["number"])):
            serve_house(state, house, earned, events)
    for seat in active_seats(state):
        n = len(kind_at_work(state["p"][seat]["work"], "waitress"))
        if n:
            tips = n * waitress_tip(state, seat)
            events.append({"type": "waitress_tips", "player": seat, "amount": tips, "visible_to": None})
            earned[seat] += settle_income(state, seat, tips, events)
    for seat in active_seats(state):
        if has_cfo(state, seat) and earned[seat]:
            bonus = -((-earned[seat]) // 2)
            events.append({"type": "cfo_bonus", "player": seat, "amount": bonus, "visible_to": None})
            settle_income(state, seat, bonus, events)
    for seat in active_seats(state):
        if state["p"][seat]["cash"] >= 100:
            award(state, seat, "first_to_have_100", events)
