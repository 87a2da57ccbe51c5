"""The working turn of one player: the six steps in their fixed order (§6.3)."""

from __future__ import annotations

from collections.abc import Callable

from app.games.base import IllegalAction
from app.games.food_chain_magnate.phases.working.drinks import buy, drink_actions
from app.games.food_chain_magnate.phases.working.houses import apply_house, house_actions, house_candidates
from app.games.food_chain_magnate.phases.working.marketing import (
    apply_marketing,
    marketing_actions,
    marketing_candidates,
)
from app.games.food_chain_magnate.phases.working.produce import produce, produce_actions
from app.games.food_chain_magnate.phases.working.recruit import hire, open_recruit_book, recruit_actions
from app.games.food_chain_magnate.phases.working.restaurants import (
    apply_restaurant,
    restaurant_actions,
    restaurant_candidates,
)
from app.games.food_chain_magnate.phases.working.train import (
    open_training_book,
    resolve_phantoms,
    train,
    train_actions,
)
from app.games.food_chain_magnate.players import active_seats
from app.games.toolkit import JSON

STEPS = ["recruit", "train", "marketing", "food_and_drinks", "houses", "restaurants"]


def _food_and_drinks(state: JSON, seat: str) -> list[JSON]:
    return produce_actions(state, seat) + drink_actions(state, seat)


STEP_ACTIONS: dict[str, Callable[[JSON, str], list[JSON]]] = {
    "recruit": recruit_actions,
    "train": train_actions,
    "marketing": marketing_actions,
    "food_and_drinks": _food_and_drinks,
    "houses": house_actions,
    "restaurants": restaurant_actions,
}


# Steps that can tell, for an action placing a piece, which listed actions equal it without listing them all.
STEP_CANDIDATES: dict[str, Callable[[JSON, str, JSON], list[JSON] | None]] = {
    "marketing": marketing_candidates,
    "houses": house_candidates,
    "restaurants": restaurant_candidates,
}


def _apply_food_and_drinks(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    if action.get("type") == "produce":
        produce(state, seat, action, events)
    else:
        buy(state, seat, action, events)


STEP_APPLY: dict[str, Callable[[JSON, str, JSON, list[JSON]], None]] = {
    "recruit": hire,
    "train": train,
    "marketing": apply_marketing,
    "food_and_drinks": _apply_food_and_drinks,
    "houses": apply_house,
    "restaurants": apply_restaurant,
}


def start_working(state: JSON, events: list[JSON]) -> None:
    """The first player in turn order begins with recruiting."""
    state["phase"] = "working"
    state["work"] = {"index": -1, "seat": None, "step": None}
    _next_player(state, events)


def _next_player(state: JSON, events: list[JSON]) -> None:
    seats = active_seats(state)
    w = state["work"]
    w["index"] += 1
    if w["index"] >= len(seats):
        w["seat"], w["step"] = None, None
        return
    seat = seats[w["index"]]
    w["seat"], w["step"] = seat, STEPS[0]
    p = state["p"][seat]
    open_recruit_book(p)
    open_training_book(p)
    events.append({"type": "working_turn", "player": seat, "visible_to": None})


def working_done(state: JSON) -> bool:
    """Whether every player has finished their working turn."""
    return state["work"]["seat"] is None


def working_actions(state: JSON, seat: str) -> list[JSON]:
    """The active player's options in the current step, plus moving on when nothing is half-done."""
    w = state["work"]
    if seat != w["seat"]:
        return []
    out = STEP_ACTIONS[w["step"]](state, seat)
    if state["pending"] is None:
        out.append({"type": "done"})
    return out


def working_candidates(state: JSON, seat: str, action: JSON) -> list[JSON] | None:
    """The actions of `working_actions` equal to `action` (by ==), when the step can find them without
    listing them all (a piece's placement in progress, where the list has no `done`); None otherwise."""
    w = state["work"]
    if seat != w["seat"]:
        return []
    find = STEP_CANDIDATES.get(w["step"])
    return None if find is None or state["pending"] is None else find(state, seat, action)


def apply_working(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Apply one step action or end the step; then skip steps with nothing to do."""
    w = state["work"]
    if seat != w["seat"]:
        raise IllegalAction("not_your_turn", "Another player is working now.")
    if action.get("type") == "done":
        if state["pending"] is not None:
            raise IllegalAction("finish_placement", "Finish the placement you started first.")
        _end_step(state, seat, events)
    else:
        STEP_APPLY[w["step"]](state, seat, action, events)
    settle(state, events)


def _end_step(state: JSON, seat: str, events: list[JSON]) -> None:
    w = state["work"]
    i = STEPS.index(w["step"])
    if i + 1 >= len(STEPS):
        _next_player(state, events)
        return
    w["step"] = STEPS[i + 1]
    if w["step"] == "train":
        resolve_phantoms(state, seat, events)


def settle(state: JSON, events: list[JSON]) -> None:
    """Skip every step in which the active player has nothing to do."""
    w = state["work"]
    while w["seat"] is not None and state["pending"] is None and not STEP_ACTIONS[w["step"]](state, w["seat"]):
        _end_step(state, w["seat"], events)
