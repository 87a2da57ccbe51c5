"""The spec's worked examples 2-8 (example 1 is in test_setup.py), each from a hand-made state."""

from __future__ import annotations

from app.games.food_truck_champion import ENGINE
from tests.games.food_truck_champion.helpers import make_state, run, step

MARKET8 = [["ftc-030"], ["ftc-031"], ["ftc-032"], ["ftc-033"], ["ftc-034"], ["ftc-035"], ["ftc-036"], ["ftc-037"]]


def example_2_state() -> dict:
    return make_state(
        4,
        trucks=["bear_burgers", "toro_taqueria", "crepe_escape", "green_machine"],
        hands={"0": ["ftc-058", "ftc-001"], "1": ["ftc-059", "ftc-002"], "2": ["ftc-003", "ftc-004"],
               "3": ["ftc-006"]},
        boards={
            "1": {"plating": [{"card": "ftc-046", "on": ["ftc-007", "ftc-005"]},
                              {"card": "start-toro_taqueria", "on": []}],
                  "fridge": ["ftc-010"]},
            "2": {"completed": ["ftc-023"]},
        },
        market=MARKET8,
        stacks={"1": ["P", "P", "P", "P", "C", "P", "P", "P", "P", "C"],
                "2": ["P", "P", "P", "P", "C", "P", "P", "P", "P", "C"],
                "3": ["P", "C", "P", "P", "P", "P", "C"]},
    )


def test_example_2_prep_cook_completes_an_order_and_reveals_a_critique() -> None:
    state = run(example_2_state(), ("0", {"type": "lead", "card": "ftc-058"}),
                ("1", {"type": "follow_hand", "card": "ftc-059"}),
                ("2", {"type": "market_research"}))
    applied = step(state, "3", {"type": "market_research"})
    state = applied.state
    # P1 has one Prep Cook and an empty Fridge: the action is skipped; P2 is asked.
    assert any(e["type"] == "skipped" and e["seat"] == "0" for e in applied.events)
    assert ENGINE.awaiting(state) == ["1"]
    assert ENGINE.actions(state, "1") == [
        {"type": "prep_cook", "card": "ftc-010", "ticket": "ftc-046"}, {"type": "decline"}]
    applied = step(state, "1", {"type": "prep_cook", "card": "ftc-010", "ticket": "ftc-046"})
    state = applied.state
    p2 = state["boards"]["1"]
    assert p2["completed"] == ["ftc-046"] and [s["card"] for s in p2["plating"]] == ["start-toro_taqueria"]
    assert state["discard"] == ["ftc-007", "ftc-005", "ftc-010"]
    assert p2["tokens"] == [3]
    assert state["stacks"]["3"] == ["P", "P", "P", "P", "C"]
    assert state["pending_critiques"] == 1
    assert ENGINE.actions(state, "1") == [{"type": "place_token", "section": s}
                                          for s in ("fridge", "hired_staff", "plating")]
    applied = step(state, "1", {"type": "place_token", "section": "plating"})
    state = applied.state
    p2 = state["boards"]["1"]
    assert p2["gray"]["plating"] == 1 and ENGINE.view(state, "1")["boards"]["1"]["capacity"]["plating"] == 3
    # P3 and P4 drew two each; the critique moved one ticket each for P2 and P3; P1 and P4 skipped.
    assert len(state["boards"]["2"]["hand"]) == 4 and len(state["boards"]["3"]["hand"]) == 3
    assert p2["awards"] == ["ftc-046"] and p2["completed"] == []
    assert state["boards"]["2"]["awards"] == ["ftc-023"]
    assert state["boards"]["0"]["awards"] == [] and state["boards"]["3"]["awards"] == []
    assert state["pending_critiques"] == 0
    # Cleanup: no empty position, so P1 then P2 choose a position to cover.
    assert ENGINE.awaiting(state) == ["0"]
    assert len(ENGINE.actions(state, "0")) == 8
    state = run(state, ("0", {"type": "place_card", "position": 2}), ("1", {"type": "place_card", "position": 2}))
    assert state["market"][1] == ["ftc-031", "ftc-058", "ftc-059"]
    assert state["phase"] == "turn" and ENGINE.awaiting(state) == ["1"]
    assert state["end_triggered"] is False


def example_3_state() -> dict:
    market = [["ftc-047"], ["ftc-066"], ["ftc-031"], ["ftc-054"], ["ftc-085"], ["ftc-063"], ["ftc-024"], ["ftc-072"]]
    return make_state(
        3,
        hands={"0": ["ftc-001", "ftc-020"], "1": ["ftc-021", "ftc-022", "ftc-023", "ftc-026"],
               "2": ["ftc-039", "ftc-041", "ftc-042"]},
        boards={"0": {"hired_staff": ["ftc-016", "ftc-017"], "fridge": ["ftc-040"]},
                "1": {"hired_staff": ["ftc-012"]}},
        market=market,
        deck_top=["ftc-090", "ftc-091", "ftc-092", "ftc-093"],
    )


def test_example_3_hired_staff_bonuses_staff_only_follow_and_take_charge() -> None:
    state = run(example_3_state(), ("0", {"type": "lead", "card": "ftc-001"}))
    assert {"type": "follow_staff", "also": "market_research"} in ENGINE.actions(state, "1")
    state = run(state, ("1", {"type": "follow_staff", "also": "market_research"}), ("2", {"type": "take_charge"}))
    choices = state["round"]["choices"]
    assert (choices["0"]["left"], choices["1"]["left"], choices["2"]["left"]) == (3, 1, 0)
    state = run(state, ("0", {"type": "driver", "position": 3}))
    assert state["boards"]["0"]["fridge"] == ["ftc-040", "ftc-031"]
    # The Fridge is full: only replacements remain.
    assert all("replace" in a for a in ENGINE.actions(state, "0") if a["type"] == "driver")
    state = run(state, ("0", {"type": "driver", "position": 5, "replace": "ftc-040"}))
    assert state["boards"]["0"]["fridge"] == ["ftc-031", "ftc-085"] and state["discard"] == ["ftc-040"]
    state = run(state, ("0", {"type": "decline"}))
    # P2's Market Research happened before its bonus Driver.
    assert state["boards"]["1"]["hand"][-2:] == ["ftc-090", "ftc-091"] and len(state["boards"]["1"]["hand"]) == 6
    assert state["pending"] is None and ENGINE.awaiting(state) == ["1"]
    state = run(state, ("1", {"type": "driver", "position": 4}))
    assert state["boards"]["1"]["fridge"] == ["ftc-054"]
    assert state["boards"]["2"]["owner"] == "hand" and len(state["boards"]["2"]["hand"]) == 4
    assert ENGINE.actions(state, "0") == [{"type": "place_card", "position": p} for p in (3, 4, 5)]
    state = run(state, ("0", {"type": "place_card", "position": 3}))
    assert state["market"][2] == ["ftc-001"]
    assert state["market"][3] == ["ftc-092"] and state["market"][4] == ["ftc-093"]
    assert state["phase"] == "turn" and ENGINE.awaiting(state) == ["1"]


def example_4_state() -> dict:
    state = make_state(
        3,
        trucks=["crepe_escape", "bear_burgers", "toro_taqueria"],
        hands={"0": ["ftc-085", "ftc-024"], "1": ["ftc-002"], "2": ["ftc-003"]},
        boards={"0": {"plating": [{"card": "ftc-010", "on": ["ftc-001", "ftc-007"]}]}},
        market=MARKET8,
        stacks={"3": [], "2": ["P", "C"], "1": ["P", "P", "C", "P", "P", "P", "C"]},
        removed=["start-crepe_escape"],
    )
    state = run(state, ("0", {"type": "lead", "card": "ftc-085"}), ("1", {"type": "market_research"}),
                ("2", {"type": "market_research"}),
                ("0", {"type": "exec_chef", "card": "ftc-024", "ticket": "ftc-010"}))
    return state


def test_example_4_lower_value_token_choice() -> None:
    state = example_4_state()
    assert state["boards"]["0"]["completed"] == ["ftc-010"]
    assert ENGINE.actions(state, "0") == [{"type": "take_token", "value": 1}, {"type": "take_token", "value": 2},
                                          {"type": "decline_token"}]


def test_example_4_taking_the_2_reveals_the_bottom_critique_and_triggers_the_end() -> None:
    state = run(example_4_state(), ("0", {"type": "take_token", "value": 2}))
    assert state["stacks"]["2"] == [] and state["end_triggered"] is True
    assert state["pending_critiques"] == 1
    state = run(state, ("0", {"type": "place_token", "section": "fridge"}))
    # After P2's and P3's draws, one critique pass: P1 awards its only completed ticket.
    assert state["boards"]["0"]["awards"] == ["ftc-010"] and state["pending_critiques"] == 0
    assert state["boards"]["0"]["tokens"] == [2]


def test_example_4_taking_the_1_does_not_trigger() -> None:
    state = run(example_4_state(), ("0", {"type": "take_token", "value": 1}))
    assert state["stacks"]["1"] == ["P", "C", "P", "P", "P", "C"]
    assert state["pending_critiques"] == 0 and state["end_triggered"] is False


def test_example_4_declining_takes_nothing() -> None:
    state = run(example_4_state(), ("0", {"type": "decline_token"}))
    assert state["boards"]["0"]["tokens"] == [] and state["end_triggered"] is False
    assert state["stacks"]["2"] == ["P", "C"] and state["pending_critiques"] == 0
    assert state["boards"]["0"]["completed"] == ["ftc-010"]


def test_example_5_market_cleanup_with_covering() -> None:
    market = [["ftc-030"], ["ftc-066"], ["ftc-031"], ["ftc-032"], ["ftc-033"], ["ftc-070"], ["ftc-034"], ["ftc-035"]]
    state = make_state(4, hands={"0": ["ftc-020"], "1": ["ftc-021"], "2": ["ftc-024"], "3": ["ftc-025"]},
                       boards={"1": {"owner": "hand"}}, market=market)
    state = run(state, ("0", {"type": "lead", "card": "ftc-020"}),
                ("1", {"type": "follow_hand", "card": "owner-toro_taqueria"}),
                ("2", {"type": "follow_hand", "card": "ftc-024"}), ("3", {"type": "market_research"}),
                ("0", {"type": "decline"}), ("1", {"type": "decline"}), ("2", {"type": "cashier", "position": 6}))
    # P1's card went into M6 by itself (the only empty position); P2's Owner card is back on its board.
    assert state["market"][5] == ["ftc-020"]
    assert state["boards"]["1"]["owner"] == "board" and state["boards"]["1"]["centre"] is None
    assert ENGINE.awaiting(state) == ["2"] and len(ENGINE.actions(state, "2")) == 8
    state = run(state, ("2", {"type": "place_card", "position": 2}))
    assert state["market"][1] == ["ftc-066", "ftc-024"]
    assert state["phase"] == "turn" and ENGINE.awaiting(state) == ["1"]
    assert len(state["deck"]) == 95 - 4 - 8 - 2  # dealt 4 to hands and 8 to the market; P4 drew 2; no refill


def test_example_6_final_scoring_and_first_tie_breaker() -> None:
    state = make_state(
        4,
        boards={
            "0": {"completed": ["ftc-002", "ftc-026", "start-bear_burgers"], "plating": [],
                  "awards": ["ftc-010", "ftc-023", "ftc-007"], "tokens": [3, 3, 3, 3, 2, 2]},
            "1": {"completed": ["ftc-044", "ftc-060", "ftc-008"],
                  "awards": ["ftc-046", "ftc-082", "ftc-065"], "tokens": [3, 3, 3, 2, 2, 2]},
        },
        check=False,
    )
    state["phase"] = "over"
    out = ENGINE.outcome(state)
    assert out is not None
    d0, d1 = out["details"]["0"], out["details"]["1"]
    assert (d0["token_points"], d0["profile_sets"], d0["set_points"], d0["logo_count"], d0["total"]) == (16, 2, 10, 3, 29)
    assert (d1["token_points"], d1["profile_sets"], d1["set_points"], d1["logo_count"], d1["total"]) == (15, 2, 10, 4, 29)
    assert out["scores"] == {"0": 29, "1": 29, "2": 0, "3": 0}
    assert out["ranking"] == [["1"], ["0"], ["2", "3"]] and out["winners"] == ["1"]


def example_7_state(active: int = 2) -> dict:
    return make_state(
        4,
        hands={"0": ["ftc-040"], "1": ["ftc-041"], "2": ["ftc-060"], "3": ["ftc-058"]},
        boards={"3": {"plating": [{"card": "start-green_machine", "on": []}, {"card": "ftc-016", "on": []}],
                      "fridge": ["ftc-001"]}},
        market=MARKET8,
        stacks={"3": [], "1": ["P", "C"], "2": ["P", "P", "P", "P", "C", "P", "P", "P", "P", "C"]},
        active=active,
    )


def test_example_7_end_trigger_mid_round_then_equal_turns() -> None:
    state = run(example_7_state(), ("2", {"type": "lead", "card": "ftc-060"}),
                ("3", {"type": "follow_hand", "card": "ftc-058"}), ("0", {"type": "market_research"}),
                ("1", {"type": "market_research"}),
                ("3", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"}))
    assert state["end_triggered"] is True and state["stacks"]["1"] == []
    state = run(state, ("3", {"type": "place_token", "section": "hired_staff"}))
    assert state["boards"]["3"]["awards"] == ["ftc-016"]  # the round finished with its critique
    state = run(state, ("2", {"type": "place_card", "position": 1}), ("3", {"type": "place_card", "position": 2}))
    assert state["phase"] == "turn" and ENGINE.awaiting(state) == ["3"]
    applied = step(state, "3", {"type": "market_research"})
    assert applied.state["phase"] == "over" and ENGINE.outcome(applied.state) is not None
    assert any(e["type"] == "game_over" for e in applied.events)


def test_example_7_trigger_in_the_last_seat_ends_after_that_turn() -> None:
    state = example_7_state(active=3)
    state["end_triggered"] = True
    assert step(state, "3", {"type": "market_research"}).state["phase"] == "over"


def test_example_7_trigger_in_the_first_players_turn_lets_everyone_else_play() -> None:
    state = example_7_state(active=0)
    state["end_triggered"] = True
    for seat in ("0", "1", "2"):
        state = run(state, (seat, {"type": "market_research"}))
        assert state["phase"] == "turn"
    assert run(state, ("3", {"type": "market_research"}))["phase"] == "over"


def test_example_8_two_player_neutral_round() -> None:
    market = [["ftc-030"], ["ftc-012"], ["ftc-031"], ["ftc-032"], ["ftc-033"], ["ftc-034"]]
    state = make_state(
        2,
        trucks=["bear_burgers", "crepe_escape"],
        hands={"0": ["ftc-050", "ftc-001"], "1": ["ftc-002", "ftc-003", "ftc-004", "ftc-005"]},
        boards={"0": {"hired_staff": ["ftc-039"]}},
        market=market,
        deck_top=["ftc-041", "ftc-090", "ftc-091"],
        active=1,
    )
    state["neutral"]["owner"] = "owner-green_machine"
    applied = step(state, "1", {"type": "take_charge"})
    state = applied.state
    assert len(state["boards"]["1"]["hand"]) == 5
    assert state["round"]["leader"] is None and state["round"]["lead_action"] == "Manager"
    assert state["neutral"]["centre"] == "ftc-041"
    assert ENGINE.awaiting(state) == ["0"]
    state = run(state, ("0", {"type": "follow_hand", "card": "ftc-050"}), ("1", {"type": "market_research"}))
    assert state["round"]["choices"]["0"]["left"] == 2
    state = run(state, ("0", {"type": "manager", "position": 2}))
    assert state["boards"]["0"]["hired_staff"] == ["ftc-039", "ftc-012"]
    assert all("replace" in a for a in ENGINE.actions(state, "0") if a["type"] == "manager")
    state = run(state, ("0", {"type": "decline"}))
    # P2 drew to 7 and must discard one (never the Owner card).
    assert len(state["boards"]["1"]["hand"]) == 7 and ENGINE.awaiting(state) == ["1"]
    assert {"type": "discard", "card": "owner-crepe_escape"} not in ENGINE.actions(state, "1")
    state = run(state, ("1", {"type": "discard", "card": "ftc-002"}))
    assert len(state["boards"]["1"]["hand"]) == 6
    assert state["neutral"]["stack"] == ["ftc-041"] and state["neutral"]["centre"] is None
    assert state["market"][1] == ["ftc-050"]
    assert state["phase"] == "turn" and ENGINE.awaiting(state) == ["0"]
