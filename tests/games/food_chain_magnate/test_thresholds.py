"""Milestone and Payday rules checked exactly at their thresholds (spec §3 #8, #17, #18; §6.4 step 4; §6.5 step 2).

Other tests check these rules above and below the threshold. These tests check the exact value and one step
below it, so a rule written one off (`>` for `>=`, or no floor) fails. Cash comes from waitresses' tips
($3 each, no sale needed), so the amounts are easy to follow.
"""

from __future__ import annotations

import pytest

from app.games.food_chain_magnate.phases.dinnertime import dinnertime
from app.games.food_chain_magnate.phases.payday import pay_salaries, resolve_firing, salary_due, start_payday
from tests.games.food_chain_magnate.helpers import MAP_ALPHA, give, hand_made, invariant

RED, BLUE = "0", "1"


def _cash(state: dict, seat: str, amount: int) -> None:
    state["p"][seat]["cash"] += amount
    state["money_total"] += amount


def _dinner_with_tips(start_cash: int, milestone: str) -> dict:
    """Red has `start_cash` and two waitresses at work (+$6 at Dinnertime); nothing is sold."""
    state = hand_made(2, MAP_ALPHA, bank=500, milestones=[milestone])
    _cash(state, RED, start_cash)
    give(state, RED, "work", "waitress", "waitress")
    events: list[dict] = []
    dinnertime(state, events)
    invariant(state)
    return state


# §3 #8 "Your cash is ≥ $20 at any moment", §6.4 step 4 "award first_to_have_20 when cash ≥ 20".
@pytest.mark.parametrize(("start", "cash", "gets"), [(14, 20, True), (13, 19, False)])
def test_first_to_have_20_at_exactly_20(start: int, cash: int, gets: bool) -> None:
    state = _dinner_with_tips(start, "first_to_have_20")
    assert state["p"][RED]["cash"] == cash
    assert ("first_to_have_20" in state["p"][RED]["milestones"]) is gets


# §3 #17 "Your cash is ≥ $100 at the end of phase 4", §6.4 step 4.
@pytest.mark.parametrize(("start", "cash", "gets"), [(94, 100, True), (93, 99, False)])
def test_first_to_have_100_at_exactly_100(start: int, cash: int, gets: bool) -> None:
    state = _dinner_with_tips(start, "first_to_have_100")
    assert state["p"][RED]["cash"] == cash
    assert ("first_to_have_100" in state["p"][RED]["milestones"]) is gets


def _payday(hires: int, milestones: dict[str, int] | None = None, *salaried: str) -> dict:
    """Red at Payday with $50, a Recruiting Manager at work (2 recruiting actions) and `hires` hires this round;
    Blue owns nothing. `salaried` are further salaried cards on Red's beach."""
    state = hand_made(2, MAP_ALPHA, bank=300, milestones=["first_to_pay_20_salaries"])
    _cash(state, RED, 50)
    give(state, RED, "work", "recruiting_manager")
    give(state, RED, "beach", *salaried)
    p = state["p"][RED]
    p["r"]["hires"], p["r"]["girls"], p["r"]["rm_cap"] = hires, 0, 2
    p["milestones"] = dict(milestones or {})
    start_payday(state, [])
    return state


FIVE_SALARIED = ("burger_cook", "pizza_cook", "cart_operator", "truck_driver")  # with the Recruiting Manager


# §3 #18 "the amount you actually pay (after all mandatory discounts) is ≥ $20", §6.5 step 5. Five salaried cards
# ($25) less the discount: one unused recruiting action (2 hires, the CEO's and one of the manager's) leaves
# exactly $20; two unused actions (1 hire) leave $15.
@pytest.mark.parametrize(("hires", "due", "gets"), [(2, 20, True), (1, 15, False)])
def test_first_to_pay_20_salaries_at_exactly_20(hires: int, due: int, gets: bool) -> None:
    state = _payday(hires, None, *FIVE_SALARIED)
    assert salary_due(state, RED) == due
    pay_salaries(state, [])
    invariant(state)
    assert state["p"][RED]["cash"] == 50 - due
    assert ("first_to_pay_20_salaries" in state["p"][RED]["milestones"]) is gets


# §6.5 step 2 "due = max(0, gross − discounts)" and §3 #2 "total never below $0": discounts larger than the
# salaries make the chain pay nothing, and never pay it. Red owns one salaried card ($5) against two unused
# recruiting actions ($10) and First to train ($15): $20 more discount than salary.
def test_salaries_due_never_go_below_zero() -> None:
    state = _payday(0, {"first_to_train": 1})
    assert salary_due(state, RED) == 0
    bank = state["bank"]
    resolve_firing(state, [])
    assert state["queue"] == []
    events: list[dict] = []
    pay_salaries(state, events)
    invariant(state)
    assert state["p"][RED]["cash"] == 50 and state["bank"] == bank
    assert [e["amount"] for e in events if e["type"] == "salaries_paid" and e["player"] == RED] == [0]


# The floor is exactly $0: salaries equal to the discounts cost nothing, $5 more costs $5.
@pytest.mark.parametrize(("salaried", "due"), [(FIVE_SALARIED, 0), ((*FIVE_SALARIED, "zeppelin_pilot"), 5)])
def test_salaries_due_at_the_floor(salaried: tuple[str, ...], due: int) -> None:
    # $5 (the Recruiting Manager) + $5 per card, against $10 (two unused actions) + $15 (First to train)
    state = _payday(0, {"first_to_train": 1}, *salaried)
    assert salary_due(state, RED) == due
