"""Foodies: a 3x3 food court of stalls that pays out on every roll of the die."""

from __future__ import annotations

from app.games import register
from app.games.foodies.engine import ENGINE

register(ENGINE)

__all__ = ["ENGINE"]
