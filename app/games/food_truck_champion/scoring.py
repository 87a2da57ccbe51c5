"""Final scoring: popularity tokens, flavor-profile sets in Awards, own-logo tickets, and the tie-breakers."""

from __future__ import annotations

from collections import Counter

from app.games.base import Outcome, rank_by
from app.games.food_truck_champion.data import LOGO_POINTS, SET_POINTS, TICKETS, TRUCKS
from app.games.food_truck_champion.zones import icons_of
from app.games.toolkit import JSON


def profile_sets(awards: list[str], profile: list[str]) -> int:
    """Complete flavor-profile sets among the pooled icons of all Award tickets (multisets)."""
    pool = Counter(icon for ticket in awards for icon in icons_of(ticket))
    wanted = Counter(profile)
    return min(pool[x] // k for x, k in wanted.items())


def score_board(board: JSON) -> JSON:
    """The scoring breakdown of one truck."""
    truck = board["truck"]
    tickets = board["completed"] + board["awards"]
    logos = sum(1 for t in tickets if TICKETS[t]["logo"] == truck)
    sets = profile_sets(board["awards"], TRUCKS[truck]["flavor_profile"])
    token_points = sum(board["tokens"])
    return {
        "truck": truck,
        "tokens": sorted(board["tokens"], reverse=True),
        "token_points": token_points,
        "token_count": len(board["tokens"]),
        "profile_sets": sets,
        "set_points": SET_POINTS * sets,
        "logo_count": logos,
        "logo_points": LOGO_POINTS * logos,
        "total": token_points + SET_POINTS * sets + LOGO_POINTS * logos,
    }


def final_outcome(state: JSON) -> Outcome:
    """Scores and ranking: total, then own-logo tickets, then number of tokens; still tied share the place."""
    seats = state["players"]
    details = {seat: score_board(state["boards"][seat]) for seat in seats}
    keys = {s: (d["total"], d["logo_count"], d["token_count"]) for s, d in details.items()}
    ranking = rank_by(keys, seats)
    return {
        "scores": {s: d["total"] for s, d in details.items()},
        "ranking": ranking,
        "winners": list(ranking[0]),
        "details": details,
    }
