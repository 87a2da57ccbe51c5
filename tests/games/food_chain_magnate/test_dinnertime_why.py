"""Dinnertime events tell why each house bought where it did (price parts, distance, bonuses, rivals)."""

from __future__ import annotations

from app.games.food_chain_magnate.phases.dinnertime import dinnertime
from tests.games.food_chain_magnate.test_examples import BLUE, RED, _e1_state, _e2_state


def _sales(state: dict) -> dict[int, dict]:
    events: list[dict] = []
    dinnertime(state, events)
    return {e["house"]: e for e in events if e["type"] in ("sale", "no_sale")}


def test_sale_carries_price_parts_distance_and_losing_rival() -> None:
    sale = _sales(_e1_state())[2]
    assert sale["player"] == BLUE and sale["base_price"] == 10 and sale["unit_price"] == 8
    assert sale["price_parts"] == [{"source": "pricing_manager", "count": 1, "delta": -1},
                                   {"source": "first_to_lower_prices", "count": 1, "delta": -1}]
    assert (sale["distance"], sale["total"], sale["garden"], sale["factor"]) == (0, 8, False, 1)
    assert sale["bonuses"] == [] and sale["waitresses"] == 2
    assert sale["rivals"] == [{"player": RED, "unit_price": 10, "distance": 1, "total": 11, "waitresses": 1,
                               "reason": "higher_total"}]


def test_garden_sale_shows_factor_bonus_and_rival_missing_goods() -> None:
    sale = _sales(_e1_state())[14]
    assert sale["player"] == RED and sale["garden"] and sale["factor"] == 2
    assert sale["bonuses"] == [{"good": "burger", "count": 2, "each": 5, "milestone": "first_burger_marketed"}]
    assert sale["income"] == 3 * 10 * 2 + 2 * 5 == 70
    (blue,) = sale["rivals"]
    assert blue["reason"] == "missing_goods" and blue["missing"] == {"burger": 2}  # its only burger went to house 2
    assert (blue["unit_price"], blue["distance"], blue["total"]) == (8, 1, 9)


def test_tie_lost_on_turn_order_then_on_waitresses() -> None:
    (blue_wins,) = _sales(_e2_state()).values()
    assert blue_wins["player"] == BLUE and blue_wins["total"] == 9
    assert blue_wins["rivals"][0]["player"] == RED and blue_wins["rivals"][0]["reason"] == "later_in_turn_order"
    (red_wins,) = _sales(_e2_state(red_waitresses=2)).values()
    assert red_wins["player"] == RED and red_wins["waitresses"] == 2
    assert red_wins["rivals"][0]["reason"] == "fewer_waitresses" and red_wins["rivals"][0]["waitresses"] == 1


def test_house_that_buys_nothing_says_why() -> None:
    state = _e1_state()
    state["demand"] = {"15": ["pizza"]}
    state["p"][BLUE]["bankrupt"] = True
    state["restaurants"] = [r for r in state["restaurants"] if r["owner"] != RED]
    no_sale = _sales(state)[15]
    assert no_sale["type"] == "no_sale" and no_sale["goods"] == ["pizza"] and no_sale["garden"] is False
    reasons = {r["player"]: r["reason"] for r in no_sale["rivals"]}
    assert reasons == {RED: "no_open_restaurant", BLUE: "bankrupt"}
    assert state["demand"] == {"15": ["pizza"]}


def test_missing_goods_in_no_sale() -> None:
    state = _e1_state()
    state["demand"] = {"15": ["pizza"]}
    no_sale = _sales(state)[15]
    assert [r["reason"] for r in no_sale["rivals"]] == ["missing_goods", "missing_goods"]
    assert all(r["missing"] == {"pizza": 1} for r in no_sale["rivals"])


def test_chain_without_a_road_to_the_house() -> None:
    state = _e1_state()
    state["demand"] = {"15": ["lemonade"]}
    state["restaurants"][0]["entrance"] = [0, 0]  # a corner square that touches no road
    state["restaurants"][0]["cells"] = [[0, 0], [0, 1], [1, 0], [1, 1]]
    sale = _sales(state)[15]
    assert sale["player"] == BLUE
    assert sale["rivals"] == [{"player": RED, "unit_price": 10, "distance": None, "total": None, "waitresses": 1,
                               "reason": "not_connected"}]
