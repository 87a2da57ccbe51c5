"""Random legal play over many seeds and every player count: it ends, keeps every invariant, agrees with apply."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.base import IllegalAction
from app.games.foodies.data import CULTURE_CARDS, SLOT_PRICES
from app.games.toolkit import JSON
from tests.games.contract import (
    assert_json,
    assert_unlisted_refused,
    canonical,
    check_outcome,
    mutate_actions,
    play_random,
    replay,
    seats,
)
from tests.games.foodies.helpers import G

SEEDS = range(30)


def check_invariants(state: JSON) -> None:
    """Every card in exactly one place; no negative counts; popularity equals its sources."""
    in_play = Counter(c for code in state["cultures"] for c in CULTURE_CARDS[code])
    placed = Counter(state["deck"]) + Counter(c for c in state["market"] if c is not None)
    placed += Counter(state["removed"])
    for player in state["players"].values():
        placed += Counter(c for c in player["court"] if c is not None)
        assert player["coins"] >= 0 and player["flyers"] >= 0
        assert min(player["popularity_tokens"]) >= 0 and min(player["coin_tokens"]) >= 0
        assert player["popularity"] == sum(player["earned"].values())
    assert placed == in_play
    if state["deck"]:
        assert None not in state["market"]
    leader = max(p["popularity"] for p in state["players"].values())
    assert state["end_triggered"] == (leader >= state["threshold"])


def ledger(before: JSON, events: list[JSON]) -> dict[str, list[int]]:
    """The coins, popularity and flyers each seat should hold after these events."""
    books = {s: [p["coins"], p["popularity"], p["flyers"]] for s, p in before["players"].items()}
    for e in events:
        kind = e["type"]
        if kind == "collected":
            books[e["seat"]][0] += e["coins"]
            books[e["seat"]][1] += e["popularity"]
            books[e["seat"]][2] += e["flyers"]
            assert sum(p["coins"] for p in e["parts"]) == e["coins"]
        elif kind == "flyers_revealed":
            for seat, space in e["choices"].items():
                books[seat][2] -= space is not None
        elif kind == "bought":
            assert e["price"] == SLOT_PRICES[e["slot"] - 1]
            books[e["seat"]][0] -= e["price"]
        elif kind == "chef_hired":
            books[e["seat"]][0] -= e["cost"]
            books[e["seat"]][1] += e["popularity"]
        elif kind == "chef_claimed":
            books[e["seat"]][1] += e["popularity"]
    return books


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_play_ends_and_keeps_invariants(n: int) -> None:
    rnd = random.Random(n)
    for seed in SEEDS:
        players = seats(n)
        state = G.new_game(players, seed)
        check_invariants(state)
        steps = 0
        while G.outcome(state) is None:
            steps += 1
            assert steps < 3000
            waiting = G.awaiting(state)
            assert waiting
            seat = rnd.choice(waiting)
            legal = G.actions(state, seat)
            assert legal and len({canonical(a) for a in legal}) == len(legal)
            for other in players:
                if other not in waiting:
                    assert G.actions(state, other) == []
            if steps % 5 == 0:
                assert_unlisted_refused(G, state, seat, mutate_actions(legal, rnd))
            if steps % 17 == 0:
                for action in legal:  # everything listed applies
                    G.apply(state, seat, action)
            before = canonical(state)
            applied = G.apply(state, seat, rnd.choice(legal))
            assert canonical(state) == before, "apply mutated its input"
            assert_json(applied.state)
            for event in applied.events:
                assert "type" in event and "visible_to" in event
            books = ledger(state, applied.events)
            for s, p in applied.state["players"].items():
                assert [p["coins"], p["popularity"], p["flyers"]] == books[s], (s, applied.events)
                assert p["popularity"] >= state["players"][s]["popularity"]
            state = applied.state
            check_invariants(state)
        check_outcome(G, state, n)
        assert state["end_triggered"] and state["active"] == state["seats"][-1]
        assert state["turn"] == state["round"] * n  # everyone had the same number of turns


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_contract_random_games(n: int) -> None:
    for seed in range(100, 110):
        state, moves = play_random(G, n, seed, check_every=3, invariant=check_invariants)
        check_outcome(G, state, n)


@pytest.mark.parametrize("n", [2, 5])
def test_determinism(n: int) -> None:
    state, moves = play_random(G, n, 77)
    assert canonical(replay(G, n, 77, moves)) == canonical(state)
    assert canonical(G.new_game(seats(n), 5)) == canonical(G.new_game(seats(n), 5))
    assert canonical(G.new_game(seats(n), 5)) != canonical(G.new_game(seats(n), 6))


def test_bot_plays_whole_games_legally() -> None:
    for n in (2, 3, 4, 5):
        state = G.new_game(seats(n), n)
        steps = 0
        while G.outcome(state) is None:
            steps += 1
            assert steps < 3000
            seat = G.awaiting(state)[0]
            action = G.bot_action(G.view(state, seat), seat, steps)
            assert action in G.actions(state, seat)
            assert G.bot_action(G.view(state, seat), seat, steps) == action  # deterministic given the seed
            state = G.apply(state, seat, action).state
        check_outcome(G, state, n)


def test_apply_refuses_after_game_over() -> None:
    state, _ = play_random(G, 2, 3)
    with pytest.raises(IllegalAction) as exc:
        G.apply(state, state["seats"][0], {"type": "roll"})
    assert exc.value.code == "game_over"
