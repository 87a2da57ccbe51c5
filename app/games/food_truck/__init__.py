"""Food Truck (2-5 players): a short elimination card game about serving meals nobody else serves."""

from app.games import register
from app.games.food_truck.engine import ENGINE

register(ENGINE)

__all__ = ["ENGINE"]
