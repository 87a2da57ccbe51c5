"""Phase 3, Hire Chefs: the chef for hire and the special chefs' requirements (spec 3.3, 3.4, 5.3)."""

from __future__ import annotations

from collections.abc import Callable

from app.games.base import IllegalAction
from app.games.foodies.court import Court, culture_counts, full_stars
from app.games.foodies.data import CHEF_FOR_HIRE, SPECIAL_CHEF_POPULARITY, SPECIAL_CHEFS
from app.games.foodies.rewards import gain
from app.games.toolkit import JSON


def stalls_of_one_culture(court: Court, check: JSON) -> bool:
    """At least `min` stalls of one same culture."""
    return max(culture_counts(court).values(), default=0) >= check["min"]


def distinct_cultures(court: Court, check: JSON) -> bool:
    """Stalls of at least `min` different cultures."""
    return len(culture_counts(court)) >= check["min"]


def enough_full_stars(court: Court, check: JSON) -> bool:
    """At least `min` full stars, each matched pair counted once."""
    return full_stars(court) >= check["min"]


def spaces_filled(court: Court, check: JSON) -> bool:
    """A stall on every listed space."""
    return all(court[s - 1] is not None for s in check["spaces"])


def cultures_with_min_stalls(court: Court, check: JSON) -> bool:
    """At least `cultures` cultures each with `stalls_each` or more stalls."""
    counts = culture_counts(court)
    return sum(1 for n in counts.values() if n >= check["stalls_each"]) >= check["cultures"]


REQUIREMENTS: dict[str, Callable[[Court, JSON], bool]] = {
    "stalls_of_one_culture": stalls_of_one_culture,
    "distinct_cultures": distinct_cultures,
    "full_stars": enough_full_stars,
    "spaces_filled": spaces_filled,
    "cultures_with_min_stalls": cultures_with_min_stalls,
}


def meets_requirement(court: Court, chef: str) -> bool:
    """Whether the court meets the special chef's requirement now."""
    check = SPECIAL_CHEFS[chef].check
    return REQUIREMENTS[check["kind"]](court, check)


def can_hire_chef(state: JSON, seat: str) -> bool:
    """The chef for hire is free this turn and the seat has its cost."""
    return not state["hired_chef_this_turn"] and state["players"][seat]["coins"] >= CHEF_FOR_HIRE["cost_coins"]


def hire_chef(state: JSON, seat: str, events: list[JSON]) -> None:
    """Pay the chef for hire (once a turn) for popularity."""
    cost = CHEF_FOR_HIRE["cost_coins"]
    if state["hired_chef_this_turn"]:
        raise IllegalAction("already_hired", "The chef for hire works for you only once a turn.")
    if state["players"][seat]["coins"] < cost:
        raise IllegalAction("too_poor", f"The chef for hire costs {cost} coins.")
    state["players"][seat]["coins"] -= cost
    state["hired_chef_this_turn"] = True
    events.append({"type": "chef_hired", "seat": seat, "cost": cost,
                   "popularity": CHEF_FOR_HIRE["popularity"], "visible_to": None})
    gain(state, seat, events, popularity=CHEF_FOR_HIRE["popularity"], source="chef_for_hire")


def claimable_chefs(state: JSON, seat: str) -> list[str]:
    """Special chefs in play, still unclaimed, whose requirement the seat's court meets now."""
    court = state["players"][seat]["court"]
    return [c["id"] for c in state["special_chefs"]
            if c["claimed_by"] is None and meets_requirement(court, c["id"])]


def claim_chef(state: JSON, seat: str, chef: str, events: list[JSON]) -> None:
    """Claim a special chef: +3 popularity, and nobody else can have it."""
    entry = next((c for c in state["special_chefs"] if c["id"] == chef), None)
    if entry is None:
        raise IllegalAction("no_such_chef", "That special chef is not in this game.")
    if entry["claimed_by"] is not None:
        raise IllegalAction("chef_taken", "That special chef has already been hired.")
    if not meets_requirement(state["players"][seat]["court"], chef):
        raise IllegalAction("requirement_not_met",
                            f"Your food court does not meet the requirement: {SPECIAL_CHEFS[chef].label}.")
    entry["claimed_by"] = seat
    state["players"][seat]["chefs"].append(chef)
    events.append({"type": "chef_claimed", "seat": seat, "chef": chef, "popularity": SPECIAL_CHEF_POPULARITY,
                   "visible_to": None})
    gain(state, seat, events, popularity=SPECIAL_CHEF_POPULARITY, source="special_chefs")
