"""Ratings cannot be farmed: a fresh account's games do not count, and the same pair's games count less and less."""

from __future__ import annotations

from pathlib import Path

from app.services import glicko2
from tests.api.test_profiles import _tiny
from tests.api.test_ratings import rated_table
from tests.conftest import Database, Server
from tests.hardening.helpers import accounts, close_all


def test_a_pairs_repeats_weigh_less_and_then_nothing() -> None:
    assert [glicko2.repeat_weight(n) for n in range(5)] == [1.0, 0.5, 1 / 3, 0.0, 0.0]
    start = {seat: glicko2.Rating() for seat in "012"}
    full = glicko2.game(start, {"0": 1, "1": 2, "2": 3})
    weights = {frozenset(("0", "1")): 0.5, frozenset(("0", "2")): 1.0, frozenset(("1", "2")): 0.0}
    weighed = glicko2.game(start, {"0": 1, "1": 2, "2": 3}, weights=weights)
    assert 1500 < weighed["0"].rating < full["0"].rating  # its win over "1" counted half
    # "1" lost only to "0", at half a game; "2" lost to "0" at a whole one.
    assert weighed["2"].rating < weighed["1"].rating < 1500


def test_a_farm_of_fresh_accounts_feeds_a_settled_rating_little() -> None:
    """A win over a brand-new account moves a settled 1500 ± 60 by about two thirds of a win over a settled equal
    (Glicko-2's g of the opponent's deviation), and ten of them by less than ten such wins."""
    me = glicko2.Rating(1500, 60)
    over_fresh = glicko2.game({"me": me, "fresh": glicko2.Rating()}, {"me": 1, "fresh": 2})["me"].rating - 1500
    over_peer = glicko2.game({"me": me, "peer": glicko2.Rating(1500, 60)}, {"me": 1, "peer": 2})["me"].rating - 1500
    assert 0 < over_fresh < 0.7 * over_peer
    farmed = settled = me
    for _ in range(10):
        farmed = glicko2.game({"me": farmed, "fresh": glicko2.Rating()}, {"me": 1, "fresh": 2})["me"]
        settled = glicko2.game({"me": settled, "peer": glicko2.Rating(1500, 60)}, {"me": 1, "peer": 2})["me"]
    assert farmed.rating < settled.rating


async def test_fresh_accounts_are_not_rated_until_established_and_repeats_fade(
    fresh_db: Database, tmp_path: Path
) -> None:
    server = Server(fresh_db, tmp_path, real_limits=True, RATED_MIN_GAMES="1", RATED_MIN_AGE_DAYS="3").start()
    try:
        ana, ben = await accounts(server, "Ana", "Ben")
        # Their first game: neither account has played one yet, nor is three days old.
        first = await rated_table(server, (await _tiny(ana, ben, (3, 0), server))["id"])
        assert first["rated"] is False and first["ratings"] is None
        # Established now (one finished game each): their games count, less each time they meet again.
        changes = []
        for _ in range(4):
            table = await rated_table(server, (await _tiny(ana, ben, (3, 0), server))["id"])
            assert table["rated"] is True
            changes.append(table["ratings"]["0"]["change"])
        assert 0 < changes[2] < changes[1] < changes[0] and changes[3] == 0
        await close_all(ana, ben)
    finally:
        server.stop()
