"""The bank: payments in and out, and breaking the bank (§6.8)."""

from __future__ import annotations

from collections import Counter

from app.games.food_chain_magnate.data import RESERVE_CARDS
from app.games.food_chain_magnate.milestones import check_cash_milestones
from app.games.toolkit import JSON


def breaks_to_end(state: JSON) -> int:
    """The break that ends the game: the first in the introductory game, else the second."""
    return 1 if state["options"]["intro"] else 2


def game_ending(state: JSON) -> bool:
    """Whether the final break has happened (the game ends at the close of this Dinnertime)."""
    return bool(state["breaks"] >= breaks_to_end(state))


def ceo_slot_vote(reserves: list[str]) -> int:
    """Most frequent slot vote among the reserve cards; ties go to the highest vote."""
    votes = Counter(RESERVE_CARDS[r]["ceo_slots_vote"] for r in reserves)
    best = max(votes.values())
    return max(v for v, n in votes.items() if n == best)


def break_bank(state: JSON, events: list[JSON]) -> None:
    """Resolve a break: the first reveals the reserves and refills; the last ends the game."""
    state["breaks"] += 1
    events.append({"type": "bank_broken", "breaks": state["breaks"], "visible_to": None})
    if game_ending(state):
        return
    reserves = [state["p"][s]["reserve"] for s in state["players"]]
    added = sum(RESERVE_CARDS[r]["amount"] for r in reserves)
    state["bank"] += added
    state["money_total"] += added
    state["reserves_revealed"] = True
    state["ceo_slots_next"] = ceo_slot_vote(reserves)
    events.append({"type": "reserves_revealed", "reserves": {s: state["p"][s]["reserve"] for s in state["players"]},
                   "added": added, "ceo_slots": state["ceo_slots_next"], "visible_to": None})


def pay_out(state: JSON, seat: str, amount: int, events: list[JSON]) -> None:
    """The bank pays `amount` to a player, breaking when it runs dry; after the last break it pays on paper."""
    remaining = amount
    while remaining > 0:
        if game_ending(state):
            state["bank"] -= remaining
            state["p"][seat]["cash"] += remaining
            remaining = 0
            break
        part = min(remaining, state["bank"])
        state["bank"] -= part
        state["p"][seat]["cash"] += part
        remaining -= part
        if state["bank"] <= 0:
            break_bank(state, events)
    check_cash_milestones(state, seat, events)


def pay_in(state: JSON, seat: str, amount: int) -> None:
    """A player pays `amount` into the bank (the caller makes sure they can)."""
    state["p"][seat]["cash"] -= amount
    state["bank"] += amount
