"""The browser test's plan (tests/e2e/fcm_plan.py) played straight against the engine and the server's bot.

The browser test meets one random map per run; here the same decisions meet many, in a fraction of a second each: the
plan sells at dinnertime by round 9 (and takes a card back out of its pyramid), unless it said before placing its
first restaurant that the map cannot promise a sale (the browser test deals a new table then).
"""

from __future__ import annotations

import random

import pytest

from app.games.food_chain_magnate import ENGINE
from app.games.toolkit import JSON
from app.services.bots import bot_seed, choose
from tests.e2e import fcm_plan

ANA, BOT = "0", "1"
# Maps that are hard for the plan in a simulation like this one (a plan can make no sale in eight rounds there, or
# crash the spot picker), and a dozen others.
SELLING = [4327814344144109995, 2877567095793551525, 1552318474570705370, 5777985758284456158, 9088709748252719106,
           2615638153012551647] + [random.Random(i).getrandbits(63) for i in range(12)]
HOPELESS = [
    125352464453800063,  # no house on the map
    1499107148569944249,  # the bot, first in turn order, can take the last billboard spot beside our houses
    560565821489603076,  # the same
]


def play(seed: int) -> tuple[int, int | None, JSON, JSON]:
    """The plan's prospects, the round of its first sale (None: none by round 9), the plan's notes and the state."""
    state = ENGINE.new_game([ANA, BOT], seed)
    plan: JSON = {}
    version, sold = 1, None
    while not (state["round"] >= 4 and state["phase"] == "restructuring" and sold is not None):
        if state["phase"] == "over" or state["round"] > 9:
            break
        acts = ENGINE.actions(state, ANA)
        # Both chains may be awaited at once (secret choices): take turns, as a person and the bot's delay would.
        if acts and (BOT not in ENGINE.awaiting(state) or version % 2):
            view = ENGINE.view(state, ANA)
            first = state["phase"] == "first_restaurants" and "prospects" not in plan
            if first and not fcm_plan.waits_for_rivals(view, acts, ANA):
                plan["prospects"] = fcm_plan.prospects(view, acts, ANA)
                if not plan["prospects"]:
                    break
            seat, action = ANA, fcm_plan.decide(view, acts, ANA, plan)
            assert action in acts, action
            if action["type"] == "take_back":
                plan["took_back"] = True
        else:
            seat = BOT
            action = choose(ENGINE, state, BOT, bot_seed(seed, version, BOT))
        applied = ENGINE.apply(state, seat, action)
        version += 1
        if sold is None and any(e["type"] == "sale" and e["player"] == ANA for e in applied.events):
            sold = state["round"]
        state = applied.state
    return plan.get("prospects", -1), sold, plan, state


@pytest.mark.parametrize("seed", SELLING)
def test_the_plan_sells_at_dinnertime(seed: int) -> None:
    prospects, sold, plan, state = play(seed)
    assert prospects > 0
    assert sold is not None, f"no sale by round 9 on the map of seed {seed}"
    assert state["round"] >= 4 and state["phase"] == "restructuring"
    assert plan.get("took_back")
    assert state["p"][ANA]["cash"] > 0


@pytest.mark.parametrize("seed", HOPELESS)
def test_the_plan_says_when_a_map_cannot_promise_a_sale(seed: int) -> None:
    prospects, sold, _, state = play(seed)
    assert prospects == 0 and state["phase"] == "first_restaurants"
