"""The worked examples of spec §10, each from a hand-made state."""

from __future__ import annotations

from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.bank import pay_out
from app.games.food_chain_magnate.board import entrances_of
from app.games.food_chain_magnate.phases import order_of_business, restructuring
from app.games.food_chain_magnate.phases.dinnertime import dinnertime
from app.games.food_chain_magnate.phases.marketing_campaigns import marketing_campaigns
from app.games.food_chain_magnate.phases.payday import salary_due
from app.games.food_chain_magnate.phases.working import turn
from app.games.food_chain_magnate.phases.working.drinks import drink_actions
from app.games.food_chain_magnate.phases.working.marketing import marketing_actions
from tests.games.food_chain_magnate.helpers import (
    MAP_ALPHA,
    MAP_BETA,
    MAP_GAMMA,
    add_restaurant,
    give,
    hand_made,
    invariant,
    sq,
)

RED, BLUE = "0", "1"


def _e1_state() -> dict:
    state = hand_made(2, MAP_ALPHA, bank=500, milestones=["first_to_have_20", "first_to_have_100"])
    add_restaurant(state, RED, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, BLUE, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    give(state, RED, "work", "waitress", "cfo")
    give(state, BLUE, "work", "pricing_manager", "waitress", "waitress")
    state["p"][RED]["milestones"] = {"first_burger_marketed": 1}
    state["p"][BLUE]["milestones"] = {"first_to_lower_prices": 1}
    state["p"][RED]["stock"].update(burger=3, beer=1)
    state["p"][BLUE]["stock"].update(burger=1, beer=1, lemonade=1)
    state["house_supply"].remove(14)
    state["houses"].append({"number": 14, "cells": sq((3, 5), (3, 6), (4, 5), (4, 6)),
                            "garden": sq((3, 7), (4, 7)), "placed": True})
    state["houses"].sort(key=lambda h: h["number"])
    state["demand"] = {"2": ["burger"], "14": ["burger", "burger", "beer"], "15": ["lemonade"]}
    return state


def test_e1_distances() -> None:
    state = _e1_state()
    houses = {h["number"]: h for h in state["houses"]}
    red, blue = entrances_of(state, RED), entrances_of(state, BLUE)
    assert [fcm_map.house_distance(state["map"], red, houses[n]) for n in (2, 14, 15)] == [1, 0, 0]
    assert [fcm_map.house_distance(state["map"], blue, houses[n]) for n in (2, 14, 15)] == [0, 1, 1]


def test_e1_dinnertime() -> None:
    state = _e1_state()
    events: list[dict] = []
    dinnertime(state, events)
    sales = [(e["house"], e["player"], e["income"]) for e in events if e["type"] == "sale"]
    assert sales == [(2, BLUE, 8), (14, RED, 70), (15, BLUE, 8)]
    assert [e["amount"] for e in events if e["type"] == "cfo_bonus"] == [37]
    assert state["p"][RED]["cash"] == 110 and state["p"][BLUE]["cash"] == 22
    assert state["bank"] == 368
    assert state["p"][RED]["stock"]["burger"] == 1 and state["p"][BLUE]["stock"]["beer"] == 1
    assert "first_to_have_20" in state["p"][BLUE]["milestones"]
    assert {"first_to_have_20", "first_to_have_100"} <= set(state["p"][RED]["milestones"])
    assert state["demand"] == {}
    invariant(state)


def test_e1_cfo_fired_at_payday_after_100() -> None:
    state = _e1_state()
    dinnertime(state, [])
    applied_state = state
    from app.games.food_chain_magnate.phases import payday

    payday.start_payday(applied_state, [])
    for s in applied_state["secret"]:
        applied_state["secret"][s]["done"] = True
    events: list[dict] = []
    payday.resolve_firing(applied_state, events)
    assert "cfo" not in applied_state["p"][RED]["work"]
    assert any(e["type"] == "fired" and e["card"] == "cfo" and e["forced"] for e in events)


def _e2_state(red_waitresses: int = 1) -> dict:
    state = hand_made(2, MAP_ALPHA, bank=500)
    add_restaurant(state, RED, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, BLUE, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    state["p"][RED]["milestones"] = {"first_to_lower_prices": 1}
    give(state, RED, "work", *["waitress"] * red_waitresses)
    give(state, BLUE, "work", "pricing_manager", "pricing_manager", "waitress")
    state["p"][RED]["stock"]["beer"] = 1
    state["p"][BLUE]["stock"]["beer"] = 1
    state["turn_order"] = [BLUE, RED]
    state["demand"] = {"15": ["beer"]}
    return state


def test_e2_ties_go_to_turn_order() -> None:
    state = _e2_state()
    events: list[dict] = []
    dinnertime(state, events)
    assert [(e["player"], e["income"]) for e in events if e["type"] == "sale"] == [(BLUE, 8)]


def test_e2_variant_more_waitresses_win() -> None:
    state = _e2_state(red_waitresses=2)
    events: list[dict] = []
    dinnertime(state, events)
    assert [(e["player"], e["income"]) for e in events if e["type"] == "sale"] == [(RED, 9)]


def _e3_state(milestones: dict[str, int]) -> dict:
    state = hand_made(2, MAP_ALPHA)
    p = state["p"][RED]
    p["cash"] = 40
    state["money_total"] += 40
    give(state, RED, "work", "junior_vice_president", "recruiting_manager", "burger_cook", "pizza_cook",
         "cart_operator", "trainer")
    give(state, RED, "beach", "waitress")
    state["supply"]["brand_manager"] -= 1
    p["busy"] = [{"card": "brand_manager", "campaign": 7}]
    p["r"]["hires"] = 2
    p["r"]["girls"] = 0
    p["r"]["rm_cap"] = 2  # the recruiting manager at work this round
    p["milestones"] = dict(milestones)
    return state


def test_e3_payday_with_discounts() -> None:
    assert salary_due(_e3_state({"first_to_train": 3}), RED) == 10
    assert salary_due(_e3_state({}), RED) == 25
    assert salary_due(_e3_state({"first_to_train": 3, "first_billboard_placed": 2}), RED) == 5


def test_e3_pay_and_salary_milestone() -> None:
    from app.games.food_chain_magnate.phases.payday import pay_salaries

    for held, expect_cash, gets in (({"first_to_train": 3}, 30, False), ({}, 15, True)):
        state = _e3_state(held)
        state["milestones_available"] = ["first_to_pay_20_salaries"]
        state["p"][BLUE]["work"] = []
        pay_salaries(state, [])
        assert state["p"][RED]["cash"] == expect_cash
        assert ("first_to_pay_20_salaries" in state["p"][RED]["milestones"]) is gets


def _e4_state(reserves: list[str]) -> dict:
    state = hand_made(len(reserves), MAP_ALPHA, bank=12)
    for s, r in zip(state["players"], reserves, strict=True):
        state["p"][s]["reserve"] = r
    return state


def test_e4_first_break_mid_dinner() -> None:
    state = _e4_state(["reserve_100", "reserve_300", "reserve_100"])
    events: list[dict] = []
    pay_out(state, "1", 20, events)
    assert state["breaks"] == 1 and state["bank"] == 492 and state["p"]["1"]["cash"] == 20
    assert state["ceo_slots_next"] == 2 and state["reserves_revealed"]
    invariant(state)


def test_e4_variant_tied_votes_take_highest() -> None:
    state = _e4_state(["reserve_100", "reserve_300", "reserve_100", "reserve_300"])
    pay_out(state, "1", 20, [])
    assert state["ceo_slots_next"] == 4 and state["bank"] == 800 - 8


def test_e4_variant_exact_payment_breaks() -> None:
    state = _e4_state(["reserve_100", "reserve_300", "reserve_100"])
    pay_out(state, "1", 12, [])
    assert state["breaks"] == 1 and state["bank"] == 500


def test_e5_second_break_ends_game_and_ties() -> None:
    state = hand_made(2, MAP_ALPHA, bank=30)
    state["breaks"] = 1
    state["reserves_revealed"] = True
    state["p"]["0"]["cash"], state["p"]["1"]["cash"] = 210, 198
    state["money_total"] = 30 + 210 + 198
    give(state, "0", "work", "waitress")
    events: list[dict] = []
    pay_out(state, "1", 40, events)
    assert state["breaks"] == 2 and state["bank"] == -10 and state["p"]["1"]["cash"] == 238
    pay_out(state, "0", 25, events)
    pay_out(state, "0", 3, events)
    assert state["p"]["0"]["cash"] == 238
    state["phase"] = "over"
    out = ENGINE.outcome(state)
    assert out is not None and out["winners"] == ["0"] and out["ranking"] == [["0"], ["1"]]
    invariant(state)


def test_e5_whole_phase_ends_the_game() -> None:
    state = hand_made(2, MAP_ALPHA, bank=30)
    state["breaks"] = 1
    state["reserves_revealed"] = True
    give(state, "0", "work", "waitress")
    state["p"]["0"]["cash"] = 210
    state["money_total"] += 210
    state["work"] = {"index": 2, "seat": None, "step": None}
    from app.games.food_chain_magnate.flow import advance

    state["p"]["1"]["cash"] = 198
    state["money_total"] += 198
    add_restaurant(state, "1", sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    state["p"]["1"]["stock"]["burger"] = 4
    state["demand"] = {"2": ["burger", "burger", "burger", "burger"]}
    events: list[dict] = []
    advance(state, events)
    assert state["phase"] == "over" and state["bank"] == -13
    assert state["p"]["1"]["cash"] == 238 and state["p"]["0"]["cash"] == 213


def test_e6_restructuring_and_order_of_business() -> None:
    for airplane in (True, False):
        state = hand_made(3, MAP_ALPHA, milestones=["first_errand_boy_played", "first_waitress_played"])
        state["prev_order"] = ["1", "2", "0"]
        state["turn_order"] = ["1", "2", "0"]
        give(state, "0", "hand", "management_trainee", "junior_vice_president", "waitress", "waitress",
             "kitchen_trainee", "errand_boy")
        give(state, "1", "hand", "waitress", "waitress", "kitchen_trainee", "errand_boy", "trainer")
        give(state, "2", "hand", "management_trainee", "trainer", "marketing_trainee")
        if airplane:
            state["p"]["2"]["milestones"] = {"first_airplane_campaign": 1}
        state["round"] = 4
        state["phase"] = "start_round"
        state["round"] -= 1
        restructuring.start_round(state, [])
        for s in ("0", "1", "2"):
            for c in list(state["p"][s]["hand"]):
                state = ENGINE.apply(state, s, {"type": "work", "card": c}).state
        for s in ("0", "1"):
            state = ENGINE.apply(state, s, {"type": "submit"}).state
        assert state["phase"] == "restructuring"
        state = ENGINE.apply(state, "2", {"type": "submit"}).state
        assert state["phase"] == "order_of_business"
        assert state["p"]["1"]["work"] == [] and len(state["p"]["1"]["beach"]) == 5
        assert order_of_business.open_slots(state, "0") == 2
        assert order_of_business.open_slots(state, "1") == 3
        assert order_of_business.open_slots(state, "2") == (4 if airplane else 2)
        assert state["queue"] == (["2", "1", "0"] if airplane else ["1", "2", "0"])
        assert set(state["p"]["0"]["milestones"]) == {"first_errand_boy_played", "first_waitress_played"}
        first = state["queue"][0]
        state = ENGINE.apply(state, first, {"type": "position", "position": 3}).state
        second = state["queue"][0]
        state = ENGINE.apply(state, second, {"type": "position", "position": 1}).state
        assert state["phase"] == "working"
        assert state["turn_order"][0] == second and state["turn_order"][2] == first


def _e7_state(extra_work: tuple[str, ...] = ()) -> dict:
    state = hand_made(2, MAP_ALPHA, milestones=["first_to_train"])
    add_restaurant(state, RED, sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, BLUE, sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    give(state, BLUE, "hand", *["marketing_trainee"] * state["supply"]["marketing_trainee"])
    give(state, RED, "work", "recruiting_girl", "coach", *extra_work)
    state["work"] = {"index": -1, "seat": None, "step": None}
    turn._next_player(state, [])
    return state


def test_e7_phantom_hire_trained_two_steps() -> None:
    state = _e7_state()
    legal = ENGINE.actions(state, RED)
    assert {"type": "hire", "card": "marketing_trainee"} not in legal
    phantom = {"type": "hire", "card": "marketing_trainee", "train_by": 0, "into": "brand_manager"}
    assert phantom in legal
    supply_before = dict(state["supply"])
    state = ENGINE.apply(state, RED, {"type": "hire", "card": "kitchen_trainee"}).state
    state = ENGINE.apply(state, RED, phantom).state
    assert state["work"]["seat"] == BLUE  # nothing left for Red: the turn passed on
    assert sorted(state["p"][RED]["beach"]) == ["brand_manager", "kitchen_trainee"]
    assert state["supply"]["brand_manager"] == supply_before["brand_manager"] - 1
    assert state["supply"]["campaign_manager"] == supply_before["campaign_manager"]
    assert state["supply"]["marketing_trainee"] == 0
    assert state["p"][RED]["r"]["hires"] == 2
    assert "first_to_train" in state["p"][RED]["milestones"]
    invariant(state)


def test_e7_split_coach() -> None:
    state = _e7_state()
    state = ENGINE.apply(state, RED, {"type": "hire", "card": "kitchen_trainee"}).state
    phantom = {"type": "hire", "card": "marketing_trainee", "train_by": 0, "into": "campaign_manager"}
    state = ENGINE.apply(state, RED, phantom).state
    train = {"type": "train", "by": 0, "card": "kitchen_trainee", "into": "burger_cook", "again": False}
    assert train in ENGINE.actions(state, RED)
    state = ENGINE.apply(state, RED, train).state
    assert sorted(state["p"][RED]["beach"]) == ["burger_cook", "campaign_manager"]
    invariant(state)


def test_e7_illegal_variants() -> None:
    state = _e7_state(extra_work=("trainer",))
    phantom = {"type": "hire", "card": "marketing_trainee", "train_by": 0, "into": "brand_manager"}
    state = ENGINE.apply(state, RED, phantom).state
    state = ENGINE.apply(state, RED, {"type": "done"}).state
    legal = ENGINE.actions(state, RED)
    # a trainer cannot add a third step to the card the coach trained (no $20-salaries milestone)
    assert not [a for a in legal if a["type"] == "train" and a["card"] == "brand_manager"]
    state2 = _e7_state()
    state2["p"][RED]["hand"].append("brand_director")
    state2["supply"]["brand_director"] -= 1
    legal2 = ENGINE.actions(state2, RED)
    assert not [a for a in legal2 if a.get("into") == "brand_director"]
    # the coach has no action left: no more phantoms
    state3 = _e7_state()
    state3 = ENGINE.apply(state3, RED, phantom).state if False else state3
    state3["p"][RED]["r"]["trainers"][0]["left"] = 0
    assert not [a for a in ENGINE.actions(state3, RED) if "into" in a]


def test_e8_marketing_phase() -> None:
    state = hand_made(2, MAP_ALPHA)
    state["demand"] = {"2": ["pizza", "pizza"]}
    state["p"][RED]["milestones"] = {"first_radio_campaign": 2}
    for number in (2, 9, 14):
        state["campaign_supply"].remove(number)
    state["supply"]["brand_director"] -= 1
    state["supply"]["campaign_manager"] -= 1
    state["supply"]["marketing_trainee"] -= 1
    state["p"][RED]["busy"] = [{"card": "brand_director", "campaign": 2}, {"card": "campaign_manager", "campaign": 9}]
    state["p"][BLUE]["busy"] = [{"card": "marketing_trainee", "campaign": 14}]
    state["campaigns"] = [
        {"number": 2, "type": "radio", "owner": RED, "card": "brand_director", "good": "pizza", "tokens": 1,
         "eternal": False, "cells": sq((1, 1))},
        {"number": 9, "type": "mailbox", "owner": RED, "card": "campaign_manager", "good": "burger", "tokens": 1,
         "eternal": False, "cells": sq((3, 3))},
        {"number": 14, "type": "billboard", "owner": BLUE, "card": "marketing_trainee", "good": "lemonade",
         "tokens": 2, "eternal": False, "cells": sq((3, 7), (4, 7))},
    ]
    marketing_campaigns(state, [])
    assert state["demand"] == {"2": ["pizza"] * 3, "15": ["pizza", "pizza", "burger"]}
    assert [c["number"] for c in state["campaigns"]] == [14] and state["campaigns"][0]["tokens"] == 1
    assert sorted(state["p"][RED]["hand"]) == ["brand_director", "campaign_manager"]
    assert state["p"][RED]["busy"] == []
    assert 2 in state["campaign_supply"] and 9 in state["campaign_supply"]
    invariant(state)


def _e9_state(card: str, milestones: dict[str, int] | None = None) -> dict:
    state = hand_made(2, MAP_BETA)
    add_restaurant(state, RED, sq((3, 0), (3, 1), (4, 0), (4, 1)), [3, 1])
    give(state, RED, "work", card)
    state["p"][RED]["milestones"] = dict(milestones or {})
    return state


def _best_drinks(state: dict, card: str) -> int:
    from app.games.food_chain_magnate import map as m
    from app.games.food_chain_magnate.phases.working.drinks import per_source

    best = 0
    for a in drink_actions(state, RED):
        if a["card"] == card:
            best = max(best, sum(m.drinks_of(state["map"], a["sources"], per_source(state, RED, card)).values()))
    return best


def test_e9_buyers() -> None:
    assert _best_drinks(_e9_state("cart_operator"), "cart_operator") == 6
    assert _best_drinks(_e9_state("cart_operator", {"first_cart_operator_played": 1}), "cart_operator") == 6
    assert _best_drinks(_e9_state("cart_operator", {"first_errand_boy_played": 1}), "cart_operator") == 9
    assert _best_drinks(_e9_state("truck_driver"), "truck_driver") == 9
    assert _best_drinks(_e9_state("zeppelin_pilot"), "zeppelin_pilot") == 8


def test_e9_buy_puts_drinks_in_stock() -> None:
    state = _e9_state("zeppelin_pilot")
    turn.start_working(state, [])
    state["work"]["step"] = "food_and_drinks"
    buy = max((a for a in ENGINE.actions(state, RED) if a["type"] == "buy"), key=lambda a: len(a["sources"]))
    state = ENGINE.apply(state, RED, buy).state
    assert state["p"][RED]["stock"] == {"burger": 0, "pizza": 0, "beer": 4, "lemonade": 2, "soft_drink": 2}


def test_e10_entrance_on_other_tile_and_marketing_range() -> None:
    state = hand_made(4, MAP_GAMMA)
    add_restaurant(state, BLUE, sq((0, 3), (0, 4), (1, 3), (1, 4)), [0, 4])
    house5 = next(h for h in state["houses"] if h["number"] == 5)
    assert fcm_map.house_distance(state["map"], entrances_of(state, BLUE), house5) == 1
    for marketeer in ("marketing_trainee", "campaign_manager"):
        give(state, BLUE, "work", marketeer)
        state["pending"] = {"kind": "campaign", "marketeer": marketeer, "number": 15}
        spots = marketing_actions(state, BLUE)
        assert {"type": "campaign_at", "cells": [[3, 4]]} in spots
        state["p"][BLUE]["work"].remove(marketeer)
        state["supply"][marketeer] += 1
    state["pending"] = None
