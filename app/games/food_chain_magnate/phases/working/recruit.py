"""Working step 1, recruit (§6.3.1): hires from the supply, phantom hires of empty piles."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.employees import (
    ENTRY_CARDS,
    ability_actions,
    training_steps,
    training_targets,
)
from app.games.food_chain_magnate.milestones import award, supply_left
from app.games.food_chain_magnate.phases.working.train import (
    spend_training,
    steps_for_one_card,
    target_allowed,
)
from app.games.toolkit import JSON


def open_recruit_book(p: JSON) -> None:
    """Count recruiting capacity at the start of the player's turn."""
    p["r"]["girls"] = ability_actions(p["work"], "recruit")
    p["r"]["rm_cap"] = ability_actions(p["work"], "recruit_or_discount")


def recruit_actions_left(p: JSON) -> int:
    """Hires still possible: CEO 1, girls 1 each, recruiting managers 2, HR directors 4."""
    return 1 + int(p["r"]["girls"]) + int(p["r"]["rm_cap"]) - int(p["r"]["hires"])


def discount_actions(p: JSON, rm_cap: int) -> int:
    """Unused recruiting-manager/HR actions, hires counted against the CEO and girls first (§6.3.1.4)."""
    return max(0, rm_cap - max(0, int(p["r"]["hires"]) - (1 + int(p["r"]["girls"]))))


def recruit_actions(state: JSON, seat: str) -> list[JSON]:
    """Every legal hire now, phantom hires included."""
    p = state["p"][seat]
    if recruit_actions_left(p) <= 0:
        return []
    out: list[JSON] = []
    for card in ENTRY_CARDS:
        if supply_left(state, card) > 0:
            out.append({"type": "hire", "card": card})
        else:
            out.extend(phantom_options(state, seat, card))
    return out


def phantom_options(state: JSON, seat: str, card: str) -> list[JSON]:
    """Hire-and-train plans for an empty pile: a training card at work resolves it (R14), helped by the
    others when training actions combine (first_to_pay_20_salaries)."""
    out: list[JSON] = []
    for i in range(len(state["p"][seat]["r"]["trainers"])):
        steps = steps_for_one_card(state, seat, i, False)
        for target, _depth in sorted(training_targets(card, steps).items()):
            if target_allowed(state, seat, target):
                out.append({"type": "hire", "card": card, "train_by": i, "into": target})
    return out


def hire(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Take an entry card onto the beach, or record a phantom with its earmarked training."""
    p = state["p"][seat]
    if action not in recruit_actions(state, seat):
        raise IllegalAction("cannot_hire", "You cannot hire that card now.")
    card = action["card"]
    if "into" in action:
        depth = training_steps(card, action["into"])
        spend_training(p, action["train_by"], depth)
        state["phantoms"].append({"card": card, "by": action["train_by"], "into": action["into"],
                                  "steps": depth})
        events.append({"type": "hired", "player": seat, "card": card, "phantom": True,
                       "into": action["into"], "visible_to": None})
    else:
        state["supply"][card] -= 1
        p["beach"].append(card)
        events.append({"type": "hired", "player": seat, "card": card, "phantom": False, "visible_to": None})
    p["r"]["hires"] += 1
    if p["r"]["hires"] >= 3:
        award(state, seat, "first_to_hire_3", events)
