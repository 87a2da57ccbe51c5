"""Phase 2, Acquire a Stall: the market's prices, buying, covering, slide and refill (spec 5.2)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.foodies.data import SLOT_PRICES, SPACES
from app.games.toolkit import JSON

SLOTS = list(range(1, len(SLOT_PRICES) + 1))


def price_of(slot: int) -> int:
    """The price printed under market slot `slot` (1 = leftmost)."""
    return SLOT_PRICES[slot - 1]


def affordable_slots(state: JSON, seat: str) -> list[int]:
    """Slots holding a card the seat can pay for."""
    coins = state["players"][seat]["coins"]
    return [k for k in SLOTS if state["market"][k - 1] is not None and price_of(k) <= coins]


def buy_stall(state: JSON, seat: str, slot: int, space: int, events: list[JSON]) -> None:
    """Pay the slot's price, place the card on a space (covering any stall), slide and refill."""
    if slot not in SLOTS:
        raise IllegalAction("bad_slot", f"The market has slots 1 to {len(SLOTS)}.")
    if space not in SPACES:
        raise IllegalAction("bad_space", "Your food court has spaces 1 to 9.")
    card = state["market"][slot - 1]
    if card is None:
        raise IllegalAction("empty_slot", "That market slot is empty.")
    player = state["players"][seat]
    price = price_of(slot)
    if player["coins"] < price:
        raise IllegalAction("too_poor", f"That stall costs {price} coins; you have {player['coins']}.")
    player["coins"] -= price
    covered = place_stall(state, seat, card, space)
    refill = slide_and_refill(state, slot)
    events.append({"type": "bought", "seat": seat, "card": card, "slot": slot, "price": price,
                   "space": space, "covered": covered, "visible_to": None})
    events.append({"type": "market_refilled", "card": refill, "deck_left": len(state["deck"]),
                   "visible_to": None})
    state["phase"] = "hire"


def place_stall(state: JSON, seat: str, card: str, space: int) -> str | None:
    """Put the card on the space; a covered stall leaves the game, tokens stay. Returns the covered card."""
    court = state["players"][seat]["court"]
    covered = court[space - 1]
    if covered is not None:
        state["removed"].append(covered)
    court[space - 1] = card
    return covered


def slide_and_refill(state: JSON, slot: int) -> str | None:
    """Cards left of the bought slot move one right; slot 1 takes the deck's top card (or stays empty)."""
    market = state["market"]
    for j in range(slot - 1, 0, -1):
        market[j] = market[j - 1]
    market[0] = state["deck"].pop(0) if state["deck"] else None
    return market[0]


def skip_buy(state: JSON, seat: str, events: list[JSON]) -> None:
    """Buy nothing this turn."""
    events.append({"type": "buy_skipped", "seat": seat, "visible_to": None})
    state["phase"] = "hire"
