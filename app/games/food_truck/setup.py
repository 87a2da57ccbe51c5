"""Setup (spec §3), the truck choice, and the Prep phase's Truck card flip (spec §4.1 step 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.food_truck.data import (
    ALL_CARDS,
    CARD_TYPE,
    DESSERT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STARTING_HAND,
    TRUCK_CARDS,
    TRUCK_NAMES,
    VP_TARGET,
    effect_of,
    in_card_order,
)
from app.games.food_truck.table import Events, event, seat_after
from app.games.rng import Rng, seed_state
from app.games.toolkit import JSON

FIRST_PLAYER_CHOICES = ["random", "1", "2", "3", "4", "5"]
TRUCK_CHOICES = ["choose", "random"]
DEFAULT_OPTIONS: dict[str, str] = {"first_player": "random", "trucks": "choose"}


def read_options(options: Mapping[str, Any] | None, n: int) -> dict[str, str]:
    """The lobby options with defaults filled in; raises ValueError on a bad value."""
    merged = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise ValueError(f"unknown option {key!r}")
        merged[key] = str(value)
    if merged["first_player"] not in FIRST_PLAYER_CHOICES:
        raise ValueError("first_player must be 'random' or a seat position 1-5")
    if merged["first_player"] != "random" and int(merged["first_player"]) > n:
        raise ValueError(f"first_player {merged['first_player']} but only {n} players")
    if merged["trucks"] not in TRUCK_CHOICES:
        raise ValueError("trucks must be 'choose' or 'random'")
    return merged


def _empty_seat() -> JSON:
    return {
        "truck": None,
        "collection": [],
        "hand": [],
        "draw_pile": [],
        "ready": False,
        "served": {},
        "desserts_served": [],
        "pending": None,
        "eliminated": False,
        "truck_pile": [],
        "truck_current": None,
        "truck_used": False,
        "truck_discard": [],
        "vp": 0,
    }


def deal_starting_hands(players: Sequence[str]) -> tuple[dict[str, list[str]], list[str], list[str]]:
    """Each player's six starting cards, the Meal cards left for the deck, and Desserts back to the box."""
    remaining = list(ALL_CARDS)
    hands: dict[str, list[str]] = {p: [] for p in players}
    for p in players:
        for meal, count in STARTING_HAND.items():
            mine = [c for c in remaining if CARD_TYPE[c] == meal][:count]
            hands[p].extend(mine)
            remaining = [c for c in remaining if c not in mine]
    box = [c for c in remaining if CARD_TYPE[c] == DESSERT]
    deck = [c for c in remaining if CARD_TYPE[c] != DESSERT]
    return {p: in_card_order(h) for p, h in hands.items()}, deck, box


def new_game(players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
    """Spec §3: starting hands, shuffled Meal deck, supply of n cards, first player, trucks."""
    players = list(players)
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"Food Truck takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {n}")
    if len(set(players)) != n:
        raise ValueError("seat ids must be distinct")
    opts = read_options(options, n)
    rng = Rng(seed_state(seed))
    hands, deck, box = deal_starting_hands(players)
    rng.shuffle(deck)
    if opts["first_player"] == "random":
        first = players[rng.below(n)]
    else:
        first = players[int(opts["first_player"]) - 1]
    state: JSON = {
        "game": "food-truck",
        "players": players,
        "options": opts,
        "rng": rng.state,
        "phase": "trucks",
        "round": 0,
        "vp_target": VP_TARGET[n],
        "first_player": first,
        "round_starter": first,
        "central_deck": deck[n:],
        "supply": deck[:n],
        "box": box,
        "turn": None,
        "step": None,
        "rearrange": None,
        "truck_chooser": first,
        "eliminated_this_round": 0,
        "elimination_order": [],
        "winner": None,
        "rounds": [],
        "seats": {p: _empty_seat() for p in players},
    }
    for p in players:
        state["seats"][p]["collection"] = hands[p]
        state["seats"][p]["hand"] = list(hands[p])
    if opts["trucks"] == "random":
        trucks = list(TRUCK_CARDS)
        rng.shuffle(trucks)
        state["rng"] = rng.state
        for p, truck in zip(players, trucks, strict=False):
            take_truck(state, p, truck)
        start_round(state, [])
    return state


def take_truck(state: JSON, player: str, truck: str) -> None:
    """Give a player a truck and shuffle its five Truck cards into their face-down pile."""
    rng = Rng(state["rng"])
    pile = list(TRUCK_CARDS[truck])
    rng.shuffle(pile)
    state["rng"] = rng.state
    me = state["seats"][player]
    me["truck"] = truck
    me["truck_pile"] = pile


def choose_truck(state: JSON, player: str, truck: str, ev: Events) -> None:
    """A player picks their truck (in seat order from the first player); the last pick starts round 1."""
    take_truck(state, player, truck)
    ev.append(event("truck_chosen", seat=player, truck=truck, name=TRUCK_NAMES[truck]))
    nxt = seat_after(state, player)
    if state["seats"][nxt]["truck"] is None:
        state["truck_chooser"] = nxt
    else:
        state["truck_chooser"] = None
        start_round(state, ev)


def trucks_left(state: JSON) -> list[str]:
    """Trucks nobody has chosen yet, in data order."""
    taken = {state["seats"][p]["truck"] for p in state["players"]}
    return [t for t in TRUCK_CARDS if t not in taken]


def flip_truck_card(state: JSON, player: str, ev: Events) -> None:
    """Prep step 1: reshuffle an empty Truck pile from the discard, then turn up its top card."""
    me = state["seats"][player]
    if not me["truck_pile"]:
        rng = Rng(state["rng"])
        pile = list(me["truck_discard"])
        rng.shuffle(pile)
        state["rng"] = rng.state
        me["truck_pile"], me["truck_discard"] = pile, []
        ev.append(event("truck_reshuffled", seat=player, cards=len(pile)))
    card = me["truck_pile"].pop(0)
    me["truck_current"], me["truck_used"] = card, False
    ev.append(event("truck_revealed", seat=player, card=card, effect=effect_of(card)))


def start_round(state: JSON, ev: Events) -> None:
    """Begin a round: flip Truck cards, then every player orders their whole collection (Prep)."""
    state["round"] += 1
    state["phase"] = "prep"
    state["turn"], state["step"], state["rearrange"] = None, None, None
    state["round_starter"] = state["first_player"]
    state["eliminated_this_round"] = 0
    state["elimination_order"] = []
    ev.append(event("round_started", round=state["round"], first_player=state["first_player"]))
    for p in state["players"]:
        flip_truck_card(state, p, ev)
        me = state["seats"][p]
        me["hand"] = list(me["collection"])
        me["draw_pile"] = []
        me["ready"] = False
