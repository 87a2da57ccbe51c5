"""One test per rule step: turns, the action round, the staff actions, tokens, critiques, market, end."""

from __future__ import annotations

from app.games.food_truck_champion import ENGINE
from app.games.food_truck_champion.data import STAFF_ACTIONS
from tests.games.food_truck_champion.helpers import make_state, run, step
from tests.games.food_truck_champion.test_examples import MARKET8

P3 = ["P", "P", "P", "C", "P", "P", "P", "C"]


def market_research_state(**kw: object) -> dict:
    base: dict = {"hands": {"0": ["ftc-001", "ftc-002", "ftc-003", "ftc-004", "ftc-005"]}, "market": MARKET8}
    base.update(kw)
    return make_state(3, **base)


# ---- Market Research and Take Charge ----------------------------------------------------------------


def test_market_research_draws_two_and_passes_the_token() -> None:
    state = make_state(3, hands={"0": ["ftc-001"]}, market=MARKET8, deck_top=["ftc-090", "ftc-091"])
    applied = step(state, "0", {"type": "market_research"})
    assert applied.state["boards"]["0"]["hand"] == ["ftc-001", "ftc-090", "ftc-091"]
    assert ENGINE.awaiting(applied.state) == ["1"]
    drew = [e for e in applied.events if e["type"] == "drew"]
    assert drew == [{"type": "drew", "seat": "0", "cards": ["ftc-090", "ftc-091"],
                     "dishes": ["Curried Cauliflower", "Grilled Cheese"], "visible_to": ["0"]}]
    assert applied.undoable is False


def test_market_research_over_the_limit_discards_one_at_a_time_before_the_token_passes() -> None:
    state = make_state(3, hands={"0": ["ftc-001", "ftc-002", "ftc-003", "ftc-004", "ftc-005"]},
                       boards={"0": {"owner": "hand"}}, market=MARKET8)
    state = run(state, ("0", {"type": "market_research"}))
    assert len(state["boards"]["0"]["hand"]) == 8 and ENGINE.awaiting(state) == ["0"]
    legal = ENGINE.actions(state, "0")
    assert {"type": "discard", "card": "owner-bear_burgers"} not in legal and len(legal) == 7
    state = run(state, ("0", {"type": "discard", "card": "ftc-001"}))
    assert ENGINE.awaiting(state) == ["0"]
    state = run(state, ("0", {"type": "discard", "card": "ftc-002"}))
    assert len(state["boards"]["0"]["hand"]) == 6 and state["discard"] == ["ftc-001", "ftc-002"]
    assert ENGINE.awaiting(state) == ["1"]


def test_empty_deck_turns_the_discard_pile_over_without_shuffling() -> None:
    state = make_state(3, hands={"0": ["ftc-001"]}, market=MARKET8)
    state["discard"] = state["deck"][1:]
    state["deck"] = state["deck"][:1]
    first, rest = state["deck"][0], list(state["discard"])
    applied = step(state, "0", {"type": "market_research"})
    assert applied.state["boards"]["0"]["hand"] == ["ftc-001", first, rest[0]]
    assert applied.state["deck"] == rest[1:] and applied.state["discard"] == []
    assert any(e["type"] == "deck_rebuilt" for e in applied.events)


def test_market_research_with_no_cards_left_draws_nothing() -> None:
    state = make_state(3, hands={"0": ["ftc-001"]}, market=MARKET8)
    state["boards"]["1"]["completed"] = state["deck"]
    state["deck"] = []
    state = run(state, ("0", {"type": "market_research"}))
    assert state["boards"]["0"]["hand"] == ["ftc-001"] and ENGINE.awaiting(state) == ["1"]


def test_take_charge_moves_the_owner_to_hand_without_a_hand_limit_check() -> None:
    state = make_state(3, hands={"0": ["ftc-001", "ftc-002", "ftc-003", "ftc-004", "ftc-005", "ftc-006"]},
                       market=MARKET8)
    state = run(state, ("0", {"type": "take_charge"}))
    board = state["boards"]["0"]
    assert board["owner"] == "hand" and len(board["hand"]) == 7 and ENGINE.awaiting(state) == ["1"]
    state["active"] = 0  # back to seat 0 by hand: Take Charge is no longer offered
    assert {"type": "take_charge"} not in ENGINE.actions(state, "0")


def test_lead_options_are_hand_cards_and_the_owner_as_any_action() -> None:
    state = make_state(3, hands={"0": ["ftc-001"]}, boards={"0": {"owner": "hand", "hired_staff": ["ftc-020"]}},
                       market=MARKET8)
    legal = ENGINE.actions(state, "0")
    assert {"type": "lead", "card": "ftc-001"} in legal
    assert [a["action"] for a in legal if a.get("card") == "owner-bear_burgers"] == STAFF_ACTIONS
    assert all(a.get("card") != "ftc-020" for a in legal)  # Hired Staff can never lead
    state = run(state, ("0", {"type": "lead", "card": "owner-bear_burgers", "action": "Cashier"}))
    assert state["round"]["lead_action"] == "Cashier"
    assert state["round"]["choices"]["0"]["left"] == 2  # the Owner is played from hand: hired Cashier adds one
    assert state["boards"]["0"]["owner"] == "centre"


# ---- decisions ----------------------------------------------------------------------------------------


def test_decision_options_follow_the_lead_action() -> None:
    state = make_state(3, hands={"0": ["ftc-001"], "1": ["ftc-002", "ftc-020"], "2": ["ftc-021"]},
                       boards={"1": {"owner": "hand"}, "2": {"hired_staff": ["ftc-003"]}}, market=MARKET8)
    state = run(state, ("0", {"type": "lead", "card": "ftc-001"}))
    assert ENGINE.awaiting(state) == ["1"]
    assert ENGINE.actions(state, "1") == [
        {"type": "follow_hand", "card": "ftc-002"}, {"type": "follow_hand", "card": "owner-toro_taqueria"},
        {"type": "market_research"}]
    state = run(state, ("1", {"type": "follow_hand", "card": "owner-toro_taqueria"}))
    assert state["round"]["choices"]["1"]["left"] == 1 and state["boards"]["1"]["centre"] == "owner-toro_taqueria"
    assert ENGINE.actions(state, "2") == [
        {"type": "follow_staff", "also": "none"}, {"type": "follow_staff", "also": "market_research"},
        {"type": "follow_staff", "also": "take_charge"}, {"type": "market_research"}, {"type": "take_charge"}]
    applied = step(state, "2", {"type": "follow_staff", "also": "none"})
    decided = [e for e in applied.events if e["type"] == "decided"]
    assert decided[0]["visible_to"] is None and decided[0]["actions"] == 1


def test_each_choice_is_public_as_soon_as_it_is_made() -> None:
    state = make_state(3, hands={"0": ["ftc-001"], "1": ["ftc-002"], "2": ["ftc-021"]}, market=MARKET8)
    state = run(state, ("0", {"type": "lead", "card": "ftc-001"}), ("1", {"type": "follow_hand", "card": "ftc-002"}))
    for viewer in (None, "0", "2"):
        assert ENGINE.view(state, viewer)["round"]["choices"]["1"]["card"] == "ftc-002"


def test_counts_are_fixed_when_chosen_new_hires_help_only_later() -> None:
    market = [["ftc-041"], *MARKET8[1:]]
    state = make_state(3, hands={"0": ["ftc-039"]}, boards={"0": {"hired_staff": []}}, market=market)
    state = run(state, ("0", {"type": "lead", "card": "ftc-039"}), ("1", {"type": "market_research"}),
                ("2", {"type": "market_research"}))
    assert state["round"]["choices"]["0"]["left"] == 1
    state = run(state, ("0", {"type": "manager", "position": 1}))
    assert state["boards"]["0"]["hired_staff"] == ["ftc-041"]
    # No extra Manager action from the new hire: the round is over and the token has passed.
    assert state["round"] is None and ENGINE.awaiting(state) == ["1"]


def test_resolution_goes_in_turn_order_from_the_leader() -> None:
    state = make_state(3, hands={"0": ["ftc-002"], "1": ["ftc-001"], "2": ["ftc-003"]}, market=MARKET8, active=1)
    state = run(state, ("1", {"type": "lead", "card": "ftc-001"}), ("2", {"type": "follow_hand", "card": "ftc-003"}),
                ("0", {"type": "follow_hand", "card": "ftc-002"}))
    order = []
    while state["round"]["stage"] == "resolve":
        seat = ENGINE.awaiting(state)[0]
        order.append(seat)
        state = run(state, (seat, {"type": "decline"}))
    assert order == ["1", "2", "0"]


# ---- staff actions ------------------------------------------------------------------------------------


def round_for(action_card: str, board0: dict, market: list[list[str]] | None = None,
              hand_extra: list[str] | None = None) -> dict:
    """Seat 0 leads `action_card`; the others research; seat 0 is resolving."""
    state = make_state(3, hands={"0": [action_card, *(hand_extra or [])]}, boards={"0": board0},
                       market=market or MARKET8)
    return run(state, ("0", {"type": "lead", "card": action_card}), ("1", {"type": "market_research"}),
               ("2", {"type": "market_research"}))


def test_driver_takes_a_market_card_into_the_fridge_or_replaces_one() -> None:
    state = round_for("ftc-001", {"fridge": ["ftc-040"]})
    legal = ENGINE.actions(state, "0")
    assert {"type": "driver", "position": 1} in legal and {"type": "driver", "position": 1, "replace": "ftc-040"} in legal
    replaced = run(state, ("0", {"type": "driver", "position": 1, "replace": "ftc-040"}))
    assert replaced["boards"]["0"]["fridge"] == ["ftc-030"] and replaced["discard"][0] == "ftc-040"


def test_cashier_takes_a_ticket_and_a_replaced_ticket_is_discarded_before_its_ingredients() -> None:
    plating = [{"card": "start-bear_burgers", "on": ["ftc-016"]}, {"card": "ftc-045", "on": ["ftc-002"]}]
    state = round_for("ftc-020", {"plating": plating})
    assert all("replace" in a for a in ENGINE.actions(state, "0") if a["type"] == "cashier")
    state2 = run(state, ("0", {"type": "cashier", "position": 2, "replace": "ftc-045"}))
    assert state2["discard"][:2] == ["ftc-045", "ftc-002"]
    assert [s["card"] for s in state2["boards"]["0"]["plating"]] == ["start-bear_burgers", "ftc-031"]
    # A replaced Starting Order leaves the game; its ingredients are discarded.
    state3 = run(state, ("0", {"type": "cashier", "position": 2, "replace": "start-bear_burgers"}))
    assert state3["removed"] == ["start-bear_burgers"] and state3["discard"][0] == "ftc-016"


def test_manager_hires_into_hired_staff_and_can_replace_when_not_full() -> None:
    state = round_for("ftc-039", {"hired_staff": ["ftc-012"]})
    legal = ENGINE.actions(state, "0")
    assert {"type": "manager", "position": 3} in legal
    assert {"type": "manager", "position": 3, "replace": "ftc-012"} in legal
    state = run(state, ("0", {"type": "manager", "position": 3}))
    assert state["boards"]["0"]["hired_staff"] == ["ftc-012", "ftc-032"]


def test_prep_cook_only_places_an_ingredient_the_ticket_still_needs() -> None:
    # start-bear_burgers needs Grain + Meat; ftc-040 is Meat, ftc-039 is Seasoning.
    state = round_for("ftc-058", {"fridge": ["ftc-040", "ftc-039"]})
    assert ENGINE.actions(state, "0") == [
        {"type": "prep_cook", "card": "ftc-040", "ticket": "start-bear_burgers"}, {"type": "decline"}]
    state = run(state, ("0", {"type": "prep_cook", "card": "ftc-040", "ticket": "start-bear_burgers"}))
    assert state["boards"]["0"]["plating"][0]["on"] == ["ftc-040"] and state["boards"]["0"]["fridge"] == ["ftc-039"]


def test_exec_chef_places_from_hand_never_the_owner() -> None:
    state = round_for("ftc-085", {"owner": "hand"}, hand_extra=["ftc-016", "ftc-002"])
    legal = ENGINE.actions(state, "0")
    assert legal == [{"type": "exec_chef", "card": "ftc-016", "ticket": "start-bear_burgers"}, {"type": "decline"}]


def test_an_impossible_exec_chef_is_still_asked_when_the_hand_is_secret() -> None:
    state = round_for("ftc-085", {}, hand_extra=["ftc-002"])  # ftc-002 is Fruit: not needed
    assert ENGINE.awaiting(state) == ["0"] and ENGINE.actions(state, "0") == [{"type": "decline"}]


def test_an_impossible_prep_cook_is_skipped() -> None:
    applied = step(make_state(3, hands={"0": ["ftc-058"]}, market=MARKET8), "0", {"type": "lead", "card": "ftc-058"})
    state = run(applied.state, ("1", {"type": "market_research"}))
    applied = step(state, "2", {"type": "market_research"})
    assert any(e["type"] == "skipped" for e in applied.events)
    assert applied.state["round"]["stage"] == "market"


def test_only_top_cards_are_takeable_and_emptied_positions_wait_for_cleanup() -> None:
    market = [["ftc-030", "ftc-031"], ["ftc-032"], [], [], [], [], [], []]
    state = round_for("ftc-001", {}, market=market)
    assert ENGINE.actions(state, "0")[:2] == [{"type": "driver", "position": 1}, {"type": "driver", "position": 2}]
    assert state["round"]["choices"]["0"]["left"] == 1
    state = run(state, ("0", {"type": "driver", "position": 1}))
    assert state["boards"]["0"]["fridge"] == ["ftc-031"]


# ---- tokens, critiques ----------------------------------------------------------------------------------


def completing_state(stacks: dict, gray: dict | None = None, tokens: list[int] | None = None) -> dict:
    """Seat 0 leads Prep Cook with a Grain in the Fridge for a one-Grain ticket (ftc-016)."""
    board = {"plating": [{"card": "ftc-016", "on": []}], "fridge": ["ftc-001"]}
    if gray is not None:
        board["gray"] = gray
    if tokens is not None:
        board["tokens"] = tokens
    state = make_state(3, hands={"0": ["ftc-058"]}, boards={"0": board}, market=MARKET8, stacks=stacks,
                       removed=["start-bear_burgers"])
    return run(state, ("0", {"type": "lead", "card": "ftc-058"}), ("1", {"type": "market_research"}),
               ("2", {"type": "market_research"}))


def test_exact_value_token_is_compulsory_and_one_free_section_is_used_without_asking() -> None:
    gray = {"fridge": 3, "hired_staff": 3, "plating": 2}
    state = completing_state({"1": P3, "2": P3, "3": P3}, gray=gray, tokens=[1] * 8)
    state = run(state, ("0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"}))
    assert state["boards"]["0"]["tokens"][-1] == 1 and state["boards"]["0"]["gray"]["plating"] == 3


def test_with_every_gray_icon_covered_the_token_is_kept_beside_the_board() -> None:
    gray = {"fridge": 3, "hired_staff": 3, "plating": 3}
    state = completing_state({"1": P3, "2": P3, "3": P3}, gray=gray, tokens=[2] * 9)
    state = run(state, ("0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"}))
    assert state["boards"]["0"]["tokens"] == [2] * 9 + [1] and state["boards"]["0"]["gray"] == gray


def test_no_token_at_all_when_nothing_lower_remains() -> None:
    state = completing_state({"1": [], "2": P3, "3": P3})
    applied = step(state, "0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"})
    assert applied.state["boards"]["0"]["tokens"] == []
    assert any(e["type"] == "no_token" for e in applied.events)


def test_two_critiques_in_one_round_give_two_secret_simultaneous_passes() -> None:
    # Seat 0 completes a one-icon ticket whose stack reveals a critique; seat 1's stack was at its last token.
    board0 = {"plating": [{"card": "ftc-016", "on": []}, {"card": "ftc-024", "on": []}],
              "fridge": ["ftc-001", "ftc-004"], "completed": ["ftc-026"], "hired_staff": ["ftc-059"]}
    state = make_state(3, hands={"0": ["ftc-058"], "1": [], "2": []},
                       boards={"0": board0, "1": {"completed": ["ftc-044", "ftc-060"]},
                               "2": {"completed": ["ftc-008"]}},
                       market=MARKET8, stacks={"1": ["P", "C", "P", "C"], "2": P3, "3": P3},
                       removed=["start-bear_burgers"])
    state = run(state, ("0", {"type": "lead", "card": "ftc-058"}), ("1", {"type": "market_research"}),
                ("2", {"type": "market_research"}),
                ("0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"}),
                ("0", {"type": "place_token", "section": "fridge"}),
                ("0", {"type": "prep_cook", "card": "ftc-004", "ticket": "ftc-024"}),
                ("0", {"type": "place_token", "section": "fridge"}))
    assert state["pending_critiques"] == 2 and state["stacks"]["1"] == []
    # Pass one: seats 0 and 1 hold several tickets and pick at the same time; seat 2's only ticket goes by itself.
    assert sorted(ENGINE.awaiting(state)) == ["0", "1"]
    applied = step(state, "1", {"type": "critique", "card": "ftc-060"})
    state = applied.state
    assert ENGINE.awaiting(state) == ["0"]
    assert ENGINE.view(state, "0")["round"]["critique"]["1"] is True
    assert ENGINE.view(state, "1")["round"]["critique"]["1"] == "ftc-060"
    assert all(e["visible_to"] == ["1"] for e in applied.events if "card" in e)
    state = run(state, ("0", {"type": "critique", "card": "ftc-016"}))
    assert state["boards"]["1"]["awards"] == ["ftc-060"] and state["boards"]["2"]["awards"] == ["ftc-008"]
    assert state["boards"]["0"]["awards"] == ["ftc-016"] and state["pending_critiques"] == 1
    # Pass two: seat 1's last ticket is picked for it, seat 2 has none left, seat 0 still chooses.
    assert ENGINE.awaiting(state) == ["0"]
    state = run(state, ("0", {"type": "critique", "card": "ftc-026"}))
    assert state["boards"]["0"]["awards"] == ["ftc-016", "ftc-026"]
    assert state["boards"]["1"]["awards"] == ["ftc-060", "ftc-044"] and state["boards"]["2"]["awards"] == ["ftc-008"]
    assert state["pending_critiques"] == 0 and state["critiques_aside"] == 2


def test_second_exhausted_stack_triggers_the_end_immediately() -> None:
    state = completing_state({"1": ["P", "C"], "2": [], "3": P3})
    applied = step(state, "0", {"type": "prep_cook", "card": "ftc-001", "ticket": "ftc-016"})
    assert applied.state["end_triggered"] is True
    assert [e["type"] for e in applied.events if e["type"] in ("stack_exhausted", "end_triggered")] == [
        "stack_exhausted", "end_triggered"]


# ---- two players ----------------------------------------------------------------------------------------


def test_neutral_seat_takes_every_third_turn_and_counts_for_equal_turns() -> None:
    state = make_state(2, hands={"0": ["ftc-001"], "1": ["ftc-002"]}, market=MARKET8[:6],
                       deck_top=["ftc-040", "ftc-041", "ftc-042", "ftc-043", "ftc-060"])
    state = run(state, ("0", {"type": "market_research"}), ("1", {"type": "market_research"}))
    assert state["round"]["leader"] is None and state["round"]["lead_action"] == "Prep Cook"
    assert ENGINE.awaiting(state) == ["0"]
    state["end_triggered"] = True
    state = run(state, ("0", {"type": "market_research"}), ("1", {"type": "market_research"}))
    assert state["phase"] == "over"


def test_neutral_with_nothing_to_draw_skips_and_triggers_the_end() -> None:
    state = make_state(2, hands={"0": ["ftc-001"], "1": ["ftc-002"]}, market=MARKET8[:6], active=1)
    state["neutral"]["stack"] = state["deck"]
    state["deck"] = []
    applied = step(state, "1", {"type": "take_charge"})
    types = [e["type"] for e in applied.events]
    assert "neutral_skipped" in types and "game_over" in types
    assert applied.state["phase"] == "over"
