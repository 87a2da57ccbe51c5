"""Which Truck card plays are open to a player right now (spec §5: window A before revealing, B after)."""

from __future__ import annotations

from app.games.food_truck.data import EFFECTS, is_dessert, meal_type
from app.games.food_truck.table import current_effect, showing, singles
from app.games.toolkit import JSON

WINDOW_A = "A"
WINDOW_B = "B"


def share_partner(state: JSON, player: str) -> str | None:
    """E5: the one other seat whose single face-up card of the pending meal the player may share, if any."""
    card = state["seats"][player]["pending"]
    if card is None or is_dessert(card):
        return None
    meal = meal_type(card)
    others = [p for p in showing(state, meal) if p != player]
    if len(others) == 1 and len(state["seats"][others[0]]["served"][meal]) == 1:
        return others[0]
    return None


def truck_plays(state: JSON, player: str, window: str) -> list[JSON]:
    """Every legal play of the player's current Truck card in this window, as concrete actions."""
    effect = current_effect(state, player)
    if effect is None or window not in EFFECTS[effect]["windows"]:
        return []
    if effect in ("E1", "E4"):
        return [{"type": "play_truck", "effect": effect}]
    if effect == "E2":
        return [{"type": "play_truck", "effect": "E2", "seat": p, "meal": m} for p, m in singles(state)]
    if effect == "E3":
        return [{"type": "play_truck", "effect": "E3", "card": c} for c in state["supply"]]
    if share_partner(state, player) is not None:
        return [{"type": "play_truck", "effect": "E5"}]
    return []
