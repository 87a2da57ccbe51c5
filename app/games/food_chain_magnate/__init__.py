"""Food Chain Magnate (base game) rules engine."""

from app.games.food_chain_magnate.engine import ENGINE

__all__ = ["ENGINE"]
