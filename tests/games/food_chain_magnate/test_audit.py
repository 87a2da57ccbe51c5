"""Rules audit against the spec: each test quotes the rule it checks."""

from __future__ import annotations

from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.phases.working import turn
from tests.games.food_chain_magnate.helpers import MAP_ALPHA, add_restaurant, give, hand_made, invariant, sq

ME, OTHER = "0", "1"


def _working(*cards: str, step: str, beach: tuple[str, ...] = (), held: tuple[str, ...] = ()) -> dict:
    """Seat 0 starting its working turn on map alpha with `held` milestones earned in an earlier round."""
    state = hand_made(2, MAP_ALPHA)
    add_restaurant(state, ME, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, OTHER, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    give(state, ME, "work", *cards)
    give(state, ME, "beach", *beach)
    state["p"][ME]["milestones"] = {m: state["round"] - 1 for m in held}
    state["work"] = {"index": -1, "seat": None, "step": None}
    turn._next_player(state, [])
    state["work"]["step"] = step
    return state


def _empty_pile(state: dict, card: str) -> None:
    """Give every copy of a pile to the other seat (its hand), so the supply has none."""
    give(state, OTHER, "hand", *[card] * state["supply"][card])


# §6.3.2.3: "Availability: the card trained into at the end of the sequence must be in the supply;
# intermediate cards of a multi-step training (or of a hire-and-train) need not be."
# §3 #18 / §6.3.2.5: "With first_to_pay_20_salaries: any training actions may be combined on one card"
# (rulebook: "with 2 trainers and a coach, you could now train a management trainee up to an executive
# vice president in one turn").
def test_combined_training_needs_only_the_final_card() -> None:
    state = _working("trainer", "trainer", "coach", step="train", beach=("management_trainee",),
                     held=("first_to_pay_20_salaries",))
    for pile in ("junior_vice_president", "vice_president", "senior_vice_president"):
        _empty_pile(state, pile)
    to_evp = {"type": "train", "by": 0, "card": "management_trainee", "into": "executive_vice_president",
              "again": False}
    assert to_evp in ENGINE.actions(state, ME)
    state = ENGINE.apply(state, ME, to_evp).state
    p = state["p"][ME]
    assert p["beach"] == ["executive_vice_president"]
    assert all(t["left"] == 0 for t in p["r"]["trainers"])
    invariant(state)


def test_combined_training_spends_the_named_card_first() -> None:
    state = _working("trainer", "coach", step="train", beach=("management_trainee", "kitchen_trainee"),
                     held=("first_to_pay_20_salaries",))
    _empty_pile(state, "junior_vice_president")
    to_vp = {"type": "train", "by": 0, "card": "management_trainee", "into": "vice_president", "again": False}
    assert to_vp in ENGINE.actions(state, ME)
    state = ENGINE.apply(state, ME, to_vp).state
    assert [t["left"] for t in state["p"][ME]["r"]["trainers"]] == [0, 1]
    assert {"type": "train", "by": 1, "card": "kitchen_trainee", "into": "burger_cook",
            "again": False} in ENGINE.actions(state, ME)


def test_without_the_salary_milestone_one_card_trains_one_card() -> None:
    state = _working("trainer", "trainer", step="train", beach=("management_trainee",))
    _empty_pile(state, "junior_vice_president")
    assert not [a for a in ENGINE.actions(state, ME) if a.get("into") == "vice_president"]


# §6.3.1.3: "If an entry pile is empty, the player may still hire that type only if they immediately
# train it in this round's training step into a card that is available ('phantom': ... only the final
# card must exist)"; with first_to_pay_20_salaries the training may combine several training cards.
def test_phantom_hire_trained_by_combined_training_cards() -> None:
    state = _working("trainer", "trainer", step="recruit", held=("first_to_pay_20_salaries",))
    _empty_pile(state, "management_trainee")
    _empty_pile(state, "junior_vice_president")
    phantom = {"type": "hire", "card": "management_trainee", "train_by": 0, "into": "vice_president"}
    assert phantom in ENGINE.actions(state, ME)
    state = ENGINE.apply(state, ME, phantom).state
    p = state["p"][ME]
    assert p["beach"] == ["vice_president"] and p["r"]["hires"] == 1
    assert all(t["left"] == 0 for t in p["r"]["trainers"])
    invariant(state)
