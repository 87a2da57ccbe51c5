"""Phase 1, restructuring (§6.1): secret choice of the cards put to work, revealed together."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.data import MILESTONE_ORDER, MILESTONES
from app.games.food_chain_magnate.employees import gives_drive_in, structure_capacity
from app.games.food_chain_magnate.milestones import award
from app.games.food_chain_magnate.players import active_seats, at_work, new_round_book
from app.games.toolkit import JSON

# The "played" milestones, read from their trigger codes "at_work_on_reveal:<card>|<card>".
PLAYED_MILESTONES: dict[str, list[str]] = {
    m: MILESTONES[m]["trigger"]["event"].split(":", 1)[1].split("|")
    for m in MILESTONE_ORDER if MILESTONES[m]["trigger"]["event"].startswith("at_work_on_reveal:")
}


def start_round(state: JSON, events: list[JSON]) -> None:
    """A new round: new CEO slots if the bank broke, fresh bookkeeping, secret choices open."""
    state["round"] += 1
    if state["ceo_slots_next"] is not None:
        state["ceo_slots"] = state["ceo_slots_next"]
        state["ceo_slots_next"] = None
    state["prev_order"] = list(state["turn_order"])
    events.append({"type": "round_started", "round": state["round"], "visible_to": None})
    state["secret"] = {}
    for s in active_seats(state):
        p = state["p"][s]
        p["r"] = new_round_book()
        state["secret"][s] = {"work": [], "done": not p["hand"]}
    state["phase"] = "restructuring"


def restructuring_actions(state: JSON, seat: str) -> list[JSON]:
    """Add one more hand card to the set going to work, take one back out of it, or submit the set."""
    mine = state["secret"].get(seat)
    if not mine or mine["done"]:
        return []
    hand = state["p"][seat]["hand"]
    chosen = mine["work"]
    out: list[JSON] = [{"type": "work", "card": c} for c in sorted(set(hand)) if hand.count(c) > chosen.count(c)]
    out.extend({"type": "take_back", "card": c} for c in sorted(set(chosen)))
    out.append({"type": "submit"})
    return out


def apply_restructuring(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Record a secret choice step; reveal everything once all have submitted."""
    if action not in restructuring_actions(state, seat):
        raise IllegalAction("bad_structure_choice", "You cannot put that card to work.")
    mine = state["secret"][seat]
    if action["type"] == "work":
        mine["work"].append(action["card"])
        events.append({"type": "work_chosen", "player": seat, "card": action["card"], "visible_to": [seat]})
        return
    if action["type"] == "take_back":
        mine["work"].remove(action["card"])
        events.append({"type": "work_taken_back", "player": seat, "card": action["card"], "visible_to": [seat]})
        return
    mine["done"] = True
    events.append({"type": "structure_submitted", "player": seat, "visible_to": None})


def all_submitted(state: JSON) -> bool:
    """Whether every seat's structure is in."""
    return all(v["done"] for v in state["secret"].values())


def reveal_structures(state: JSON, events: list[JSON]) -> None:
    """Put the chosen cards to work (or only the CEO when over-committed); award the 'played' milestones."""
    for s in active_seats(state):
        p = state["p"][s]
        chosen = list(state["secret"].get(s, {"work": []})["work"])
        feasible, _open = structure_capacity(chosen, state["ceo_slots"])
        rest = list(p["hand"])
        if feasible:
            for c in chosen:
                rest.remove(c)
            p["work"] = sorted(chosen)
        else:
            p["work"] = []
        p["beach"] = sorted(rest)
        p["hand"] = []
        p["r"]["penalised"] = not feasible
        p["r"]["drive_in"] = gives_drive_in(p["work"])
        events.append({"type": "structure_revealed", "player": s, "work": list(p["work"]),
                       "beach": list(p["beach"]), "over_committed": not feasible, "visible_to": None})
    for s in active_seats(state):
        p = state["p"][s]
        for milestone, cards in PLAYED_MILESTONES.items():
            if any(at_work(p, c) for c in cards):
                award(state, s, milestone, events)
    state["secret"] = {}
