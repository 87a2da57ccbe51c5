"""Phase 5, payday (§6.5): secret firing, salaries with discounts, forced firing when short."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.bank import pay_in
from app.games.food_chain_magnate.data import MILESTONES, SALARY
from app.games.food_chain_magnate.employees import salaried
from app.games.food_chain_magnate.milestones import award, holds
from app.games.food_chain_magnate.phases.working.recruit import discount_actions
from app.games.food_chain_magnate.players import active_seats
from app.games.toolkit import JSON

FORBIDDEN_WITH_100 = MILESTONES["first_to_have_100"]["params"]["forbid_cards"]
EXEMPT_WITH_BILLBOARD = MILESTONES["first_billboard_placed"]["params"]["salary_exempt"]


def pays_salary(state: JSON, seat: str, card: str) -> bool:
    """Salaried, and not a marketeer exempted by the billboard milestone."""
    exempt = holds(state, seat, "first_billboard_placed") and card in EXEMPT_WITH_BILLBOARD
    return salaried(card) and not exempt


def salary_due(state: JSON, seat: str) -> int:
    """Gross salaries minus recruiting discounts and the training milestone, never below $0.

    The recruiting discounts are those available when Payday starts: the unused actions of the recruiting
    managers and HR directors at work this round, even if they are fired now (rulebook, "First to pay $20").
    """
    p = state["p"][seat]
    cards = p["work"] + p["beach"] + [b["card"] for b in p["busy"]]
    gross = SALARY * sum(1 for c in cards if pays_salary(state, seat, c))
    discount = SALARY * discount_actions(p, int(p["r"]["rm_cap"]))
    if holds(state, seat, "first_to_train"):
        discount += int(MILESTONES["first_to_train"]["params"]["salary_discount"])
    return max(0, gross - discount)


def start_payday(state: JSON, events: list[JSON]) -> None:
    """Open the secret firing decision for everyone with something to fire."""
    state["phase"] = "payday_firing"
    state["secret"] = {}
    for s in active_seats(state):
        p = state["p"][s]
        state["secret"][s] = {"fire": [], "done": not (p["work"] or p["beach"])}


def _fireable(state: JSON, seat: str) -> list[JSON]:
    p = state["p"][seat]
    chosen = state["secret"][seat]["fire"]
    out = []
    for where in ("work", "beach"):
        for c in sorted(set(p[where])):
            if p[where].count(c) > sum(1 for f in chosen if f == {"card": c, "from": where}):
                out.append({"type": "fire", "card": c, "from": where})
    return out


def firing_actions(state: JSON, seat: str) -> list[JSON]:
    """Fire one more card (secretly) or submit."""
    mine = state["secret"].get(seat)
    if not mine or mine["done"]:
        return []
    return _fireable(state, seat) + [{"type": "submit"}]


def apply_firing(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Record one secret firing step."""
    if action not in firing_actions(state, seat):
        raise IllegalAction("cannot_fire", "You cannot fire that card.")
    mine = state["secret"][seat]
    if action["type"] == "fire":
        mine["fire"].append({"card": action["card"], "from": action["from"]})
        events.append({"type": "fire_chosen", "player": seat, "card": action["card"], "visible_to": [seat]})
    else:
        mine["done"] = True
        events.append({"type": "firing_submitted", "player": seat, "visible_to": None})


def all_fired(state: JSON) -> bool:
    """Whether every seat has submitted its firing."""
    return all(v["done"] for v in state["secret"].values())


def _fire(state: JSON, seat: str, card: str, where: str, events: list[JSON], forced: bool,
          campaign: int | None = None) -> None:
    p = state["p"][seat]
    event: JSON = {"type": "fired", "player": seat, "card": card, "from": where, "forced": forced}
    if where == "busy":
        # The chain picks which campaign's marketeer goes: the others come home when their campaigns end.
        p["busy"].remove({"card": card, "campaign": campaign})
        event["campaign"] = campaign
    else:
        p[where].remove(card)
    state["supply"][card] += 1
    events.append({**event, "visible_to": None})


def resolve_firing(state: JSON, events: list[JSON]) -> None:
    """Reveal the firings, fire CFOs barred by the $100 milestone, and queue the chains short of cash."""
    for s in active_seats(state):
        for f in state["secret"].get(s, {"fire": []})["fire"]:
            _fire(state, s, f["card"], f["from"], events, False)
        p = state["p"][s]
        if holds(state, s, "first_to_have_100"):
            for where in ("work", "beach"):
                for barred in FORBIDDEN_WITH_100:
                    while barred in p[where]:
                        _fire(state, s, barred, where, events, True)
    state["secret"] = {}
    state["phase"] = "payday_forced"
    state["queue"] = [s for s in active_seats(state) if state["p"][s]["cash"] < salary_due(state, s)]


def forced_actions(state: JSON, seat: str) -> list[JSON]:
    """A chain short of cash fires salaried cards, busy marketeers only when nothing else is left."""
    if not state["queue"] or state["queue"][0] != seat:
        return []
    p = state["p"][seat]
    out = [{"type": "fire", "card": c, "from": where}
           for where in ("work", "beach") for c in sorted(set(p[where])) if pays_salary(state, seat, c)]
    if not out:
        out = [{"type": "fire", "card": b["card"], "from": "busy", "campaign": b["campaign"]}
               for b in sorted(p["busy"], key=lambda b: b["campaign"]) if pays_salary(state, seat, b["card"])]
    return out


def apply_forced(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Fire one card; the chain leaves the queue once it can pay."""
    if action not in forced_actions(state, seat):
        raise IllegalAction("cannot_fire", "Fire a salaried card (busy marketeers only when nothing else is left).")
    _fire(state, seat, action["card"], action["from"], events, True, action.get("campaign"))
    if state["p"][seat]["cash"] >= salary_due(state, seat):
        state["queue"].pop(0)


def pay_salaries(state: JSON, events: list[JSON]) -> None:
    """Everyone pays what is due; $20 or more earns the salaries milestone."""
    for s in active_seats(state):
        due = salary_due(state, s)
        pay_in(state, s, due)
        events.append({"type": "salaries_paid", "player": s, "amount": due, "visible_to": None})
        if due >= 20:
            award(state, s, "first_to_pay_20_salaries", events)
