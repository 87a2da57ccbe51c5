"""The worked examples of the spec (section 9), each from a hand-made state."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from tests.games.foodies.helpers import G, blank_state, roll, set_player, step, tokens

CORNERS = {1: 1, 3: 1, 7: 1, 9: 1}


def test_e1_everyone_collects_printed_value_stall_flyer() -> None:
    ana, bo, cy = "0", "1", "2"
    state = blank_state(3)
    assert state["threshold"] == 20
    set_player(state, ana, coins=3, popularity=0, flyers=1, court={})
    set_player(state, bo, coins=1, popularity=0, flyers=0, court={4: "AME10", 5: "AME07"})
    set_player(state, cy, coins=0, popularity=0, flyers=1, court={6: "GER10"})
    state = roll(state, 5).state
    assert state["phase"] == "flyers"
    assert G.awaiting(state) == [ana, cy]
    state = step(state, ana, {"type": "no_flyer"})
    state = step(state, cy, {"type": "use_flyer", "space": 6})
    p = state["players"]
    assert (p[ana]["coins"], p[ana]["popularity"], p[ana]["flyers"]) == (5, 0, 1)
    assert (p[bo]["coins"], p[bo]["popularity"]) == (4, 0)
    assert (p[cy]["coins"], p[cy]["popularity"], p[cy]["flyers"]) == (2, 1, 0)
    for seat in (ana, bo, cy):
        assert tokens(p[seat], "popularity_tokens") == CORNERS
    assert state["phase"] == "buy"


def e2_state() -> dict:
    state = blank_state(2)
    set_player(state, "0", coins=3, popularity=0, flyers=1)
    set_player(state, "1", coins=2, popularity=4, flyers=2, popularity_tokens={1: 1, 7: 1, 9: 1})
    applied = roll(state, 0)
    assert applied.events[0]["face"] == 0
    return applied.state


def test_e2_rolling_zero_choose_face_flyer_to_printed_space() -> None:
    state = e2_state()
    assert state["phase"] == "choose_face" and G.awaiting(state) == ["0"]
    state = step(state, "0", {"type": "choose_face", "face": 3})
    assert G.awaiting(state) == ["0", "1"]
    for space in (5, 1):
        with pytest.raises(IllegalAction) as exc:
            G.apply(state, "1", {"type": "use_flyer", "space": space})
        assert exc.value.code == "not_adjacent"
    state = step(state, "1", {"type": "use_flyer", "space": 2})
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, "1", {"type": "use_flyer", "space": 6})
    assert exc.value.code == "already_decided"
    state = step(state, "0", {"type": "no_flyer"})
    ana, bo = state["players"]["0"], state["players"]["1"]
    assert (ana["popularity"], ana["coins"], ana["flyers"]) == (1, 3, 1)
    assert tokens(ana, "popularity_tokens") == {1: 1, 7: 1, 9: 1}
    assert (bo["flyers"], bo["coins"], bo["popularity"]) == (1, 3, 4)


def test_e2_bo_without_flyer_gets_nothing_from_space_3() -> None:
    state = step(e2_state(), "0", {"type": "choose_face", "face": 3})
    state = step(state, "0", {"type": "no_flyer"})
    state = step(state, "1", {"type": "no_flyer"})
    bo = state["players"]["1"]
    assert (bo["flyers"], bo["coins"], bo["popularity"]) == (2, 2, 4)


def test_e2_keep_zero_visits_nothing() -> None:
    before = e2_state()
    assert {"type": "keep_zero"} in G.actions(before, "0")
    state = step(before, "0", {"type": "keep_zero"})
    assert state["phase"] == "buy" and G.awaiting(state) == ["0"]
    assert G.actions(state, "1") == []
    for seat in ("0", "1"):
        for key in ("coins", "popularity", "flyers", "popularity_tokens", "coin_tokens"):
            assert state["players"][seat][key] == before["players"][seat][key]


E3_COURT = {2: "AME03", 4: "AME02", 5: "GER05", 6: "AME08", 8: "AME09"}


def e3_state() -> dict:
    state = blank_state(2)
    set_player(state, "0", coins=0, popularity=10, flyers=0, court=E3_COURT, popularity_tokens={})
    return state


def test_e3_full_stars() -> None:
    from app.games.foodies.court import full_stars

    assert full_stars(e3_state()["players"]["0"]["court"]) == 4


def test_e3a_german_effect_and_four_stars() -> None:
    me = roll(e3_state(), 5).state["players"]["0"]
    assert (me["coins"], me["popularity"], me["flyers"]) == (0, 14, 1)


def test_e3b_american_effect_and_one_star() -> None:
    me = roll(e3_state(), 2).state["players"]["0"]
    assert (me["coins"], me["popularity"], me["flyers"]) == (4, 12, 0)


def e4_state() -> dict:
    state = blank_state(2, cultures=["AME", "FRA", "ITA", "JPN", "MEX"])
    dee = "0"
    set_player(state, dee, coins=6, popularity=7, court={4: "MEX01", 5: "MEX07", 6: "ITA03"},
               popularity_tokens={5: 1}, coin_tokens={5: 1})
    state["market"] = ["ITA06", "FRA10", "JPN04", "AME01", "AME08"]
    state["deck"] = ["FRA05", "AME02", "AME03"]
    state["phase"] = "buy"
    return state


def test_e4_buying_price_by_slot_covering_slide_refill() -> None:
    state = e4_state()
    legal_slots = {a["slot"] for a in G.actions(state, "0") if a["type"] == "buy"}
    assert legal_slots == {2, 3, 4, 5}
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, "0", {"type": "buy", "slot": 1, "space": 5})
    assert exc.value.code == "too_poor"
    state = step(state, "0", {"type": "buy", "slot": 3, "space": 5})
    dee = state["players"]["0"]
    assert dee["coins"] == 1
    assert dee["court"][4] == "JPN04"
    assert state["removed"] == ["MEX07"]
    assert tokens(dee, "coin_tokens") == {5: 1} and tokens(dee, "popularity_tokens") == {5: 1}
    assert state["market"] == ["FRA05", "ITA06", "FRA10", "AME01", "AME08"]
    assert state["deck"] == ["AME02", "AME03"]
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, "0", {"type": "buy", "slot": 5, "space": 1})
    assert exc.value.code == "already_bought"
    # follow-up: later someone rolls 5
    state = step(state, "0", {"type": "end_turn"})
    dee = roll(state, 5).state["players"]["0"]
    assert (dee["coins"], dee["popularity"]) == (4, 8)
    assert tokens(dee, "coin_tokens") == {} and tokens(dee, "popularity_tokens") == {}


def test_e5_special_chef_and_chef_for_hire_once() -> None:
    eli, fay = "0", "1"
    state = blank_state(2)
    state["special_chefs"] = [{"id": "crossroads", "claimed_by": None}, {"id": "specialist", "claimed_by": None}]
    set_player(state, eli, coins=9, popularity=12, court={2: "ITA07", 4: "ITA08", 5: "GER07", 6: "MEX07"})
    state["market"][3] = "THA10"
    state["phase"] = "buy"
    state = step(state, eli, {"type": "buy", "slot": 4, "space": 8})
    assert state["players"][eli]["coins"] == 5
    assert {"type": "claim_chef", "chef": "specialist"} not in G.actions(state, eli)
    state = step(state, eli, {"type": "claim_chef", "chef": "crossroads"})
    assert state["players"][eli]["popularity"] == 15
    state = step(state, eli, {"type": "hire_chef"})
    assert (state["players"][eli]["coins"], state["players"][eli]["popularity"]) == (1, 16)
    assert G.actions(state, eli) == [{"type": "end_turn"}]
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, eli, {"type": "hire_chef"})
    assert exc.value.code == "already_hired"
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, eli, {"type": "claim_chef", "chef": "specialist"})
    assert exc.value.code == "requirement_not_met"
    state = step(state, eli, {"type": "end_turn"})
    assert state["special_chefs"][0] == {"id": "crossroads", "claimed_by": eli}
    # later, Fay fills 2, 4, 5, 6, 8: crossroads is no longer offered to her
    set_player(state, fay, court={2: "AME01", 4: "AME02", 5: "AME03", 6: "AME04", 8: "AME05"})
    state["phase"] = "hire"
    assert {"type": "claim_chef", "chef": "crossroads"} not in G.actions(state, fay)
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, fay, {"type": "claim_chef", "chef": "crossroads"})
    assert exc.value.code == "chef_taken"
    # Fay's five American stalls do meet the Specialist
    assert {"type": "claim_chef", "chef": "specialist"} in G.actions(state, fay)


def test_e6_italian_and_mexican_tokens() -> None:
    state = blank_state(2)
    set_player(state, "0", coins=2, popularity=5, flyers=0, court={4: "MEX02", 5: "ITA01"}, popularity_tokens={})

    def visit(state: dict, face: int) -> dict:
        state = dict(state, phase="roll", active="0")
        return roll(state, face).state

    state = visit(state, 5)
    me = state["players"]["0"]
    assert (me["coins"], me["popularity"]) == (3, 6)
    assert tokens(me, "popularity_tokens") == {2: 1, 4: 1, 6: 1, 8: 1}
    state = visit(state, 4)
    me = state["players"]["0"]
    assert (me["coins"], me["popularity"]) == (5, 8)
    assert tokens(me, "popularity_tokens") == {2: 1, 6: 1, 8: 1}
    assert tokens(me, "coin_tokens") == {1: 1, 7: 1}
    state = visit(state, 5)
    me = state["players"]["0"]
    assert (me["coins"], me["popularity"]) == (6, 9)
    assert tokens(me, "popularity_tokens") == {2: 1, 4: 1, 6: 1, 8: 1}
    state = visit(state, 1)
    me = state["players"]["0"]
    assert (me["coins"], me["popularity"]) == (7, 9)
    assert tokens(me, "coin_tokens") == {7: 1}


def test_e7_end_trigger_mid_round_finish_round_shared_win() -> None:
    ana, bo, cy, dee = "0", "1", "2", "3"
    state = blank_state(4)
    assert state["threshold"] == 30
    for seat in (ana, bo, cy, dee):
        set_player(state, seat, popularity=20, popularity_tokens={})
    set_player(state, cy, popularity=28, popularity_tokens={4: 2})
    state["active"] = bo
    applied = roll(state, 4)
    state = applied.state
    assert state["players"][cy]["popularity"] == 30
    assert state["end_triggered"]
    assert {"type": "end_triggered", "seat": cy, "popularity": 30, "threshold": 30,
            "visible_to": None} in applied.events
    # Bo still buys and hires; then Cy and Dee play full turns; Ana does not play again
    state = step(state, bo, {"type": "skip_buy"})
    state = step(state, bo, {"type": "end_turn"})
    for seat in (cy, dee):
        assert state["active"] == seat and G.outcome(state) is None
        state = roll(state, 8).state
        state = step(state, seat, {"type": "skip_buy"})
        state = step(state, seat, {"type": "end_turn"})
    assert state["phase"] == "over" and G.awaiting(state) == []
    for seat, (pop, coins) in {ana: (31, 4), bo: (28, 0), cy: (31, 4), dee: (30, 12)}.items():
        set_player(state, seat, popularity=pop, coins=coins)
    out = G.outcome(state)
    assert out is not None
    assert out["ranking"] == [[ana, cy], [dee], [bo]]
    assert out["winners"] == [ana, cy]
    assert out["details"][dee]["place"] == 3 and out["details"][bo]["place"] == 4
    set_player(state, cy, coins=5)
    out = G.outcome(state)
    assert out is not None and out["winners"] == [cy]


def test_e8_french_corner_and_border_half_stars() -> None:
    state = blank_state(2)
    set_player(state, "0", coins=0, popularity=3, court={1: "FRA05", 2: "AME08", 4: "AME09"},
               popularity_tokens={3: 1, 7: 1, 9: 1})
    me = roll(state, 1).state["players"]["0"]
    assert (me["coins"], me["popularity"]) == (0, 7)
    assert me["earned"]["effects"] == 2 and me["earned"]["stars"] == 2
    assert tokens(me, "popularity_tokens") == {3: 1, 7: 1, 9: 1}
