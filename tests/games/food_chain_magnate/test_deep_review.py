"""Deep review of Dinnertime (§6.4, §6.8) and the Marketing phase (§4.4, §4.5, §6.6).

Each test builds a small hand-made table on map alpha (spec §10) and checks one edge case against the spec
and the published rulebook (3rd printing). Map alpha, for reference::

          col 0123456789
    row 0     ..#....#..
    row 1     ..#....#..
    row 2     ##########
    row 3     HH#.....HH      house 2 = (3,0)-(4,1) on tile A, house 15 = (3,8)-(4,9) on tile I
    row 4     HH#.....HH
"""

from __future__ import annotations

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.bank import game_ending
from app.games.food_chain_magnate.board import entrances_of, house
from app.games.food_chain_magnate.phases.dinnertime import dinnertime
from app.games.food_chain_magnate.phases.marketing_campaigns import marketing_campaigns
from tests.games.food_chain_magnate.helpers import MAP_ALPHA, add_restaurant, give, hand_made, invariant, sq

RED, BLUE = "0", "1"
RED_CELLS, RED_DOOR = sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6]  # tile I
BLUE_CELLS, BLUE_DOOR = sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3]  # tile A


def _table(bank: int = 500, milestones: list[str] | None = None) -> dict:
    state = hand_made(2, MAP_ALPHA, bank=bank, milestones=milestones)
    add_restaurant(state, RED, RED_CELLS, RED_DOOR)
    add_restaurant(state, BLUE, BLUE_CELLS, BLUE_DOOR)
    return state


def _garden_on_15(state: dict) -> None:
    house(state, 15)["garden"] = sq((3, 7), (4, 7))
    state["garden_supply"] -= 1


def _cash(state: dict, seat: str, amount: int) -> None:
    state["p"][seat]["cash"] += amount
    state["money_total"] += amount


def _dinner(state: dict) -> list[dict]:
    events: list[dict] = []
    dinnertime(state, events)
    invariant(state)
    return events


def _sales(events: list[dict]) -> list[tuple[int, str, int]]:
    return [(e["house"], e["player"], e["income"]) for e in events if e["type"] == "sale"]


# ---------------------------------------------------------------- Dinnertime: who serves


# §6.4 1.3 and §7.3: a chain's distance is the minimum over all its open restaurants; §6.4 1.4: the first
# tie-break counts waitresses at work only (the rulebook: "in its structure"), never the beach.
def _house_2_for_a_burger(second_red_restaurant: bool) -> dict:
    state = _table()
    state["turn_order"] = [BLUE, RED]
    state["p"][RED]["stock"]["burger"] = 1
    state["p"][BLUE]["stock"]["burger"] = 1
    give(state, RED, "work", "waitress")
    give(state, BLUE, "beach", "waitress", "waitress")
    state["demand"] = {"2": ["burger"]}
    if second_red_restaurant:
        add_restaurant(state, RED, sq((3, 3), (3, 4), (4, 3), (4, 4)), [3, 3])  # on tile A, by road (2,3)
    return state


def test_nearest_restaurant_of_a_chain_counts_and_beach_waitresses_do_not() -> None:
    assert _sales(_dinner(_house_2_for_a_burger(False))) == [(2, BLUE, 10)]  # Red 10 + 1 loses to Blue 10 + 0
    state = _house_2_for_a_burger(True)
    assert fcm_map.house_distance(state["map"], entrances_of(state, RED), house(state, 2)) == 0
    events = _dinner(state)
    assert _sales(events) == [(2, RED, 10)]
    (blue,) = next(e for e in events if e["type"] == "sale")["rivals"]
    assert (blue["total"], blue["waitresses"], blue["reason"]) == (10, 0, "fewer_waitresses")


# §6.3.6 / §7.1: with a drive-in every corner is an entrance; the step from an entrance onto a road on the
# next tile costs 1 (FAQ), so a restaurant across the A/I border is at 1 from house 2 by its printed door
# on tile I and at 0 by its corner on tile A.
def test_drive_in_corner_on_the_other_tile_shortens_the_distance() -> None:
    state = hand_made(2, MAP_ALPHA)
    add_restaurant(state, RED, sq((3, 4), (3, 5), (4, 4), (4, 5)), [3, 5])
    assert fcm_map.house_distance(state["map"], entrances_of(state, RED), house(state, 2)) == 1
    state["p"][RED]["r"]["drive_in"] = True
    assert fcm_map.house_distance(state["map"], entrances_of(state, RED), house(state, 2)) == 0
    state["restaurants"][0]["open"] = False  # coming soon: no drive-in, no sale
    assert entrances_of(state, RED) == []


# §4.5 / §6.4 1.1: a garden house holds 5 tokens and buys all of them or nothing; the nearer chain short of
# one beer loses it, the farther chain sells 5 items at double the unit price plus the undoubled drink bonus.
def test_garden_house_with_five_tokens_buys_all_or_nothing() -> None:
    state = _table()
    _garden_on_15(state)
    state["demand"] = {"15": ["burger", "burger", "burger", "beer", "beer"]}
    state["p"][RED]["stock"].update(burger=3, beer=1)
    state["p"][BLUE]["stock"].update(burger=3, beer=2)
    state["p"][BLUE]["milestones"] = {"first_drink_marketed": 1}
    events = _dinner(state)
    assert _sales(events) == [(15, BLUE, 5 * 2 * 10 + 2 * 5)]
    assert state["p"][RED]["stock"]["burger"] == 3 and state["p"][RED]["stock"]["beer"] == 1
    assert state["p"][BLUE]["stock"]["burger"] == 0 and state["p"][BLUE]["stock"]["beer"] == 0
    (red,) = next(e for e in events if e["type"] == "sale")["rivals"]
    assert red["reason"] == "missing_goods" and red["missing"] == {"beer": 1} and red["total"] == 10


# §6.4 / R4 and the rulebook's garden example: a negative unit price wins the comparison, the garden doubles
# it and the marketed bonus is added undoubled: (2 x -3) + 5 = -1 per burger, paid to the bank.
def test_negative_price_with_garden_and_bonus() -> None:
    state = _table()
    _garden_on_15(state)
    give(state, BLUE, "work", *["discount_manager"] * 4)
    state["p"][BLUE]["milestones"] = {"first_to_lower_prices": 1, "first_burger_marketed": 1}
    state["p"][RED]["stock"]["burger"] = 2
    state["p"][BLUE]["stock"]["burger"] = 2
    _cash(state, BLUE, 10)
    state["demand"] = {"15": ["burger", "burger"]}
    events = _dinner(state)
    sale = next(e for e in events if e["type"] == "sale")
    assert (sale["player"], sale["unit_price"], sale["total"], sale["income"]) == (BLUE, -3, -2, -2)
    assert state["p"][BLUE]["cash"] == 8 and state["bank"] == 502 and not state["p"][BLUE]["bankrupt"]


# ---------------------------------------------------------------- Dinnertime: money


# §6.8: the second break can come from waitress tips; the rest of the tips and the CFO bonus (on the tips,
# rulebook "including waitress tips") are owed on paper and the phase ends the game.
def test_second_break_from_tips_then_cfo_paid_on_paper() -> None:
    state = _table(bank=4, milestones=["first_to_have_20"])
    state["breaks"] = 1
    state["reserves_revealed"] = True
    give(state, RED, "work", "waitress", "waitress", "cfo")
    state["p"][RED]["milestones"] = {"first_waitress_played": 1}
    events = _dinner(state)
    assert [e["breaks"] for e in events if e["type"] == "bank_broken"] == [2]
    assert [e["amount"] for e in events if e["type"] in ("waitress_tips", "cfo_bonus")] == [10, 5]
    assert state["p"][RED]["cash"] == 15 and state["bank"] == -11 and game_ending(state)
    assert "first_to_have_20" not in state["p"][RED]["milestones"]


# §6.8 E4: one payment may break the bank twice (refill, then run dry again): the rest is on paper, and
# `first_to_have_20` is checked once the chain has been paid.
def test_one_sale_breaks_the_bank_twice() -> None:
    state = _table(bank=12, milestones=["first_to_have_20"])
    for seat in (RED, BLUE):
        state["p"][seat]["reserve"] = "reserve_100"
    give(state, RED, "work", "luxuries_manager")
    state["p"][RED]["milestones"] = {"first_pizza_marketed": 1}
    state["p"][RED]["stock"]["pizza"] = 5
    _garden_on_15(state)
    state["demand"] = {"15": ["pizza"] * 5}
    events = _dinner(state)
    assert _sales(events) == [(15, RED, 5 * (2 * 20 + 5))]
    assert [e["breaks"] for e in events if e["type"] == "bank_broken"] == [1, 2]
    assert state["bank"] == 12 + 200 - 225 and state["p"][RED]["cash"] == 225
    assert "first_to_have_20" in state["p"][RED]["milestones"] and game_ending(state)


# §3 #17 (rulebook: "takes effect only from the next turn onward"): $100 reached this Dinnertime earns the
# milestone at the end of the phase, but the CEO does CFO work only from the next round's Dinnertime.
def test_ceo_works_as_cfo_only_from_the_round_after_reaching_100() -> None:
    state = _table(milestones=["first_to_have_100"])
    _cash(state, RED, 95)
    state["p"][RED]["stock"]["beer"] = 2
    state["demand"] = {"15": ["beer"]}
    events = _dinner(state)
    assert _sales(events) == [(15, RED, 10)] and not [e for e in events if e["type"] == "cfo_bonus"]
    assert state["p"][RED]["milestones"] == {"first_to_have_100": state["round"]}
    state["round"] += 1
    state["demand"] = {"15": ["beer"]}
    events = _dinner(state)
    assert [e["amount"] for e in events if e["type"] == "cfo_bonus"] == [5]
    assert state["p"][RED]["cash"] == 95 + 10 + 10 + 5


# ---------------------------------------------------------------- Marketing phase


def _campaign(state: dict, owner: str, card: str, number: int, kind: str, good: str, tokens: int,
              eternal: bool = False, **where: object) -> None:
    state["supply"][card] -= 1
    state["p"][owner]["busy"].append({"card": card, "campaign": number})
    state["campaign_supply"].remove(number)
    state["campaigns"].append({"number": number, "type": kind, "owner": owner, "card": card, "good": good,
                               "tokens": tokens, "eternal": eternal, **where})
    state["campaigns"].sort(key=lambda c: c["number"])


# §6.6 / §4.4 / §4.5: campaigns run by number; a double radio fills a garden house up to 5, an airplane
# along the south edge over column 9 then finds it full, a mailbox whose block (rows 3-4, cols 3-9) is cut
# off house 2 by the column-2 road adds nothing there; house 2 only hears the radio (3x3 tiles).
def test_campaigns_of_different_goods_share_the_cap_in_number_order() -> None:
    state = _table()
    _garden_on_15(state)
    state["demand"] = {"15": ["beer", "beer"]}
    state["p"][RED]["milestones"] = {"first_radio_campaign": 2}
    _campaign(state, RED, "brand_director", 3, "radio", "pizza", 2, cells=sq((0, 9)))
    _campaign(state, BLUE, "brand_manager", 4, "airplane", "burger", 2, edge="S", offset=9, covers=1)
    _campaign(state, BLUE, "campaign_manager", 9, "mailbox", "lemonade", 1, cells=sq((3, 4)))
    events: list[dict] = []
    marketing_campaigns(state, events)
    assert state["demand"] == {"15": ["beer", "beer", "pizza", "pizza", "burger"], "2": ["pizza", "pizza"]}
    assert [(e["campaign"], e["added"]) for e in events if e["type"] == "campaign_ran"] == [
        (3, {"2": 2, "15": 2}), (4, {"15": 1}), (9, {})]
    assert [(c["number"], c["tokens"]) for c in state["campaigns"]] == [(3, 1), (4, 1)]
    assert state["p"][BLUE]["hand"] == ["campaign_manager"]  # the mailbox ran out even though it added nothing
    invariant(state)


# §4.5 (rulebook "place 0 or 1 goods, depending on how much advertising the house will still take"):
# a double radio into a house with one free place adds 1.
def test_double_radio_adds_only_what_fits() -> None:
    state = _table()
    state["demand"] = {"2": ["burger", "burger"], "15": ["beer", "beer", "beer"]}
    state["p"][RED]["milestones"] = {"first_radio_campaign": 2}
    _campaign(state, RED, "brand_director", 1, "radio", "soft_drink", 3, cells=sq((1, 1)))
    marketing_campaigns(state, [])
    assert state["demand"] == {"2": ["burger", "burger", "soft_drink"], "15": ["beer", "beer", "beer"]}


# §3 #1 and §6.6: an eternal campaign never loses its token and its marketeer stays busy; a finite campaign
# whose marketeer was fired at Payday runs out and nothing returns to the hand.
def test_eternal_campaign_stays_and_fired_marketeer_does_not_return() -> None:
    state = _table()
    _campaign(state, RED, "marketing_trainee", 14, "billboard", "burger", 1, eternal=True, cells=sq((3, 7), (4, 7)))
    _campaign(state, BLUE, "campaign_manager", 10, "mailbox", "pizza", 1, cells=sq((0, 0)))
    state["p"][BLUE]["busy"] = []  # fired while busy (§6.5 3): the card went back to the supply
    state["supply"]["campaign_manager"] += 1
    for _ in range(4):
        state["demand"] = {}
        marketing_campaigns(state, [])
        assert state["demand"] == {"15": ["burger"]}
    assert [(c["number"], c["tokens"]) for c in state["campaigns"]] == [(14, 1)]
    assert state["p"][RED]["busy"] == [{"card": "marketing_trainee", "campaign": 14}]
    assert state["p"][BLUE]["hand"] == [] and 10 in state["campaign_supply"]
    invariant(state)
