"""A full Foodies state that a seat cannot tell from the real one: the deck's order is all it may not know."""

from __future__ import annotations

from collections import Counter

from app.games.foodies.data import CULTURE_CARDS
from app.games.rng import Rng
from app.games.toolkit import JSON, copy_json

# What a view adds to a player's area for drawing it; the state does not hold it.
DRAWN_ONLY = ("full_stars", "star_edges")


def unseen_cards(view: JSON) -> list[str]:
    """The stalls of the cultures in play that are in no market slot, court or the removed pile: the deck."""
    seen = Counter(c for c in view["market"] if c is not None)
    for player in view["players"].values():
        seen.update(c for c in player["court"] if c is not None)
    seen.update(view["removed"])
    unseen = []
    for code in view["cultures"]:
        for card in CULTURE_CARDS[code]:
            if seen[card]:
                seen[card] -= 1
            else:
                unseen.append(card)
    return unseen


def sample_state(view: JSON, seat: str, rng: Rng) -> JSON:
    """The view made a state again, with the deck dealt from the unseen stalls in a random order."""
    deck = unseen_cards(view)
    rng.shuffle(deck)
    del deck[view["deck_count"]:]
    players = {}
    for s, player in view["players"].items():
        players[s] = {k: copy_json(v) for k, v in player.items() if k not in DRAWN_ONLY}
    # Another seat's flyer choice is secret until all are in: guess it stays put.
    flyer_choices = {s: {"decided": c["decided"], "space": c.get("space") if s == seat else None}
                     for s, c in view["flyer_choices"].items()}
    return {
        "game": "foodies",
        "seats": list(view["seats"]),
        "threshold": view["threshold"],
        "cultures": list(view["cultures"]),
        "deck": deck,
        "market": list(view["market"]),
        "special_chefs": [dict(c) for c in view["special_chefs"]],
        "removed": list(view["removed"]),
        "players": players,
        "active": view["active"],
        "phase": view["phase"],
        "turn": view["turn"],
        "round": view["round"],
        "die": view["die"],
        "visited": view["visited"],
        "flyer_choices": flyer_choices,
        "last_visit": copy_json(view["last_visit"]),
        "hired_chef_this_turn": view["hired_chef_this_turn"],
        "end_triggered": view["end_triggered"],
        "rng": rng.below(1 << 62),
    }
