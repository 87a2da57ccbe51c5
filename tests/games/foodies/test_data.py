"""The component data loads and matches the spec's counts; a broken file is refused."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from app.games.foodies import data
from app.games.foodies.effects import EFFECTS

# The shared spec folder is checked out beside the project (`../shared`), not inside it; a clean clone elsewhere,
# CI's among them, may not have it, so the comparison is skipped there with the path it looked for.
PROJECT = Path(__file__).resolve().parents[3]
SHARED = PROJECT.parent / "shared" / "rules" / "data" / "foodies"


def test_totals() -> None:
    assert len(data.STALLS) == 100 and len(data.CULTURES) == 10
    assert sum(s.coins for s in data.STALLS.values()) == 120
    assert sum(s.popularity for s in data.STALLS.values()) == 40
    assert sum(1 for s in data.STALLS.values() if s.effect) == 50
    assert data.SLOT_PRICES == [7, 6, 5, 4, 3]
    assert data.FLYERS_BY_SEAT == [1, 2, 2, 3, 3]
    assert data.THRESHOLDS == {2: 20, 3: 20, 4: 30, 5: 30}
    assert [s.number for s in data.SPACES.values() if s.corner] == [1, 3, 7, 9]
    assert {c["effect"] for c in data.CULTURES.values()} == set(EFFECTS)
    assert set(data.SPECIAL_CHEFS) == {"specialist", "globetrotter", "star_gazer", "crossroads", "trio"}


def test_broken_data_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    card = data.STALLS["AME07"]
    monkeypatch.setitem(data.STALLS, "AME07", dataclasses.replace(card, coins=card.coins + 1))
    with pytest.raises(data.DataError):
        data._check()


@pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"no shared spec beside the project: {SHARED} is missing, nothing to compare against"
)
def test_package_data_equals_the_spec_data() -> None:
    package = Path(data.__file__).parent / "data"
    spec_files = sorted(SHARED.glob("*.json"))
    assert spec_files, f"{SHARED} holds no JSON files"
    for path in spec_files:
        assert json.loads((package / path.name).read_text()) == json.loads(path.read_text()), path.name
