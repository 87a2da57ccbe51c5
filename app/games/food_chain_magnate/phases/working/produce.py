"""Working step 4a, kitchen staff produce burgers and pizzas (§6.3.4)."""

from __future__ import annotations

from app.games.base import IllegalAction
from app.games.food_chain_magnate.employees import ability, cards_of_kind
from app.games.food_chain_magnate.milestones import award
from app.games.food_chain_magnate.players import unused_at_work, use
from app.games.toolkit import JSON

KITCHEN = cards_of_kind("produce")


def produce_actions(state: JSON, seat: str) -> list[JSON]:
    """One production per unused kitchen card: a full batch of its good (R7)."""
    p = state["p"][seat]
    return [{"type": "produce", "card": c, "good": g}
            for c in KITCHEN if unused_at_work(p, c) > 0 for g in ability(c)["goods"]]


def produce(state: JSON, seat: str, action: JSON, events: list[JSON]) -> None:
    """Add the food to stock; the first burger/pizza brings a free cook."""
    if action not in produce_actions(state, seat):
        raise IllegalAction("cannot_produce", "No unused kitchen card can produce that.")
    p = state["p"][seat]
    amount = int(ability(action["card"])["amount"])
    use(p, action["card"])
    p["stock"][action["good"]] += amount
    events.append({"type": "produced", "player": seat, "card": action["card"], "good": action["good"],
                   "amount": amount, "visible_to": None})
    award(state, seat, "first_burger_produced" if action["good"] == "burger" else "first_pizza_produced", events)
