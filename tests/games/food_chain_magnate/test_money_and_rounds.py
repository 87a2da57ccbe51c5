"""Dinnertime edge cases, payday, marketing runs, clean up, bankruptcy, views and the end (§6.4-§6.9)."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate.bank import ceo_slot_vote
from app.games.food_chain_magnate.flow import advance
from app.games.food_chain_magnate.phases import cleanup, payday
from app.games.food_chain_magnate.phases.dinnertime import dinnertime, unit_price
from app.games.food_chain_magnate.phases.marketing_campaigns import marketing_campaigns
from tests.games import contract
from tests.games.food_chain_magnate.helpers import (
    MAP_ALPHA,
    add_restaurant,
    give,
    hand_made,
    invariant,
    short_of_cash_at_payday,
    sq,
)

A, B = "0", "1"


def _table() -> dict:
    state = hand_made(2, MAP_ALPHA, bank=300)
    add_restaurant(state, A, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, B, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    return state


def test_unit_price_and_negative_price_bankruptcy() -> None:
    state = _table()
    give(state, A, "work", "discount_manager", "discount_manager", "discount_manager", "discount_manager")
    state["p"][A]["milestones"] = {"first_to_lower_prices": 1}
    assert unit_price(state, A) == 10 - 12 - 1
    state["p"][A]["stock"]["burger"] = 2
    state["p"][A]["cash"] = 4
    state["money_total"] += 4
    state["demand"] = {"15": ["burger", "burger"]}
    events: list[dict] = []
    dinnertime(state, events)
    assert state["p"][A]["cash"] == 0 and state["p"][A]["bankrupt"]
    assert state["bank"] == 304
    invariant(state)
    cleanup.finish_cleanup(state, events)
    assert state["p"][A]["out"] and all(r.get("dead") for r in state["restaurants"] if r["owner"] == A)
    assert state["p"][A]["work"] == [] and state["supply"]["discount_manager"] == 6
    invariant(state)


def test_luxuries_and_garden_doubling_without_doubling_bonus() -> None:
    state = _table()
    give(state, A, "work", "luxuries_manager")
    state["p"][A]["milestones"] = {"first_pizza_marketed": 1}
    house = next(h for h in state["houses"] if h["number"] == 15)
    house["garden"] = sq((3, 7), (4, 7))
    state["garden_supply"] -= 1
    state["p"][A]["stock"]["pizza"] = 5
    state["demand"] = {"15": ["pizza"] * 5}
    events: list[dict] = []
    dinnertime(state, events)
    assert [e["income"] for e in events if e["type"] == "sale"] == [5 * (2 * 20 + 5)]


def test_house_without_a_complete_supplier_keeps_its_demand() -> None:
    state = _table()
    state["p"][A]["stock"]["burger"] = 1
    state["p"][B]["stock"]["beer"] = 1
    state["demand"] = {"15": ["burger", "beer"]}
    dinnertime(state, [])
    assert state["demand"] == {"15": ["burger", "beer"]}
    assert state["p"][A]["stock"]["burger"] == 1


def test_negative_cfo_bonus_rounds_up() -> None:
    state = _table()
    give(state, A, "work", "cfo", "discount_manager", "discount_manager", "discount_manager", "discount_manager")
    state["p"][A]["cash"] = 50
    state["money_total"] += 50
    state["p"][A]["stock"]["burger"] = 1
    state["demand"] = {"15": ["burger"]}
    events: list[dict] = []
    dinnertime(state, events)
    assert [e["amount"] for e in events if e["type"] == "cfo_bonus"] == [-1]
    assert state["p"][A]["cash"] == 50 - 2 - 1


def test_payday_forced_firing_and_busy_marketeers() -> None:
    state = short_of_cash_at_payday()
    state["phase"] = "payday_firing"
    assert ENGINE.awaiting(state) == [A]
    state = ENGINE.apply(state, A, {"type": "submit"}).state
    assert state["phase"] == "payday_forced" and ENGINE.awaiting(state) == [A]
    assert ENGINE.actions(state, A) == [{"type": "fire", "card": "burger_cook", "from": "work"}]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A, {"type": "fire", "card": "brand_manager", "from": "busy"})
    assert err.value.code == "cannot_fire"
    state = ENGINE.apply(state, A, {"type": "fire", "card": "burger_cook", "from": "work"}).state
    assert ENGINE.actions(state, A) == [{"type": "fire", "card": "brand_manager", "from": "busy", "campaign": 5}]
    state = ENGINE.apply(state, A, {"type": "fire", "card": "brand_manager", "from": "busy", "campaign": 5}).state
    # the campaign keeps running; the bank got nothing, A kept its $4
    assert state["p"][A]["cash"] == 4 and state["p"][A]["busy"] == []
    invariant(state)


def test_firing_choices_are_secret() -> None:
    state = _table()
    give(state, A, "beach", "waitress")
    give(state, B, "beach", "waitress")
    payday.start_payday(state, [])
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A, {"type": "fire", "card": "ceo", "from": "work"})
    assert err.value.code == "cannot_fire"
    applied = ENGINE.apply(state, A, {"type": "fire", "card": "waitress", "from": "beach"})
    assert [e["visible_to"] for e in applied.events if e["type"] == "fire_chosen"] == [[A]]
    other = dict(state)
    assert ENGINE.view(applied.state, B)["secret"][A] == ENGINE.view(other, B)["secret"][A]


def test_marketing_caps_and_expiry_return_the_marketeer() -> None:
    state = _table()
    house = next(h for h in state["houses"] if h["number"] == 2)
    state["demand"] = {"2": ["beer", "beer"]}
    state["supply"]["marketing_trainee"] -= 1
    state["p"][A]["busy"] = [{"card": "marketing_trainee", "campaign": 13}]
    state["campaign_supply"].remove(13)
    state["campaigns"] = [{"number": 13, "type": "billboard", "owner": A, "card": "marketing_trainee",
                           "good": "burger", "tokens": 1, "eternal": False, "cells": sq((3, 3), (4, 3))}]
    marketing_campaigns(state, [])
    assert state["demand"]["2"] == ["beer", "beer"]  # the billboard does not touch house 2
    assert state["p"][A]["hand"] == ["marketing_trainee"] and state["campaigns"] == []
    assert house["number"] == 2
    invariant(state)


def test_clean_up_freezer() -> None:
    state = _table()
    state["milestones_available"] = ["first_to_throw_away"]
    state["p"][A]["stock"].update(burger=8, beer=5)
    state["p"][B]["stock"].update(pizza=2)
    state["p"][A]["milestones"] = {"first_to_throw_away": 1}
    cleanup.start_cleanup(state, [])
    assert state["p"][B]["stock"]["pizza"] == 0 and "first_to_throw_away" in state["p"][B]["milestones"]
    assert ENGINE.awaiting(state) == [A]
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A, {"type": "discard", "good": "burger", "count": 4})
    assert err.value.code == "cannot_discard"
    state = ENGINE.apply(state, A, {"type": "discard", "good": "beer", "count": 3}).state
    assert state["p"][A]["stock"]["burger"] == 8 and state["p"][A]["stock"]["beer"] == 2
    assert state["phase"] == "order_of_business" and "first_to_throw_away" not in state["milestones_available"]


def test_freezer_not_usable_in_the_round_it_is_earned() -> None:
    state = _table()
    state["p"][A]["milestones"] = {"first_to_throw_away": state["round"]}
    state["p"][A]["stock"]["burger"] = 3
    cleanup.start_cleanup(state, [])
    assert state["p"][A]["stock"]["burger"] == 0


def test_ceo_slot_vote() -> None:
    assert ceo_slot_vote(["reserve_100", "reserve_300", "reserve_100"]) == 2
    assert ceo_slot_vote(["reserve_100", "reserve_300", "reserve_100", "reserve_300"]) == 4
    assert ceo_slot_vote(["reserve_200", "reserve_300"]) == 4


def test_new_ceo_slots_apply_from_next_round() -> None:
    state = _table()
    state["ceo_slots_next"] = 2
    state["phase"] = "start_round"
    advance(state, [])
    assert state["ceo_slots"] == 2 and state["ceo_slots_next"] is None


def _with_reserves() -> dict:
    state = ENGINE.new_game(["0", "1", "2"], 2)
    while state["phase"] == "first_restaurants":
        seat = ENGINE.awaiting(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.bot_action(ENGINE.view(state, seat), seat, 1)).state
    return state


def test_reserves_hidden_by_indistinguishability() -> None:
    state = _with_reserves()
    for s in ("0", "1", "2"):
        state = ENGINE.apply(state, s, {"type": "reserve", "card": "reserve_100"}).state
    twin = ENGINE.new_game(["0", "1", "2"], 2)
    twin = {**state, "p": {k: {**v} for k, v in state["p"].items()}}
    twin["p"]["1"]["reserve"] = "reserve_300"
    twin["rng"] = state["rng"] + 12345
    for viewer in (None, "0", "2"):
        assert contract.canonical(ENGINE.view(state, viewer)) == contract.canonical(ENGINE.view(twin, viewer))
    assert ENGINE.view(twin, "1")["p"]["1"]["reserve"] == "reserve_300"
    # a holder of 'first to have $20' may look
    state["p"]["0"]["milestones"] = {"first_to_have_20": 1}
    assert ENGINE.view(state, "0")["p"]["1"]["reserve"] == "reserve_100"
    assert ENGINE.view(state, None)["p"]["1"]["reserve"] == "hidden"


def test_reserve_choices_in_progress_hidden() -> None:
    state = _with_reserves()
    a = ENGINE.apply(state, "1", {"type": "reserve", "card": "reserve_100"}).state
    b = ENGINE.apply(state, "1", {"type": "reserve", "card": "reserve_300"}).state
    for viewer in (None, "0", "2"):
        assert contract.canonical(ENGINE.view(a, viewer)) == contract.canonical(ENGINE.view(b, viewer))
    assert "rng" not in ENGINE.view(a, "1")


def test_structures_in_progress_hidden() -> None:
    state = hand_made(2)
    give(state, A, "hand", "waitress", "trainer")
    state["phase"] = "start_round"
    advance(state, [])
    x = ENGINE.apply(state, A, {"type": "work", "card": "waitress"}).state
    y = ENGINE.apply(state, A, {"type": "work", "card": "trainer"}).state
    for viewer in (None, B):
        assert contract.canonical(ENGINE.view(x, viewer)) == contract.canonical(ENGINE.view(y, viewer))
    assert ENGINE.view(x, A) != ENGINE.view(y, A)


def test_outcome_none_while_running() -> None:
    assert ENGINE.outcome(ENGINE.new_game(["0", "1"], 1)) is None


def test_everyone_bankrupt_ends_the_game_without_winner() -> None:
    state = _table()
    for s in (A, B):
        state["p"][s]["bankrupt"] = True
    state["phase"] = "cleanup"
    state["queue"] = []
    advance(state, [])
    assert state["phase"] == "over"
    out = ENGINE.outcome(state)
    assert out is not None and out["winners"] == []


def test_intro_game_skips_payday() -> None:
    state = _table()
    state["options"]["intro"] = True
    give(state, A, "work", "burger_cook")
    state["p"][A]["cash"] = 20
    state["money_total"] += 20
    state["work"] = {"index": 2, "seat": None, "step": None}
    events: list[dict] = []
    advance(state, events)
    assert not [e for e in events if e["type"] == "salaries_paid"]
    assert state["p"][A]["cash"] == 20 and state["round"] == 4


def test_first_break_in_intro_ends_the_game() -> None:
    state = _table()
    state["options"]["intro"] = True
    state["bank"] = 3
    state["money_total"] = 3
    give(state, A, "work", "waitress")
    state["work"] = {"index": 2, "seat": None, "step": None}
    advance(state, [])
    assert state["phase"] == "over" and state["bank"] == 0 and state["breaks"] == 1


def test_forced_firing_chooses_which_campaigns_marketeer_goes() -> None:
    state = _table()
    state["supply"]["campaign_manager"] -= 2
    state["p"][A]["busy"] = [{"card": "campaign_manager", "campaign": 9}, {"card": "campaign_manager", "campaign": 8}]
    for number in (8, 9):
        state["campaign_supply"].remove(number)
    state["campaigns"] = [{"number": n, "type": "airplane", "owner": A, "card": "campaign_manager", "good": "burger",
                           "tokens": 1 if n == 9 else 3, "eternal": False, "edge": "W", "offset": 0, "covers": 3}
                          for n in (8, 9)]
    state["p"][A]["cash"] = 5
    state["money_total"] += 5
    payday.start_payday(state, [])
    payday.resolve_firing(state, [])
    assert ENGINE.actions(state, A) == [{"type": "fire", "card": "campaign_manager", "from": "busy", "campaign": c}
                                        for c in (8, 9)]
    applied = ENGINE.apply(state, A, {"type": "fire", "card": "campaign_manager", "from": "busy", "campaign": 8})
    assert applied.events[0]["campaign"] == 8
    # the marketeer of campaign 9 (its last run) comes home at clean up and is in hand next round
    assert applied.state["phase"] == "restructuring" and applied.state["p"][A]["hand"] == ["campaign_manager"]
    invariant(applied.state)
