"""Hidden information: the deck order, the generator and pending flyer choices never leak."""

from __future__ import annotations

import copy
import random

from tests.games.contract import assert_json, canonical, play_random, seats
from tests.games.foodies.helpers import G, blank_state, roll, set_player, step

VIEWERS = [None, "0", "1", "2"]


def test_deck_order_and_rng_are_hidden() -> None:
    for seed in range(10):
        state = G.new_game(seats(3), seed)
        other = copy.deepcopy(state)
        random.Random(seed).shuffle(other["deck"])
        other["rng"] = state["rng"] + 12345
        for viewer in VIEWERS:
            view = G.view(state, viewer)
            assert canonical(view) == canonical(G.view(other, viewer))
            assert "rng" not in view and "deck" not in view and view["deck_count"] == len(state["deck"])


def test_mid_game_views_hide_the_deck() -> None:
    rnd = random.Random(4)
    state = G.new_game(seats(3), 4)
    for _ in range(120):
        if G.outcome(state) is not None:
            break
        seat = rnd.choice(G.awaiting(state))
        state = G.apply(state, seat, rnd.choice(G.actions(state, seat))).state
        other = copy.deepcopy(state)
        other["deck"] = list(reversed(other["deck"]))
        other["rng"] = 1
        for viewer in VIEWERS:
            assert canonical(G.view(state, viewer)) == canonical(G.view(other, viewer))
        for card in G.view(state, None)["cards"]:
            assert card not in state["deck"]


def pending_flyers(choice: int | None) -> dict:
    state = blank_state(3)
    set_player(state, "0", flyers=1)
    set_player(state, "1", flyers=1)
    state = roll(state, 5).state
    action = {"type": "no_flyer"} if choice is None else {"type": "use_flyer", "space": choice}
    applied = G.apply(state, "0", action)
    assert applied.events[0]["visible_to"] == ["0"]
    return applied.state


def test_pending_flyer_choice_is_secret() -> None:
    a, b, c = pending_flyers(None), pending_flyers(2), pending_flyers(6)
    for viewer in (None, "1", "2"):
        assert canonical(G.view(a, viewer)) == canonical(G.view(b, viewer)) == canonical(G.view(c, viewer))
    assert G.view(a, None)["flyer_choices"] == {"0": {"decided": True}, "1": {"decided": False}}
    assert G.view(b, "0")["flyer_choices"]["0"] == {"decided": True, "space": 2}
    assert canonical(G.view(b, "0")) != canonical(G.view(c, "0"))


def test_revealed_after_all_decided() -> None:
    state = step(pending_flyers(6), "1", {"type": "no_flyer"})
    assert state["phase"] == "buy"
    assert state["last_visit"]["collections"]["0"] == {"space": 6, "by_flyer": True, "coins": 1,
                                                       "popularity": 0, "flyers": 0}
    assert G.view(state, None)["flyer_choices"] == {}


def test_public_facts_are_in_the_view() -> None:
    state, _ = play_random(G, 4, 9)
    view = G.view(state, "2")
    assert view["outcome"] == G.outcome(state)
    assert set(view["players"]) == set(seats(4))
    assert view["prices"] == [7, 6, 5, 4, 3]
    for player in view["players"].values():
        for card in player["court"]:
            assert card is None or card in view["cards"]
        assert len(player["star_edges"]) == 9
    assert_json(view)
