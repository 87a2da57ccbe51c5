"""Working step 2, train (§6.3.2): trainers, coaches and gurus move beach cards along career paths."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.data import MILESTONES
from app.games.food_chain_magnate.employees import (
    ability,
    one_x,
    training_steps,
    training_targets,
    trains_into,
)
from app.games.food_chain_magnate.milestones import award, held_before_this_round, holds, supply_left
from app.games.food_chain_magnate.players import owns
from app.games.toolkit import JSON


def open_training_book(p: JSON) -> None:
    """List the training cards at work with their actions (trainer 1, coach 2, guru 3)."""
    trainers = []
    for card in p["work"]:
        ab = ability(card)
        if ab["kind"] == "train":
            trainers.append({"card": card, "left": ab["actions"], "max": ab["max_steps_same_card"]})
    p["r"]["trainers"] = trainers
    p["r"]["trained"] = []


def combines_training(state: JSON, seat: str) -> bool:
    """With `first_to_pay_20_salaries` (from an earlier round) any training actions combine on one card."""
    return held_before_this_round(state, seat, "first_to_pay_20_salaries")


def steps_for_one_card(state: JSON, seat: str, by: int, again: bool) -> int:
    """Training steps card `by` may give one card now: its own actions within its same-card limit,
    or every training action left when they may be combined (§6.3.2.5)."""
    trainers = state["p"][seat]["r"]["trainers"]
    left = int(trainers[by]["left"])
    if left <= 0:
        return 0
    if combines_training(state, seat):
        return sum(int(t["left"]) for t in trainers)
    return left if again else min(left, int(trainers[by]["max"]))


def spend_training(p: JSON, by: int, steps: int) -> None:
    """Use `steps` training actions, those of card `by` first, then (when combined) the others in order."""
    order = [by] + [i for i in range(len(p["r"]["trainers"])) if i != by]
    for i in order:
        trainer = p["r"]["trainers"][i]
        used = min(steps, int(trainer["left"]))
        trainer["left"] -= used
        steps -= used


def target_allowed(state: JSON, seat: str, target: str) -> bool:
    """The card trained into is in the supply, respects 1x, and is not a CFO forbidden by $100 (§6.3.2)."""
    p = state["p"][seat]
    if supply_left(state, target) <= 0:
        return False
    if one_x(target) and (owns(p, target) or any(ph["into"] == target for ph in state["phantoms"])):
        return False
    forbidden = MILESTONES["first_to_have_100"]["params"]["forbid_cards"]
    return not (target in forbidden and holds(state, seat, "first_to_have_100"))


def resolve_phantoms(state: JSON, seat: str, events: list[JSON]) -> None:
    """Carry out the earmarked training of phantom hires first (§6.3.1.3)."""
    p = state["p"][seat]
    for ph in state["phantoms"]:
        state["supply"][ph["into"]] -= 1
        p["beach"].append(ph["into"])
        p["r"]["trained"].append({"card": ph["into"], "by": ph["by"], "steps": ph["steps"]})
        events.append({"type": "trained", "player": seat, "from": ph["card"], "into": ph["into"],
                       "phantom": True, "visible_to": None})
        award(state, seat, "first_to_train", events)
    state["phantoms"] = []


def _untrained(p: JSON, card: str) -> int:
    return int(p["beach"].count(card)) - sum(1 for t in p["r"]["trained"] if t["card"] == card)


def train_actions(state: JSON, seat: str) -> list[JSON]:
    """Every legal training move now: fresh beach cards, or cards this trainer (or anyone, with $20 salaries) trained."""
    p = state["p"][seat]
    combine = combines_training(state, seat)
    out: list[JSON] = []
    for i, trainer in enumerate(p["r"]["trainers"]):
        if int(trainer["left"]) <= 0:
            continue
        fresh = sorted({c for c in p["beach"] if _untrained(p, c) > 0 and trains_into(c)})
        again = sorted({t["card"] for t in p["r"]["trained"]
                        if (combine or t["by"] == i) and trains_into(t["card"])})
        for flag, cards in ((False, fresh), (True, again)):
            for card in cards:
                for target in sorted(training_targets(card, steps_for_one_card(state, seat, i, flag))):
                    if target_allowed(state, seat, target):
                        out.append({"type": "train", "by": i, "card": card, "into": target, "again": flag})
    return out


def train(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Train one beach card one or more steps with one training card (or several, when combined)."""
    if action not in train_actions(state, seat):
        raise IllegalAction("cannot_train", "That training is not possible now.")
    p = state["p"][seat]
    card, target, by = action["card"], action["into"], action["by"]
    depth = training_steps(card, target)
    spend_training(p, by, depth)
    p["beach"].remove(card)
    p["beach"].append(target)
    state["supply"][card] += 1
    state["supply"][target] -= 1
    if action["again"]:
        combine = combines_training(state, seat)
        entry = next(t for t in p["r"]["trained"] if t["card"] == card and (combine or t["by"] == by))
        entry["card"] = target
        entry["steps"] += depth
    else:
        p["r"]["trained"].append({"card": target, "by": by, "steps": depth})
    events.append({"type": "trained", "player": seat, "from": card, "into": target, "phantom": False,
                   "visible_to": None})
    award(state, seat, "first_to_train", events)
