"""Ratings cannot be farmed: a fresh account's games do not count, and the same pair's games count less and less."""

from __future__ import annotations

from pathlib import Path

from app.services import elo
from tests.api.test_profiles import _tiny
from tests.api.test_ratings import rated_table
from tests.conftest import Database, Server
from tests.hardening.helpers import accounts, close_all


def test_a_pairs_repeats_weigh_less_and_then_nothing() -> None:
    assert [elo.repeat_weight(n) for n in range(5)] == [1.0, 0.5, 1 / 3, 0.0, 0.0]
    weights = {frozenset(("0", "1")): 0.5, frozenset(("0", "2")): 1.0, frozenset(("1", "2")): 0.0}
    raw = elo.raw_changes({"0": 1500, "1": 1500, "2": 1500}, {"0": 1, "1": 2, "2": 3}, weights=weights)
    assert abs(sum(raw.values())) < 1e-9  # still zero-sum
    assert raw["0"] == elo.K * (0.5 * 0.5 + 1.0 * 0.5) / 2


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
        assert changes[0] == 16 and 0 < changes[2] < changes[1] < changes[0] and changes[3] == 0
        await close_all(ana, ben)
    finally:
        server.stop()
