"""Phase 7, clean up (§6.7): throw away stock (or freeze up to 10), cards home, restaurants open."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.data import GOODS, MILESTONES
from app.games.food_chain_magnate.milestones import award, held_before_this_round, retire_claimed
from app.games.food_chain_magnate.players import active_seats, stock_total
from app.games.toolkit import JSON

FREEZER = int(MILESTONES["first_to_throw_away"]["params"]["freezer_capacity"])


def _discard(state: JSON, seat: str, good: str, count: int, events: list[JSON]) -> None:
    state["p"][seat]["stock"][good] -= count
    events.append({"type": "discarded", "player": seat, "good": good, "count": count, "visible_to": None})
    award(state, seat, "first_to_throw_away", events)


def start_cleanup(state: JSON, events: list[JSON]) -> None:
    """Discard stock; chains with a working freezer and more than 10 tokens choose what to throw away."""
    state["phase"] = "cleanup"
    state["queue"] = []
    for s in active_seats(state):
        p = state["p"][s]
        if held_before_this_round(state, s, "first_to_throw_away"):
            if stock_total(p) > FREEZER:
                state["queue"].append(s)
            continue
        for good in GOODS:
            if p["stock"][good]:
                _discard(state, s, good, p["stock"][good], events)


def cleanup_actions(state: JSON, seat: str) -> list[JSON]:
    """Throw away some tokens of one good, until only 10 are left."""
    if seat not in state["queue"]:
        return []
    p = state["p"][seat]
    excess = stock_total(p) - FREEZER
    return [{"type": "discard", "good": g, "count": n}
            for g in GOODS for n in range(1, min(p["stock"][g], excess) + 1)]


def apply_cleanup(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Discard; a chain down to 10 tokens is done."""
    if action not in cleanup_actions(state, seat):
        raise IllegalAction("cannot_discard", "Throw away tokens you hold, down to 10.")
    _discard(state, seat, action["good"], action["count"], events)
    if stock_total(state["p"][seat]) <= FREEZER:
        state["queue"].remove(seat)


def finish_cleanup(state: JSON, events: list[JSON]) -> None:
    """Cards back to hand, restaurants open, claimed milestones retire, bankrupt chains leave."""
    for s in active_seats(state):
        p = state["p"][s]
        p["hand"] = sorted(p["hand"] + p["work"] + p["beach"])
        p["work"], p["beach"] = [], []
        p["r"]["drive_in"] = False
    for r in state["restaurants"]:
        if not r["open"] and not r.get("dead"):
            r["open"] = True
            events.append({"type": "restaurant_opened", "restaurant": r["id"], "player": r["owner"],
                           "visible_to": None})
    retire_claimed(state)
    for s in active_seats(state):
        if state["p"][s]["bankrupt"]:
            leave_game(state, s, events)


def leave_game(state: JSON, seat: str, events: list[JSON]) -> None:
    """A bankrupt chain is out: cards to the supply, restaurants stay as dead buildings (§6.9)."""
    p = state["p"][seat]
    for c in p["hand"] + p["work"] + p["beach"] + [b["card"] for b in p["busy"]]:
        state["supply"][c] += 1
    p["hand"], p["work"], p["beach"], p["busy"] = [], [], [], []
    p["stock"] = {g: 0 for g in GOODS}
    p["out"] = True
    for r in state["restaurants"]:
        if r["owner"] == seat:
            r["dead"] = True
    events.append({"type": "left_game", "player": seat, "visible_to": None})
