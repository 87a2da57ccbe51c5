"""Food Chain Magnate (base game) rules engine."""

from app.games import register
from app.games.food_chain_magnate.engine import ENGINE

register(ENGINE)

__all__ = ["ENGINE"]
