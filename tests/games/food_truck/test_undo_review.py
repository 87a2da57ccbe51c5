"""Undo review: a step may be taken back only while it revealed nothing, drew nothing, closed no other player's
window and is not final by rule (docs/architecture/game-contract.md, `undoable`)."""

from __future__ import annotations

import random

from app.games.food_truck import ENGINE
from tests.games.contract import seats

from .helpers import act


def _prep(n: int = 2) -> dict:
    return ENGINE.new_game(seats(n), 4, {"trucks": "random", "first_player": "1"})


def test_placing_the_last_card_submits_the_order_and_cannot_be_taken_back() -> None:
    # R4 / F20: the last `place` completes and submits the order; the other seat is still building its own, so
    # Prep goes on, but the submitted order can no longer be changed, not even by taking the step back.
    s = _prep()
    hand = list(s["seats"]["0"]["hand"])
    for card in hand[:-1]:
        s, _ = act(s, "0", {"type": "place", "card": card})
    applied = ENGINE.apply(s, "0", {"type": "place", "card": hand[-1]})
    assert applied.state["phase"] == "prep" and applied.state["seats"]["0"]["ready"]
    assert ENGINE.awaiting(applied.state) == ["1"]
    assert applied.undoable is False


def test_private_ordering_steps_stay_undoable_and_show_nothing_to_others() -> None:
    # The steps that only build one's own secret order (R4, R6) may be taken back: others' views do not change.
    r = random.Random(7)
    for game in range(30):
        s = ENGINE.new_game(seats(3), game, {"trucks": "random"})
        for _ in range(300):
            waiting = ENGINE.awaiting(s)
            if not waiting:
                break
            seat = r.choice(waiting)
            applied = ENGINE.apply(s, seat, r.choice(ENGINE.actions(s, seat)))
            if applied.undoable:
                assert seat in ENGINE.awaiting(applied.state) and applied.state["rng"] == s["rng"]
                assert all(e["visible_to"] == [seat] for e in applied.events)
                for other in [p for p in s["players"] if p != seat] + [None]:
                    assert ENGINE.view(applied.state, other) == ENGINE.view(s, other)
            s = applied.state
