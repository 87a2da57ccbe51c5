"""Service and End of service (spec §4.2, §4.3) rule by rule, and the refusal codes."""

from __future__ import annotations

from app.games.food_truck import ENGINE
from app.games.food_truck.data import in_card_order

from .helpers import act, build, refused, types_of

REVEAL = {"type": "reveal"}
SUPPLY3 = ["salad-01", "salad-02", "salad-03"]


def test_reveal_and_serve_a_single() -> None:
    s = build(["a", "b"], turn="a", piles={"a": ["sushi-01"]}, supply=["salad-01", "salad-02"])
    applied = ENGINE.apply(s, "a", REVEAL)
    assert not applied.undoable
    s = applied.state
    assert applied.events[0] == {"type": "revealed", "seat": "a", "card": "sushi-01", "meal": "sushi",
                                 "visible_to": None}
    assert s["seats"]["a"]["served"] == {"sushi": ["sushi-01"]} and s["turn"] == "b"


def test_own_earlier_cards_make_a_pile() -> None:
    s = build(["a", "b"], turn="a", served={"a": ["sushi-01", "sushi-02"]}, piles={"a": ["sushi-03"]},
              supply=["salad-01", "salad-02"])
    s, ev = act(s, "a", REVEAL)
    assert s["seats"]["a"]["served"]["sushi"] == ["sushi-01", "sushi-02", "sushi-03"] and ev[-1]["pile"] == 3


def test_desserts_always_serve() -> None:
    s = build(["a", "b"], turn="b", desserts={"a": ["dessert-01"]}, piles={"b": ["dessert-02"]},
              supply=["salad-01", "salad-02"])
    s, ev = act(s, "b", REVEAL)
    assert s["seats"]["b"]["desserts_served"] == ["dessert-02"] and types_of(ev)[-1] == "dessert_served"


def test_eliminated_players_cards_keep_blocking() -> None:
    s = build(["a", "b", "c"], turn="c", served={"a": ["tacos-01"]}, eliminated=["a"],
              piles={"c": ["tacos-02"]}, supply=SUPPLY3[:2])
    s, ev = act(s, "c", REVEAL)
    assert s["seats"]["c"]["eliminated"] and ev[-1]["type"] == "eliminated"
    assert ev[-1]["blocked_by"] == ["a"] and ev[-1]["card"] == "tacos-02"
    # Only the round's first elimination moves the marker.
    assert s["first_player"] == "a" and "marker_taken" not in types_of(ev)


def test_elimination_compensation_and_marker() -> None:
    s = build(["a", "b", "c"], turn="b", first="a", served={"a": ["tacos-01"]}, piles={"b": ["tacos-02"]},
              supply=SUPPLY3)
    s, ev = act(s, "b", REVEAL)
    b = s["seats"]["b"]
    assert b["eliminated"] and b["draw_pile"][-1] == "tacos-02" and b["pending"] is None
    assert s["first_player"] == "b" and s["eliminated_this_round"] == 1 and s["elimination_order"] == ["b"]
    assert s["step"] == "compensation" and ENGINE.awaiting(s) == ["b"]
    assert ENGINE.actions(s, "b") == [{"type": "take", "card": c} for c in SUPPLY3]
    assert refused(s, "b", {"type": "take", "card": "sushi-01"}) == "no_such_card"
    assert refused(s, "c", REVEAL) == "not_your_turn"
    assert refused(s, "b", REVEAL) == "wrong_phase"
    s, ev = act(s, "b", {"type": "take", "card": "salad-02"})
    assert s["seats"]["b"]["draw_pile"][-1] == "salad-02" and "salad-02" in s["seats"]["b"]["collection"]
    assert s["supply"] == ["salad-01", "salad-03"] and s["turn"] == "c"
    # The round's order is unchanged by the marker: c then a, skipping b.
    s, _ = act(s, "c", REVEAL)
    assert s["turn"] == "a"


def test_marker_goes_to_first_eliminated_even_if_holding_it() -> None:
    s = build(["a", "b"], turn="a", first="a", served={"b": ["tacos-01"]}, piles={"a": ["tacos-02"]},
              supply=["salad-01", "salad-02"])
    s, ev = act(s, "a", REVEAL)
    assert s["first_player"] == "a" and "marker_taken" in types_of(ev)


def test_empty_draw_pile_eliminates_without_a_card() -> None:
    s = build(["a", "b"], turn="a", served={"a": ["burger-01", "burger-02", "pizza-01", "fries_drink-01",
                                                   "takeaway_box-01"]},
              desserts={"a": ["dessert-01"]}, supply=["salad-01", "salad-02"])
    assert s["seats"]["a"]["draw_pile"] == []
    s, ev = act(s, "a", REVEAL)
    assert types_of(ev)[:3] == ["ran_out", "eliminated", "marker_taken"]
    assert s["seats"]["a"]["eliminated"] and ev[1]["card"] is None and s["step"] == "compensation"


def test_no_compensation_when_the_supply_is_empty() -> None:
    s = build(["a", "b", "c"], turn="b", served={"a": ["tacos-01"]}, piles={"b": ["tacos-02"]}, supply=[])
    s, ev = act(s, "b", REVEAL)
    assert "no_compensation" in types_of(ev) and s["turn"] == "c" and s["step"] == "reveal"


def test_last_player_standing_wins_the_round() -> None:
    s = build(["a", "b", "c"], turn="c", served={"a": ["tacos-01"]}, eliminated=["b"], piles={"c": ["tacos-02"]},
              supply=["salad-01", "salad-02"])
    deck = list(s["central_deck"])
    s, _ = act(s, "c", REVEAL)
    s, ev = act(s, "c", {"type": "take", "card": "salad-02"})
    assert s["seats"]["a"]["vp"] == 1 and "salad-01" in s["seats"]["a"]["collection"]
    assert types_of(ev)[:3] == ["compensation_taken", "round_won", "last_card_taken"]
    assert s["supply"] == deck[:3] and s["phase"] == "prep" and s["round_starter"] == "b"
    assert all(s["seats"][p]["truck_current"] is not None for p in "abc")


def test_winner_chooses_when_several_supply_cards_remain() -> None:
    # Unreachable in legal play (spec §4.3 step 1), but ruled: the winner picks, the rest go under the deck.
    s = build(["a", "b"], turn="b", served={"a": ["tacos-01"]}, piles={"b": ["tacos-02"]},
              supply=["salad-01", "salad-02", "salad-03"])
    s, _ = act(s, "b", REVEAL)
    s, _ = act(s, "b", {"type": "take", "card": "salad-01"})
    assert s["step"] == "winner_pick" and ENGINE.awaiting(s) == ["a"]
    deck = list(s["central_deck"])
    s, ev = act(s, "a", {"type": "take", "card": "salad-03"})
    assert "salad-03" in s["seats"]["a"]["collection"]
    assert s["supply"] == (deck + ["salad-02"])[:2] and s["central_deck"] == (deck + ["salad-02"])[2:]


def test_winner_gets_nothing_from_an_empty_supply() -> None:
    s = build(["a", "b"], turn="b", served={"a": ["tacos-01"]}, piles={"b": ["tacos-02"]}, supply=["salad-01"])
    s, _ = act(s, "b", REVEAL)
    s, ev = act(s, "b", {"type": "take", "card": "salad-01"})
    assert "last_card_taken" not in types_of(ev) and s["seats"]["a"]["vp"] == 1
    assert s["rounds"][-1]["card"] is None


def test_short_central_deck_deals_what_remains() -> None:
    s = build(["a", "b", "c"], turn="c", served={"a": ["tacos-01"]}, eliminated=["b"], piles={"c": ["tacos-02"]},
              supply=["salad-01", "salad-02"])
    # Hand most of the deck to a so that only one card is left to deal.
    s["seats"]["a"]["collection"] = in_card_order(s["seats"]["a"]["collection"] + s["central_deck"][1:])
    s["seats"]["a"]["draw_pile"] += s["central_deck"][1:]
    s["central_deck"] = s["central_deck"][:1]
    s, _ = act(s, "c", REVEAL)
    s, ev = act(s, "c", {"type": "take", "card": "salad-02"})
    assert len(s["supply"]) == 1 and s["central_deck"] == []


def test_refusal_codes_common_to_every_moment() -> None:
    s = build(["a", "b"], turn="a", piles={"a": ["sushi-01"]}, supply=["salad-01", "salad-02"])
    assert refused(s, "a", {"type": "fly_away"}) == "unknown_action"
    assert refused(s, "a", "reveal") == "unknown_action"
    assert refused(s, "a", {}) == "unknown_action"
    assert refused(s, "b", REVEAL) == "not_your_turn"
    assert refused(s, "nobody", REVEAL) == "not_your_turn"
    assert refused(s, "a", {"type": "place", "card": "sushi-01"}) == "wrong_phase"
    assert refused(s, "a", {"type": "reveal", "now": True}) == "bad_action"
    assert refused(s, "a", {"type": "resolve"}) == "wrong_phase"
    over = dict(s, phase="over", winner="a")
    assert refused(over, "a", REVEAL) == "game_over"
