"""The Food Truck Champion engine behind the `Game` contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import Applied, BotLevel, Game, OptionSpec, Outcome
from app.games.food_truck_champion import rules
from app.games.food_truck_champion.data import MAX_PLAYERS, MIN_PLAYERS
from app.games.food_truck_champion.scoring import final_outcome
from app.games.food_truck_champion.setup import new_game
from app.games.food_truck_champion.view import CATALOG, redact, redact_all
from app.games.toolkit import JSON


class FoodTruckChampion(Game):
    """Food Truck Champion (Daily Magic Games 2017) for 2-5 players, with the 2-player neutral owner."""

    id = "food-truck-champion"
    title = "Food Truck Champion"
    description = "Lead and follow staff actions to stock your fridge, cook orders and win the critics."
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: list[OptionSpec] = []
    # The lobby's texts in other languages, by their English wording.
    i18n: dict[str, dict[str, str]] = {"es": {
        description: "Lidera y sigue acciones de personal para llenar tu nevera, cocinar pedidos y ganarte a la crítica.",
    }}
    catalog: JSON = CATALOG  # the printed card faces, served once to renderers

    def new_game(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
        """Deal a new game; trucks and the first player are drawn at random from the seed."""
        return new_game(players, seed)

    def awaiting(self, state: JSON) -> list[str]:
        """Seats whose input is awaited now."""
        return rules.awaiting(state)

    def actions(self, state: JSON, player: str) -> list[JSON]:
        """Every legal action of `player` now."""
        return rules.actions(state, player)

    def apply(self, state: JSON, player: str, action: JSON) -> Applied:
        """Apply one legal action or raise IllegalAction."""
        return rules.apply(state, player, action)

    def apply_listed(self, state: JSON, player: str, action: JSON) -> Applied:
        """`apply` of an action that `actions` lists, without checking it again."""
        return rules.apply_listed(state, player, action)

    def view(self, state: JSON, viewer: str | None) -> JSON:
        """What `viewer` may see (None = spectator)."""
        # No deep copy: the view may share unchanged parts with the state (views are only serialised).
        return redact(state, viewer, rules.awaiting(state))

    def views(self, state: JSON, viewers: Sequence[str | None]) -> list[JSON]:
        """`view` for several viewers at once, sharing the work on the public parts."""
        return redact_all(state, viewers, rules.awaiting(state))

    def outcome(self, state: JSON) -> Outcome | None:
        """None while running; the final scores, ranking and breakdown once over."""
        return final_outcome(state) if state["phase"] == "over" else None

    def bot_action(
        self, view: JSON, player: str, seed: int, level: BotLevel = BotLevel.NORMAL, playouts: int | None = None
    ) -> JSON:
        """A bot seat's move, decided from that seat's view alone."""
        # imported here because the bot module imports this engine
        from app.games.food_truck_champion.bot import choose

        return choose(view, player, seed, level, playouts)


ENGINE = FoodTruckChampion()
