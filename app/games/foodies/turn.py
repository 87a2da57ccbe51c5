"""End of a turn, end of the game, and the final ranking (spec 5.4, 6)."""

from __future__ import annotations

from app.games.base import Outcome, rank_by
from app.games.foodies.court import full_stars
from app.games.toolkit import JSON


def end_turn(state: JSON, seat: str, events: list[JSON]) -> None:
    """Pass the turn clockwise, or end the game after the last seat once the end is triggered."""
    seats = state["seats"]
    events.append({"type": "turn_ended", "seat": seat, "visible_to": None})
    if state["end_triggered"] and seat == seats[-1]:
        state["phase"] = "over"
        out = final_outcome(state)
        events.append({"type": "game_over", "winners": out["winners"], "scores": out["scores"],
                       "visible_to": None})
        return
    nxt = seats[(seats.index(seat) + 1) % len(seats)]
    if nxt == seats[0]:
        state["round"] += 1
    state["active"] = nxt
    state["turn"] += 1
    state["phase"] = "roll"
    state["die"] = None
    state["visited"] = None
    state["hired_chef_this_turn"] = False


def place_of(ranking: list[list[str]], seat: str) -> int:
    """1 + the number of seats strictly ahead (tied seats share a place)."""
    ahead = 0
    for group in ranking:
        if seat in group:
            return ahead + 1
        ahead += len(group)
    raise ValueError(seat)


def final_outcome(state: JSON) -> Outcome:
    """Most popularity wins, then most coins; a remaining tie is shared."""
    seats = state["seats"]
    players = state["players"]
    keys = {s: (players[s]["popularity"], players[s]["coins"]) for s in seats}
    ranking = rank_by(keys, seats)
    details = {
        s: {
            "popularity": players[s]["popularity"],
            "coins": players[s]["coins"],
            "popularity_by_source": dict(players[s]["earned"]),
            "special_chefs": list(players[s]["chefs"]),
            "stalls": sum(1 for c in players[s]["court"] if c is not None),
            "full_stars": full_stars(players[s]["court"]),
            "flyers": players[s]["flyers"],
            "place": place_of(ranking, s),
        }
        for s in seats
    }
    return {
        "scores": {s: players[s]["popularity"] for s in seats},
        "ranking": ranking,
        "winners": list(ranking[0]),
        "details": details,
    }
