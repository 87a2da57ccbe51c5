"""Setup (spec §3), the truck choice and Prep (spec §4.1)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.games import GAMES
from app.games.base import Game
from app.games.food_truck import ENGINE
from app.games.food_truck.data import CARD_TYPE, TRUCK_CARDS
from tests.games.contract import seats

from .helpers import act, check_invariants, refused, types_of


def test_registered_behind_the_contract() -> None:
    assert GAMES["food-truck"] is ENGINE and isinstance(ENGINE, Game)
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 5)
    assert ENGINE.title and ENGINE.description and {o["id"] for o in ENGINE.options} == {"first_player", "trucks"}


@pytest.mark.parametrize(("n", "deck", "target"), [(2, 48, 3), (3, 42, 3), (4, 36, 3), (5, 30, 2)])
def test_setup_counts(n: int, deck: int, target: int) -> None:
    s = ENGINE.new_game(seats(n), 1)
    check_invariants(s)
    assert len(s["central_deck"]) == deck and len(s["supply"]) == n and len(s["box"]) == 5 - n
    assert s["vp_target"] == target
    for p in seats(n):
        me = s["seats"][p]
        assert Counter(CARD_TYPE[c] for c in me["collection"]) == Counter(
            {"burger": 2, "pizza": 1, "fries_drink": 1, "takeaway_box": 1, "dessert": 1})
        assert me["vp"] == 0 and me["truck"] is None
    assert all(CARD_TYPE[c] != "dessert" for c in s["central_deck"] + s["supply"])


def test_leftover_blue_cards_join_the_deck() -> None:
    s = ENGINE.new_game(seats(2), 1)
    deck_types = Counter(CARD_TYPE[c] for c in s["central_deck"] + s["supply"])
    assert deck_types["burger"] == 6 and deck_types["pizza"] == 3 and deck_types["hot_dog"] == 5


def test_seat_ids_are_opaque_and_first_player_option() -> None:
    s = ENGINE.new_game(["ana", "bo", "cy"], 3, {"first_player": "2"})
    assert s["first_player"] == "bo" and ENGINE.awaiting(s) == ["bo"]
    firsts = {ENGINE.new_game(["x", "y", "z"], seed)["first_player"] for seed in range(30)}
    assert firsts == {"x", "y", "z"}


@pytest.mark.parametrize("options", [{"first_player": "4"}, {"first_player": "last"}, {"trucks": "maybe"},
                                     {"colour": "red"}])
def test_bad_options(options: dict) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(seats(3), 1, options)


@pytest.mark.parametrize("players", [["0"], seats(6), ["a", "a"]])
def test_bad_player_lists(players: list[str]) -> None:
    with pytest.raises(ValueError):
        ENGINE.new_game(players, 1)


def test_truck_choice_in_seat_order_from_the_first_player() -> None:
    s = ENGINE.new_game(seats(3), 1, {"first_player": "3"})
    assert s["phase"] == "trucks" and ENGINE.awaiting(s) == ["2"]
    assert len(ENGINE.actions(s, "2")) == 5
    s, ev = act(s, "2", {"type": "choose_truck", "truck": "wheely_good"})
    assert ENGINE.awaiting(s) == ["0"] and ev[0] == {"type": "truck_chosen", "seat": "2", "truck": "wheely_good",
                                                     "name": "Wheely Good", "visible_to": None}
    assert refused(s, "0", {"type": "choose_truck", "truck": "wheely_good"}) == "truck_taken"
    assert refused(s, "0", {"type": "choose_truck", "truck": "ice_cream_van"}) == "no_such_truck"
    assert refused(s, "1", {"type": "choose_truck", "truck": "street_feast"}) == "not_your_turn"
    s, _ = act(s, "0", {"type": "choose_truck", "truck": "street_feast"})
    s, ev = act(s, "1", {"type": "choose_truck", "truck": "rolling_grill"})
    assert s["phase"] == "prep" and s["round"] == 1 and sorted(ENGINE.awaiting(s)) == seats(3)
    assert types_of(ev).count("truck_revealed") == 3
    for p, truck in (("0", "street_feast"), ("1", "rolling_grill"), ("2", "wheely_good")):
        me = s["seats"][p]
        assert me["truck"] == truck and me["truck_current"] in TRUCK_CARDS[truck] and len(me["truck_pile"]) == 4


def test_random_trucks_option_starts_prep_at_once() -> None:
    s = ENGINE.new_game(seats(5), 2, {"trucks": "random"})
    assert s["phase"] == "prep" and len({s["seats"][p]["truck"] for p in seats(5)}) == 5
    assert all(s["seats"][p]["truck_current"] is not None for p in seats(5))
    check_invariants(s)


def _prep(n: int = 2) -> dict:
    return ENGINE.new_game(seats(n), 4, {"trucks": "random", "first_player": "1"})


def test_prep_orders_one_card_at_a_time_and_secretly() -> None:
    s = _prep()
    hand = list(s["seats"]["0"]["hand"])
    assert ENGINE.actions(s, "0") == [{"type": "place", "card": c} for c in hand]
    applied = ENGINE.apply(s, "0", {"type": "place", "card": hand[3]})
    assert applied.undoable and applied.events[0]["visible_to"] == ["0"]
    s = applied.state
    assert s["seats"]["0"]["draw_pile"] == [hand[3]] and {"type": "take_back"} in ENGINE.actions(s, "0")
    # Others see nothing of the order being built.
    assert ENGINE.view(s, "1")["seats"]["0"]["draw_pile_count"] is None
    assert ENGINE.view(s, "0")["seats"]["0"]["draw_pile"] == [hand[3]]
    s, ev = act(s, "0", {"type": "take_back"})
    assert s["seats"]["0"]["hand"] == hand and s["seats"]["0"]["draw_pile"] == []
    assert refused(s, "0", {"type": "take_back"}) == "nothing_to_take_back"
    assert refused(s, "0", {"type": "place", "card": "sushi-01"}) == "no_such_card"
    assert refused(s, "0", {"type": "reveal"}) == "wrong_phase"
    assert refused(s, "0", {"type": "place", "card": hand[0], "extra": 1}) == "bad_action"


def test_service_starts_only_when_every_order_is_in() -> None:
    s = _prep()
    order = list(reversed(s["seats"]["0"]["hand"]))
    for card in order:
        s, ev = act(s, "0", {"type": "place", "card": card})
    assert s["seats"]["0"]["ready"] and ENGINE.awaiting(s) == ["1"] and s["phase"] == "prep"
    assert ev[-1] == {"type": "order_ready", "seat": "0", "visible_to": None}
    assert ENGINE.actions(s, "0") == [] and refused(s, "0", {"type": "take_back"}) == "not_your_turn"
    hand1 = list(s["seats"]["1"]["hand"])
    for card in hand1[:-1]:
        s, _ = act(s, "1", {"type": "place", "card": card})
    applied = ENGINE.apply(s, "1", {"type": "place", "card": hand1[-1]})
    assert not applied.undoable
    s = applied.state
    assert s["phase"] == "service" and s["turn"] == "0" and s["step"] == "reveal"
    assert s["seats"]["0"]["draw_pile"] == order and s["seats"]["1"]["draw_pile"] == hand1
    assert "service_started" in types_of(applied.events)
