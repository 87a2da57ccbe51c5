"""Food Truck Champion: lead and follow staff actions, cook orders, win the critics (2-5 players)."""

from app.games import register
from app.games.food_truck_champion.engine import ENGINE

register(ENGINE)

__all__ = ["ENGINE"]
