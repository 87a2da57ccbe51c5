"""Setup decisions (§1.4, §1.5): first restaurants from last to first, then the secret reserve cards."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.board import if_equal
from app.games.food_chain_magnate.data import RESERVE_CARDS
from app.games.food_chain_magnate.phases.working.restaurants import (
    choose_spot,
    has_restaurant_spot,
    put_restaurant,
    spot_actions,
    spot_candidates,
)
from app.games.toolkit import JSON


def first_restaurant_actions(state: JSON, seat: str) -> list[JSON]:
    """The placing player's squares/entrance choices, plus passing in the first pass."""
    if state["pending"] is None:
        state = {**state, "pending": {"kind": "restaurant", "purpose": "setup"}}
    out = spot_actions(state, seat)
    if (state["setup"]["pass"] == 1 or not out) and "cell" not in state["pending"]:
        out.append({"type": "pass"})
    return out


def first_restaurant_candidates(state: JSON, seat: str, action: JSON) -> list[JSON] | None:
    """The actions of `first_restaurant_actions` equal to `action` (by ==), found without listing every
    spot; None for an action of another type."""
    if state["pending"] is None:
        state = {**state, "pending": {"kind": "restaurant", "purpose": "setup"}}
    kind = action.get("type")
    if kind in ("restaurant_at", "restaurant_entrance"):
        return spot_candidates(state, seat, action)
    if kind == "pass":
        if "cell" in state["pending"]:
            return []
        may_pass = state["setup"]["pass"] == 1 or not has_restaurant_spot(state, seat, "setup")
        return if_equal({"type": "pass"}, action) if may_pass else []
    return None


def apply_first_restaurant(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Place (in two small choices) or pass; then move along the setup queue."""
    setup = state["setup"]
    if action.get("type") == "pass":
        if action not in (first_restaurant_candidates(state, seat, action) or []):
            raise IllegalAction("cannot_pass", "Everyone who passed must place a restaurant now.")
        if setup["pass"] == 1:
            setup["passed"].append(seat)
        events.append({"type": "passed", "player": seat, "visible_to": None})
        _next_placer(state)
        return
    if state["pending"] is None:
        state["pending"] = {"kind": "restaurant", "purpose": "setup"}
    try:
        spot = choose_spot(state, seat, action, events)
    except IllegalAction:
        if "cell" not in state["pending"]:
            state["pending"] = None
        raise
    if spot is None:
        return
    state["pending"] = None
    put_restaurant(state, seat, spot, True, events)
    _next_placer(state)


def _next_placer(state: JSON) -> None:
    setup = state["setup"]
    setup["queue"].pop(0)
    if setup["queue"]:
        return
    if setup["pass"] == 1 and setup["passed"]:
        setup["pass"] = 2
        setup["queue"] = [s for s in state["turn_order"] if s in setup["passed"]]
        return
    if state["options"]["intro"]:
        state["phase"] = "start_round"
    else:
        state["phase"] = "reserve"
        state["secret"] = {s: {"reserve": None, "done": False} for s in state["players"]}


def reserve_actions(state: JSON, seat: str) -> list[JSON]:
    """One of the three reserve cards, face down."""
    if state["secret"][seat]["done"]:
        return []
    return [{"type": "reserve", "card": c} for c in RESERVE_CARDS]


def apply_reserve(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Record the secret choice; when all are in, the game's first round begins."""
    if action not in reserve_actions(state, seat):
        raise IllegalAction("bad_reserve", "Choose one of your reserve cards: +$100, +$200 or +$300.")
    state["secret"][seat] = {"reserve": action["card"], "done": True}
    events.append({"type": "reserve_chosen", "player": seat, "card": action["card"], "visible_to": [seat]})
    events.append({"type": "reserve_ready", "player": seat, "visible_to": None})
    if all(v["done"] for v in state["secret"].values()):
        for s, v in state["secret"].items():
            state["p"][s]["reserve"] = v["reserve"]
        state["secret"] = {}
        state["phase"] = "start_round"
