"""Working 9-5 (§6.3): one test per step and every refusal code."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.phases.working import turn
from app.games.food_chain_magnate.phases.working.recruit import discount_actions
from tests.games.food_chain_magnate.helpers import MAP_ALPHA, add_restaurant, give, hand_made, invariant, sq

ME, OTHER = "0", "1"


def working(*cards: str, step: str = "recruit", milestones: list[str] | None = None, beach: tuple = ()) -> dict:
    """Seat 0 at the start of its working turn on map alpha, restaurant on tile I."""
    state = hand_made(2, MAP_ALPHA, milestones=milestones)
    add_restaurant(state, ME, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, OTHER, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    give(state, ME, "work", *cards)
    give(state, ME, "beach", *beach)
    state["p"][ME]["r"]["drive_in"] = "local_manager" in cards or "regional_manager" in cards
    state["work"] = {"index": -1, "seat": None, "step": None}
    turn._next_player(state, [])
    state["work"]["step"] = step
    return state


def refused(state: dict, action: dict, code: str, seat: str = ME) -> None:
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.code == code


def test_recruit_capacity_and_hire_three_milestone() -> None:
    state = working("recruiting_girl", "recruiting_girl", milestones=["first_to_hire_3"])
    for card in ("waitress", "waitress", "errand_boy"):
        state = ENGINE.apply(state, ME, {"type": "hire", "card": card}).state
    p = state["p"][ME]
    assert sorted(p["beach"]) == ["errand_boy", "management_trainee", "management_trainee", "waitress", "waitress"]
    assert p["r"]["hires"] == 3 and "first_to_hire_3" in p["milestones"]
    assert state["work"]["seat"] == OTHER  # nothing else to do: the turn passed on
    invariant(state)


def test_hire_refusals() -> None:
    state = working()
    refused(state, {"type": "hire", "card": "cfo"}, "cannot_hire")
    refused(state, {"type": "hire", "card": "waitress", "train_by": 0, "into": "x"}, "cannot_hire")
    refused(state, {"type": "hire", "card": "waitress"}, "not_your_turn", seat=OTHER)


def test_unused_recruiting_becomes_discount() -> None:
    p = {"r": {"hires": 2, "girls": 0}}
    assert discount_actions(p, 2) == 1
    assert discount_actions({"r": {"hires": 0, "girls": 1}}, 6) == 6
    assert discount_actions({"r": {"hires": 7, "girls": 1}}, 6) == 1


def test_training_rules() -> None:
    state = working("trainer", "coach", step="train", beach=("kitchen_trainee", "management_trainee"),
                    milestones=["first_to_train"])
    legal = ENGINE.actions(state, ME)
    assert {"type": "train", "by": 1, "card": "management_trainee", "into": "vice_president", "again": False} in legal
    assert {"type": "train", "by": 0, "card": "management_trainee", "into": "vice_president",
            "again": False} not in legal
    refused(state, {"type": "train", "by": 0, "card": "waitress", "into": "cfo", "again": False}, "cannot_train")
    state = ENGINE.apply(state, ME, {"type": "train", "by": 0, "card": "kitchen_trainee", "into": "burger_cook",
                                     "again": False}).state
    assert "first_to_train" in state["p"][ME]["milestones"]
    # the trainer's card can't be trained further by the coach without the $20-salaries milestone
    assert not [a for a in ENGINE.actions(state, ME) if a.get("card") == "burger_cook"]
    invariant(state)


def test_combined_training_with_salary_milestone() -> None:
    state = working("trainer", "trainer", step="train", beach=("management_trainee",))
    state["p"][ME]["milestones"] = {"first_to_pay_20_salaries": 1}
    state = ENGINE.apply(state, ME, {"type": "train", "by": 0, "card": "management_trainee",
                                     "into": "junior_vice_president", "again": False}).state
    again = {"type": "train", "by": 1, "card": "junior_vice_president", "into": "vice_president", "again": True}
    assert again in ENGINE.actions(state, ME)
    state = ENGINE.apply(state, ME, again).state
    assert "vice_president" in state["p"][ME]["beach"]


def test_one_x_and_cfo_bans() -> None:
    state = working("coach", step="train", beach=("burger_cook",))
    state["p"][ME]["hand"].append("burger_chef")
    state["supply"]["burger_chef"] -= 1
    assert not [a for a in ENGINE.actions(state, ME) if a.get("into") == "burger_chef"]
    state = working("guru", step="train", beach=("senior_vice_president",))
    assert [a for a in ENGINE.actions(state, ME) if a.get("into") == "cfo"]
    state["p"][ME]["milestones"] = {"first_to_have_100": 1}
    assert not [a for a in ENGINE.actions(state, ME) if a.get("into") == "cfo"]


def test_marketing_campaign_flow_eternal_and_milestones() -> None:
    state = working("marketing_trainee", "campaign_manager", step="marketing",
                    milestones=["first_billboard_placed", "first_burger_marketed", "first_drink_marketed"])
    refused(state, {"type": "campaign", "marketeer": "marketing_trainee", "number": 7}, "cannot_market")
    refused(state, {"type": "campaign_at", "cells": [[3, 3]]}, "cannot_market")
    state = ENGINE.apply(state, ME, {"type": "campaign", "marketeer": "campaign_manager", "number": 9}).state
    refused(state, {"type": "done"}, "finish_placement")
    spots = ENGINE.actions(state, ME)
    assert {"type": "campaign_at", "cells": [[3, 3]]} in spots
    state = ENGINE.apply(state, ME, {"type": "campaign_at", "cells": [[3, 3]]}).state
    assert {"type": "advertise", "good": "beer", "duration": 3} in ENGINE.actions(state, ME)
    refused(state, {"type": "advertise", "good": "beer", "duration": 4}, "cannot_market")
    state = ENGINE.apply(state, ME, {"type": "advertise", "good": "beer", "duration": 3}).state
    p = state["p"][ME]
    assert p["busy"] == [{"card": "campaign_manager", "campaign": 9}]
    assert state["campaigns"][0]["tokens"] == 3 and not state["campaigns"][0]["eternal"]
    assert "first_drink_marketed" in p["milestones"]
    # the first billboard is eternal: one token, the milestone arrives with it
    state = ENGINE.apply(state, ME, {"type": "campaign", "marketeer": "marketing_trainee", "number": 14}).state
    spot = ENGINE.actions(state, ME)[0]
    state = ENGINE.apply(state, ME, spot).state
    assert ENGINE.actions(state, ME) == [{"type": "advertise", "good": g, "duration": 1}
                                         for g in ("burger", "pizza", "beer", "lemonade", "soft_drink")]
    state = ENGINE.apply(state, ME, {"type": "advertise", "good": "burger", "duration": 1}).state
    billboard = next(c for c in state["campaigns"] if c["number"] == 14)
    assert billboard["eternal"] and billboard["tokens"] == 1
    assert {"first_billboard_placed", "first_burger_marketed"} <= set(state["p"][ME]["milestones"])
    invariant(state)


def test_airplane_placement() -> None:
    state = working("brand_manager", step="marketing")
    state = ENGINE.apply(state, ME, {"type": "campaign", "marketeer": "brand_manager", "number": 4}).state
    spots = ENGINE.actions(state, ME)
    assert {"type": "campaign_at", "edge": "W", "offset": 3} in spots
    state = ENGINE.apply(state, ME, {"type": "campaign_at", "edge": "W", "offset": 3}).state
    state = ENGINE.apply(state, ME, {"type": "advertise", "good": "pizza", "duration": 4}).state
    plane = state["campaigns"][0]
    assert plane["covers"] == 1 and plane["edge"] == "W"


def test_produce_and_free_cook() -> None:
    state = working("kitchen_trainee", "pizza_cook", step="food_and_drinks", milestones=["first_burger_produced"])
    refused(state, {"type": "produce", "card": "pizza_cook", "good": "burger"}, "cannot_produce")
    state = ENGINE.apply(state, ME, {"type": "produce", "card": "kitchen_trainee", "good": "burger"}).state
    assert state["p"][ME]["stock"]["burger"] == 1 and "burger_cook" in state["p"][ME]["beach"]
    state = ENGINE.apply(state, ME, {"type": "produce", "card": "pizza_cook", "good": "pizza"}).state
    assert state["p"][ME]["stock"]["pizza"] == 3
    refused(state, {"type": "produce", "card": "pizza_cook", "good": "pizza"}, "not_your_turn")
    invariant(state)


def test_errand_boy_and_refusal() -> None:
    state = working("errand_boy", "errand_boy", step="food_and_drinks")
    state["p"][ME]["milestones"] = {"first_errand_boy_played": 1}
    refused(state, {"type": "buy", "card": "cart_operator", "sources": [[1, 1]]}, "cannot_buy")
    state = ENGINE.apply(state, ME, {"type": "buy", "card": "errand_boy", "drink": "beer"}).state
    assert state["p"][ME]["stock"]["beer"] == 2


def test_new_house_and_garden() -> None:
    state = working("new_business_developer", "new_business_developer", step="houses")
    refused(state, {"type": "new_house", "number": 2}, "cannot_build")
    state = ENGINE.apply(state, ME, {"type": "new_house", "number": 6}).state
    cells = next(a for a in ENGINE.actions(state, ME) if a["type"] == "house_at")
    state = ENGINE.apply(state, ME, cells).state
    garden = ENGINE.actions(state, ME)[0]
    state = ENGINE.apply(state, ME, garden).state
    new = next(h for h in state["houses"] if h["number"] == 6)
    assert new["placed"] and len(new["garden"]) == 2 and 6 not in state["house_supply"]
    gardens = [a for a in ENGINE.actions(state, ME) if a["type"] == "garden"]
    if gardens:
        state = ENGINE.apply(state, ME, gardens[0]).state
        state = ENGINE.apply(state, ME, ENGINE.actions(state, ME)[0]).state
        assert state["garden_supply"] == 7
    invariant(state)


def test_local_manager_restaurant_opens_at_clean_up() -> None:
    state = working("local_manager", step="restaurants")
    refused(state, {"type": "restaurant_entrance", "entrance": [3, 3]}, "nothing_to_place")
    refused(state, {"type": "new_restaurant", "card": "regional_manager"}, "cannot_place_restaurant")
    state = ENGINE.apply(state, ME, {"type": "new_restaurant", "card": "local_manager"}).state
    state = ENGINE.apply(state, ME, ENGINE.actions(state, ME)[0]).state
    state = ENGINE.apply(state, ME, ENGINE.actions(state, ME)[0]).state
    new = state["restaurants"][-1]
    assert new["owner"] == ME and new["open"] is False
    from app.games.food_chain_magnate.phases.cleanup import finish_cleanup

    finish_cleanup(state, [])
    assert state["restaurants"][-1]["open"] is True


def test_regional_manager_moves_an_open_restaurant() -> None:
    state = working("regional_manager", step="restaurants")
    state = ENGINE.apply(state, ME, {"type": "move_restaurant", "restaurant": 0}).state
    spots = ENGINE.actions(state, ME)
    assert {"type": "restaurant_at", "cell": [0, 5]} in spots  # it may stay where it is
    state = ENGINE.apply(state, ME, {"type": "restaurant_at", "cell": [0, 5]}).state
    state = ENGINE.apply(state, ME, {"type": "restaurant_entrance", "entrance": [1, 5]}).state
    assert state["restaurants"][0]["entrance"] == [1, 5] and state["restaurants"][0]["open"]


def test_free_trainees_can_be_trained_this_round() -> None:
    state = working("recruiting_girl", "recruiting_girl", "trainer", milestones=["first_to_hire_3"])
    for card in ("waitress", "waitress", "waitress"):
        state = ENGINE.apply(state, ME, {"type": "hire", "card": card}).state
    assert state["work"]["step"] == "train"
    legal = ENGINE.actions(state, ME)
    assert {"type": "train", "by": 0, "card": "management_trainee", "into": "junior_vice_president",
            "again": False} in legal


def test_drive_in_makes_every_corner_an_entrance() -> None:
    from app.games.food_chain_magnate.board import entrances_of

    plain = working()
    assert entrances_of(plain, ME) == [[1, 6]]
    drive = working("local_manager")
    assert entrances_of(drive, ME) == [[0, 5], [0, 6], [1, 5], [1, 6]]


def test_local_manager_range_limits_the_entrance_tile() -> None:
    from app.games.food_chain_magnate import map as fcm_map
    from app.games.food_chain_magnate.phases.working.restaurants import restaurant_spots

    state = working("local_manager", step="restaurants")
    spots = restaurant_spots(state, ME, "local")
    assert spots
    allowed = {tuple(t) for t in fcm_map.local_manager_tiles(state["map"], [[0, 5], [0, 6], [1, 5], [1, 6]], 3)}
    assert all(tuple(fcm_map.tile_of(s["entrance"])) in allowed for s in spots)


def test_pending_placement_blocks_done_and_other_steps() -> None:
    state = working("new_business_developer", step="houses")
    state = ENGINE.apply(state, ME, {"type": "new_house", "number": 1}).state
    legal = ENGINE.actions(state, ME)
    assert legal and all(a["type"] == "house_at" for a in legal)
    refused(state, {"type": "done"}, "finish_placement")
