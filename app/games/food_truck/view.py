"""What each viewer may see: spec §2 visibility, with hidden orders and the generator removed."""

from __future__ import annotations

from typing import Any

from app.games.food_truck.data import EFFECTS, MEAL_BACKGROUNDS, MEAL_NAMES, TRUCK_NAMES, effect_of
from app.games.food_truck.setup import trucks_left
from app.games.toolkit import JSON, copy_json

_PUBLIC = ("game", "players", "options", "phase", "round", "vp_target", "first_player", "round_starter",
           "supply", "box", "turn", "step", "truck_chooser", "eliminated_this_round", "elimination_order",
           "winner", "rounds")


def _seat_view(state: JSON, seat: str, viewer: str | None) -> JSON:
    me = state["seats"][seat]
    mine = seat == viewer
    in_prep = state["phase"] == "prep"
    current = me["truck_current"]
    out: JSON = {
        "truck": me["truck"],
        "vp": me["vp"],
        "eliminated": me["eliminated"],
        "ready": me["ready"],
        # Every card a player owns arrived in public (starting hand, supply picks, swaps), so the
        # collection is public knowledge; showing it only spares players the bookkeeping.
        "collection": list(me["collection"]),
        "served": {meal: list(cards) for meal, cards in me["served"].items()},
        "desserts_served": list(me["desserts_served"]),
        "pending": me["pending"],
        "truck_current": current,
        "truck_current_effect": effect_of(current) if current else None,
        "truck_used": me["truck_used"],
        "truck_discard": list(me["truck_discard"]),
        "truck_pile_count": len(me["truck_pile"]),
        # Ruling F19: the owner sees their whole draw pile; others only its size, and nothing of an
        # order still being built during Prep.
        "draw_pile": list(me["draw_pile"]) if mine else None,
        "draw_pile_count": None if in_prep and not mine else len(me["draw_pile"]),
        "hand": list(me["hand"]) if mine else None,
    }
    return out


def redact(state: JSON, viewer: str | None, outcome: Any) -> JSON:
    """The view of `viewer` (a seat id, or None for a spectator)."""
    view: JSON = {key: copy_json(state[key]) for key in _PUBLIC}
    view["viewer"] = viewer
    view["central_deck_count"] = len(state["central_deck"])
    view["trucks_left"] = trucks_left(state) if state["phase"] == "trucks" else []
    view["seats"] = {p: _seat_view(state, p, viewer) for p in state["players"]}
    work = state["rearrange"]
    if work is None:
        view["rearrange"] = None
    elif viewer == state["turn"]:
        view["rearrange"] = {"todo": list(work["todo"]), "done": list(work["done"])}
    else:
        view["rearrange"] = {"cards": len(work["todo"]) + len(work["done"])}
    view["meal_names"] = dict(MEAL_NAMES)
    view["meal_backgrounds"] = dict(MEAL_BACKGROUNDS)
    view["effects"] = {k: dict(v, windows=list(v["windows"])) for k, v in EFFECTS.items()}
    view["truck_names"] = dict(TRUCK_NAMES)
    view["outcome"] = outcome
    return view
