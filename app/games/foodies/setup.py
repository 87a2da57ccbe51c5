"""Setting up a game of Foodies (spec section 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.foodies.court import new_court_player
from app.games.foodies.data import (
    CULTURE_CARDS,
    CULTURES_IN_PLAY,
    FLYERS_BY_SEAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SLOT_PRICES,
    SPECIAL_CHEFS,
    SPECIAL_CHEFS_IN_PLAY,
    STARTING_COINS,
    STARTING_POPULARITY,
    THRESHOLDS,
)
from app.games.rng import Rng, seed_state
from app.games.toolkit import JSON

FIRST_PLAYER_CHOICES = ["random", "listed"]
# "random", or the host's pick of two special chefs written "a+b"
SPECIAL_CHEF_CHOICES = ["random"] + [
    f"{a}+{b}" for i, a in enumerate(SPECIAL_CHEFS) for b in list(SPECIAL_CHEFS)[i + 1:]
]



def special_chef_choice_labels(names: Mapping[str, str], random_label: str) -> dict[str, str]:
    """Each special-chef choice in words: the random draw, or the host's pair "a+b" by the chefs' names."""
    return {c: random_label if c == "random" else " + ".join(names[i] for i in c.split("+")) for c in SPECIAL_CHEF_CHOICES}

def pick_first_seat(rng: Rng, players: Sequence[str], how: str) -> list[str]:
    """Turn order starting with the first player: a seeded draw, or the first seat listed."""
    first = rng.below(len(players)) if how == "random" else 0
    return list(players[first:]) + list(players[:first])


def draw_cultures(rng: Rng) -> list[str]:
    """Five of the ten cultures, in sorted order."""
    codes = sorted(CULTURE_CARDS)
    rng.shuffle(codes)
    return sorted(codes[:CULTURES_IN_PLAY])


def build_deck(rng: Rng, cultures: Sequence[str]) -> list[str]:
    """The shuffled stall deck of the cultures in play; index 0 is the top card."""
    deck = [card for code in cultures for card in CULTURE_CARDS[code]]
    rng.shuffle(deck)
    return deck


def draw_special_chefs(rng: Rng, choice: str) -> list[JSON]:
    """Two of the five special chefs, drawn at random or the host's pick; both unclaimed."""
    if choice == "random":
        ids = list(SPECIAL_CHEFS)
        rng.shuffle(ids)
        ids = ids[:SPECIAL_CHEFS_IN_PLAY]
    else:
        ids = choice.split("+")
    return [{"id": chef, "claimed_by": None} for chef in ids]


def new_game(players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
    """The state at the start of the game: seat 1 about to roll."""
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise ValueError(f"Foodies needs {MIN_PLAYERS}-{MAX_PLAYERS} distinct players")
    how = (options or {}).get("first_player", "random")
    if how not in FIRST_PLAYER_CHOICES:
        raise ValueError(f"unknown first_player option {how!r}")
    chef_choice = (options or {}).get("special_chefs", "random")
    if chef_choice not in SPECIAL_CHEF_CHOICES:
        raise ValueError(f"unknown special_chefs option {chef_choice!r}")
    rng = Rng(seed_state(seed))
    order = pick_first_seat(rng, players, how)
    cultures = draw_cultures(rng)
    deck = build_deck(rng, cultures)
    market: list[str | None] = [deck.pop(0) for _ in SLOT_PRICES]
    chefs = draw_special_chefs(rng, chef_choice)
    return {
        "game": "foodies",
        "seats": order,
        "threshold": THRESHOLDS[len(players)],
        "cultures": cultures,
        "deck": deck,
        "market": market,
        "special_chefs": chefs,
        "removed": [],
        "players": {
            seat: new_court_player(STARTING_COINS, STARTING_POPULARITY, FLYERS_BY_SEAT[i])
            for i, seat in enumerate(order)
        },
        "active": order[0],
        "phase": "roll",
        "turn": 1,
        "round": 1,
        "die": None,
        "visited": None,
        "flyer_choices": {},
        "last_visit": None,
        "hired_chef_this_turn": False,
        "end_triggered": False,
        "rng": rng.state,
    }
