"""Glicko-2, pure: what one finished game does to its people's ratings (Mark Glickman, "Example of the Glicko-2
system", 2012; the step numbers below are the paper's).

A rating is a value, a deviation (how unsure the value is) and a volatility (how erratic the person's results are).
Everyone starts at 1500 ± 350. A game moves a rating by more the less sure it is, and by less the less sure the
opponent's is: a win over an unproven, high-deviation account counts for little, which is what makes a farm of fresh
accounts worthless. Each game is its own rating period, as on lichess: the rating changes right after it.

Several players: every pair of rated people is a game of two, decided by their places (the better place scores 1, a
tie ½ each), and each of a person's n − 1 pairs is weighed 1/(n − 1), so one game counts as much as one game of two,
whatever the number of players. A pair's weight is lowered further when the same two played often lately
(`repeat_weight`). A weight scales that pair's share of the paper's sums (steps 3 and 4), as a fraction of a game.

Time away makes a rating less sure: each whole day since a person's last rated game adds one period's volatility to
the deviation (step 6 for the periods they did not play), up to the start's 350.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

START = 1500.0  # everyone's rating in a game they have not been rated in
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
MIN_DEVIATION = 45.0  # a floor, so that a long-settled rating still moves
PROVISIONAL_DEVIATION = 110.0  # above this the rating is shown as provisional (lichess's threshold)
TAU = 0.5  # how much the volatility may change in one period; the paper suggests 0.3 to 1.2
SCALE = 173.7178  # the paper's conversion between the Glicko scale and Glicko-2's
EPSILON = 0.000001  # the convergence tolerance of step 5


@dataclass(frozen=True)
class Rating:
    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True)
class Result:
    """One game of two, seen from one side: the opponent's rating before it, the score (1, ½, 0) and its weight."""

    opponent: Rating
    score: float
    weight: float = 1.0


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on the paper's f."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle(player: Rating, periods: int) -> Rating:
    """The rating after `periods` periods without a game: as sure as before less a volatility's worth each."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    phi = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Rating(player.rating, min(START_DEVIATION, phi * SCALE), player.volatility)


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """The player's rating after one period with these games (steps 2 to 8)."""
    counted = [r for r in results if r.weight > 0]
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    if not counted:  # games that count for nothing (a pair's fourth game lately) leave the rating as it was
        return player
    terms = []
    for r in counted:
        mu_j = (r.opponent.rating - START) / SCALE
        phi_j = r.opponent.deviation / SCALE
        terms.append((r.weight, _g(phi_j), _expected(mu, mu_j, phi_j), r.score))
    v = 1.0 / sum(w * g * g * e * (1.0 - e) for w, g, e, _s in terms)  # step 3
    gain = sum(w * g * (s - e) for w, g, e, s in terms)
    delta = v * gain  # step 4
    sigma = _new_volatility(phi, player.volatility, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * gain
    deviation = min(START_DEVIATION, max(MIN_DEVIATION, new_phi * SCALE))  # step 8, within the floor and the start
    return Rating(START + SCALE * new_mu, deviation, sigma)


def game(
    ratings: Mapping[str, Rating],
    places: Mapping[str, int],
    weights: Mapping[frozenset[str], float] | None = None,
) -> dict[str, Rating]:
    """Everyone's rating after one game, from the ratings before it and the places (1 is best, equal places tie).

    `weights` scales a pair's game of two (1 when not given); {} for fewer than two people."""
    n = len(ratings)
    if n < 2:
        return {}
    out = {}
    for who, mine in ratings.items():
        results = []
        for other, theirs in ratings.items():
            if other == who:
                continue
            score = 1.0 if places[who] < places[other] else 0.5 if places[who] == places[other] else 0.0
            weight = 1.0 if weights is None else weights.get(frozenset((who, other)), 1.0)
            results.append(Result(theirs, score, weight / (n - 1)))
        out[who] = update(mine, results)
    return out


def repeat_weight(earlier: int, counted: int = 3) -> float:
    """How much a pair's game counts when they have had `earlier` rated games together lately: 1, ½, ⅓, then nothing
    from the (`counted` + 1)th on, so two accounts playing each other over and over cannot pump a rating."""
    return 0.0 if earlier >= counted else 1.0 / (1 + earlier)
