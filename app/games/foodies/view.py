"""What each seat (or a spectator) may see of a Foodies state."""

from __future__ import annotations

from app.games.foodies.court import full_stars, star_edges
from app.games.foodies.data import CHEF_FOR_HIRE, SLOT_PRICES, SPACES, SPECIAL_CHEF_POPULARITY, STALLS
from app.games.toolkit import JSON, copy_json


def card_facts(card: str) -> JSON:
    """The printed facts of a stall card, for drawing it (texts live in the renderer)."""
    stall = STALLS[card]
    return {"culture": stall.culture, "coins": stall.coins, "popularity": stall.popularity,
            "effect": stall.effect, "half_stars": dict(stall.half_stars)}


def player_view(player: JSON) -> JSON:
    """A player's public area, with the full stars worked out for drawing."""
    court = player["court"]
    return {
        "coins": player["coins"],
        "popularity": player["popularity"],
        "flyers": player["flyers"],
        "court": list(court),
        "popularity_tokens": list(player["popularity_tokens"]),
        "coin_tokens": list(player["coin_tokens"]),
        "chefs": list(player["chefs"]),
        "earned": dict(player["earned"]),
        "full_stars": full_stars(court),
        "star_edges": [star_edges(court, s) for s in sorted(SPACES)],
    }


def flyer_choices_view(state: JSON, viewer: str | None) -> JSON:
    """Who has decided on a flyer; the choice itself only for its owner until all are in."""
    out = {}
    for seat, choice in state["flyer_choices"].items():
        entry = {"decided": choice["decided"]}
        if seat == viewer:
            entry["space"] = choice["space"]
        out[seat] = entry
    return out


def redact(state: JSON, viewer: str | None) -> JSON:
    """Everything public, plus the viewer's own pending flyer choice; never the deck order or rng."""
    from app.games.foodies.turn import final_outcome

    visible_cards = [c for c in state["market"] if c is not None]
    for player in state["players"].values():
        visible_cards += [c for c in player["court"] if c is not None]
    visible_cards += state["removed"]
    view: JSON = {
        "game": "foodies",
        "viewer": viewer,
        "seats": list(state["seats"]),
        "first_seat": state["seats"][0],
        "last_seat": state["seats"][-1],
        "threshold": state["threshold"],
        "cultures": list(state["cultures"]),
        "deck_count": len(state["deck"]),
        "market": list(state["market"]),
        "prices": list(SLOT_PRICES),
        "chef_for_hire": {"cost": CHEF_FOR_HIRE["cost_coins"], "popularity": CHEF_FOR_HIRE["popularity"]},
        "special_chefs": [dict(c) for c in state["special_chefs"]],
        "special_chef_popularity": SPECIAL_CHEF_POPULARITY,
        "removed": list(state["removed"]),
        "players": {seat: player_view(p) for seat, p in state["players"].items()},
        "active": state["active"],
        "phase": state["phase"],
        "turn": state["turn"],
        "round": state["round"],
        "die": state["die"],
        "visited": state["visited"],
        "flyer_choices": flyer_choices_view(state, viewer),
        "last_visit": copy_json(state["last_visit"]),
        "hired_chef_this_turn": state["hired_chef_this_turn"],
        "end_triggered": state["end_triggered"],
        "cards": {c: card_facts(c) for c in sorted(set(visible_cards))},
        "outcome": final_outcome(state) if state["phase"] == "over" else None,
    }
    return view
