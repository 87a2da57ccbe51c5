"""Read-only questions about the table (who shows what, seat order) and small state helpers."""

from __future__ import annotations

from typing import Any

from app.games.food_truck.data import effect_of, in_card_order, is_dessert, meal_type
from app.games.toolkit import JSON

Events = list[JSON]


def event(kind: str, visible_to: list[str] | None = None, **facts: Any) -> JSON:
    """One event: its type, the facts a log line needs, and who may see it (None = everyone)."""
    return {"type": kind, **facts, "visible_to": visible_to}


def seat_after(state: JSON, seat: str) -> str:
    """The next seat clockwise."""
    players: list[str] = state["players"]
    return players[(players.index(seat) + 1) % len(players)]


def standing(state: JSON) -> list[str]:
    """Seats not eliminated this round, in seat order."""
    return [p for p in state["players"] if not state["seats"][p]["eliminated"]]


def next_standing(state: JSON, seat: str) -> str:
    """The next non-eliminated seat clockwise after `seat`."""
    nxt = seat_after(state, seat)
    while state["seats"][nxt]["eliminated"]:
        nxt = seat_after(state, nxt)
    return nxt


def showing(state: JSON, meal: str) -> list[str]:
    """Seats (eliminated ones included) with a face-up card of this meal type."""
    return [p for p in state["players"] if state["seats"][p]["served"].get(meal)]


def is_blocked(state: JSON, player: str, card: str) -> bool:
    """Whether another player has already served this card's meal (Desserts are never blocked)."""
    if is_dessert(card):
        return False
    return any(p != player for p in showing(state, meal_type(card)))


def singles(state: JSON) -> list[tuple[str, str]]:
    """(seat, meal) for every face-up Meal that is not part of a pile, in seat then data order."""
    out: list[tuple[str, str]] = []
    for p in state["players"]:
        for meal, cards in state["seats"][p]["served"].items():
            if len(cards) == 1:
                out.append((p, meal))
    return out


def current_effect(state: JSON, player: str) -> str | None:
    """The effect of the player's face-up, still unused Truck card, or None."""
    me = state["seats"][player]
    if me["truck_used"] or me["truck_current"] is None:
        return None
    return effect_of(me["truck_current"])


def add_to_collection(me: JSON, card: str) -> None:
    """Record that a player now owns a card."""
    me["collection"] = in_card_order([*me["collection"], card])


def remove_from_collection(me: JSON, card: str) -> None:
    """Record that a player no longer owns a card."""
    me["collection"] = [c for c in me["collection"] if c != card]
