"""A full Food Chain Magnate state that a seat cannot tell from the real one.

Nearly everything is open in Food Chain Magnate: what a seat may not know is the other players' reserve cards
(until the bank first breaks) and their secret choices in progress (reserve, cards put to work, firings),
besides the generator. Reserves are guessed at random; another player's secret choice is guessed as empty.
"""

from __future__ import annotations

from app.games.food_chain_magnate.board import STATIC
from app.games.food_chain_magnate.data import RESERVE_CARDS
from app.games.food_chain_magnate.view import HIDDEN
from app.games.rng import Rng
from app.games.toolkit import JSON, copy_json, copy_state

RESERVES = sorted(RESERVE_CARDS)
# The empty secret choice of each phase that has one.
EMPTY_CHOICE: dict[str, JSON] = {"reserve": {"reserve": None}, "restructuring": {"work": []}, "payday_firing": {"fire": []}}


def sample_state(view: JSON, seat: str, rng: Rng) -> JSON:
    """The view made a state again, with the hidden reserves and secret choices guessed."""
    state: JSON = copy_state(view, STATIC)
    for p in state["p"].values():
        if p["reserve"] == HIDDEN:
            p["reserve"] = RESERVES[rng.below(len(RESERVES))]
    for s, choice in (state.get("secret") or {}).items():
        if s != seat and set(choice) == {"done"}:
            guess = copy_json(EMPTY_CHOICE.get(state["phase"], {}))
            if state["phase"] == "reserve" and choice["done"]:
                guess["reserve"] = RESERVES[rng.below(len(RESERVES))]
            state["secret"][s] = {**guess, "done": choice["done"]}
    state["rng"] = rng.below(1 << 62)
    return state
