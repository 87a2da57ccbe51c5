"""Property tests over many seeds and every player count: random play, invariants, actions/apply agreement,
determinism and hidden information."""

from __future__ import annotations

import copy
import random

import pytest

from app.games.base import IllegalAction
from app.games.food_truck import ENGINE
from app.games.food_truck.data import in_card_order
from tests.games.contract import (
    assert_unlisted_refused,
    canonical,
    check_outcome,
    mutate_actions,
    play_random,
    replay,
    seats,
)

from .helpers import check_legal_play_invariants

COUNTS = [2, 3, 4, 5]


@pytest.mark.parametrize("n", COUNTS)
def test_random_games_end_and_keep_invariants(n: int) -> None:
    for seed in range(20):
        options = {"trucks": "random"} if seed % 3 == 0 else None
        state, moves = play_random(ENGINE, n, seed, check_every=1, invariant=check_legal_play_invariants, options=options)
        check_outcome(ENGINE, state, n)
        out = ENGINE.outcome(state)
        assert out is not None
        winner = out["winners"][0]
        assert out["scores"][winner] == state["vp_target"]
        assert all(v < state["vp_target"] for p, v in out["scores"].items() if p != winner)
        assert sum(out["scores"].values()) == len(state["rounds"]) <= (state["vp_target"] - 1) * n + 1
        assert ENGINE.awaiting(state) == [] and all(ENGINE.actions(state, p) == [] for p in seats(n))


@pytest.mark.parametrize("n", COUNTS)
def test_actions_agree_with_apply(n: int) -> None:
    for seed in range(4):
        state = ENGINE.new_game(seats(n), 1000 + seed)
        rnd = random.Random(seed)
        step = 0
        while ENGINE.outcome(state) is None:
            awaited = ENGINE.awaiting(state)
            player = rnd.choice(awaited)
            legal = ENGINE.actions(state, player)
            if step % 3 == 0:
                before = canonical(state)
                for action in legal:
                    ENGINE.apply(state, player, action)
                assert canonical(state) == before
                candidates = mutate_actions(legal, rnd) + _variants(state)
                assert_unlisted_refused(ENGINE, state, player, candidates)
                for other in seats(n):
                    if other not in awaited:
                        assert ENGINE.actions(state, other) == []
                        with pytest.raises(IllegalAction) as exc:
                            ENGINE.apply(state, other, legal[0])
                        assert exc.value.code == "not_your_turn"
            state = ENGINE.apply(state, player, rnd.choice(legal)).state
            step += 1


def _variants(state: dict) -> list[dict]:
    """Well-formed actions of every kind, most of them illegal now."""
    out: list[dict] = [{"type": t} for t in ("reveal", "resolve", "take_back", "place", "take", "play_truck")]
    out += [{"type": "play_truck", "effect": f"E{k}"} for k in range(1, 6)]
    out += [{"type": "place", "card": "burger-01"}, {"type": "take", "card": "sushi-01"},
            {"type": "rearrange", "card": "pizza-01"}, {"type": "choose_truck", "truck": "rolling_grill"},
            {"type": "play_truck", "effect": "E2", "seat": state["players"][0], "meal": "burger"},
            {"type": "play_truck", "effect": "E3", "card": "tacos-01"}]
    return out


@pytest.mark.parametrize("n", COUNTS)
def test_determinism(n: int) -> None:
    a, moves = play_random(ENGINE, n, 77 + n)
    b, _ = play_random(ENGINE, n, 77 + n)
    assert canonical(a) == canonical(b)
    assert canonical(replay(ENGINE, n, 77 + n, moves)) == canonical(a)
    assert canonical(ENGINE.new_game(seats(n), 5)) == canonical(ENGINE.new_game(seats(n), 5))
    assert canonical(ENGINE.new_game(seats(n), 5)) != canonical(ENGINE.new_game(seats(n), 6))


def _perturb_hidden(state: dict, viewer: str | None, rnd: random.Random) -> dict:
    """The same state with everything `viewer` may not see changed."""
    s = copy.deepcopy(state)
    s["rng"] = (s["rng"] * 31 + 7) % (1 << 64)
    rnd.shuffle(s["central_deck"])
    s["central_deck"].reverse()
    for p in s["players"]:
        me = s["seats"][p]
        rnd.shuffle(me["truck_pile"])
        if p == viewer:
            continue
        if s["phase"] == "prep" and not me["ready"]:
            cards = me["hand"] + me["draw_pile"]
            rnd.shuffle(cards)
            cut = rnd.randrange(len(cards))
            me["draw_pile"], me["hand"] = cards[:cut], in_card_order(cards[cut:])
        else:
            rnd.shuffle(me["draw_pile"])
    work = s["rearrange"]
    if work is not None and s["turn"] != viewer:
        cards = work["todo"] + work["done"]
        rnd.shuffle(cards)
        cut = rnd.randrange(len(cards))
        work["done"], work["todo"] = cards[:cut], cards[cut:]
    return s


@pytest.mark.parametrize("n", COUNTS)
def test_hidden_information_is_indistinguishable(n: int) -> None:
    rnd = random.Random(n)
    for seed in range(3):
        state = ENGINE.new_game(seats(n), seed)
        checked = 0
        while ENGINE.outcome(state) is None:
            if rnd.random() < 0.15:
                for viewer in [None, *seats(n)]:
                    other = _perturb_hidden(state, viewer, rnd)
                    assert canonical(ENGINE.view(state, viewer)) == canonical(ENGINE.view(other, viewer))
                checked += 1
            player = rnd.choice(ENGINE.awaiting(state))
            state = ENGINE.apply(state, player, rnd.choice(ENGINE.actions(state, player))).state
        assert checked > 3


def test_views_leak_nothing_secret() -> None:
    rnd = random.Random(3)
    state = ENGINE.new_game(seats(3), 3)
    while ENGINE.outcome(state) is None:
        for viewer in [None, *seats(3)]:
            view = ENGINE.view(state, viewer)
            text = canonical(view)
            assert "rng" not in view and "central_deck" not in view and str(state["rng"]) not in text
            for p in seats(3):
                mine = ENGINE.view(state, viewer)["seats"][p]
                assert "truck_pile" not in mine
                if p != viewer:
                    assert mine["draw_pile"] is None and mine["hand"] is None
                    if state["phase"] == "prep":
                        assert mine["draw_pile_count"] is None
        player = rnd.choice(ENGINE.awaiting(state))
        applied = ENGINE.apply(state, player, rnd.choice(ENGINE.actions(state, player)))
        for ev in applied.events:
            if ev["type"] in ("card_stacked", "card_unstacked", "card_rearranged"):
                assert ev["visible_to"] == [player]
            if state["phase"] == "prep" and ev["visible_to"] is None:
                assert "card" not in ev or ev["type"] in ("truck_revealed", "revealed", "served", "dessert_served",
                                                          "eliminated", "compensation_taken", "last_card_taken",
                                                          "truck_discarded")
        state = applied.state
