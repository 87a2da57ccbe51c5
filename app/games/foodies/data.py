"""Component data of Foodies, loaded from the package's JSON files and checked against the spec."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"
EDGES = ("top", "right", "bottom", "left")
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}


class DataError(Exception):
    """The package's component data contradicts the spec's counts."""


@dataclass(frozen=True)
class Stall:
    """One Food Stall card."""

    id: str
    culture: str
    coins: int
    popularity: int
    effect: str | None
    half_stars: dict[str, int]

    def has_half_star(self, edge: str) -> bool:
        """Whether the card shows a half-star on `edge` (top/right/bottom/left)."""
        return bool(self.half_stars[edge])


@dataclass(frozen=True)
class Space:
    """One space of a Food Court Dashboard."""

    number: int
    corner: bool
    neighbours: dict[str, int | None]
    printed_coins: int
    setup_popularity_tokens: int

    def adjacent(self) -> list[int]:
        """Orthogonal neighbours in ascending order."""
        return sorted(n for n in self.neighbours.values() if n is not None)


@dataclass(frozen=True)
class SpecialChef:
    """A Special Chef card and the requirement the engine checks."""

    id: str
    label: str
    check: dict[str, Any]


def _load(name: str) -> Any:
    with open(_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise DataError(f"foodies data: {what}")


SETUP: dict[str, Any] = _load("setup.json")
_COMPONENTS = SETUP["components"]

STALLS: dict[str, Stall] = {
    row["id"]: Stall(row["id"], row["culture"], row["coins"], row["popularity"], row["effect"],
                     dict(row["half_stars"]))
    for row in _load("stalls.json")
}
CULTURES: dict[str, dict[str, Any]] = {row["code"]: row for row in _load("cultures.json")}
CULTURE_CARDS: dict[str, list[str]] = {code: list(row["cards"]) for code, row in CULTURES.items()}

_BOARD = _load("board.json")
SPACES: dict[int, Space] = {
    row["space"]: Space(row["space"], row["corner"], dict(row["neighbours"]), row["printed_coins"],
                        row["setup_popularity_tokens"])
    for row in _BOARD["spaces"]
}
SPACE_NUMBERS: list[int] = sorted(SPACES)

_MARKET = _load("market.json")
SLOT_PRICES: list[int] = [row["price"] for row in sorted(_MARKET["slots"], key=lambda r: r["slot"])]

_CHEFS = _load("chefs.json")
CHEF_FOR_HIRE: dict[str, Any] = _CHEFS["chef_for_hire"]
SPECIAL_CHEFS: dict[str, SpecialChef] = {
    row["id"]: SpecialChef(row["id"], row["label"], dict(row["check"])) for row in _CHEFS["special"]
}
SPECIAL_CHEFS_IN_PLAY: int = _CHEFS["special_chefs_in_play"]
SPECIAL_CHEF_POPULARITY: int = _CHEFS["special_chef_popularity"]

STARTING_COINS: int = SETUP["starting_coins"]
STARTING_POPULARITY: int = SETUP["starting_popularity"]
FLYERS_BY_SEAT: list[int] = list(SETUP["flyers_by_seat"])
CULTURES_IN_PLAY: int = SETUP["cultures_in_play"]
MIN_PLAYERS: int = SETUP["players"]["min"]
MAX_PLAYERS: int = SETUP["players"]["max"]
DIE_FACES: list[int] = list(_COMPONENTS["die_faces"])
THRESHOLDS: dict[int, int] = {int(k): v for k, v in SETUP["end_threshold_by_player_count"].items()}


def _check() -> None:
    """Assert the counts and totals the spec states (sections 2-4)."""
    _require(len(STALLS) == _COMPONENTS["food_stall_cards"] == 100, "100 stall cards")
    _require(len(CULTURES) == _COMPONENTS["culture_cards"] == 10, "10 cultures")
    effects = {code: row["effect"] for code, row in CULTURES.items()}
    _require(len(set(effects.values())) == 10, "one unique effect per culture")
    for code, cards in CULTURE_CARDS.items():
        mine = [STALLS[c] for c in cards]
        _require(len(mine) == SETUP["stalls_per_culture"] == 10, f"{code}: 10 stalls")
        _require(all(s.culture == code for s in mine), f"{code}: cards of that culture")
        _require(sum(s.coins for s in mine) == 12, f"{code}: 12 coins")
        _require(sum(s.popularity for s in mine) == 4, f"{code}: 4 popularity")
        _require([s.id for s in mine if s.effect] == CULTURES[code]["effect_cards"], f"{code}: effect cards")
        _require(all(s.effect in (None, effects[code]) for s in mine), f"{code}: effect key")
        for edge in EDGES:
            _require(sum(s.half_stars[edge] for s in mine) == 5, f"{code}: 5 half-stars on {edge}")
    _require(sum(s.coins for s in STALLS.values()) == 120, "120 coins on cards")
    _require(sum(s.popularity for s in STALLS.values()) == 40, "40 popularity on cards")
    _require(sum(v for s in STALLS.values() for v in s.half_stars.values()) == 200, "200 half-stars")
    _require(list(range(1, 10)) == SPACE_NUMBERS, "spaces 1-9")
    pairs = 0
    for space in SPACES.values():
        for edge, other in space.neighbours.items():
            if other is not None:
                _require(SPACES[other].neighbours[OPPOSITE[edge]] == space.number, "symmetric neighbours")
                pairs += 1
    _require(pairs == 24, "12 adjacent pairs")
    _require(SPACES[5].printed_coins == 2, "space 5 prints 2 coins")
    tokens = sum(s.setup_popularity_tokens for s in SPACES.values())
    _require(tokens * _COMPONENTS["food_court_dashboards"] == _COMPONENTS["popularity_tokens"] == 20,
             "4 setup tokens x 5 dashboards")
    _require(len(SLOT_PRICES) == SETUP["market_slots"] == 5, "5 market slots")
    _require(all(a > b for a, b in zip(SLOT_PRICES, SLOT_PRICES[1:], strict=False)), "prices fall left to right")
    _require(len(SPECIAL_CHEFS) == _COMPONENTS["special_chef_cards"] == 5, "5 special chefs")
    _require(SPECIAL_CHEFS_IN_PLAY == 2, "2 special chefs in play")
    _require(CHEF_FOR_HIRE["cost_coins"] == 4 and CHEF_FOR_HIRE["uses_per_turn"] == 1, "chef for hire")
    _require(len(FLYERS_BY_SEAT) == MAX_PLAYERS == 5 and MIN_PLAYERS == 2, "flyers for 5 seats")
    _require(sum(FLYERS_BY_SEAT) <= _COMPONENTS["flyer_tokens"], "flyers fit the supply")
    _require(set(THRESHOLDS) == set(range(MIN_PLAYERS, MAX_PLAYERS + 1)), "threshold per player count")
    _require(list(range(10)) == DIE_FACES, "die faces 0-9")


_check()
