"""Rules audit: rare cases checked against the spec (rules/food-truck-champion.md in the shared folder beside the
project)."""

from __future__ import annotations

from app.games.food_truck_champion import ENGINE
from tests.games.food_truck_champion.helpers import make_state, run, step
from tests.games.food_truck_champion.test_examples import MARKET8


def test_two_players_trigger_in_the_second_players_turn_still_gives_the_neutral_its_round() -> None:
    # R22: "Every seat's turn, the neutral's included; the game ends when the token would go from the
    # neutral seat to P1."
    state = make_state(2, hands={"0": ["ftc-001"], "1": ["ftc-002"]}, market=MARKET8[:6], active=1,
                       deck_top=["ftc-090", "ftc-091", "ftc-040"])
    state["end_triggered"] = True
    state = run(state, ("1", {"type": "market_research"}))
    assert state["phase"] == "round" and state["round"]["leader"] is None
    assert state["round"]["lead_card"] == "ftc-040"
    state = run(state, ("0", {"type": "market_research"}), ("1", {"type": "market_research"}))
    assert state["phase"] == "over"


def test_only_players_with_a_completed_ticket_take_part_in_a_critique() -> None:
    # §4.3 end of round, 1: "every player who has at least one ticket in Completed chooses exactly one of
    # them ... (players with an empty Completed pile skip)". Seat 0 completes a ticket: its own pile is the
    # only one, so only it takes part, and its lone ticket goes to Awards by itself.
    board0 = {"plating": [{"card": "ftc-016", "on": []}], "fridge": ["ftc-001"]}
    state = make_state(3, hands={"0": ["ftc-058"]}, boards={"0": board0}, market=MARKET8,
                       stacks={"1": ["P", "C", "P", "P", "P", "C"], "2": ["P"] * 3 + ["C"] + ["P"] * 3 + ["C"],
                               "3": ["P"] * 3 + ["C"] + ["P"] * 3 + ["C"]},
                       removed=["start-bear_burgers"])
    state = run(state, ("0", {"type": "lead", "card": "ftc-058"}), ("1", {"type": "market_research"}),
                ("2", {"type": "market_research"}))
    applied = step(state, "0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"})
    state = run(applied.state, ("0", {"type": "place_token", "section": "fridge"}))
    assert state["boards"]["0"]["awards"] == ["ftc-016"] and state["pending_critiques"] == 0
    assert state["boards"]["1"]["awards"] == [] and state["boards"]["2"]["awards"] == []


def test_refill_with_nothing_to_draw_leaves_the_position_empty() -> None:
    # §4.3 end of round, 3: "place draw_card() there (if nothing can be drawn, the position stays empty)".
    market = [["ftc-030"], ["ftc-031"], [], [], [], [], [], []]
    state = make_state(3, hands={"0": ["ftc-001"]}, market=market)
    state["boards"]["1"]["completed"] = state["deck"]
    state["deck"] = []
    state = run(state, ("0", {"type": "lead", "card": "ftc-001"}), ("1", {"type": "market_research"}),
                ("2", {"type": "market_research"}), ("0", {"type": "decline"}),
                ("0", {"type": "place_card", "position": 4}))
    assert state["market"][3] == ["ftc-001"]
    assert [pile for i, pile in enumerate(state["market"]) if i not in (0, 1, 3)] == [[]] * 5
    assert state["phase"] == "turn" and ENGINE.awaiting(state) == ["1"]
