"""Employee cards: attributes, career paths and the company-structure rules (§2)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games.food_chain_magnate.data import EMPLOYEES, ONE_X_IN_PLAY

ENTRY_CARDS: list[str] = [i for i, e in EMPLOYEES.items() if e["entry"]]
MARKETEERS: list[str] = [i for i, e in EMPLOYEES.items() if e["ability"]["kind"] == "marketing"]
# The managers with the slots each offers: the structure rules ask of every card at work, many times a bot's move.
MANAGER_SLOTS: dict[str, int] = {i: int(e["slots"] or 0) for i, e in EMPLOYEES.items() if e["manager"]}


def card(card_id: str) -> dict[str, Any]:
    """The data row of an employee type."""
    return EMPLOYEES[card_id]


def is_manager(card_id: str) -> bool:
    """Black cards with slots for non-managers."""
    return card_id in MANAGER_SLOTS


def slots(card_id: str) -> int:
    """Slots a manager offers (0 for everyone else)."""
    return MANAGER_SLOTS.get(card_id, 0)


def salaried(card_id: str) -> bool:
    """Whether the card costs a salary at Payday."""
    return bool(EMPLOYEES[card_id]["salary"])


def one_x(card_id: str) -> bool:
    """Top positions: a player owns at most one copy."""
    return bool(EMPLOYEES[card_id]["one_x"])


def ability(card_id: str) -> dict[str, Any]:
    """The card's action description."""
    return dict(EMPLOYEES[card_id]["ability"])


def trains_into(card_id: str) -> list[str]:
    """One training step's options."""
    return list(EMPLOYEES[card_id]["trains_into"])


def training_targets(card_id: str, steps: int) -> dict[str, int]:
    """Every card reachable in 1..steps training steps, with the fewest steps needed."""
    out: dict[str, int] = {}
    frontier = [card_id]
    for depth in range(1, steps + 1):
        nxt: list[str] = []
        for c in frontier:
            for t in trains_into(c):
                if t not in out:
                    out[t] = depth
                    nxt.append(t)
        frontier = nxt
    return out


def training_steps(card_id: str, target: str) -> int:
    """Training steps from a card to one of the cards it can become."""
    return training_targets(card_id, len(EMPLOYEES))[target]


def initial_supply(n_players: int) -> dict[str, int]:
    """Open supply piles after the 1x reduction of §1.2."""
    supply: dict[str, int] = {}
    for cid, e in EMPLOYEES.items():
        if cid == "ceo":
            continue
        supply[cid] = ONE_X_IN_PLAY[n_players] if e["one_x"] else e["copies"]
    return supply


def structure_capacity(cards: Iterable[str], ceo_slots: int) -> tuple[bool, int]:
    """(feasible, open slots) of a set of cards put to work under a CEO with `ceo_slots` slots (§2.4)."""
    managers = others = 0
    capacity = ceo_slots  # each manager takes one of the CEO's slots and offers its own
    for c in cards:
        if c in MANAGER_SLOTS:
            managers += 1
            capacity += MANAGER_SLOTS[c] - 1
        else:
            others += 1
    if managers > ceo_slots or others > capacity:
        return False, 0
    return True, capacity - others


def cards_of_kind(*kinds: str) -> list[str]:
    """Card ids whose ability is one of `kinds` (CEO excluded)."""
    return [i for i, e in EMPLOYEES.items() if i != "ceo" and e["ability"]["kind"] in kinds]


def kind_at_work(work: Iterable[str], kind: str) -> list[str]:
    """The cards at work whose ability is `kind`."""
    return [c for c in work if EMPLOYEES[c]["ability"]["kind"] == kind]


def ability_actions(work: Iterable[str], kind: str) -> int:
    """Total actions of the cards at work with ability `kind` (recruit, recruit_or_discount, train)."""
    return sum(int(EMPLOYEES[c]["ability"].get("actions", 1)) for c in kind_at_work(work, kind))


def gives_drive_in(work: Iterable[str]) -> bool:
    """A local or regional manager at work gives every open restaurant a drive-in (§6.3)."""
    return any(EMPLOYEES[c]["ability"].get("drive_in") for c in work)
