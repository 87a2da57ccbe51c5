"""Which steps are drafts (services/drafts.py), on the four real engines: during every game's simultaneous secret
choice (Food Chain Magnate's restructuring, Food Truck's prep, Foodies' flyers, Food Truck Champion's critiques), a
rival's and a spectator's view once the choice is made is the same whichever choice it was and whether it took one
step or many; every step before the one that completes it is a draft, which changes nobody else's view."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from app.games import GAMES
from app.games.base import Game
from app.services.drafts import reveals_nothing

JSON = dict[str, Any]


def _fcm(state: JSON, seat: str) -> bool:
    return state.get("phase") == "restructuring" and len(state["p"][seat]["hand"]) >= 2


def _ft(state: JSON, seat: str) -> bool:
    return state.get("phase") == "prep"


def _foodies(state: JSON, seat: str) -> bool:
    return state.get("phase") == "flyers"


def _ftc(state: JSON, seat: str) -> bool:
    return bool((state.get("round") or {}).get("critique"))


# game, players, whether its secret choice takes several steps, and when a seat is making it
SECRET_CHOICES: list[tuple[str, int, bool, Callable[[JSON, str], bool]]] = [
    ("food-chain-magnate", 2, True, _fcm),
    ("food-truck", 3, True, _ft),
    ("foodies", 3, False, _foodies),
    ("food-truck-champion", 3, False, _ftc),
]


def choices(game: Game, players: int, making: Callable[[JSON, str], bool], seed: int, wanted: int = 3,
            ) -> list[tuple[JSON, str]]:
    """States (with the seat making the choice) where a seat makes a secret choice while another still has to:
    its choice then reveals nothing yet. Found by random play from `seed`."""
    seats = [str(i) for i in range(players)]
    state, rng, found = game.new_game(seats, seed), random.Random(seed), []
    for _ in range(6000):
        if game.outcome(state) is not None or len(found) >= wanted:
            break
        awaiting = game.awaiting(state)
        deciding = [s for s in awaiting if making(state, s) and len(game.actions(state, s)) >= 2]
        if len(awaiting) >= 2 and deciding and (not found or found[-1][0] is not state):
            found.append((state, deciding[0]))
        seat = rng.choice(awaiting)
        state = game.apply(state, seat, rng.choice(game.actions(state, seat))).state
    return found


def make_choice(game: Game, players: int, state: JSON, seat: str, rng: random.Random) -> tuple[JSON, list[str]]:
    """The seat makes its choice by random legal steps; the state once it is made, and the draft steps' types."""
    seats = [str(i) for i in range(players)]
    drafts: list[str] = []
    for _ in range(300):
        awaiting = game.awaiting(state)
        action = rng.choice(game.actions(state, seat))
        applied = game.apply(state, seat, action)
        if not reveals_nothing(game, seats, awaiting, seat, state, applied):
            return applied.state, drafts
        drafts.append(action["type"])
        state = applied.state
    raise AssertionError("the choice was never made")


@pytest.mark.parametrize(("game_id", "players", "steps", "making"), SECRET_CHOICES, ids=[c[0] for c in SECRET_CHOICES])
def test_others_see_the_same_once_a_secret_choice_is_made_however_it_was_made(
    game_id: str, players: int, steps: bool, making: Callable[[JSON, str], bool]
) -> None:
    game = GAMES[game_id]
    seats = [str(i) for i in range(players)]
    tried = drafted = 0
    kinds: set[str] = set()
    for seed in range(1, 6):
        for state, seat in choices(game, players, making, seed):
            others: list[str | None] = [s for s in seats if s != seat] + [None]
            seen = set()
            lengths = set()
            for attempt in range(8):
                made, drafts = make_choice(game, players, state, seat, random.Random(attempt))
                seen.add(repr([game.view(made, viewer) for viewer in others]))
                lengths.add(len(drafts))
                kinds.update(drafts)
                drafted += len(drafts)
            assert len(seen) == 1, (game_id, seed, seat, lengths)
            tried += 1
    assert tried >= 5, tried
    if steps:
        # Made in several steps, all but the last of them drafts: the other views above were equal whatever their number.
        assert drafted > 0
    else:
        assert drafted == 0 and not kinds  # one step, which says "decided" to everyone
    if game_id == "food-chain-magnate":
        assert kinds == {"work", "take_back"}
    if game_id == "food-truck":
        assert kinds <= {"place", "take_back"} and "place" in kinds


def test_a_step_that_shows_anything_to_anyone_else_is_no_draft() -> None:
    """The rule's every condition, on Food Truck's prep: a stacked card is a draft; the last card of the hand is not
    (everyone learns the order is ready); a step whose events another seat may read is not; nor one marked not
    undoable."""
    game = GAMES["food-truck"]
    seats = ["0", "1", "2"]
    state, seat = choices(game, 3, _ft, 1, wanted=1)[0]
    awaiting = game.awaiting(state)
    place = next(a for a in game.actions(state, seat) if a["type"] == "place")
    applied = game.apply(state, seat, place)
    assert reveals_nothing(game, seats, awaiting, seat, state, applied)
    told = type(applied)(applied.state, [{**applied.events[0], "visible_to": None}], applied.undoable)
    assert not reveals_nothing(game, seats, awaiting, seat, state, told)
    assert not reveals_nothing(game, seats, awaiting, seat, state, type(applied)(applied.state, applied.events, False))
    assert not reveals_nothing(game, seats, awaiting, seat, state, type(applied)(applied.state, [], True))
    while len(state["seats"][seat]["hand"]) > 1:
        place = next(a for a in game.actions(state, seat) if a["type"] == "place")
        state = game.apply(state, seat, place).state
    last = next(a for a in game.actions(state, seat) if a["type"] == "place")
    assert not reveals_nothing(game, seats, game.awaiting(state), seat, state, game.apply(state, seat, last))
