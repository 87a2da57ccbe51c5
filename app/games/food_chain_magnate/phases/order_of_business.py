"""Phase 2, order of business (§6.2): most open slots choose their track position first."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.employees import structure_capacity
from app.games.food_chain_magnate.milestones import held_before_this_round
from app.games.food_chain_magnate.players import active_seats
from app.games.toolkit import JSON


def open_slots(state: JSON, seat: str) -> int:
    """Open slots of the revealed structure (CEO slots when penalised), +2 with the airplane milestone."""
    p = state["p"][seat]
    if p["r"].get("penalised"):
        slots = int(state["ceo_slots"])
    else:
        slots = structure_capacity(p["work"], state["ceo_slots"])[1]
    return slots + (2 if held_before_this_round(state, seat, "first_airplane_campaign") else 0)


def start_order_of_business(state: JSON, events: list[JSON]) -> None:
    """Rank the seats by open slots, ties to the earlier previous position."""
    seats = active_seats(state)
    prev = state["prev_order"]
    slots = {s: open_slots(state, s) for s in seats}
    queue = sorted(seats, key=lambda s: (-slots[s], prev.index(s)))
    events.append({"type": "order_of_business", "open_slots": slots, "choosing_order": queue, "visible_to": None})
    state["phase"] = "order_of_business"
    state["queue"] = queue
    state["positions"] = {}


def free_positions(state: JSON) -> list[int]:
    """Track positions 1..N not yet taken."""
    n = len(active_seats(state))
    return [k for k in range(1, n + 1) if k not in state["positions"].values()]


def order_actions(state: JSON, seat: str) -> list[JSON]:
    """Any free position, for the seat whose turn it is to choose."""
    if not state["queue"] or state["queue"][0] != seat:
        return []
    return [{"type": "position", "position": k} for k in free_positions(state)]


def apply_order(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Take a position; the last seat gets the last free one automatically."""
    if action not in order_actions(state, seat):
        raise IllegalAction("position_taken", "Choose a free position on the turn-order track.")
    _take(state, seat, action["position"], events)
    if len(state["queue"]) == 1:
        _take(state, state["queue"][0], free_positions(state)[0], events)


def _take(state: JSON, seat: str, position: int, events: list[JSON]) -> None:
    state["positions"][seat] = position
    state["queue"].pop(0)
    events.append({"type": "position_taken", "player": seat, "position": position, "visible_to": None})


def finish_order_of_business(state: JSON) -> None:
    """This round's turn order from the track; seats out of the game stay at the back."""
    placed = sorted(state["positions"], key=lambda s: state["positions"][s])
    state["turn_order"] = placed + [s for s in state["turn_order"] if s not in placed]
    state["positions"] = {}
