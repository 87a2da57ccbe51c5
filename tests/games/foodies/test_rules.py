"""One test (or a few) per rule step of the spec, including every IllegalAction code."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.foodies.chefs import meets_requirement
from app.games.foodies.court import full_stars, stars_of
from app.games.foodies.data import CULTURE_CARDS, FLYERS_BY_SEAT, SLOT_PRICES
from tests.games.contract import seats
from tests.games.foodies.helpers import G, blank_state, roll, set_player, step, tokens


def refused(state: dict, seat: str, action: object) -> str:
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, seat, action)  # type: ignore[arg-type]
    assert exc.value.message
    return exc.value.code


# --- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_by_player_count(n: int) -> None:
    state = G.new_game(seats(n), 11)
    assert state["threshold"] == (20 if n <= 3 else 30)
    assert sorted(state["seats"]) == seats(n)
    assert [state["players"][s]["flyers"] for s in state["seats"]] == FLYERS_BY_SEAT[:n]
    assert len(state["cultures"]) == 5 and len(set(state["cultures"])) == 5
    in_play = {c for code in state["cultures"] for c in CULTURE_CARDS[code]}
    assert len(state["deck"]) == 45 and set(state["deck"] + state["market"]) == in_play
    assert len(state["special_chefs"]) == 2 and all(c["claimed_by"] is None for c in state["special_chefs"])
    for player in state["players"].values():
        assert (player["coins"], player["popularity"]) == (3, 0)
        assert tokens(player, "popularity_tokens") == {1: 1, 3: 1, 7: 1, 9: 1}
        assert tokens(player, "coin_tokens") == {} and player["court"] == [None] * 9
    assert state["active"] == state["seats"][0] and state["phase"] == "roll"
    assert G.awaiting(state) == [state["seats"][0]]


def test_setup_draws_vary_with_seed_and_option_fixes_first_player() -> None:
    firsts = {G.new_game(seats(4), s)["seats"][0] for s in range(40)}
    cultures = {tuple(G.new_game(seats(4), s)["cultures"]) for s in range(40)}
    chefs = {tuple(c["id"] for c in G.new_game(seats(4), s)["special_chefs"]) for s in range(40)}
    assert firsts == set(seats(4)) and len(cultures) > 10 and len(chefs) > 5
    state = G.new_game(["b", "a", "c"], 3, {"first_player": "listed"})
    assert state["seats"] == ["b", "a", "c"]
    rotated = G.new_game(["b", "a", "c"], 3)["seats"]
    assert rotated in (["b", "a", "c"], ["a", "c", "b"], ["c", "b", "a"])


@pytest.mark.parametrize("players", [["0"], ["0"] * 2, [str(i) for i in range(6)]])
def test_setup_refuses_bad_player_lists(players: list[str]) -> None:
    with pytest.raises(ValueError):
        G.new_game(players, 1)


def test_setup_refuses_unknown_option_value() -> None:
    with pytest.raises(ValueError):
        G.new_game(seats(2), 1, {"first_player": "oldest"})


# --- roll and the 0 face ---------------------------------------------------------------------


def test_roll_without_flyers_pays_out_at_once() -> None:
    applied = roll(blank_state(2), 5)
    assert applied.state["phase"] == "buy" and applied.state["die"] == 5
    assert [e["type"] for e in applied.events] == ["rolled", "collected", "collected"]
    assert [e["seat"] for e in applied.events[1:]] == ["0", "1"]
    assert all(e["coins"] == 2 for e in applied.events[1:])
    assert applied.undoable is False


def test_collection_runs_from_the_active_player() -> None:
    state = blank_state(3)
    state["active"] = "1"
    applied = roll(state, 2)
    assert [e["seat"] for e in applied.events if e["type"] == "collected"] == ["1", "2", "0"]


def test_zero_face_choice() -> None:
    state = roll(blank_state(2), 0).state
    assert state["phase"] == "choose_face"
    actions = G.actions(state, "0")
    assert [a["face"] for a in actions if a["type"] == "choose_face"] == list(range(1, 10))
    assert refused(state, "0", {"type": "choose_face", "face": 0}) == "bad_face"
    assert refused(state, "0", {"type": "choose_face", "face": 10}) == "bad_face"
    assert refused(state, "1", {"type": "choose_face", "face": 3}) == "not_your_turn"
    assert refused(state, "0", {"type": "roll"}) == "wrong_phase"
    state = step(state, "0", {"type": "choose_face", "face": 9})
    assert state["players"]["0"]["popularity"] == 1 and state["phase"] == "buy"


def test_collect_nothing_from_empty_unprinted_space() -> None:
    state = blank_state(2)
    set_player(state, "0", popularity_tokens={})
    applied = roll(state, 9)
    mine = applied.events[1]
    assert (mine["coins"], mine["popularity"], mine["parts"]) == (0, 0, [])


# --- flyers ----------------------------------------------------------------------------------


def test_flyer_decisions_are_simultaneous_and_secret() -> None:
    state = blank_state(3)
    set_player(state, "0", flyers=1)
    set_player(state, "2", flyers=2)
    state = roll(state, 1).state
    assert G.awaiting(state) == ["0", "2"]
    assert G.actions(state, "2") == [{"type": "use_flyer", "space": 2}, {"type": "use_flyer", "space": 4},
                                     {"type": "no_flyer"}]
    assert refused(state, "1", {"type": "no_flyer"}) == "no_flyers"
    assert refused(state, "1", {"type": "skip_buy"}) == "not_your_turn"
    assert refused(state, "0", {"type": "skip_buy"}) == "wrong_phase"
    applied = G.apply(state, "2", {"type": "use_flyer", "space": 4})
    assert applied.undoable is True
    assert applied.events == [{"type": "flyer_chosen", "seat": "2", "space": 4, "visible_to": ["2"]}]
    state = applied.state
    assert G.awaiting(state) == ["0"]
    assert refused(state, "2", {"type": "no_flyer"}) == "already_decided"
    applied = G.apply(state, "0", {"type": "no_flyer"})
    assert applied.undoable is False
    reveal = [e for e in applied.events if e["type"] == "flyers_revealed"]
    assert reveal == [{"type": "flyers_revealed", "choices": {"0": None, "2": 4}, "visible_to": None}]
    p = applied.state["players"]
    assert p["2"]["flyers"] == 1 and p["2"]["coins"] == 4  # printed coin of space 4, not the token on 1
    assert p["0"]["popularity"] == 1 and p["0"]["flyers"] == 1


def test_active_player_may_use_a_flyer_too() -> None:
    state = blank_state(2)
    set_player(state, "0", flyers=1)
    state = roll(state, 2).state
    assert G.awaiting(state) == ["0"]
    state = step(state, "0", {"type": "use_flyer", "space": 5})
    assert state["players"]["0"]["coins"] == 5 and state["players"]["1"]["coins"] == 4


# --- collecting: tokens, stall, stars --------------------------------------------------------


def test_tokens_then_stall_rewards_then_stars() -> None:
    state = blank_state(2)
    set_player(state, "0", court={5: "AME07", 2: "AME03"}, popularity_tokens={5: 2}, coin_tokens={5: 1})
    event = roll(state, 5).events[1]
    assert [p["source"] for p in event["parts"]] == ["tokens", "stall", "stars"]
    assert (event["coins"], event["popularity"]) == (4, 3)


def test_printed_value_gone_once_built() -> None:
    state = blank_state(2)
    set_player(state, "0", court={5: "AME05"})
    event = roll(state, 5).events[1]
    assert event["card"] == "AME05" and event["coins"] == 1  # franchise, not the printed 2


def test_full_stars_count_once_and_ignore_borders() -> None:
    court: list[str | None] = [None] * 9
    court[0], court[1] = "FRA05", "AME08"  # FRA05 right meets AME08 left
    assert stars_of(court, 1) == 1 and stars_of(court, 2) == 1 and full_stars(court) == 1
    court[1] = "AME02"  # AME02 has no left half-star
    assert full_stars(court) == 0


def test_max_twelve_stars() -> None:
    court = ["AME05"] * 9
    assert full_stars(court) == 12 and stars_of(court, 5) == 4 and stars_of(court, 1) == 2


# --- culture effects -------------------------------------------------------------------------


def effect_event(court: dict[int, str], face: int, **player: object) -> dict:
    state = blank_state(2)
    set_player(state, "0", court=court, popularity_tokens={}, **player)  # type: ignore[arg-type]
    applied = roll(state, face)
    event = next(e for e in applied.events if e["type"] == "collected" and e["seat"] == "0")
    event["state"] = applied.state
    return event


def effect_part(event: dict) -> dict:
    return next(p for p in event["parts"] if p["source"] == "effect")


def test_american_franchise() -> None:
    assert effect_part(effect_event({5: "AME02", 1: "AME10", 9: "GER10"}, 5))["coins"] == 2


@pytest.mark.parametrize(("court", "pop"), [({5: "BRA01", 1: "AME10"}, 0), ({5: "BRA01", 1: "AME10", 9: "GER10"}, 1)])
def test_brazilian_carnival(court: dict[int, str], pop: int) -> None:
    assert effect_part(effect_event(court, 5))["popularity"] == pop


def test_chinese_banquet() -> None:
    assert effect_part(effect_event({5: "CHN02", 2: "AME10", 4: "GER10", 1: "AME06"}, 5))["coins"] == 2


def test_french_haute_cuisine() -> None:
    event = effect_event({5: "FRA05", 2: "AME03", 6: "AME08"}, 5)
    assert effect_part(event)["popularity"] == 2 and event["popularity"] == 4


def test_german_beer_garden() -> None:
    assert effect_part(effect_event({5: "GER03"}, 5))["flyers"] == 1


def test_indian_spice_cluster() -> None:
    assert effect_part(effect_event({5: "IND01", 2: "IND10", 6: "IND07", 8: "AME10", 1: "IND10"}, 5))[
        "popularity"] == 2


def test_italian_family_table_caps_at_one_token() -> None:
    event = effect_event({1: "ITA02"}, 1)
    assert effect_part(event)["popularity_tokens_on"] == [2, 4]
    state = event["state"]
    set_player(state, "0", popularity_tokens={2: 3})
    state = dict(state, phase="roll")
    state = roll(state, 1).state
    assert tokens(state["players"]["0"], "popularity_tokens") == {2: 3, 4: 1}


@pytest.mark.parametrize(("space", "coins", "pop"), [(1, 2, 1), (2, 3, 0)])
def test_japanese_zen_corner(space: int, coins: int, pop: int) -> None:
    part = effect_part(effect_event({space: "JPN02"}, space))
    assert (part["coins"], part["popularity"]) == (coins - 2, pop)


def test_mexican_taco_cart_skips_stalls_and_coin_tokens() -> None:
    state = blank_state(2)
    set_player(state, "0", court={5: "MEX02", 2: "AME10"}, coin_tokens={4: 1}, popularity_tokens={})
    applied = roll(state, 5)
    part = effect_part(applied.events[1])
    assert part["coin_tokens_on"] == [6, 8]
    assert tokens(applied.state["players"]["0"], "coin_tokens") == {4: 1, 6: 1, 8: 1}


def test_thai_street_flyers_counts_after_spending_and_caps() -> None:
    state = blank_state(2)
    set_player(state, "0", court={2: "THA02"}, flyers=2, popularity_tokens={})
    state = roll(state, 5).state
    state = step(state, "0", {"type": "use_flyer", "space": 2})
    assert state["phase"] == "buy"
    assert state["players"]["0"]["coins"] == 3 + 2 + 1  # card 2, then one flyer left: 1
    assert effect_part(effect_event({5: "THA03"}, 5, flyers=0))["coins"] == 0
    state = blank_state(2)
    set_player(state, "0", court={5: "THA03"}, flyers=5, popularity_tokens={})
    state = roll(state, 5).state
    state = step(state, "0", {"type": "no_flyer"})
    assert state["players"]["0"]["coins"] == 3 + 3  # capped at 3


def test_effect_only_on_icon_cards() -> None:
    event = effect_event({5: "GER10"}, 5)
    assert [p["source"] for p in event["parts"]] == ["stall"]


# --- buying ----------------------------------------------------------------------------------


def buy_state(coins: int = 20) -> dict:
    state = blank_state(2, cultures=["AME", "BRA", "CHN", "FRA", "GER"])
    state["market"] = ["AME01", "AME02", "AME03", "AME04", "AME05"]
    state["deck"] = ["GER01", "GER02"]
    state["phase"] = "buy"
    set_player(state, "0", coins=coins)
    return state


def test_buy_actions_list_every_affordable_slot_and_space() -> None:
    buys = [a for a in G.actions(buy_state(5), "0") if a["type"] == "buy"]
    assert len(buys) == 3 * 9 and {a["slot"] for a in buys} == {3, 4, 5}
    assert G.actions(buy_state(2), "0") == [{"type": "skip_buy"}]


def test_buy_rightmost_slides_everything() -> None:
    applied = G.apply(buy_state(), "0", {"type": "buy", "slot": 5, "space": 1})
    assert applied.state["market"] == ["GER01", "AME01", "AME02", "AME03", "AME04"]
    assert applied.state["players"]["0"]["coins"] == 20 - SLOT_PRICES[4]
    assert applied.undoable is False and applied.state["phase"] == "hire"
    assert applied.events[-1] == {"type": "market_refilled", "card": "GER01", "deck_left": 1, "visible_to": None}


def test_buy_leftmost_slides_nothing() -> None:
    state = step(buy_state(), "0", {"type": "buy", "slot": 1, "space": 1})
    assert state["market"] == ["GER01", "AME02", "AME03", "AME04", "AME05"]


def test_empty_deck_leaves_slot_one_empty_and_empty_slots_slide() -> None:
    state = buy_state()
    state["deck"] = []
    state = step(state, "0", {"type": "buy", "slot": 3, "space": 1})
    assert state["market"] == [None, "AME01", "AME02", "AME04", "AME05"]
    assert refused(dict(state, phase="buy"), "0", {"type": "buy", "slot": 1, "space": 2}) == "empty_slot"
    state = step(dict(state, phase="buy"), "0", {"type": "buy", "slot": 2, "space": 2})
    assert state["market"] == [None, None, "AME02", "AME04", "AME05"]


def test_buy_codes() -> None:
    state = buy_state(3)
    assert refused(state, "0", {"type": "buy", "slot": 6, "space": 1}) == "bad_slot"
    assert refused(state, "0", {"type": "buy", "slot": 5, "space": 0}) == "bad_space"
    assert refused(state, "0", {"type": "buy", "slot": 4, "space": 1}) == "too_poor"
    assert refused(state, "1", {"type": "buy", "slot": 5, "space": 1}) == "not_your_turn"
    assert refused(state, "0", {"type": "buy", "slot": 5}) == "bad_action"
    assert refused(state, "0", {"type": "buy", "slot": "5", "space": 1}) == "bad_action"
    assert refused(state, "0", {"type": "buy", "slot": True, "space": 1}) == "bad_action"
    assert refused(state, "0", {"type": "buy", "slot": 5, "space": 1, "extra": 1}) == "bad_action"
    assert refused(state, "0", {"type": "hire_chef"}) == "wrong_phase"


def test_covering_removes_the_old_stall_and_keeps_tokens() -> None:
    state = buy_state()
    set_player(state, "0", court={5: "BRA01"}, coin_tokens={5: 2}, popularity_tokens={5: 1})
    applied = G.apply(state, "0", {"type": "buy", "slot": 2, "space": 5})
    assert applied.events[0]["covered"] == "BRA01"
    assert applied.state["removed"] == ["BRA01"]
    me = applied.state["players"]["0"]
    assert me["court"][4] == "AME02" and me["coin_tokens"][4] == 2 and me["popularity_tokens"][4] == 1


def test_skip_buy() -> None:
    applied = G.apply(buy_state(), "0", {"type": "skip_buy"})
    assert applied.state["phase"] == "hire" and applied.undoable is True


# --- chefs -----------------------------------------------------------------------------------


def hire_state(court: dict[int, str], coins: int = 0) -> dict:
    state = blank_state(2)
    state["special_chefs"] = [{"id": "star_gazer", "claimed_by": None}, {"id": "trio", "claimed_by": None}]
    set_player(state, "0", court=court, coins=coins)
    state["phase"] = "hire"
    return state


def test_hire_chef_costs_four_once_a_turn() -> None:
    assert G.actions(hire_state({}, 3), "0") == [{"type": "end_turn"}]
    assert refused(hire_state({}, 3), "0", {"type": "hire_chef"}) == "too_poor"
    state = step(hire_state({}, 8), "0", {"type": "hire_chef"})
    assert (state["players"]["0"]["coins"], state["players"]["0"]["popularity"]) == (4, 1)
    assert refused(state, "0", {"type": "hire_chef"}) == "already_hired"
    state = step(state, "0", {"type": "end_turn"})
    state = step(state, "1", {"type": "roll"})
    assert state["hired_chef_this_turn"] is False


def test_claim_chef_codes() -> None:
    state = hire_state({})
    assert refused(state, "0", {"type": "claim_chef", "chef": "crossroads"}) == "no_such_chef"
    assert refused(state, "0", {"type": "claim_chef", "chef": "trio"}) == "requirement_not_met"
    assert refused(state, "0", {"type": "claim_chef", "chef": 3}) == "bad_action"


def test_several_chefs_in_one_turn() -> None:
    court = {1: "AME05", 2: "AME05", 3: "AME05", 4: "BRA05", 5: "BRA05", 6: "BRA05", 7: "CHN05", 8: "CHN05"}
    state = hire_state(court)
    claims = [a for a in G.actions(state, "0") if a["type"] == "claim_chef"]
    assert [a["chef"] for a in claims] == ["star_gazer", "trio"]
    for action in claims:
        state = step(state, "0", action)
    me = state["players"]["0"]
    assert me["popularity"] == 6 and me["chefs"] == ["star_gazer", "trio"]
    assert me["earned"]["special_chefs"] == 6


def court_of(spaces: dict[int, str]) -> list[str | None]:
    return [spaces.get(s) for s in range(1, 10)]


@pytest.mark.parametrize(("chef", "yes", "no"), [
    ("specialist", {1: "AME01", 2: "AME02", 3: "AME03", 5: "AME04"},
     {1: "AME01", 2: "AME02", 3: "AME03", 5: "BRA04"}),
    ("globetrotter", {1: "AME01", 2: "BRA01", 3: "CHN01", 5: "FRA01", 9: "GER01"},
     {1: "AME01", 2: "BRA01", 3: "CHN01", 5: "FRA01", 9: "FRA02"}),
    ("star_gazer", {s: "AME05" for s in (1, 2, 4, 5, 6)},  # 1-2, 1-4, 2-5, 4-5, 5-6 = 5 ... plus 3
     {s: "AME05" for s in (1, 2, 4, 5)}),
    ("crossroads", {2: "AME01", 4: "AME02", 5: "AME03", 6: "AME04", 8: "AME05"},
     {2: "AME01", 4: "AME02", 5: "AME03", 6: "AME04", 9: "AME05"}),
    ("trio", {1: "AME01", 2: "AME02", 3: "BRA01", 4: "BRA02", 5: "CHN01", 6: "CHN02"},
     {1: "AME01", 2: "AME02", 3: "BRA01", 4: "BRA02", 5: "CHN01", 6: "FRA02"}),
])
def test_special_chef_requirements(chef: str, yes: dict[int, str], no: dict[int, str]) -> None:
    if chef == "star_gazer":
        yes = {**yes, 3: "AME05"}  # adds 2-3 and 3-6: seven stars
        assert full_stars(court_of(yes)) >= 6 and full_stars(court_of(no)) == 4
    assert meets_requirement(court_of(yes), chef)
    assert not meets_requirement(court_of(no), chef)


# Spec §3 `star_gazer` "at least 6 full stars" (§5.1.5: each matched pair counted once), at exactly 6 and at 5.
# AME05 has a half-star on every edge: stalls on 1 2 3 / 4 5 . / 7 . . match 1-2, 2-3, 4-5, 1-4, 2-5 and 4-7.
@pytest.mark.parametrize(("spaces", "stars", "claimable"), [((1, 2, 3, 4, 5, 7), 6, True), ((1, 2, 3, 4, 5), 5, False)])
def test_star_gazer_at_exactly_six_full_stars(spaces: tuple[int, ...], stars: int, claimable: bool) -> None:
    court = {s: "AME05" for s in spaces}
    assert full_stars(court_of(court)) == stars
    assert meets_requirement(court_of(court), "star_gazer") is claimable
    state = hire_state(court)
    offered = {"type": "claim_chef", "chef": "star_gazer"} in G.actions(state, "0")
    assert offered is claimable
    if claimable:
        state = step(state, "0", {"type": "claim_chef", "chef": "star_gazer"})
        assert state["players"]["0"]["chefs"] == ["star_gazer"] and state["players"]["0"]["popularity"] == 3
    else:
        assert refused(state, "0", {"type": "claim_chef", "chef": "star_gazer"}) == "requirement_not_met"


def test_claimed_chef_kept_after_losing_the_condition() -> None:
    state = hire_state({1: "AME01", 2: "AME02", 3: "BRA01", 4: "BRA02", 5: "CHN01", 6: "CHN02"})
    state = step(state, "0", {"type": "claim_chef", "chef": "trio"})
    set_player(state, "0", court={})
    assert state["players"]["0"]["chefs"] == ["trio"] and state["special_chefs"][1]["claimed_by"] == "0"


# --- turns and the end -----------------------------------------------------------------------


def test_turn_passes_clockwise_and_rounds_count() -> None:
    state = blank_state(3)
    for seat in ("0", "1", "2"):
        assert state["active"] == seat
        state = roll(state, 5).state
        state = step(state, seat, {"type": "skip_buy"})
        state = step(state, seat, {"type": "end_turn"})
    assert state["active"] == "0" and state["round"] == 2 and state["turn"] == 4


def test_end_triggered_in_last_seats_turn_ends_after_it() -> None:
    state = blank_state(2)
    state["active"] = "1"
    state["phase"] = "hire"
    set_player(state, "1", popularity=19, coins=4)
    state = step(state, "1", {"type": "hire_chef"})
    assert state["end_triggered"] and G.outcome(state) is None
    applied = G.apply(state, "1", {"type": "end_turn"})
    assert applied.state["phase"] == "over"
    assert applied.events[-1]["type"] == "game_over" and applied.events[-1]["winners"] == ["1"]
    assert refused(applied.state, "0", {"type": "roll"}) == "game_over"
    assert G.actions(applied.state, "0") == []


def test_end_trigger_by_first_player_finishes_the_round() -> None:
    state = blank_state(2)
    state["phase"] = "hire"
    set_player(state, "0", popularity=25, coins=1)
    set_player(state, "1", popularity=3, coins=0)
    state["end_triggered"] = True
    state = step(state, "0", {"type": "end_turn"})
    assert state["active"] == "1" and state["phase"] == "roll"
    state = roll(state, 5).state
    state = step(state, "1", {"type": "skip_buy"})
    state = step(state, "1", {"type": "end_turn"})
    out = G.outcome(state)
    assert out is not None and out["winners"] == ["0"] and out["scores"] == {"0": 25, "1": 3}
    assert out["details"]["0"]["popularity_by_source"]["tokens"] == 25


def test_popularity_tie_broken_by_coins_then_shared() -> None:
    state = blank_state(3)
    state["phase"] = "over"
    for seat, (pop, coins) in {"0": (20, 3), "1": (20, 5), "2": (12, 9)}.items():
        set_player(state, seat, popularity=pop, coins=coins)
    out = G.outcome(state)
    assert out is not None and out["ranking"] == [["1"], ["0"], ["2"]] and out["winners"] == ["1"]
    set_player(state, "0", coins=5)
    out = G.outcome(state)
    assert out is not None and out["ranking"] == [["0", "1"], ["2"]] and out["winners"] == ["0", "1"]


# --- shape and seat checks -------------------------------------------------------------------


@pytest.mark.parametrize(("action", "code"), [
    ({"type": "fly"}, "unknown_action"), ({}, "unknown_action"), ("roll", "unknown_action"),
    ({"type": 7}, "unknown_action"), ({"type": "roll", "face": 3}, "bad_action"),
])
def test_shape_codes(action: object, code: str) -> None:
    assert refused(blank_state(2), "0", action) == code


def test_unknown_seat_and_not_your_turn() -> None:
    state = blank_state(2)
    assert refused(state, "9", {"type": "roll"}) == "unknown_seat"
    assert refused(state, "1", {"type": "roll"}) == "not_your_turn"
    assert G.actions(state, "1") == [] and G.actions(state, "9") == []


def test_host_may_pick_the_special_chefs() -> None:
    from app.games.foodies.setup import SPECIAL_CHEF_CHOICES

    assert len(SPECIAL_CHEF_CHOICES) == 1 + 10
    state = G.new_game(seats(3), 5, {"special_chefs": "star_gazer+trio"})
    assert state["special_chefs"] == [{"id": "star_gazer", "claimed_by": None}, {"id": "trio", "claimed_by": None}]
    with pytest.raises(ValueError):
        G.new_game(seats(3), 5, {"special_chefs": "trio+trio"})
    option = next(o for o in G.options if o["id"] == "special_chefs")
    assert option["default"] == "random" and "star_gazer+trio" in option["choices"]
