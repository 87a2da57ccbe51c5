"""A full Food Truck Champion state that a seat cannot tell from the real one.

What a seat may not know: the deck and its order, the other players' hands, their face-down Completed tickets,
the values of their popularity tokens and their secret critique picks. The unseen cards are dealt at random
into those places, and the other players' tokens are dealt from the tokens gone from the stacks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.food_truck_champion.data import CARD_IDS, TOKEN_VALUES, TRUCKS, stack_shape
from app.games.rng import Rng
from app.games.toolkit import JSON

# What a view adds to a board for drawing it; the state does not hold it.
DRAWN_ONLY = ("hand_count", "completed_count", "token_count", "capacity")


def strings_in(doc: Any) -> set[str]:
    """Every string value anywhere in a JSON document (not its keys): the cards and tickets it names among them."""
    found: set[str] = set()
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def tokens_gone(view: JSON) -> Counter[int]:
    """The popularity tokens taken from the stacks so far, by value."""
    start = stack_shape(len(view["players"])).count("P")
    return Counter({int(v): start - view["stacks"][v].count("P") for v in TOKEN_VALUES})


def state_board(board: JSON) -> JSON:
    """A viewed board as the state holds it (without the drawing aids)."""
    out = {k: v for k, v in board.items() if k not in DRAWN_ONLY}
    out["plating"] = [{"card": slot["card"], "on": list(slot["on"])} for slot in board["plating"]]
    for zone in ("fridge", "hired_staff", "awards"):
        out[zone] = list(board[zone])
    out["gray"] = dict(board["gray"])
    return out


def sample_state(view: JSON, seat: str, rng: Rng) -> JSON:
    """The view made a state again, the unseen cards and tokens dealt at random."""
    seen = strings_in(view)
    pool = [c for c in CARD_IDS if c not in seen]
    rng.shuffle(pool)
    tokens = tokens_gone(view)
    boards: JSON = {}
    for s, board in view["boards"].items():
        out = state_board(board)
        if board["hand"] is not None:
            out["hand"] = list(board["hand"])
            out["completed"] = list(board["completed"])
            out["tokens"] = list(board["tokens"])
            tokens.subtract(board["tokens"])
        boards[s] = out
    left = [v for v, k in sorted(tokens.items()) for _ in range(max(0, k))]
    rng.shuffle(left)
    for s, board in view["boards"].items():
        if board["hand"] is not None:
            continue
        out = boards[s]
        # The Owner card is the one hand card everyone can name: it went there in public.
        owner = [owner_card(board["truck"])] if board["owner"] == "hand" else []
        out["hand"] = owner + [pool.pop() for _ in range(board["hand_count"] - len(owner))]
        # A Starting Order seen nowhere else was completed: it is not a game card, so it is not in the pool.
        start = (
            [starting_order(board["truck"])]
            if board["completed_count"] and starting_order(board["truck"]) not in seen
            else []
        )
        out["completed"] = start + [pool.pop() for _ in range(board["completed_count"] - len(start))]
        out["tokens"] = [left.pop() if left else 1 for _ in range(board["token_count"])]
    state = {k: v for k, v in view.items() if k not in ("deck_count", "awaiting", "final", "viewer", "boards")}
    state["boards"] = boards
    state["deck"] = pool[: view["deck_count"]]
    state["rng"] = rng.below(1 << 62)
    state["players"] = list(view["players"])
    state["order"] = list(view["order"])
    state["discard"] = list(view["discard"])
    state["removed"] = list(view["removed"])
    state["market"] = [list(pile) for pile in view["market"]]
    state["stacks"] = {v: list(stack) for v, stack in view["stacks"].items()}
    state["box_tokens"] = dict(view["box_tokens"])
    if view["neutral"] is not None:
        state["neutral"] = {**view["neutral"], "stack": list(view["neutral"]["stack"])}
    state["round"] = sample_round(view["round"], seat, boards, rng)
    return state


def starting_order(truck: str) -> str:
    """The Starting Order ticket of a truck."""
    return str(TRUCKS[truck]["starting_order"])


def owner_card(truck: str) -> str:
    """The Owner card of a truck."""
    return str(TRUCKS[truck]["owner_card"])


def sample_round(rnd: JSON | None, seat: str, boards: JSON, rng: Rng) -> JSON | None:
    """The action round, another player's secret critique pick guessed among their Completed tickets."""
    if rnd is None:
        return None
    out = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in rnd.items()}
    if rnd.get("critique") is not None:
        picks: JSON = {}
        for s, pick in rnd["critique"].items():
            if s == seat or not isinstance(pick, bool):
                picks[s] = pick
            elif pick:
                completed = boards[s]["completed"]
                picks[s] = completed[rng.below(len(completed))] if completed else None
            else:
                picks[s] = None
        out["critique"] = picks
    return out
