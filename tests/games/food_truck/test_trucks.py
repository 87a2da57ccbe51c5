"""The five Truck card effects (spec §5) and their refusal codes."""

from __future__ import annotations

from typing import Any

from app.games.food_truck import ENGINE
from app.games.food_truck.data import in_card_order

from .helpers import act, build, check_invariants, refused, reveal_pending, types_of

REVEAL = {"type": "reveal"}
SUPPLY = ["salad-01", "salad-02", "salad-03"]
E1 = {"type": "play_truck", "effect": "E1"}
E4 = {"type": "play_truck", "effect": "E4"}
E5 = {"type": "play_truck", "effect": "E5"}


def _three(effect: str, pile: list[str], **kw: Any) -> dict:
    return build(["a", "b", "c"], turn="a", trucks={"a": effect}, piles={"a": pile}, supply=SUPPLY, **kw)


# -- E1 Rearrange ---------------------------------------------------------------------------------------------

def test_e1_before_revealing_reorders_the_top_five() -> None:
    pile = ["tacos-01", "sushi-01", "kebab-01", "salad-04", "hot_dog-01", "sandwich-01"]
    s = _three("E1", pile, served={"b": ["tacos-02"]})
    assert E1 in ENGINE.actions(s, "a")
    s, ev = act(s, "a", E1)
    assert s["step"] == "rearrange" and s["rearrange"] == {"todo": pile[:5], "done": []}
    assert ev[0]["type"] == "truck_played" and ev[0]["cards"] == 5
    assert ENGINE.actions(s, "a") == [{"type": "rearrange", "card": c} for c in pile[:5]]
    # Others see how many cards are being rearranged, nothing more.
    assert ENGINE.view(s, "b")["rearrange"] == {"cards": 5}
    assert ENGINE.view(s, None)["rearrange"] == {"cards": 5}
    assert ENGINE.view(s, "a")["rearrange"]["todo"] == pile[:5]
    applied = ENGINE.apply(s, "a", {"type": "rearrange", "card": "hot_dog-01"})
    assert applied.undoable and applied.events[0]["visible_to"] == ["a"]
    s = applied.state
    s, _ = act(s, "a", {"type": "take_back"})
    assert s["rearrange"]["done"] == []
    assert refused(s, "a", {"type": "take_back"}) == "nothing_to_take_back"
    assert refused(s, "a", {"type": "rearrange", "card": "sandwich-01"}) == "no_such_card"
    assert refused(s, "a", REVEAL) == "wrong_phase"
    for card in ["hot_dog-01", "salad-04", "kebab-01", "sushi-01"]:
        s, _ = act(s, "a", {"type": "rearrange", "card": card})
    s, ev = act(s, "a", {"type": "rearrange", "card": "tacos-01"})
    # The new top card is revealed at once and, the Truck card being used, resolved.
    assert types_of(ev)[:3] == ["card_rearranged", "rearranged", "revealed"]
    assert s["seats"]["a"]["served"]["hot_dog"] == ["hot_dog-01"]
    assert s["seats"]["a"]["draw_pile"][:5] == ["salad-04", "kebab-01", "sushi-01", "tacos-01", "sandwich-01"]
    assert s["turn"] == "b"


def test_e1_after_revealing_puts_the_card_back_first() -> None:
    s = _three("E1", ["tacos-01", "sushi-01", "kebab-01"], served={"b": ["tacos-02"]})
    s, _ = act(s, "a", REVEAL)
    assert s["step"] == "decide"
    s, ev = act(s, "a", E1)
    assert s["seats"]["a"]["pending"] is None
    assert s["rearrange"]["todo"][0] == "tacos-01" and len(s["rearrange"]["todo"]) == 5


def test_e1_with_fewer_cards_rearranges_them_all() -> None:
    s = build(["a", "b"], turn="a", trucks={"a": "E1"}, supply=SUPPLY[:2],
              served={"a": ["burger-01", "burger-02", "pizza-01"]}, desserts={"a": ["dessert-01"]},
              piles={"a": ["fries_drink-01", "takeaway_box-01"]})
    s, ev = act(s, "a", E1)
    assert ev[0]["cards"] == 2 and s["rearrange"]["todo"] == ["fries_drink-01", "takeaway_box-01"]


def test_e1_with_one_card_or_none_needs_no_ordering() -> None:
    one = build(["a", "b"], turn="a", trucks={"a": "E1"}, supply=SUPPLY[:2],
                served={"a": ["burger-01", "burger-02", "pizza-01", "fries_drink-01"]},
                desserts={"a": ["dessert-01"]}, piles={"a": ["takeaway_box-01"]})
    s, ev = act(one, "a", E1)
    assert types_of(ev)[:3] == ["truck_played", "revealed", "served"] and s["turn"] == "b"
    none = build(["a", "b"], turn="a", trucks={"a": "E1"}, supply=SUPPLY[:2],
                 served={"a": ["burger-01", "burger-02", "pizza-01", "fries_drink-01", "takeaway_box-01"]},
                 desserts={"a": ["dessert-01"]})
    s, ev = act(none, "a", E1)
    assert types_of(ev)[:3] == ["truck_played", "ran_out", "eliminated"]


# -- E2 Send Back ---------------------------------------------------------------------------------------------

def test_e2_before_revealing_then_reveals() -> None:
    s = _three("E2", ["tacos-01"], served={"b": ["tacos-02"], "c": ["kebab-01", "kebab-02"]})
    plays = [a for a in ENGINE.actions(s, "a") if a["type"] == "play_truck"]
    assert plays == [{"type": "play_truck", "effect": "E2", "seat": "b", "meal": "tacos"}]
    s, ev = act(s, "a", plays[0])
    assert types_of(ev)[:3] == ["truck_played", "revealed", "served"]
    assert ev[0]["sent_back"] == "tacos-02" and s["seats"]["b"]["draw_pile"][-1] == "tacos-02"
    assert refused(build(["a", "b"], turn="a", trucks={"a": "E2"}, supply=SUPPLY[:2],
                         served={"b": ["kebab-01", "kebab-02"]}),
                   "a", {"type": "play_truck", "effect": "E2", "seat": "b", "meal": "kebab"}) == "not_a_single"


def test_e2_on_own_or_an_eliminated_players_single() -> None:
    s = _three("E2", ["tacos-01"], served={"a": ["sushi-01"], "c": ["tacos-02"]}, eliminated=["c"])
    s, _ = act(s, "a", REVEAL)
    targets = [(a["seat"], a["meal"]) for a in ENGINE.actions(s, "a") if a["type"] == "play_truck"]
    assert targets == [("a", "sushi"), ("c", "tacos")]
    own, _ = act(s, "a", {"type": "play_truck", "effect": "E2", "seat": "a", "meal": "sushi"})
    assert own["seats"]["a"]["eliminated"] and own["seats"]["a"]["draw_pile"][-2:] == ["sushi-01", "tacos-01"]
    s, _ = act(s, "a", {"type": "play_truck", "effect": "E2", "seat": "c", "meal": "tacos"})
    assert s["seats"]["a"]["served"]["tacos"] == ["tacos-01"] and s["seats"]["c"]["served"] == {}


def test_e2_refusals() -> None:
    s = _three("E2", ["tacos-01"], served={"b": ["tacos-02"], "c": ["kebab-01", "kebab-02"]})
    assert refused(s, "a", {"type": "play_truck", "effect": "E2", "seat": "c", "meal": "kebab"}) == "not_a_single"
    assert refused(s, "a", {"type": "play_truck", "effect": "E2", "seat": "b", "meal": "sushi"}) == "not_a_single"
    assert refused(s, "a", {"type": "play_truck", "effect": "E2", "seat": "b", "meal": "dessert"}) == "not_a_single"
    assert refused(s, "a", E4) == "wrong_effect"


# -- E3 Swap ----------------------------------------------------------------------------------------------------

def test_e3_is_played_only_after_revealing() -> None:
    s = _three("E3", ["tacos-01"], served={"b": ["tacos-02"]})
    assert ENGINE.actions(s, "a") == [REVEAL]
    assert refused(s, "a", {"type": "play_truck", "effect": "E3", "card": "salad-01"}) == "wrong_window"
    s, _ = act(s, "a", REVEAL)
    swaps = [a["card"] for a in ENGINE.actions(s, "a") if a["type"] == "play_truck"]
    assert swaps == SUPPLY and "tacos-01" not in swaps  # the same card cannot be taken straight back (F8)
    assert refused(s, "a", {"type": "play_truck", "effect": "E3", "card": "sushi-05"}) == "no_such_card"
    s, ev = act(s, "a", {"type": "play_truck", "effect": "E3", "card": "salad-02"})
    assert s["supply"] == ["salad-01", "salad-03", "tacos-01"]
    assert s["seats"]["a"]["served"]["salad"] == ["salad-02"] and ev[0]["gave"] == "tacos-01"


def test_e3_with_an_empty_supply() -> None:
    s = reveal_pending(_three("E3", ["tacos-01"]))
    s["supply"], s["central_deck"] = [], s["central_deck"] + s["supply"]
    check_invariants(s)
    assert refused(s, "a", {"type": "play_truck", "effect": "E3", "card": "salad-01"}) == "supply_empty"


# -- E4 Skip ----------------------------------------------------------------------------------------------------

def test_e4_plays_the_next_card() -> None:
    s = _three("E4", ["tacos-01", "tacos-03"], served={"b": ["tacos-02"]})
    assert refused(s, "a", E4) == "wrong_window"
    s, _ = act(s, "a", REVEAL)
    s, ev = act(s, "a", E4)
    # The next card is blocked too: the Truck card is spent, so a is out.
    assert ev[0]["skipped"] == "tacos-01" and s["seats"]["a"]["eliminated"]
    assert s["seats"]["a"]["draw_pile"][-2:] == ["tacos-01", "tacos-03"]


def test_e4_with_no_other_card_brings_the_same_card_back() -> None:
    s = build(["a", "b"], turn="a", trucks={"a": "E4"}, supply=SUPPLY[:2],
              served={"a": ["burger-01", "burger-02", "pizza-01", "fries_drink-01"], "b": ["takeaway_box-02"]},
              desserts={"a": ["dessert-01"]}, piles={"a": ["takeaway_box-01"]})
    s, _ = act(s, "a", REVEAL)
    s, ev = act(s, "a", E4)
    assert [e["card"] for e in ev if e["type"] == "revealed"] == ["takeaway_box-01"]
    assert s["seats"]["a"]["eliminated"]


# -- E5 Share ---------------------------------------------------------------------------------------------------

def test_e5_refusals_and_both_holders_block_afterwards() -> None:
    s = _three("E5", ["tacos-01"], served={"b": ["tacos-02"]})
    assert refused(s, "a", E5) == "wrong_window"
    s, _ = act(s, "a", REVEAL)
    s, _ = act(s, "a", E5)
    assert s["seats"]["a"]["served"]["tacos"] == ["tacos-01"] and s["seats"]["b"]["served"]["tacos"] == ["tacos-02"]
    s["seats"]["c"]["draw_pile"].insert(0, s["central_deck"].pop(s["central_deck"].index("tacos-03")))
    s["seats"]["c"]["collection"] = in_card_order(s["seats"]["c"]["collection"] + ["tacos-03"])
    s, _ = act(s, "b", REVEAL)
    s, _ = act(s, "c", REVEAL)
    assert s["seats"]["c"]["eliminated"]


def test_e5_not_allowed_on_an_unblocked_card() -> None:
    s = reveal_pending(_three("E5", ["tacos-01"]))
    assert refused(s, "a", E5) == "share_not_allowed"


def test_a_used_truck_card_cannot_be_played_again() -> None:
    s = _three("E1", ["tacos-01", "sushi-01"], served={"b": ["sushi-02"]})
    s, _ = act(s, "a", E1)
    while s["step"] == "rearrange":
        s, _ = act(s, "a", {"type": "rearrange", "card": s["rearrange"]["todo"][-1]})
    assert s["seats"]["a"]["truck_used"] and s["seats"]["a"]["truck_current"] is None
    s = build(["a", "b"], turn="a", supply=SUPPLY[:2], piles={"a": ["tacos-01"]})
    assert refused(s, "a", E1) == "truck_used"
    assert refused(reveal_pending(s), "a", E4) == "truck_used"
