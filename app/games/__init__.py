"""Registry of the rules engines: `GAMES[game_id]` is an engine behind the `Game` contract."""

from __future__ import annotations

from app.games.base import Game

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add an engine to the registry."""
    GAMES[game.id] = game
    return game


def _load() -> None:
    # Each engine registers itself; a missing package simply is not offered.
    import importlib

    for module in ("food_truck", "food_truck_champion", "foodies", "food_chain_magnate"):
        try:
            importlib.import_module(f"app.games.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"app.games.{module}":
                raise


_load()
