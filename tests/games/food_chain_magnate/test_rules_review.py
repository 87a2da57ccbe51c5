"""Rules review against the spec and the published game: each test names the rule it checks."""

from __future__ import annotations

from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.phases import payday
from app.games.food_chain_magnate.phases.working import turn
from tests.games.food_chain_magnate.helpers import MAP_ALPHA, add_restaurant, give, hand_made, invariant, sq

ME, OTHER = "0", "1"


def _table() -> dict:
    state = hand_made(2, MAP_ALPHA, bank=300, milestones=["first_to_pay_20_salaries"])
    add_restaurant(state, ME, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, OTHER, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    return state


def _working_turn(state: dict) -> dict:
    """Both seats take their (empty) working turns, so the round's recruiting bookkeeping is real."""
    state["work"] = {"index": -1, "seat": None, "step": None}
    turn._next_player(state, [])
    while state["phase"] == "working" and not turn.working_done(state):
        seat = state["work"]["seat"]
        state = ENGINE.apply_listed(state, seat, {"type": "done"}).state
    return state


# Published rulebook, "First to pay $20 or more in salaries": "Note that you have to use all discounts still
# available to you at the start of phase 5. You may not voluntarily pay more salaries than you have to. (Of
# course, you may use a recruiting manager or HR director to hire an employee ... so her salary discounts
# are no longer available in phase 5)." The discounts of unused recruiting actions are fixed when Payday
# starts; firing the recruiting manager in phase 5 does not take them away (spec R13 said it did, on the
# ground that this "never helps the player" -- but it let a chain pay $20 on purpose for the milestone).
def test_recruiting_discount_survives_firing_the_recruiting_manager() -> None:
    state = _table()
    give(state, ME, "work", "recruiting_manager")
    give(state, ME, "beach", "burger_cook", "pizza_cook", "cart_operator", "coach")
    state["p"][ME]["cash"] = 50
    state["money_total"] += 50
    state = _working_turn(state)  # no hires: the CEO's action is lost, both recruiting actions are unused
    assert state["phase"] == "payday_firing"
    assert payday.salary_due(state, ME) == 5 * 5 - 2 * 5
    state = ENGINE.apply(state, ME, {"type": "fire", "card": "recruiting_manager", "from": "work"}).state
    state = ENGINE.apply(state, ME, {"type": "submit"}).state
    p = state["p"][ME]
    assert "recruiting_manager" not in p["work"]
    # 4 salaried cards left ($20) minus the two unused actions ($10): $10, not $20 and the milestone
    assert p["cash"] == 50 - 10
    assert "first_to_pay_20_salaries" not in p["milestones"]
    invariant(state)
