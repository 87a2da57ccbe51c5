"""Setup (§1), company structure (§2.4), restructuring (§6.1) and order of business (§6.2)."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.employees import initial_supply, structure_capacity, training_targets
from tests.games import contract
from tests.games.food_chain_magnate.helpers import give, hand_made


@pytest.mark.parametrize(("n", "one_x", "tiles", "removed", "bank"),
                         [(2, 1, (3, 3), [12, 15, 16], 100), (3, 1, (3, 4), [15, 16], 150),
                          (4, 2, (4, 4), [16], 200), (5, 3, (4, 5), [], 250)])
def test_setup_table(n: int, one_x: int, tiles: tuple[int, int], removed: list[int], bank: int) -> None:
    state = ENGINE.new_game(contract.seats(n), 3)
    assert state["supply"]["cfo"] == one_x and state["supply"]["guru"] == one_x
    assert state["supply"]["management_trainee"] == 18 and state["supply"]["waitress"] == 12
    assert sum(initial_supply(5).values()) == 222
    assert (state["map"]["rows"], state["map"]["cols"]) == tiles
    assert [c for c in range(1, 17) if c not in state["campaign_supply"]] == removed
    assert state["bank"] == bank and all(p["cash"] == 0 for p in state["p"].values())
    assert sorted(state["turn_order"]) == contract.seats(n)
    assert ENGINE.awaiting(state) == [state["turn_order"][-1]]
    intro = ENGINE.new_game(contract.seats(n), 3, {"intro": True})
    assert intro["bank"] == 75 * n and intro["milestones_available"] == []


def test_career_paths() -> None:
    assert training_targets("management_trainee", 3)["senior_vice_president"] == 3
    assert training_targets("management_trainee", 4)["hr_director"] == 4
    assert training_targets("management_trainee", 4)["executive_vice_president"] == 4
    assert training_targets("waitress", 3) == {}


def test_structure_feasibility() -> None:
    assert structure_capacity(["management_trainee", "junior_vice_president", "waitress", "waitress",
                               "kitchen_trainee", "errand_boy"], 3) == (True, 2)
    assert structure_capacity(["waitress"] * 4, 3) == (False, 0)
    assert structure_capacity(["management_trainee"] * 4, 3) == (False, 0)
    assert structure_capacity(["executive_vice_president"] + ["waitress"] * 12, 3) == (True, 0)
    assert structure_capacity([], 2) == (True, 2)


def _place_first(state: dict, seat: str) -> dict:
    legal = ENGINE.actions(state, seat)
    state = ENGINE.apply(state, seat, next(a for a in legal if a["type"] == "restaurant_at")).state
    entrance = ENGINE.actions(state, seat)[0]
    assert entrance["type"] == "restaurant_entrance"
    return ENGINE.apply(state, seat, entrance).state


def test_first_restaurants_pass_and_second_round() -> None:
    state = ENGINE.new_game(["0", "1", "2"], 4)
    order = state["turn_order"]
    state = ENGINE.apply(state, order[2], {"type": "pass"}).state
    state = _place_first(state, order[1])
    state = ENGINE.apply(state, order[0], {"type": "pass"}).state
    # second pass in normal order, no passing
    assert ENGINE.awaiting(state) == [order[0]]
    assert {"type": "pass"} not in ENGINE.actions(state, order[0])
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, order[0], {"type": "pass"})
    assert err.value.code == "cannot_pass"
    state = _place_first(state, order[0])
    state = _place_first(state, order[2])
    tiles = [tuple(r["entrance"][i] // 5 for i in (0, 1)) for r in state["restaurants"]]
    assert len(set(tiles)) == 3
    assert state["phase"] == "reserve" and sorted(ENGINE.awaiting(state)) == ["0", "1", "2"]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, "0", {"type": "reserve", "card": "reserve_400"})
    assert err.value.code == "bad_reserve"
    for s in ("0", "1", "2"):
        state = ENGINE.apply(state, s, {"type": "reserve", "card": "reserve_300"}).state
    # round 1: only CEOs, so restructuring is skipped and order of business starts
    assert state["round"] == 1 and state["phase"] == "order_of_business"
    first = state["queue"][0]
    assert first == order[0]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, first, {"type": "position", "position": 4})
    assert err.value.code == "position_taken"
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, state["queue"][1], {"type": "position", "position": 1})
    assert err.value.code == "not_your_turn"


def test_restaurant_spot_codes() -> None:
    state = ENGINE.new_game(["0", "1"], 4)
    seat = ENGINE.awaiting(state)[0]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, seat, {"type": "restaurant_at", "cell": [-5, -5]})
    assert err.value.code == "bad_restaurant_spot"
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, seat, {})
    assert err.value.code == "bad_action"


def test_restructuring_is_secret_and_over_commitment_benches_everyone() -> None:
    state = hand_made(2)
    give(state, "0", "hand", "waitress", "waitress", "waitress", "waitress")
    give(state, "1", "hand", "management_trainee", "waitress", "waitress")
    state["phase"] = "start_round"
    from app.games.food_chain_magnate.flow import advance

    advance(state, [])
    assert state["phase"] == "restructuring"
    for _ in range(4):
        applied = ENGINE.apply(state, "0", {"type": "work", "card": "waitress"})
        assert all(e["visible_to"] == ["0"] for e in applied.events)
        state = applied.state
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, "0", {"type": "work", "card": "waitress"})
    assert err.value.code == "bad_structure_choice"
    spectator = ENGINE.view(state, None)
    assert spectator["secret"]["0"] == {"done": False}
    assert ENGINE.view(state, "0")["secret"]["0"]["work"] == ["waitress"] * 4
    state = ENGINE.apply(state, "0", {"type": "submit"}).state
    for c in ("management_trainee", "waitress", "waitress"):
        state = ENGINE.apply(state, "1", {"type": "work", "card": c}).state
    applied = ENGINE.apply(state, "1", {"type": "submit"})
    state = applied.state
    assert state["p"]["0"]["work"] == [] and state["p"]["0"]["beach"] == ["waitress"] * 4
    assert sorted(state["p"]["1"]["work"]) == ["management_trainee", "waitress", "waitress"]
    revealed = [e for e in applied.events if e["type"] == "structure_revealed"]
    assert revealed[0]["over_committed"] is True and revealed[1]["over_committed"] is False
    # open slots: 0 has the CEO's 3, 1 has 3 - 1 + 2 - 2 = 2 -> 0 chooses first
    assert state["queue"] == ["0", "1"]


def test_not_your_turn_and_bad_action_shapes() -> None:
    state = ENGINE.new_game(["0", "1"], 8)
    idle = next(s for s in ("0", "1") if s not in ENGINE.awaiting(state))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, idle, {"type": "pass"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, ENGINE.awaiting(state)[0], {"type": 7})
    assert err.value.code == "bad_action"


def test_lookalike_actions_are_refused() -> None:
    """1.0 and true are not 1, and an extra field makes an unlisted action."""
    state = ENGINE.new_game(["0", "1"], 8)
    while state["phase"] != "order_of_business":
        seat = ENGINE.awaiting(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.bot_action(ENGINE.view(state, seat), seat, 3)).state
    seat = state["queue"][0]
    before = contract.canonical(state)
    for bad in ({"type": "position", "position": 1.0}, {"type": "position", "position": True},
                {"type": "position", "position": 1, "extra": "x"}):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, seat, bad)
        assert err.value.code in ("not_listed", "position_taken")
    assert contract.canonical(state) == before
    from tests.games.food_chain_magnate.test_working import working

    busy = working("trainer", step="train", beach=("kitchen_trainee",))
    for bad in ({"type": "train", "by": 0.0, "card": "kitchen_trainee", "into": "burger_cook", "again": False},
                {"type": "done", "x": 1}):
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(busy, "0", bad)
        assert err.value.code == "not_listed"


def test_undoable_only_for_open_choices() -> None:
    state = ENGINE.new_game(["0", "1"], 8)
    seat = ENGINE.awaiting(state)[0]
    anchor = next(a for a in ENGINE.actions(state, seat) if a["type"] == "restaurant_at")
    applied = ENGINE.apply(state, seat, anchor)
    assert applied.undoable
    final = ENGINE.apply(applied.state, seat, ENGINE.actions(applied.state, seat)[0])
    assert not final.undoable
