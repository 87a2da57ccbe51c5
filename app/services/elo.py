"""Multiplayer Elo, pure: the rating changes of one finished game from the people's ratings and places.

Every pair of rated people is a game of two: the one placed better scores 1, a tie scores ½ each. A person's
change is K/(n−1) times the sum, over the n−1 others, of (score − expected score), so one game moves a rating
as far as one two-player game would, whatever the number of players.

K is the same for everyone (32), also in a person's first games: with one K per game the changes add up to zero,
so the pool of ratings neither inflates nor deflates. A larger "provisional" K for newcomers would break that
(a newcomer's loss would cost them more than it gives the others), which is why there is none.

The changes are whole points, rounded so that they still add up to exactly zero (largest remainders).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

START = 1500  # everyone's rating in a game they have not been rated in
K = 32


def expected(rating: float, other: float) -> float:
    """The score `rating` is expected to make against `other` (0 to 1; ½ between equals)."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / 400.0))


def raw_changes(
    ratings: Mapping[str, float],
    places: Mapping[str, int],
    k: float = K,
    weights: Mapping[frozenset[str], float] | None = None,
) -> dict[str, float]:
    """Each person's change before rounding; `places` ranks them (1 is best, equal places tie). `weights` scales a
    pair's game of two (1 when not given): both of the pair get the same scale, so the changes still add up to zero."""
    n = len(ratings)
    if n < 2:
        return {}
    out: dict[str, float] = {}
    for who, rating in ratings.items():
        total = 0.0
        for other, theirs in ratings.items():
            if other == who:
                continue
            mine, their_place = places[who], places[other]
            score = 1.0 if mine < their_place else 0.5 if mine == their_place else 0.0
            weight = 1.0 if weights is None else weights.get(frozenset((who, other)), 1.0)
            total += weight * (score - expected(rating, theirs))
        out[who] = k * total / (n - 1)
    return out


def round_zero_sum(raw: Mapping[str, float]) -> dict[str, int]:
    """Whole changes within one point of `raw` that add up to zero when `raw` does (largest remainders).

    Everyone is rounded down, then the points missing to make zero go to the largest remainders; a tie goes to
    the one listed first, so the same game always rounds the same way."""
    floors = {who: math.floor(x) for who, x in raw.items()}
    missing = -sum(floors.values())  # a whole number from 0 to n − 1, the raw changes adding up to zero
    by_remainder = sorted(raw, key=lambda who: -(raw[who] - floors[who]))
    for who in by_remainder[: max(0, missing)]:
        floors[who] += 1
    return floors


def changes(
    ratings: Mapping[str, int],
    places: Mapping[str, int],
    k: float = K,
    weights: Mapping[frozenset[str], float] | None = None,
) -> dict[str, int]:
    """The whole-point rating changes of one game, adding up to zero; {} for fewer than two people."""
    return round_zero_sum(raw_changes(ratings, places, k, weights))


def repeat_weight(earlier: int, counted: int = 3) -> float:
    """How much a pair's game counts when they have had `earlier` rated games together lately: 1, ½, ⅓, then nothing
    from the (`counted` + 1)th on, so two accounts playing each other over and over cannot pump a rating."""
    return 0.0 if earlier >= counted else 1.0 / (1 + earlier)
