"""A placement is checked on its own squares, yet with the answers of the full listing of spots.

A move choosing a restaurant's square or entrance, a new house's squares or garden, or a campaign's footprint is
checked by the listing's own rules for that one spot, and a step asking only whether any spot exists stops at the
first. Here, on boards reached by seeded games: every listed spot is accepted and every other one refused, with
the listing's error code; and a seeded game's every answer (legal actions, states, events, views, and the
refusals of near-miss placements) hashes to what the engine answered when it listed every spot to check one.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import orjson
import pytest

from app.games.base import IllegalAction
from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.board import entrances_of, occupied_squares, restaurants_of
from app.games.food_chain_magnate.bot import normal
from app.games.food_chain_magnate.data import CAMPAIGNS
from app.games.food_chain_magnate.map_build import geometry
from app.games.food_chain_magnate.map_place import garden_sides
from app.games.food_chain_magnate.phases.working import houses, marketing, restaurants
from app.games.rng import Rng
from app.games.toolkit import JSON, copy_json, is_listed

SEATS = ["0", "1", "2"]
PLACING = {"new_restaurant", "move_restaurant", "new_house", "garden", "campaign", "restaurant_at",
           "restaurant_entrance", "campaign_at", "house_at", "garden_at"}
# Cards that lead to placements: chosen often, so that the games place houses, gardens and campaigns.
WANTED = {"local_manager", "regional_manager", "new_business_developer", "marketing_trainee", "campaign_manager",
          "management_trainee", "junior_vice_president"}
# sha256 of `answers(seed)` for seeds 1 and 2, from the engine that listed every spot to check one.
RECORDED = {
    1: "5f9fb2ea724d592b7b54512109f250e318404f775d64fd93286d8b0fdf84a551",
    2: "b496bf368436b78a568bff5a06b2be6e776b1eec79623a33a6793243ed9391ce",
}


def choose(state: JSON, seat: str, legal: list[JSON], rnd: random.Random) -> JSON:
    """Mostly a placement or a card that leads to one; else a random legal move or the bot's."""
    leading = [a for a in legal if a["type"] in PLACING
               or a.get("card") in WANTED and a["type"] in ("hire", "work", "train")]
    if leading and rnd.random() < 0.7:
        return rnd.choice(leading)
    if rnd.random() < 0.5:
        return rnd.choice(legal)
    return normal(state, seat, Rng(rnd.getrandbits(63)))


def near_misses(action: JSON) -> list[JSON]:
    """Placements beside the chosen one, and look-alikes a client could send (floats, extra keys, no squares)."""
    kind = action["type"]
    out: list[JSON] = [{"type": kind}, {**action, "extra": 1}]
    if kind == "restaurant_at":
        r, c = action["cell"]
        out += [{"type": kind, "cell": [r + dr, c + dc]} for dr, dc in ((0, 1), (1, 0), (-1, -1), (0, 40))]
        out += [{"type": kind, "cell": [float(r), c]}, {"type": kind, "cell": [r, c, 0]}, {"type": kind, "cell": r}]
    elif kind == "restaurant_entrance":
        r, c = action["entrance"]
        out += [{"type": kind, "entrance": [r + dr, c + dc]} for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        out += [{"type": kind, "entrance": [r, float(c)]}, {"type": kind, "entrance": [True, c]}]
    elif kind in ("house_at", "garden_at", "campaign_at") and ("cells" in action or "garden" in action):
        field = "cells" if "cells" in action else "garden"
        cells = action[field]
        out += [{"type": kind, field: [[x[0] + dr, x[1] + dc] for x in cells]} for dr, dc in ((0, 1), (1, 0))]
        out += [{"type": kind, field: cells[::-1]}, {"type": kind, field: cells[:-1]},
                {"type": kind, field: [[float(x[0]), x[1]] for x in cells]}]
    elif kind == "campaign_at":
        out += [{**action, "offset": action["offset"] + 1}, {**action, "offset": float(action["offset"])},
                {**action, "edge": "Q"}]
    return out


def refusal(state: JSON, seat: str, action: JSON) -> str:
    try:
        ENGINE.apply(state, seat, action)
    except IllegalAction as e:
        return e.code
    return "accepted"


def placing_turn(seed: int, moves: int = 90) -> JSON:
    """A seeded game's board after `moves` moves, made the houses step of seat "0"'s working turn, with a new
    business developer, a local manager and a regional manager at work."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(SEATS, seed)
    for _ in range(moves):
        seat = rnd.choice(ENGINE.awaiting(state))
        state = ENGINE.apply(state, seat, choose(state, seat, ENGINE.actions(state, seat), rnd)).state
    state = copy_json(state)
    state.update(phase="working", pending=None, secret={})
    p = state["p"]["0"]
    p["work"] += ["new_business_developer", "local_manager", "regional_manager"]
    p["r"]["used"] = {}
    state["work"] = {"index": state["turn_order"].index("0"), "seat": "0", "step": "houses"}
    return state


def answer(state: JSON, seat: str, action: JSON, legal: list[JSON], digest: Any) -> JSON:
    """Apply a move both ways, check the views, and feed every answer (and near misses' refusals) to `digest`."""
    applied = ENGINE.apply(state, seat, action)
    listed = ENGINE.apply_listed(state, seat, action)
    assert (listed.state, listed.events, listed.undoable) == (applied.state, applied.events, applied.undoable)
    viewers: list[str | None] = [*SEATS, None]
    views = [ENGINE.view(applied.state, v) for v in viewers]
    assert orjson.dumps(ENGINE.views(applied.state, viewers)) == orjson.dumps(views)
    misses = [refusal(state, seat, a) for a in near_misses(action)] if action["type"] in PLACING else []
    digest.update(orjson.dumps([legal, action, applied.state, applied.events, applied.undoable, views, misses],
                               option=orjson.OPT_SORT_KEYS))
    return applied.state


def answers(seed: int, steps: int = 240) -> str:
    """sha256 of every answer of the engine along one seeded game, then along a turn of placements."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(SEATS, seed)
    digest = hashlib.sha256()
    for _ in range(steps):
        if ENGINE.outcome(state) is not None:
            break
        seat = rnd.choice(ENGINE.awaiting(state))
        legal = ENGINE.actions(state, seat)
        state = answer(state, seat, choose(state, seat, legal, rnd), legal, digest)
    state = placing_turn(seed)
    for _ in range(30):
        if ENGINE.awaiting(state) != ["0"]:
            break
        legal = ENGINE.actions(state, "0")
        placing = [a for a in legal if a["type"] in PLACING]
        state = answer(state, "0", rnd.choice(placing) if placing else legal[-1], legal, digest)
    return digest.hexdigest()


@pytest.mark.parametrize("seed", sorted(RECORDED))
def test_a_seeded_game_answers_as_when_every_spot_was_listed(seed: int) -> None:
    assert answers(seed) == RECORDED[seed]


# ---------------------------------------------------------------- each check against its listing


def positions(seed: int, steps: int = 200, every: int = 25) -> list[tuple[JSON, str]]:
    """States along a seeded game, past the first restaurants, one every `every` moves, each with a seat (in
    turn)."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(SEATS, seed)
    out = []
    for i in range(steps):
        if ENGINE.outcome(state) is not None:
            break
        if i % every == 0 and state["restaurants"]:
            out.append((state, SEATS[len(out) % len(SEATS)]))
        seat = rnd.choice(ENGINE.awaiting(state))
        state = ENGINE.apply(state, seat, choose(state, seat, ENGINE.actions(state, seat), rnd)).state
    return out


def squares(state: JSON) -> list[tuple[int, int]]:
    g = geometry(state["map"])
    return [(r, c) for r in range(-1, g.rows + 1) for c in range(-1, g.cols + 1)]


def pending(state: JSON, **fields: Any) -> JSON:
    out = copy_json(state)
    out["pending"] = fields
    return out


def restaurant_purposes(state: JSON, seat: str) -> list[tuple[str, int | None]]:
    return ([("setup", None), ("local", None), ("regional", None)]
            + [("move", r["id"]) for r in restaurants_of(state, seat)])


@pytest.mark.parametrize("seed", [3, 4])
def test_restaurant_choices_are_those_of_the_listing(seed: int) -> None:
    for state, seat in positions(seed):
        for purpose in ("setup", "local", "regional"):
            assert restaurants.has_restaurant_spot(state, seat, purpose) == bool(
                restaurants.restaurant_spots(state, seat, purpose))
        for purpose, moving in restaurant_purposes(state, seat):
            spots = restaurants.restaurant_spots(state, seat, purpose, moving)
            fields: dict[str, Any] = {"kind": "restaurant", "purpose": purpose}
            if moving is not None:
                fields["restaurant"] = moving
            at = pending(state, **fields)
            anchors = sorted({tuple(s["cells"][0]) for s in spots})
            assert restaurants.spot_actions(at, seat) == [{"type": "restaurant_at", "cell": list(a)}
                                                          for a in anchors]
            for cell in squares(state):
                action = {"type": "restaurant_at", "cell": list(cell)}
                expected = [action] if cell in anchors else []
                assert restaurants.spot_candidates(at, seat, action) == expected
            for anchor in anchors[::5]:
                there = pending(state, **fields, cell=list(anchor))
                entrances = [s["entrance"] for s in spots if s["cells"][0] == list(anchor)]
                assert [a["entrance"] for a in restaurants.spot_actions(there, seat)] == entrances
                r, c = anchor
                for e in [[r + dr, c + dc] for dr in (-1, 0, 1, 2) for dc in (-1, 0, 1, 2)]:
                    action = {"type": "restaurant_entrance", "entrance": e}
                    expected = [action] if e in entrances else []
                    assert restaurants.spot_candidates(there, seat, action) == expected
                    if expected:
                        spot = restaurants.choose_spot(copy_json(there), seat, action, [])
                        assert spot == next(s for s in spots if s["cells"][0] == list(anchor)
                                            and s["entrance"] == e)
                    else:
                        with pytest.raises(IllegalAction, match="restaurant cannot go there"):
                            restaurants.choose_spot(copy_json(there), seat, action, [])


@pytest.mark.parametrize("seed", [3, 4])
def test_house_choices_are_those_of_the_listing(seed: int) -> None:
    for state, _ in positions(seed, every=10):
        taken = occupied_squares(state)
        spots = fcm_map.house_placements(state["map"], taken)
        assert spots == fcm_map.house_placements(state["map"], fcm_map.occupied_cells(
            state["map"], state["houses"], state["restaurants"], state["campaigns"]))
        assert fcm_map.has_house_placement(state["map"], taken) == bool(spots)
        at = pending(state, kind="house", number=99)
        cells = sorted({tuple(map(tuple, s["cells"])) for s in spots})
        assert houses.house_actions(at, "0") == [{"type": "house_at", "cells": [list(x) for x in c]} for c in cells]
        for r, c in squares(state):
            house = [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]]
            action = {"type": "house_at", "cells": house}
            listed = any(s["cells"] == house for s in spots)
            assert houses.house_candidates(at, "0", action) == ([action] if listed else [])
            if listed:
                there = pending(state, kind="house", number=99, cells=house)
                gardens = [s["garden"] for s in spots if s["cells"] == house]
                assert [a["garden"] for a in houses.house_actions(there, "0")] == gardens
                for side in garden_sides([(x[0], x[1]) for x in house]):
                    garden = sorted([list(x) for x in side])
                    action = {"type": "garden_at", "garden": garden}
                    expected = [action] if garden in gardens else []
                    assert houses.house_candidates(there, "0", action) == expected


@pytest.mark.parametrize("seed", [3, 4])
def test_campaign_footprints_are_those_of_the_listing(seed: int) -> None:
    sizes = sorted({tuple(t["size"]) for t in CAMPAIGNS.values() if t["type"] != "airplane"})
    for state, seat in positions(seed, every=40):
        taken = occupied_squares(state)
        g = geometry(state["map"])
        for rules in ({}, {"entrances": entrances_of(state, seat), "reach": 2},
                      {"entrances": entrances_of(state, seat), "reach": 0}):
            for size in sizes:
                listed = fcm_map.campaign_placements(state["map"], taken, list(size), **rules)
                assert fcm_map.has_campaign_placement(state["map"], taken, list(size), **rules) == bool(listed)
                for h, w in {size, size[::-1]}:
                    for r in range(-1, g.rows + 1):
                        for c in range(-1, g.cols + 1):
                            foot = [(r + dr, c + dc) for dr in range(h) for dc in range(w)]
                            ok = fcm_map.campaign_spot_ok(state["map"], taken, list(size), foot, **rules)
                            assert ok == ([list(x) for x in foot] in listed)
                            code = fcm_map.check_campaign(state["map"], taken, [list(x) for x in foot],
                                                          list(size), **rules)
                            assert ok == (code is None)


@pytest.mark.parametrize("seed", [3, 4])
def test_campaign_choices_are_those_of_the_listing(seed: int) -> None:
    for state, seat in positions(seed, every=20):
        for marketeer, number in [("marketing_trainee", n) for n in state["campaign_supply"]] + [
                ("campaign_manager", n) for n in state["campaign_supply"]]:
            at = pending(state, kind="campaign", marketeer=marketeer, number=number)
            spots = marketing._placements(at, seat, marketeer, number)
            legal = marketing.marketing_actions(at, seat)
            assert legal == [{"type": "campaign_at", **s} for s in spots]
            for action in legal[::3]:
                assert marketing.marketing_candidates(at, seat, action) == [action]
                for miss in near_misses(action):
                    found = marketing.marketing_candidates(at, seat, miss)
                    assert found == ([miss] if miss in legal else [])
                    assert is_listed(miss, found) == is_listed(miss, legal)
