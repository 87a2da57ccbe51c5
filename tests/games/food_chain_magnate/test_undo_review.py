"""Undo review: a step may be taken back only while it revealed nothing, drew nothing, closed no other player's
window and is not final by rule (docs/architecture/game-contract.md, `undoable`)."""

from __future__ import annotations

import random

from app.games.food_chain_magnate import ENGINE
from tests.games.food_chain_magnate.helpers import short_of_cash_at_payday

A = "0"


def test_a_secret_payday_firing_step_can_be_taken_back() -> None:
    # E9: the firing choices are secret until all have submitted; a step of one is seen only by the chooser.
    applied = ENGINE.apply(short_of_cash_at_payday(), A, {"type": "fire", "card": "burger_cook", "from": "work"})
    assert applied.state["phase"] == "payday_firing"
    assert [e["visible_to"] for e in applied.events] == [[A]]
    assert applied.undoable is True


def test_a_forced_firing_is_public_and_cannot_be_taken_back() -> None:
    # §6.5 step 3, E9: the forced firing after the secret one is carried out in the open, one card at a time: the
    # card goes back to the supply before everyone. A is still short of cash and awaited, but the firing is done.
    state = ENGINE.apply(short_of_cash_at_payday(), A, {"type": "submit"}).state
    assert state["phase"] == "payday_forced" and ENGINE.awaiting(state) == [A]
    applied = ENGINE.apply(state, A, {"type": "fire", "card": "burger_cook", "from": "work"})
    assert ENGINE.awaiting(applied.state) == [A]
    assert [e["visible_to"] for e in applied.events if e["type"] == "fired"] == [None]
    assert applied.undoable is False


def test_undoable_steps_show_the_other_seats_nothing_but_a_placement_in_progress() -> None:
    # Over seeded games: a step that may be taken back leaves the generator alone, keeps its mover awaited, tells
    # only the mover, and changes no other seat's view except the public placement being narrowed down (E1).
    r = random.Random(3)
    for game in range(3):
        s = ENGINE.new_game(["0", "1", "2"], game)
        for _ in range(400):
            waiting = ENGINE.awaiting(s)
            if not waiting:
                break
            seat = r.choice(waiting)
            legal = ENGINE.actions(s, seat)
            action = ENGINE.bot_action(ENGINE.view(s, seat), seat, r.randrange(10**6)) if r.random() < 0.7 else r.choice(legal)
            applied = ENGINE.apply(s, seat, action)
            if applied.undoable:
                assert seat in ENGINE.awaiting(applied.state) and applied.state["rng"] == s["rng"]
                assert all(e["visible_to"] == [seat] for e in applied.events)
                for other in [p for p in s["players"] if p != seat] + [None]:
                    before, after = ENGINE.view(s, other), ENGINE.view(applied.state, other)
                    assert {**after, "pending": None} == {**before, "pending": None}
            s = applied.state
