"""Helpers over the per-seat part of the state: cards owned, stock, turn order."""

from __future__ import annotations

from app.games.food_chain_magnate.data import GOODS
from app.games.toolkit import JSON


def new_player() -> JSON:
    """A chain at the start of the game: CEO only, no cash, empty stock (§1.3)."""
    return {
        "cash": 0,
        "stock": {g: 0 for g in GOODS},
        "hand": [],
        "work": [],
        "beach": [],
        "busy": [],
        "milestones": {},
        "reserve": None,
        "bankrupt": False,
        "out": False,
        "r": new_round_book(),
    }


def new_round_book() -> JSON:
    """Per-round bookkeeping of one player's Working actions."""
    return {"hires": 0, "girls": 0, "rm_cap": 0, "trainers": [], "trained": [], "used": {},
            "drive_in": False}


def owned_cards(p: JSON) -> list[str]:
    """Every card the player owns except the CEO (hand, work, beach, busy)."""
    return p["hand"] + p["work"] + p["beach"] + [b["card"] for b in p["busy"]]


def owns(p: JSON, card_id: str) -> bool:
    """Whether the player owns a copy of the card anywhere."""
    return card_id in owned_cards(p)


def at_work(p: JSON, card_id: str) -> int:
    """Copies of a card at work."""
    return int(p["work"].count(card_id))


def unused_at_work(p: JSON, card_id: str) -> int:
    """Copies at work whose once-per-round action is still unused."""
    return at_work(p, card_id) - int(p["r"]["used"].get(card_id, 0))


def use(p: JSON, card_id: str) -> None:
    """Mark one copy's action as used this round."""
    p["r"]["used"][card_id] = int(p["r"]["used"].get(card_id, 0)) + 1


def active_seats(state: JSON) -> list[str]:
    """Seats still in the game, in this round's turn order."""
    return [s for s in state["turn_order"] if not state["p"][s]["out"]]


def stock_total(p: JSON) -> int:
    """Food and drink tokens held."""
    return int(sum(p["stock"].values()))
