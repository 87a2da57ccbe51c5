"""A player's food court: the 3x3 grid of spaces, its stalls, and the full stars they form."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from app.games.foodies.data import OPPOSITE, SPACES, STALLS, Stall

Court = Sequence[str | None]  # index space-1 -> card id or None
POPULARITY_SOURCES = ("tokens", "stalls", "effects", "stars", "chef_for_hire", "special_chefs")


def stall_at(court: Court, space: int) -> Stall | None:
    """The stall on `space`, or None if it was never built."""
    card = court[space - 1]
    return STALLS[card] if card is not None else None


def star_edges(court: Court, space: int) -> list[str]:
    """The edges of the stall on `space` where its half-star meets a neighbour's: its full stars."""
    stall = stall_at(court, space)
    if stall is None:
        return []
    edges = []
    for edge, other in SPACES[space].neighbours.items():
        if other is None or not stall.has_half_star(edge):
            continue
        neighbour = stall_at(court, other)
        if neighbour is not None and neighbour.has_half_star(OPPOSITE[edge]):
            edges.append(edge)
    return edges


def stars_of(court: Court, space: int) -> int:
    """How many full stars the stall on `space` is part of (0-4)."""
    return len(star_edges(court, space))


def full_stars(court: Court) -> int:
    """The court's full stars, each matched pair counted once."""
    return sum(stars_of(court, s) for s in SPACES) // 2


def culture_counts(court: Court) -> Counter[str]:
    """Number of stalls of each culture in the court."""
    return Counter(STALLS[c].culture for c in court if c is not None)


def adjacent_stalls(court: Court, space: int) -> list[Stall]:
    """The stalls orthogonally adjacent to `space`."""
    found = (stall_at(court, n) for n in SPACES[space].adjacent())
    return [s for s in found if s is not None]


def new_court_player(coins: int, popularity: int, flyers: int) -> dict[str, Any]:
    """A player's area at setup: an empty court with the printed setup tokens."""
    return {
        "coins": coins,
        "popularity": popularity,
        "flyers": flyers,
        "court": [None] * len(SPACES),
        "popularity_tokens": [SPACES[s].setup_popularity_tokens for s in sorted(SPACES)],
        "coin_tokens": [0] * len(SPACES),
        "chefs": [],
        # popularity by where it came from: the final scoring breakdown
        "earned": {source: 0 for source in POPULARITY_SOURCES},
    }
