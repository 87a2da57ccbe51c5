"""Setting up a game (§1.3): supply, map, bank, players, turn order, first restaurants, reserves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.data import (
    CAMPAIGNS,
    GARDEN_TILES,
    HOUSE_NUMBERS,
    MILESTONE_ORDER,
    PLAYER_COUNTS,
    SETUP,
)
from app.games.food_chain_magnate.employees import initial_supply
from app.games.food_chain_magnate.players import new_player
from app.games.rng import Rng, seed_state
from app.games.toolkit import JSON


def new_game(players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
    """A fresh game waiting for the first restaurants, last player in turn order first."""
    n = len(players)
    if n not in PLAYER_COUNTS:
        raise ValueError(f"Food Chain Magnate takes 2-5 players, not {n}")
    intro = bool((options or {}).get("intro", False))
    table = PLAYER_COUNTS[n]
    rng = Rng(seed_state(seed))
    board, rng.state = fcm_map.build_map(table["map_rows"], table["map_cols"], rng.state)
    order = list(players)
    rng.shuffle(order)
    bank = table["intro_bank_start"] if intro else table["bank_start"]
    state: JSON = {
        "game": "food-chain-magnate",
        "players": list(players),
        "options": {"intro": intro},
        "rng": rng.state,
        "round": 0,
        "phase": "first_restaurants",
        "map": board,
        "houses": fcm_map.printed_houses(board),
        "bank": bank,
        "money_total": bank,
        "breaks": 0,
        "reserves_revealed": False,
        "ceo_slots": SETUP["initial_ceo_slots"],
        "ceo_slots_next": None,
        "turn_order": order,
        "prev_order": list(order),
        "supply": initial_supply(n),
        "campaign_supply": [c for c in sorted(CAMPAIGNS) if n not in CAMPAIGNS[c]["removed_at_player_counts"]],
        "house_supply": list(HOUSE_NUMBERS),
        "garden_supply": GARDEN_TILES,
        "milestones_available": [] if intro else list(MILESTONE_ORDER),
        "milestones_round": [],
        "restaurants": [],
        "campaigns": [],
        "demand": {},
        "p": {s: new_player() for s in players},
        "setup": {"pass": 1, "queue": list(reversed(order)), "passed": []},
        "pending": None,
        "phantoms": [],
        "work": None,
        "secret": {},
        "queue": [],
    }
    return state
