"""Hand-made states and a purposeful random chooser for the FCM engine tests."""

from __future__ import annotations

import random

from app.games.food_chain_magnate import ENGINE
from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.data import CAMPAIGNS, GARDEN_TILES, HOUSE_NUMBERS, SALARY
from app.games.food_chain_magnate.employees import initial_supply, salaried, structure_capacity
from app.games.food_chain_magnate.phases import payday
from app.games.food_chain_magnate.phases.payday import salary_due
from app.games.food_chain_magnate.players import owned_cards
from app.games.toolkit import JSON

MAP_ALPHA = [[("A", 0), ("I", 0)]]
MAP_BETA = [[("N", 0), ("S", 0), ("T", 0)]]
MAP_GAMMA = [[("Q", 0), ("C", 0)]]


def sq(*cells: tuple[int, int]) -> list[list[int]]:
    """Cells as JSON lists."""
    return [list(c) for c in cells]


def hand_made(n: int, layout: list[list[tuple[str, int]]] | None = None, *, bank: int = 500,
              milestones: list[str] | None = None) -> JSON:
    """A started game turned into a blank table: optional map, no restaurants, given bank and milestones."""
    state = ENGINE.new_game([str(i) for i in range(n)], 1)
    if layout is not None:
        state["map"] = fcm_map.map_from_layout(layout)
        state["houses"] = fcm_map.printed_houses(state["map"])
    state["turn_order"] = [str(i) for i in range(n)]
    state["prev_order"] = list(state["turn_order"])
    state["bank"] = bank
    state["money_total"] = bank
    state["round"] = 3
    state["phase"] = "working"
    state["setup"] = {"pass": 2, "queue": [], "passed": []}
    state["milestones_available"] = list(milestones or [])
    for i, s in enumerate(state["players"]):
        state["p"][s]["reserve"] = ["reserve_100", "reserve_200", "reserve_300"][i % 3]
    return state


def add_restaurant(state: JSON, seat: str, cells: list[list[int]], entrance: list[int], is_open: bool = True) -> None:
    """Put a restaurant on the hand-made map."""
    state["restaurants"].append({"id": len(state["restaurants"]), "owner": seat, "cells": cells,
                                 "entrance": entrance, "open": is_open})


def give(state: JSON, seat: str, where: str, *cards: str) -> None:
    """Move cards from the supply to a seat's work/beach/hand."""
    for c in cards:
        state["supply"][c] -= 1
        state["p"][seat][where].append(c)


def short_of_cash_at_payday() -> JSON:
    """Payday of a two-chain table where seat 0, with $4, a burger cook at work and a brand manager busy on an
    airplane, cannot pay its $10 of salaries."""
    state = hand_made(2, MAP_ALPHA, bank=300)
    add_restaurant(state, "0", sq((0, 5), (0, 6), (1, 5), (1, 6)), [1, 6])
    add_restaurant(state, "1", sq((0, 3), (0, 4), (1, 3), (1, 4)), [1, 3])
    give(state, "0", "work", "burger_cook")
    state["supply"]["brand_manager"] -= 1
    state["p"]["0"]["busy"] = [{"card": "brand_manager", "campaign": 5}]
    state["campaign_supply"].remove(5)
    state["campaigns"] = [{"number": 5, "type": "airplane", "owner": "0", "card": "brand_manager", "good": "burger",
                           "tokens": 2, "eternal": False, "edge": "W", "offset": 0, "covers": 3}]
    state["p"]["0"]["cash"] = 4
    state["money_total"] += 4
    payday.start_payday(state, [])
    return state


def invariant(state: JSON) -> None:
    """Money, cards, campaigns, houses and gardens are all accounted for; caps and 1x hold."""
    assert state["bank"] + sum(p["cash"] for p in state["p"].values()) == state["money_total"]
    n = len(state["players"])
    full = initial_supply(n)
    owned: dict[str, int] = {}
    for p in state["p"].values():
        for c in owned_cards(p):
            owned[c] = owned.get(c, 0) + 1
    for c, total in full.items():
        assert state["supply"][c] >= 0, c
        assert state["supply"][c] + owned.get(c, 0) == total, (c, state["supply"][c], owned.get(c, 0), total)
    in_play = {c for c in CAMPAIGNS if n not in CAMPAIGNS[c]["removed_at_player_counts"]}
    on_board = [c["number"] for c in state["campaigns"]]
    assert sorted(on_board + state["campaign_supply"]) == sorted(in_play)
    placed = [h["number"] for h in state["houses"] if h.get("placed")]
    assert sorted(placed + state["house_supply"]) == sorted(HOUSE_NUMBERS)
    gardens = sum(1 for h in state["houses"] if h.get("garden") and not h.get("placed"))
    assert gardens + state["garden_supply"] == GARDEN_TILES
    houses = {str(h["number"]): h for h in state["houses"]}
    for key, goods in state["demand"].items():
        assert 0 < len(goods) <= (5 if houses[key].get("garden") else 3)
    for s, p in state["p"].items():
        assert all(v >= 0 for v in p["stock"].values())
        cards = owned_cards(p)
        for c in set(cards):
            if ENGINE_ONE_X.get(c):
                assert cards.count(c) <= 1, (s, c)
        assert sum(1 for r in state["restaurants"] if r["owner"] == s) <= 3
        busy_numbers = {b["campaign"] for b in p["busy"]}
        assert busy_numbers <= set(on_board)


ENGINE_ONE_X = {c: True for c in initial_supply(5) if c in {
    "executive_vice_president", "hr_director", "guru", "brand_director", "burger_chef", "pizza_chef",
    "zeppelin_pilot", "luxuries_manager", "regional_manager", "cfo"}}


def purposeful(state: JSON, player: str, legal: list[JSON], rnd: random.Random) -> JSON:
    """Random but purposeful: feasible structures, no voluntary firing, mostly act rather than pass."""
    phase = state["phase"]
    if phase == "restructuring":
        chosen = state["secret"][player]["work"]
        backs = [a for a in legal if a["type"] == "take_back"]
        if backs and rnd.random() < 0.05:
            return rnd.choice(backs)
        fits = [a for a in legal if a["type"] == "work"
                and structure_capacity(chosen + [a["card"]], state["ceo_slots"])[0]]
        return rnd.choice(fits) if fits and rnd.random() < 0.95 else {"type": "submit"}
    if phase == "payday_firing":
        # keep salaries below half the cash, so money leaves the bank for good
        chosen = [f["card"] for f in state["secret"][player]["fire"]]
        due = salary_due(state, player) - SALARY * sum(1 for c in chosen if salaried(c))
        fire = [a for a in legal if a["type"] == "fire" and salaried(a["card"])]
        return rnd.choice(fire) if fire and due > state["p"][player]["cash"] // 2 else {"type": "submit"}
    if rnd.random() < 0.3 and {"type": "hire", "card": "waitress"} in legal:
        return {"type": "hire", "card": "waitress"}
    acting = [a for a in legal if a["type"] not in ("done", "pass")]
    if acting and rnd.random() < 0.9:
        return rnd.choice(acting)
    return rnd.choice(legal)
