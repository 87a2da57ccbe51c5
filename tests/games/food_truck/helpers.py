"""Hand-made Food Truck states for tests, and the invariants every state keeps."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.games.base import IllegalAction
from app.games.food_truck import ENGINE
from app.games.food_truck.data import (
    ALL_CARDS,
    CARD_TYPE,
    DESSERT,
    STARTING_HAND,
    TRUCK_CARDS,
    VP_TARGET,
    in_card_order,
)
from app.games.toolkit import JSON

TRUCKS = list(TRUCK_CARDS)


def build(
    players: Sequence[str],
    *,
    turn: str,
    first: str | None = None,
    served: Mapping[str, Iterable[str]] | None = None,
    desserts: Mapping[str, Iterable[str]] | None = None,
    piles: Mapping[str, Sequence[str]] | None = None,
    supply: Sequence[str] = (),
    trucks: Mapping[str, str] | None = None,
    eliminated: Sequence[str] = (),
    vp: Mapping[str, int] | None = None,
    step: str = "reveal",
    round_no: int = 2,
) -> JSON:
    """A Service-phase state: the cards named are placed as given; every player's collection is then
    completed with unused starting cards (bottom of their draw pile) and the rest goes to the deck.

    `trucks` maps a seat to the effect of its unused face-up Truck card (e.g. "E4"); other seats have
    used theirs this round. `piles` lists draw piles top first."""
    served = served or {}
    desserts = desserts or {}
    piles = piles or {}
    trucks = trucks or {}
    named = [c for cards in served.values() for c in cards] + [c for cards in desserts.values() for c in cards]
    named += [c for cards in piles.values() for c in cards] + list(supply)
    assert len(named) == len(set(named)), "a card is named twice"
    unused = [c for c in ALL_CARDS if c not in set(named)]
    seats: dict[str, JSON] = {}
    for i, p in enumerate(players):
        own = list(served.get(p, [])) + list(desserts.get(p, [])) + list(piles.get(p, []))
        have = Counter(CARD_TYPE[c] for c in own)
        fill: list[str] = []
        for meal, count in STARTING_HAND.items():
            for _ in range(count - have[meal]):
                card = next(c for c in unused if CARD_TYPE[c] == meal)
                unused.remove(card)
                fill.append(card)
        truck = TRUCKS[i]
        effect = trucks.get(p)
        cards = TRUCK_CARDS[truck]
        current = f"{truck}-e{effect[1]}" if effect else cards[0]
        by_meal: dict[str, list[str]] = {}
        for card in served.get(p, []):
            by_meal.setdefault(CARD_TYPE[card], []).append(card)
        seats[p] = {
            "truck": truck,
            "collection": in_card_order(own + fill),
            "hand": [],
            "draw_pile": list(piles.get(p, [])) + fill,
            "ready": True,
            "served": by_meal,
            "desserts_served": list(desserts.get(p, [])),
            "pending": None,
            "eliminated": p in eliminated,
            "truck_pile": [c for c in cards if c != current],
            "truck_current": current if effect else None,
            "truck_used": not effect,
            "truck_discard": [] if effect else [current],
            "vp": (vp or {}).get(p, 0),
        }
    first = first or players[0]
    n = len(players)
    # Earlier rounds, one per VP already won, so that the VP bookkeeping adds up.
    history: list[JSON] = [{"round": 0, "winner": p, "eliminated": [], "card": None}
               for p in players for _ in range((vp or {}).get(p, 0))]
    for i, record in enumerate(history):
        record["round"] = i + 1
    round_no = max(round_no, len(history) + 1)
    state: JSON = {
        "game": "food-truck",
        "players": list(players),
        "options": {"first_player": "1", "trucks": "random"},
        "rng": 12345,
        "phase": "service",
        "round": round_no,
        "vp_target": VP_TARGET[n],
        "first_player": eliminated[0] if eliminated else first,
        "round_starter": first,
        "central_deck": [c for c in unused if CARD_TYPE[c] != DESSERT],
        "supply": list(supply),
        "box": [c for c in unused if CARD_TYPE[c] == DESSERT],
        "turn": turn,
        "step": step,
        "rearrange": None,
        "truck_chooser": None,
        "eliminated_this_round": len(eliminated),
        "elimination_order": list(eliminated),
        "winner": None,
        "rounds": history,
        "seats": seats,
    }
    check_invariants(state)
    return state


def reveal_pending(state: JSON) -> JSON:
    """Set the turn player's top card as revealed and open window B (as the engine does)."""
    p = state["turn"]
    state["seats"][p]["pending"] = state["seats"][p]["draw_pile"].pop(0)
    state["step"] = "decide"
    return state


def act(state: JSON, player: str, action: JSON) -> tuple[JSON, list[JSON]]:
    """Apply an action that must be legal; return the new state and its events."""
    assert action in ENGINE.actions(state, player), (action, ENGINE.actions(state, player))
    applied = ENGINE.apply(state, player, action)
    check_invariants(applied.state)
    return applied.state, applied.events


def refused(state: JSON, player: str, action: Any) -> str:
    """The IllegalAction code for an action that must be refused."""
    try:
        ENGINE.apply(state, player, action)
    except IllegalAction as exc:
        assert exc.message
        return exc.code
    raise AssertionError(f"{action} was not refused")


def types_of(events: list[JSON]) -> list[str]:
    """The event types, in order."""
    return [e["type"] for e in events]


def check_invariants(state: JSON) -> None:
    """Every card, Truck card and VP accounted for; the table is consistent."""
    players = state["players"]
    seats = state["seats"]
    everywhere = [c for p in players for c in seats[p]["collection"]]
    everywhere += state["central_deck"] + state["supply"] + state["box"]
    assert sorted(everywhere) == sorted(ALL_CARDS), "every Meal card exactly once"
    for p in players:
        me = seats[p]
        held = me["hand"] + me["draw_pile"] + me["desserts_served"]
        held += [c for cards in me["served"].values() for c in cards]
        if me["pending"]:
            held.append(me["pending"])
        if state["rearrange"] and state["turn"] == p:
            held += state["rearrange"]["todo"] + state["rearrange"]["done"]
        assert sorted(held) == sorted(me["collection"]), f"seat {p}: cards match the collection"
        assert me["collection"] == in_card_order(me["collection"])
        for meal, cards in me["served"].items():
            assert cards and all(CARD_TYPE[c] == meal for c in cards)
        assert all(CARD_TYPE[c] == DESSERT for c in me["desserts_served"])
        if me["truck"] is not None:
            trucks = me["truck_pile"] + me["truck_discard"] + ([me["truck_current"]] if me["truck_current"] else [])
            assert sorted(trucks) == sorted(TRUCK_CARDS[me["truck"]]), f"seat {p}: five Truck cards"
            if state["phase"] in ("prep", "service"):
                assert me["truck_used"] == (me["truck_current"] is None)
    # The winner's VP is counted before the round is recorded while they pick a supply card.
    picking = state["phase"] == "service" and state["step"] == "winner_pick"
    assert sum(seats[p]["vp"] for p in players) == len(state["rounds"]) + picking <= 9
    for meal in {CARD_TYPE[c] for c in ALL_CARDS} - {DESSERT}:
        assert sum(1 for p in players if seats[p]["served"].get(meal)) <= 2, "E5 shares with one player only"
    out = [p for p in players if seats[p]["eliminated"]]
    assert sorted(out) == sorted(state["elimination_order"]) and len(out) == state["eliminated_this_round"]
    if state["phase"] == "service":
        assert state["turn"] in players
        assert len(out) < len(players)


def check_legal_play_invariants(state: JSON) -> None:
    """check_invariants, plus what only legal play from a real setup guarantees."""
    check_invariants(state)
    n = len(state["players"])
    assert len(state["supply"]) <= n
    if state["phase"] == "service":
        # n supply cards per round and one compensation per elimination (spec §4.2 eliminate, step 3).
        assert len(state["supply"]) == n - state["eliminated_this_round"] + (state["step"] == "compensation")
