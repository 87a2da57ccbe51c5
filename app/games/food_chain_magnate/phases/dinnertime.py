"""Phase 4, dinnertime (§6.4): houses buy from the cheapest connected chain that has everything."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.bank import pay_out
from app.games.food_chain_magnate.board import entrances_of
from app.games.food_chain_magnate.data import DRINKS, MILESTONES
from app.games.food_chain_magnate.employees import ability, cards_of_kind, kind_at_work
from app.games.food_chain_magnate.milestones import award, held_before_this_round, holds
from app.games.food_chain_magnate.players import active_seats

JSON = dict[str, Any]
BASE_PRICE = 10
WAITRESS = cards_of_kind("waitress")[0]
SALE_BONUS = {"burger": "first_burger_marketed", "pizza": "first_pizza_marketed",
              **{d: "first_drink_marketed" for d in DRINKS}}


def unit_price(state: JSON, seat: str) -> int:
    """$10 adjusted by pricing, discount and luxuries managers at work and the lower-prices milestone."""
    p = state["p"][seat]
    price = BASE_PRICE + sum(int(ability(c)["delta"]) for c in p["work"] if ability(c)["kind"] == "price")
    if holds(state, seat, "first_to_lower_prices"):
        price += int(MILESTONES["first_to_lower_prices"]["params"]["price_delta"])
    return price


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


def _candidates(state: JSON, house: JSON, need: Counter[str]) -> list[tuple[tuple[int, int, int], str, int]]:
    out = []
    order = state["turn_order"]
    for seat in active_seats(state):
        p = state["p"][seat]
        if p["bankrupt"] or any(p["stock"][g] < n for g, n in need.items()):
            continue
        entrances = entrances_of(state, seat)
        if not entrances:
            continue
        dist = fcm_map.house_distance(state["map"], entrances, house)
        if dist is None:
            continue
        price = unit_price(state, seat)
        out.append(((price + dist, -len(kind_at_work(p["work"], "waitress")), order.index(seat)), seat, price))
    return out


def serve_house(state: JSON, house: JSON, earned: dict[str, int], events: list[JSON]) -> None:
    """One house's dinner: the winning chain must serve the whole order."""
    key = str(house["number"])
    goods = state["demand"].get(key, [])
    need = Counter(goods)
    candidates = _candidates(state, house, need)
    if not candidates:
        return
    _score, seat, price = min(candidates)
    p = state["p"][seat]
    factor = 2 if house.get("garden") else 1
    income = 0
    for good in goods:
        p["stock"][good] -= 1
        income += price * factor + sale_bonus(state, seat, good)
    del state["demand"][key]
    events.append({"type": "sale", "player": seat, "house": house["number"], "goods": list(goods),
                   "unit_price": price, "income": income, "visible_to": None})
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
