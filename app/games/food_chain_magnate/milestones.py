"""Milestones (§3): awarding, effects that start immediately, and who holds what."""

from __future__ import annotations

from app.games.food_chain_magnate.data import MILESTONES
from app.games.toolkit import JSON


def holds(state: JSON, seat: str, milestone: str) -> bool:
    """Whether the seat holds the milestone (whenever it was earned)."""
    return milestone in state["p"][seat]["milestones"]


def held_before_this_round(state: JSON, seat: str, milestone: str) -> bool:
    """Whether the milestone was earned in an earlier round (effects that start next round)."""
    earned = state["p"][seat]["milestones"].get(milestone)
    return earned is not None and earned < state["round"]


def supply_left(state: JSON, card_id: str) -> int:
    """Copies of a card in the supply that are not earmarked for a phantom hire."""
    earmarked = sum(1 for ph in state.get("phantoms", []) if ph["into"] == card_id)
    return int(state["supply"][card_id]) - earmarked


def award(state: JSON, seat: str, milestone: str, events: list[JSON]) -> None:
    """Give a milestone if it is still in play; shared by everyone meeting it this round (§3)."""
    if milestone not in state["milestones_available"] or holds(state, seat, milestone):
        return
    state["p"][seat]["milestones"][milestone] = state["round"]
    if milestone not in state["milestones_round"]:
        state["milestones_round"].append(milestone)
    events.append({"type": "milestone", "player": seat, "milestone": milestone, "visible_to": None})
    free = MILESTONES[milestone]["params"].get("free_cards", {})
    for card_id, count in free.items():
        take = max(0, min(count, supply_left(state, card_id)))
        if take:
            state["supply"][card_id] -= take
            state["p"][seat]["beach"].extend([card_id] * take)
            events.append({"type": "free_cards", "player": seat, "card": card_id, "count": take,
                           "visible_to": None})


def check_cash_milestones(state: JSON, seat: str, events: list[JSON]) -> None:
    """`first_to_have_20` after any change of cash (R20)."""
    if state["p"][seat]["cash"] >= 20:
        award(state, seat, "first_to_have_20", events)


def retire_claimed(state: JSON) -> None:
    """Clean up: every type awarded this round leaves the game (§3.3)."""
    state["milestones_available"] = [m for m in state["milestones_available"]
                                     if m not in state["milestones_round"]]
    state["milestones_round"] = []
