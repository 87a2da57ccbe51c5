"""The ten culture effects (spec 3.5); each works on its owner's own court and supply only."""

from __future__ import annotations

from collections.abc import Callable

from app.games.foodies.court import adjacent_stalls, culture_counts, stall_at, stars_of
from app.games.foodies.data import SPACES, Stall
from app.games.toolkit import JSON

# An effect reads the visited player's area (it may add tokens to it) and returns what it pays.
Effect = Callable[[JSON, int, Stall], JSON]

CARNIVAL_MIN_CULTURES = 3  # Brazilian: cultures needed for its popularity
STREET_FLYERS_CAP = 3  # Thai: most coins it pays


def _paid(coins: int = 0, popularity: int = 0, flyers: int = 0) -> JSON:
    return {"coins": coins, "popularity": popularity, "flyers": flyers}


def franchise(player: JSON, space: int, stall: Stall) -> JSON:
    """American: 1 coin per American stall in the court, this one included."""
    return _paid(coins=culture_counts(player["court"])[stall.culture])


def carnival(player: JSON, space: int, stall: Stall) -> JSON:
    """Brazilian: 1 popularity if the court holds stalls of at least 3 cultures."""
    mixed = len(culture_counts(player["court"])) >= CARNIVAL_MIN_CULTURES
    return _paid(popularity=1 if mixed else 0)


def banquet(player: JSON, space: int, stall: Stall) -> JSON:
    """Chinese: 1 coin per stall of any culture orthogonally adjacent."""
    return _paid(coins=len(adjacent_stalls(player["court"], space)))


def haute_cuisine(player: JSON, space: int, stall: Stall) -> JSON:
    """French: 1 extra popularity per full star of this stall."""
    return _paid(popularity=stars_of(player["court"], space))


def beer_garden(player: JSON, space: int, stall: Stall) -> JSON:
    """German: 1 flyer."""
    return _paid(flyers=1)


def spice_cluster(player: JSON, space: int, stall: Stall) -> JSON:
    """Indian: 1 popularity per Indian stall orthogonally adjacent."""
    same = [s for s in adjacent_stalls(player["court"], space) if s.culture == stall.culture]
    return _paid(popularity=len(same))


def family_table(player: JSON, space: int, stall: Stall) -> JSON:
    """Italian: a popularity token on each adjacent space that holds none."""
    placed = [n for n in SPACES[space].adjacent() if player["popularity_tokens"][n - 1] == 0]
    for n in placed:
        player["popularity_tokens"][n - 1] += 1
    return {**_paid(), "popularity_tokens_on": placed}


def zen_corner(player: JSON, space: int, stall: Stall) -> JSON:
    """Japanese: 1 popularity on a corner space, otherwise 1 coin."""
    return _paid(popularity=1) if SPACES[space].corner else _paid(coins=1)


def taco_cart(player: JSON, space: int, stall: Stall) -> JSON:
    """Mexican: a coin token on each adjacent space with no stall and no coin token."""
    placed = [n for n in SPACES[space].adjacent()
              if stall_at(player["court"], n) is None and player["coin_tokens"][n - 1] == 0]
    for n in placed:
        player["coin_tokens"][n - 1] += 1
    return {**_paid(), "coin_tokens_on": placed}


def street_flyers(player: JSON, space: int, stall: Stall) -> JSON:
    """Thai: 1 coin per flyer held now (after any spent on this visit), at most 3."""
    return _paid(coins=min(player["flyers"], STREET_FLYERS_CAP))


EFFECTS: dict[str, Effect] = {
    "franchise": franchise,
    "carnival": carnival,
    "banquet": banquet,
    "haute_cuisine": haute_cuisine,
    "beer_garden": beer_garden,
    "spice_cluster": spice_cluster,
    "family_table": family_table,
    "zen_corner": zen_corner,
    "taco_cart": taco_cart,
    "street_flyers": street_flyers,
}
