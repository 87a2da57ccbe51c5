"""The games on offer and the options a host may choose for a table: checked against each game's option specs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.games import GAMES
from app.games.base import Game
from app.services.errors import ServiceError


def get_game(game_id: str) -> Game:
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise ServiceError("unknown_game", f"There is no game called {game_id!r}.", 404)
    return game


def game_json(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "title": game.title,
        "description": game.description,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": list(game.options),
        "i18n": dict(game.i18n),
    }


def check_options(game: Game, options: Any, seats: int) -> dict[str, Any]:
    """Validate lobby options against the game's option specs and the table's seats, filling defaults."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ServiceError("bad_options", "Options must be an object.", 422)
    specs = {spec["id"]: spec for spec in game.options}
    unknown = set(options) - set(specs)
    if unknown:
        raise ServiceError("bad_options", f"Unknown option(s): {', '.join(sorted(map(str, unknown)))}.", 422)
    out: dict[str, Any] = {}
    for oid, spec in specs.items():
        value = options.get(oid, spec.get("default"))
        kind = spec.get("type")
        if kind == "bool" and not isinstance(value, bool):
            raise ServiceError("bad_options", f"Option {oid} must be true or false.", 422)
        if kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ServiceError("bad_options", f"Option {oid} must be a whole number.", 422)
        if kind == "choice" and value not in spec.get("choices", []):
            raise ServiceError("bad_options", f"Option {oid} must be one of {spec.get('choices')}.", 422)
        if spec.get("seat") and str(value).isdigit() and int(str(value)) > seats:
            raise ServiceError("bad_options", f"Option {oid} names seat {value}, but the table has {seats} seats.", 422)
        out[oid] = value
    return out


def seated_options(game: Game, options: dict[str, Any], taken: Sequence[str]) -> dict[str, Any]:
    """The options with each seat they name renumbered as the start closes up the empty seats (`taken`: the
    occupied seats in order); naming an empty seat is refused, since nobody would be there to be it."""
    out = dict(options)
    for spec in game.options:
        value = out.get(spec["id"])
        if spec.get("seat") and isinstance(value, str) and value.isdigit():
            if str(int(value) - 1) not in taken:
                raise ServiceError(
                    "option_seat_empty",
                    f"{spec.get('label', spec['id'])} is seat {value}, which is empty: seat a player or a bot there.",
                    409,
                )
            out[spec["id"]] = str(taken.index(str(int(value) - 1)) + 1)
    return out
