"""The worked examples of spec §10, each from a hand-made state."""

from __future__ import annotations

from app.games.food_truck import ENGINE
from app.games.food_truck.data import TRUCK_CARDS
from app.games.food_truck.service import discard_truck_cards, gather_cards
from app.games.food_truck.setup import flip_truck_card, new_game, start_round

from .helpers import act, build, check_invariants, types_of

REVEAL = {"type": "reveal"}


def test_example_1_rulebook_turn() -> None:
    alan_pile = ["burger-05", "hot_dog-05", "takeaway_box-03", "dessert-03", "burger-06", "pizza-03", "fries_drink-03"]
    s = build(
        ["lisa", "joseph", "alan"], turn="lisa", first="lisa",
        served={"lisa": ["fries_drink-01"], "joseph": ["burger-03"], "alan": ["hot_dog-02"]},
        piles={"lisa": ["pizza-01"], "joseph": ["hot_dog-04"], "alan": alan_pile},
        trucks={"alan": "E4"}, supply=["sushi-01", "tacos-02", "kebab-03"],
    )
    # 1. Lisa serves her Pizza.
    s, ev = act(s, "lisa", REVEAL)
    assert types_of(ev) == ["revealed", "served"]
    assert s["seats"]["lisa"]["served"]["pizza"] == ["pizza-01"]
    # 2. Joseph's Hot Dog is blocked by Alan: out, compensation, marker.
    assert s["turn"] == "joseph"
    s, ev = act(s, "joseph", REVEAL)
    assert "eliminated" in types_of(ev) and "marker_taken" in types_of(ev)
    assert s["seats"]["joseph"]["eliminated"] and s["seats"]["joseph"]["draw_pile"][-1] == "hot_dog-04"
    assert s["first_player"] == "joseph" and s["step"] == "compensation"
    s, _ = act(s, "joseph", {"type": "take", "card": "sushi-01"})
    assert s["supply"] == ["tacos-02", "kebab-03"]
    assert s["seats"]["joseph"]["served"] == {"burger": ["burger-03"]}
    assert "sushi-01" in s["seats"]["joseph"]["collection"]
    # 3. Alan's Burger is blocked by Joseph's; he plays E4 and piles a second Hot Dog.
    assert s["turn"] == "alan"
    s, _ = act(s, "alan", REVEAL)
    assert s["step"] == "decide" and s["seats"]["alan"]["pending"] == "burger-05"
    s, ev = act(s, "alan", {"type": "play_truck", "effect": "E4"})
    alan = s["seats"]["alan"]
    assert alan["served"]["hot_dog"] == ["hot_dog-02", "hot_dog-05"]
    assert alan["draw_pile"] == ["takeaway_box-03", "dessert-03", "burger-06", "pizza-03", "fries_drink-03",
                                 "burger-05"]
    assert alan["truck_discard"] == [f"{alan['truck']}-e4"] and alan["truck_used"]
    assert not alan["eliminated"]
    # 4. Joseph is skipped: Lisa is next.
    assert s["turn"] == "lisa" and s["step"] == "reveal"


def test_example_2_desserts_and_own_piles() -> None:
    s = build(
        ["A", "B"], turn="A", first="A",
        served={"A": ["burger-01"], "B": ["pizza-02"]},
        piles={"A": ["dessert-01", "burger-02"], "B": ["dessert-02", "burger-06"]},
        trucks={"A": "E5", "B": "E5"}, supply=["salad-01", "kebab-02"],
    )
    deck_before = len(s["central_deck"])
    s, _ = act(s, "A", REVEAL)
    s, _ = act(s, "B", REVEAL)
    assert s["seats"]["A"]["desserts_served"] == ["dessert-01"]
    assert s["seats"]["B"]["desserts_served"] == ["dessert-02"]
    s, _ = act(s, "A", REVEAL)
    assert s["seats"]["A"]["served"]["burger"] == ["burger-01", "burger-02"]
    s, ev = act(s, "B", REVEAL)
    assert s["seats"]["B"]["eliminated"] and s["first_player"] == "B"
    s, ev = act(s, "B", {"type": "take", "card": "kebab-02"})
    assert types_of(ev)[:4] == ["compensation_taken", "round_won", "last_card_taken", "truck_discarded"]
    assert s["seats"]["A"]["vp"] == 1 and "salad-01" in s["seats"]["A"]["collection"]
    assert "kebab-02" in s["seats"]["B"]["collection"]
    for p in ("A", "B"):
        me = s["seats"][p]
        assert any(c.endswith("-e5") for c in me["truck_discard"])
        assert me["served"] == {} and me["desserts_served"] == [] and me["hand"] == me["collection"]
    assert len(s["supply"]) == 2 and len(s["central_deck"]) == deck_before - 2
    assert s["phase"] == "prep" and s["round_starter"] == "B" and s["round"] == 3
    assert s["rounds"][-1] == {"round": s["round"] - 1, "winner": "A", "eliminated": ["B"], "card": "salad-01"}


def test_example_3a_share_a_single() -> None:
    s = build(["P1", "P2", "P3"], turn="P3", served={"P1": ["pizza-01", "sushi-01", "sushi-02"], "P2": ["burger-01"]},
              piles={"P3": ["pizza-03"]}, trucks={"P3": "E5"}, supply=["salad-01", "salad-02", "salad-03"])
    s, _ = act(s, "P3", REVEAL)
    assert {"type": "play_truck", "effect": "E5"} in ENGINE.actions(s, "P3")
    s, ev = act(s, "P3", {"type": "play_truck", "effect": "E5"})
    assert s["seats"]["P3"]["served"]["pizza"] == ["pizza-03"]
    assert s["seats"]["P1"]["served"]["pizza"] == ["pizza-01"]
    assert ev[-1]["type"] == "served" and ev[-1]["shared_with"] == "P1"


def test_example_3b_cannot_share_a_pile() -> None:
    s = build(["P1", "P2", "P3"], turn="P3", served={"P1": ["pizza-01", "sushi-01", "sushi-02"], "P2": ["burger-01"]},
              piles={"P3": ["sushi-03"]}, trucks={"P3": "E5"}, supply=["salad-01", "salad-02", "salad-03"])
    s, ev = act(s, "P3", REVEAL)
    # E5 is not playable, so nothing is left to decide: P3 is out at once.
    assert s["seats"]["P3"]["eliminated"] and s["seats"]["P3"]["truck_current"] is not None


def test_example_3c_cannot_share_with_two() -> None:
    s = build(["P1", "P2", "P3"], turn="P2", served={"P1": ["pizza-01"], "P3": ["pizza-03"], "P2": ["burger-01"]},
              piles={"P2": ["pizza-04"]}, trucks={"P2": "E5"}, supply=["salad-01", "salad-02", "salad-03"])
    s, _ = act(s, "P2", REVEAL)
    assert s["seats"]["P2"]["eliminated"]


def test_example_4_send_back() -> None:
    s = build(["P1", "P2", "P3"], turn="P1", served={"P2": ["tacos-01"], "P3": ["kebab-01", "kebab-02"]},
              piles={"P1": ["tacos-03"], "P2": ["pizza-02", "dessert-02"]}, trucks={"P1": "E2"},
              supply=["salad-01", "salad-02", "salad-03"])
    s, _ = act(s, "P1", REVEAL)
    plays = [a for a in ENGINE.actions(s, "P1") if a["type"] == "play_truck"]
    assert {"type": "play_truck", "effect": "E2", "seat": "P2", "meal": "tacos"} in plays
    assert all(a["seat"] != "P3" for a in plays)
    s, _ = act(s, "P1", {"type": "play_truck", "effect": "E2", "seat": "P2", "meal": "tacos"})
    p2 = s["seats"]["P2"]
    assert p2["draw_pile"][:2] == ["pizza-02", "dessert-02"] and p2["draw_pile"][-1] == "tacos-01"
    assert p2["served"] == {} and s["seats"]["P1"]["served"]["tacos"] == ["tacos-03"]
    # Later, P2's Tacos is blocked by P1's.
    s["seats"]["P2"]["draw_pile"] = ["tacos-01"] + [c for c in p2["draw_pile"] if c != "tacos-01"]
    s["turn"] = "P2"
    s, _ = act(s, "P2", REVEAL)
    assert s["seats"]["P2"]["eliminated"]


def _example_5() -> dict:
    return build(["P1", "P2", "P3", "P4"], turn="P1", served={"P4": ["kebab-05"], "P2": ["burger-04"]},
                 piles={"P1": ["kebab-01"]}, trucks={"P1": "E3"},
                 supply=["sushi-04", "burger-07", "salad-02", "sandwich-03"])


def test_example_5_swap() -> None:
    s, _ = act(_example_5(), "P1", REVEAL)
    s, _ = act(s, "P1", {"type": "play_truck", "effect": "E3", "card": "salad-02"})
    assert s["supply"] == ["sushi-04", "burger-07", "sandwich-03", "kebab-01"]
    p1 = s["seats"]["P1"]
    assert p1["served"]["salad"] == ["salad-02"] and "salad-02" in p1["collection"]
    assert "kebab-01" not in p1["collection"]


def test_example_5_swap_into_a_blocked_card() -> None:
    s, _ = act(_example_5(), "P1", REVEAL)
    s, _ = act(s, "P1", {"type": "play_truck", "effect": "E3", "card": "burger-07"})
    p1 = s["seats"]["P1"]
    assert p1["eliminated"] and p1["draw_pile"][-1] == "burger-07" and "burger-07" in p1["collection"]
    assert s["step"] == "compensation"
    assert sorted(a["card"] for a in ENGINE.actions(s, "P1")) == sorted(["sushi-04", "salad-02", "sandwich-03",
                                                                         "kebab-01"])


def _example_6(b_vp: int) -> dict:
    return build(
        ["A", "B", "C", "D"], turn="A", first="A",
        served={"B": ["burger-01", "burger-02"]},
        piles={"A": ["dessert-01", "pizza-02"], "B": ["pizza-01", "fries_drink-01"], "C": ["burger-03"],
               "D": ["dessert-02", "burger-05"]},
        trucks={"B": "E5", "C": "E5", "D": "E5"}, vp={"B": b_vp},
        supply=["sushi-02", "tacos-04", "kebab-04", "salad-03"],
    )


def _play_example_6(s: dict) -> tuple[dict, list[dict], list[str]]:
    deck = list(s["central_deck"])
    s, _ = act(s, "A", REVEAL)
    s, _ = act(s, "B", REVEAL)
    s, _ = act(s, "C", REVEAL)
    s, _ = act(s, "C", {"type": "take", "card": "tacos-04"})
    s, _ = act(s, "D", REVEAL)
    s, _ = act(s, "A", REVEAL)
    s, _ = act(s, "A", {"type": "take", "card": "sushi-02"})
    s, _ = act(s, "B", REVEAL)
    s, _ = act(s, "D", REVEAL)
    s, ev = act(s, "D", {"type": "take", "card": "kebab-04"})
    return s, ev, deck


def test_example_6_end_of_service_bookkeeping() -> None:
    s, ev, deck = _play_example_6(_example_6(0))
    assert s["rounds"][-1] == {"round": s["round"] - 1, "winner": "B", "eliminated": ["C", "A", "D"], "card": "salad-03"}
    assert s["first_player"] == "C" and s["round_starter"] == "C" and s["phase"] == "prep"
    assert s["seats"]["B"]["vp"] == 1 and "salad-03" in s["seats"]["B"]["collection"]
    discarded = [e["seat"] for e in ev if e["type"] == "truck_discarded"]
    assert discarded == ["B", "C", "D"]
    assert s["supply"] == deck[:4] and s["central_deck"] == deck[4:]
    for p in "ABCD":
        assert s["seats"][p]["hand"] == s["seats"][p]["collection"]
        assert not s["seats"][p]["eliminated"]


def test_example_6_winning_the_game() -> None:
    s, ev, _ = _play_example_6(_example_6(2))
    assert s["phase"] == "over" and s["winner"] == "B" and ev[-1]["type"] == "game_won"
    out = ENGINE.outcome(s)
    assert out is not None and out["winners"] == ["B"] and out["ranking"][0] == ["B"]
    assert out["scores"]["B"] == 3


def test_example_6_the_winning_move_tells_the_last_rounds_table() -> None:
    """The state is reset as after every round; the winning move's event keeps the table the last round left, for the
    end screen, and only that move has one."""
    before = _example_6(2)
    s, ev, _ = _play_example_6(before)
    boards = [e for e in ev if e["type"] == "final_board"]
    assert len(boards) == 1 and boards[0]["visible_to"] is None
    seats = boards[0]["seats"]
    assert set(seats) == set("ABCD")
    assert [p for p in "ABCD" if seats[p]["eliminated"]] == ["A", "C", "D"]
    assert any(seats["B"]["served"].values()), seats["B"]
    assert all(not s["seats"][p]["served"] for p in "ABCD")  # the state itself is reset
    _, ev_round, _ = _play_example_6(_example_6(0))
    assert not [e for e in ev_round if e["type"] == "final_board"]


def test_example_7_truck_pile_cycle() -> None:
    s = new_game(["0", "1"], 7, {"trucks": "random"})
    me = s["seats"]["0"]
    truck = me["truck"]
    order = ["E3", "E1", "E5", "E2", "E4"]
    cards = [f"{truck}-e{e[1]}" for e in order]
    me["truck_current"], me["truck_pile"] = cards[0], cards[1:]
    seen = []
    for _round in range(5):
        seen.append(s["seats"]["0"]["truck_current"])
        ev: list = []
        discard_truck_cards(s, ev)
        gather_cards(s)
        start_round(s, ev)
        check_invariants(s)
    assert seen == cards
    assert "truck_reshuffled" in types_of(ev)
    me = s["seats"]["0"]
    assert me["truck_discard"] == [] and len(me["truck_pile"]) == 4 and me["truck_current"] in cards


def _rebuilt_pile(seed: int) -> tuple[list[str], dict]:
    """Seat 0's Truck pile is empty and its discard holds its five Truck cards E1..E5, in that order: the effects
    of the pile rebuilt at Prep (the card turned up, then the rest), and the state after."""
    s = new_game(["0", "1"], seed, {"trucks": "random"})
    me = s["seats"]["0"]
    me["truck_pile"], me["truck_discard"], me["truck_current"] = [], list(TRUCK_CARDS[me["truck"]]), None
    ev: list = []
    flip_truck_card(s, "0", ev)
    assert "truck_reshuffled" in types_of(ev)
    return [c.rsplit("-", 1)[1] for c in [me["truck_current"], *me["truck_pile"]]], s


# Spec §4.1 Prep step 1 "if truck_pile is empty, shuffle truck_discard to form a new truck_pile", drawn like all the
# engines' randomness from the seeded generator in the state (`app/games/rng.py`, so replays are identical): the
# rebuilt pile is shuffled, not the discard order nor a fixed rearrangement of it, and the same seed rebuilds it alike.
def test_truck_pile_rebuilt_from_the_discard_is_a_seeded_shuffle() -> None:
    discard = ["e1", "e2", "e3", "e4", "e5"]
    orders = {}
    for seed in range(1, 21):
        order, s = _rebuilt_pile(seed)
        again, s_again = _rebuilt_pile(seed)
        assert order == again and s["rng"] == s_again["rng"], "the same seed rebuilds the same pile"
        assert sorted(order) == discard and s["seats"]["0"]["truck_discard"] == []
        check_invariants(s)
        orders[seed] = order
    assert orders[1] != discard
    assert sum(order == discard for order in orders.values()) <= 1, "the discard order kept"
    assert len({tuple(order) for order in orders.values()}) >= 10, "not shuffled by the seed"
    assert {order[0] for order in orders.values()} == set(discard), "some card never comes up first"


def _last_elimination(players: list[str]) -> dict:
    others = [p for p in players if p not in ("b", "e")]
    last = players[-1]
    out = [p for p in others if p != last]
    return build(players, turn=last, served={"b": ["burger-01"]}, piles={last: ["burger-09"]},
                 eliminated=out, vp={"b": 1}, supply=["salad-01", "salad-02"])


def test_example_8_five_players_target_two() -> None:
    s = _last_elimination(["a", "b", "c", "d", "e"])
    assert s["vp_target"] == 2
    s, _ = act(s, "e", REVEAL)
    s, _ = act(s, "e", {"type": "take", "card": "salad-01"})
    assert s["phase"] == "over" and s["winner"] == "b" and s["seats"]["b"]["vp"] == 2


def test_example_8_four_players_target_three() -> None:
    s = _last_elimination(["a", "b", "c", "d"])
    assert s["vp_target"] == 3
    s, _ = act(s, "d", REVEAL)
    s, _ = act(s, "d", {"type": "take", "card": "salad-01"})
    assert s["phase"] == "prep" and s["seats"]["b"]["vp"] == 2 and ENGINE.outcome(s) is None
