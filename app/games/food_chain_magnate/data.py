"""Component data of Food Chain Magnate, loaded from the package's JSON files and checked against the spec."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> Any:
    with open(_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


_EMPLOYEES = _load("employees.json")
_MILESTONES = _load("milestones.json")
_CAMPAIGNS = _load("campaigns.json")
SETUP: dict[str, Any] = _load("setup.json")

EMPLOYEES: dict[str, dict[str, Any]] = {e["id"]: e for e in _EMPLOYEES["employees"]}
MILESTONES: dict[str, dict[str, Any]] = {m["id"]: m for m in _MILESTONES["milestones"]}
MILESTONE_ORDER: list[str] = [m["id"] for m in sorted(_MILESTONES["milestones"], key=lambda m: m["number"])]
CAMPAIGNS: dict[int, dict[str, Any]] = {c["number"]: c for c in _CAMPAIGNS["campaigns"]}
CAMPAIGN_TYPES: dict[str, dict[str, Any]] = _CAMPAIGNS["types"]

SALARY: int = _EMPLOYEES["salary_amount"]
ONE_X_IN_PLAY: dict[int, int] = {int(k): v for k, v in _EMPLOYEES["one_x_copies_in_play"].items()}
PLAYER_COUNTS: dict[int, dict[str, Any]] = {pc["players"]: pc for pc in SETUP["player_counts"]}
RESERVE_CARDS: dict[str, dict[str, Any]] = {r["id"]: r for r in SETUP["reserve_cards"]}
HOUSE_NUMBERS: list[int] = SETUP["components"]["house_tiles"]["numbers"]
GARDEN_TILES: int = SETUP["components"]["garden_tiles"]["count"]
RESTAURANTS_PER_PLAYER: int = SETUP["per_player"]["restaurants"]
FOODS: list[str] = SETUP["components"]["goods"]["food"]
DRINKS: list[str] = SETUP["components"]["goods"]["drinks"]
GOODS: list[str] = FOODS + DRINKS


def _check() -> None:
    """Assert the counts the spec states (§1, §2.2, §3, §4.1)."""
    cards = [e for e in EMPLOYEES.values() if e["id"] != "ceo"]
    assert len(EMPLOYEES) == 33, "32 employee types plus the CEO"
    assert sum(e["copies"] for e in cards) == _EMPLOYEES["total_cards"] == 222
    assert sum(1 for e in cards if e["one_x"]) == 10
    assert sorted(e["id"] for e in cards if e["entry"]) == sorted(
        ["waitress", "management_trainee", "pricing_manager", "recruiting_girl", "trainer",
         "marketing_trainee", "kitchen_trainee", "errand_boy"])
    for e in cards:
        assert e["entry"] != e["salary"], e["id"]
        for t in e["trains_into"]:
            assert t in EMPLOYEES, t
    assert len(MILESTONES) == 18 and sum(m["copies"] for m in MILESTONES.values()) == 84
    assert sorted(CAMPAIGNS) == list(range(1, 17))
    kinds = [CAMPAIGNS[n]["type"] for n in range(1, 17)]
    assert kinds == ["radio"] * 3 + ["airplane"] * 3 + ["mailbox"] * 4 + ["billboard"] * 6
    assert sorted(PLAYER_COUNTS) == [2, 3, 4, 5]
    assert len(HOUSE_NUMBERS) == 8 and GARDEN_TILES == 8
    assert sorted(r["amount"] for r in RESERVE_CARDS.values()) == [100, 200, 300]


_check()
