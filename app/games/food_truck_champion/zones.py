"""Reading and moving cards between zones: deck, discard pile, market, hands and truck boards."""

from __future__ import annotations

from typing import Any

from app.games.food_truck_champion.data import CARDS, SECTIONS, START_CAPACITY, TICKETS
from app.games.toolkit import JSON

Events = list[JSON]


def event(kind: str, visible_to: list[str] | None = None, **facts: Any) -> JSON:
    """One event dict; `visible_to` None means everyone."""
    return {"type": kind, **facts, "visible_to": visible_to}


def is_owner_card(card: str) -> bool:
    """True for an Owner card id."""
    return card.startswith("owner-")


def action_of(card: str) -> str:
    """The printed staff action of a game card."""
    return str(CARDS[card]["action"])


def ingredient_of(card: str) -> str:
    """The Ingredient face of a game card."""
    return str(CARDS[card]["ingredient"])


def icons_of(ticket: str) -> list[str]:
    """The ingredient icons of a ticket (game card or Starting Order)."""
    return list(TICKETS[ticket]["icons"])


def need(slot: JSON) -> list[str]:
    """Ingredients still missing on a Plating ticket {"card", "on"}: its icons minus the placed ingredients, in
    alphabetical order."""
    missing = sorted(TICKETS[slot["card"]]["icons"])
    for card in slot["on"]:
        # Only needed ingredients are ever placed, so each placed one covers an icon.
        missing.remove(CARDS[card]["ingredient"])
    return missing


def board_to_read(state: JSON, seat: str) -> JSON:
    """A seat's truck board for a step that only reads it: inside `apply` it is not copied (it may be shared
    with the input state, so nothing may change it; a step that changes a board looks it up as usual)."""
    boards = state["boards"]
    board: JSON = boards[seat] if type(boards) is dict else boards.peek(seat)
    return board


def capacity(board: JSON, section: str) -> int:
    """Capacity of a board section: the start capacity plus tokens placed on its gray icons."""
    return START_CAPACITY[section] + int(board["gray"][section])


def capacities(board: JSON) -> dict[str, int]:
    """The capacity of every board section (as `capacity`, in one pass)."""
    gray = board["gray"]
    return {section: START_CAPACITY[section] + gray[section] for section in SECTIONS}


def accessible(state: JSON) -> list[int]:
    """Market positions (1-based) whose top card can be taken."""
    return [i + 1 for i, pile in enumerate(state["market"]) if pile]


def take_from_market(state: JSON, position: int) -> str:
    """Remove and return the top card of a market position."""
    return str(state["market"][position - 1].pop())


def draw_card(state: JSON, ev: Events) -> str | None:
    """Top card of the deck; turns the discard pile over (oldest on top, no shuffle) when the deck is empty."""
    if not state["deck"] and state["discard"]:
        state["deck"] = state["discard"]
        state["discard"] = []
        ev.append(event("deck_rebuilt", cards=len(state["deck"])))
    if not state["deck"]:
        return None
    return str(state["deck"].pop(0))


def hand_limit_excess(board: JSON, limit: int) -> int:
    """How many cards the board's owner must still discard to reach the hand limit."""
    return max(0, len(board["hand"]) - limit)
