"""Market Research (draw two, discard down to the hand limit) and Take Charge (Owner card to hand)."""

from __future__ import annotations

from app.games.food_truck_champion.data import CARDS, HAND_LIMIT, TRUCKS
from app.games.food_truck_champion.zones import (
    Events,
    draw_card,
    event,
    hand_limit_excess,
    is_owner_card,
)
from app.games.toolkit import JSON

DRAW_COUNT = 2


def market_research(state: JSON, seat: str, ev: Events) -> None:
    """Draw two cards one at a time; if the hand exceeds the limit, ask the player to discard."""
    board = state["boards"][seat]
    drawn: list[str] = []
    for _ in range(DRAW_COUNT):
        card = draw_card(state, ev)
        if card is None:
            break
        drawn.append(card)
    board["hand"].extend(drawn)
    ev.append(event("market_research", seat=seat, count=len(drawn)))
    if drawn:
        # The dish names ride along so the drawer's log can name the cards before any view shows them.
        dishes = [CARDS[c]["ticket"]["dish"] for c in drawn]
        ev.append(event("drew", [seat], seat=seat, cards=drawn, dishes=dishes))
    if hand_limit_excess(board, HAND_LIMIT):
        state["pending"] = {"kind": "discard", "seat": seat}


def discard_options(board: JSON) -> list[JSON]:
    """Discard choices: any hand card except the Owner card, which is never discarded."""
    return [{"type": "discard", "card": card} for card in board["hand"] if not is_owner_card(card)]


def discard(state: JSON, seat: str, card: str, ev: Events) -> None:
    """Discard one hand card; the pending discard ends once the hand is back at the limit."""
    board = state["boards"][seat]
    board["hand"].remove(card)
    state["discard"].append(card)
    ev.append(event("discarded", seat=seat, card=card))
    if not hand_limit_excess(board, HAND_LIMIT):
        state["pending"] = None


def can_take_charge(board: JSON) -> bool:
    """Take Charge needs the Owner card lying face-down on the board."""
    return board["owner"] == "board"


def take_charge(state: JSON, seat: str, ev: Events) -> None:
    """Move the Owner card from the board into the hand (no hand-limit check)."""
    board = state["boards"][seat]
    board["owner"] = "hand"
    board["hand"].append(owner_card(board))
    ev.append(event("took_charge", seat=seat))


def owner_card(board: JSON) -> str:
    """The id of the board's Owner card."""
    return str(TRUCKS[board["truck"]]["owner_card"])
