"""Setup: the truck boards, the deal, the market, the token stacks, the first player and the neutral owner."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.food_truck_champion.data import (
    CARD_IDS,
    GRAY_ICONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPENING_HAND,
    TOKEN_VALUES,
    TOKENS,
    TRUCK_IDS,
    TRUCKS,
    market_size,
    stack_shape,
)
from app.games.rng import Rng, seed_state
from app.games.toolkit import JSON


def new_board(truck: str) -> JSON:
    """A truck board at setup: Owner face-down on the board, Starting Order in the Plating Area."""
    return {
        "truck": truck,
        "hand": [],
        "owner": "board",
        "centre": None,
        "fridge": [],
        "hired_staff": [],
        "plating": [{"card": TRUCKS[truck]["starting_order"], "on": []}],
        "completed": [],
        "awards": [],
        "tokens": [],
        "gray": {section: 0 for section in GRAY_ICONS},
    }


def new_game(players: Sequence[str], seed: int) -> JSON:
    """Deal a new game for 2-5 seats: trucks, hands, market, token stacks, first player, neutral owner."""
    seats = [str(p) for p in players]
    n = len(seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS or len(set(seats)) != n:
        raise ValueError(f"Food Truck Champion needs {MIN_PLAYERS}-{MAX_PLAYERS} distinct seats")
    rng = Rng(seed_state(seed))
    trucks = list(TRUCK_IDS)
    rng.shuffle(trucks)
    first = rng.below(n)
    deck = list(CARD_IDS)
    rng.shuffle(deck)
    order = seats[first:] + seats[:first]
    boards = {seat: new_board(trucks[i]) for i, seat in enumerate(seats)}
    for seat in order:
        boards[seat]["hand"] = deck[:OPENING_HAND]
        del deck[:OPENING_HAND]
    size = market_size(n)
    market = [[card] for card in deck[:size]]
    del deck[:size]
    shape = stack_shape(n)
    neutral = None
    if n == 2:
        # Any unused Owner card serves as the neutral owner; it only marks the neutral seat.
        neutral = {"owner": TRUCKS[trucks[n + rng.below(len(trucks) - n)]]["owner_card"], "stack": [],
                   "centre": None}
    return {
        "game": "food-truck-champion",
        "players": seats,
        "order": order,
        "first_player": order[0],
        "active": 0,
        "turn": 1,
        "neutral": neutral,
        "rng": rng.state,
        "deck": deck,
        "discard": [],
        "removed": [],
        "market": market,
        "stacks": {v: list(shape) for v in TOKEN_VALUES},
        "box_tokens": {v: TOKENS["popularity_tokens"][v] - shape.count("P") for v in TOKEN_VALUES},
        "critiques_aside": 0,
        "pending_critiques": 0,
        "end_triggered": False,
        "phase": "turn",
        "round": None,
        "pending": None,
        "boards": boards,
    }
