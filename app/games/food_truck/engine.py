"""The Food Truck engine behind the Game contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import Applied, BotLevel, Game, OptionSpec, Outcome, rank_by
from app.games.food_truck import prep, service, setup, trucks
from app.games.food_truck.data import MAX_PLAYERS, MIN_PLAYERS
from app.games.food_truck.rules import awaiting, legal_actions, moment, refuse
from app.games.food_truck.table import Events
from app.games.food_truck.view import redact
from app.games.toolkit import JSON, copy_state, is_listed

#: steps that only rearrange a player's own secret order, so undoing them hides nothing (while the order is still
#: being built: placing the last card submits it for good, R4)
_PRIVATE_STEPS = {"place", "take_back", "rearrange"}


class FoodTruck(Game):
    """Food Truck: order your hand, serve meals nobody else has served, be the last truck standing."""

    id = "food-truck"
    title = "Food Truck"
    description = "Stack your meals in secret, then serve what nobody else has served: last truck open wins."
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: list[OptionSpec] = [
        {"id": "first_player", "type": "choice", "default": "random", "label": "First player",
         "choices": list(setup.FIRST_PLAYER_CHOICES), "seat": True,
         "choice_labels": {c: "Random" if c == "random" else f"Seat {c}" for c in setup.FIRST_PLAYER_CHOICES}},
        {"id": "trucks", "type": "choice", "default": "choose", "label": "Trucks",
         "choices": list(setup.TRUCK_CHOICES),
         "choice_labels": {"choose": "Each player chooses", "random": "Dealt at random"}},
    ]
    # The lobby's texts in other languages, by their English wording.
    i18n: dict[str, dict[str, str]] = {"es": {
        description: "Apila tus platos en secreto y sirve lo que nadie más ha servido: gana el último camión abierto.",
        "First player": "Jugador inicial", "Random": "Al azar", "Trucks": "Camiones",
        "Each player chooses": "Cada jugador elige", "Dealt at random": "Repartidos al azar",
        **{f"Seat {c}": f"Asiento {c}" for c in setup.FIRST_PLAYER_CHOICES if c != "random"},
    }}

    def new_game(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
        """Set up a new game (spec §3)."""
        return setup.new_game(players, seed, options)

    def awaiting(self, state: JSON) -> list[str]:
        """Seats whose input is awaited now."""
        return awaiting(state)

    def actions(self, state: JSON, player: str) -> list[JSON]:
        """Every legal action for this seat now."""
        return legal_actions(state, player)

    def apply(self, state: JSON, player: str, action: JSON) -> Applied:
        """Apply a legal action to a copy of the state; raise IllegalAction otherwise."""
        if state["phase"] == "over" or not is_listed(action, legal_actions(state, player)):
            raise refuse(state, player, action)
        return self.apply_listed(state, player, action)

    def apply_listed(self, state: JSON, player: str, action: JSON) -> Applied:
        """`apply` of an action that `actions` lists, without checking it again."""
        new = copy_state(state)
        ev: Events = []
        before = (new["phase"], moment(new), new["turn"])
        _dispatch(new, player, action, ev)
        private = (action["type"] in _PRIVATE_STEPS and (new["phase"], moment(new), new["turn"]) == before
                   and player in awaiting(new))
        return Applied(new, ev, undoable=private)

    def view(self, state: JSON, viewer: str | None) -> JSON:
        """What `viewer` may see (None = spectator)."""
        return redact(state, viewer, self.outcome(state))

    def outcome(self, state: JSON) -> Outcome | None:
        """None while running; VP scores and each seat's rounds won once someone reaches the target."""
        if state["phase"] != "over":
            return None
        players = state["players"]
        scores = {p: state["seats"][p]["vp"] for p in players}
        details = {
            p: {
                "vp": scores[p],
                "rounds_won": [r["round"] for r in state["rounds"] if r["winner"] == p],
                "cards_owned": len(state["seats"][p]["collection"]),
            }
            for p in players
        }
        return {
            "scores": scores,
            "ranking": rank_by({p: [v] for p, v in scores.items()}, players),
            "winners": [state["winner"]],
            "details": details,
        }

    def bot_action(
        self, view: JSON, player: str, seed: int, level: BotLevel = BotLevel.NORMAL, playouts: int | None = None
    ) -> JSON:
        """A bot seat's move, decided from that seat's view alone (see bot.py)."""
        # imported here because the bot module imports this engine
        from app.games.food_truck.bot import choose

        return choose(view, player, seed, level, playouts)


def _dispatch(state: JSON, player: str, action: JSON, ev: Events) -> None:
    kind = action["type"]
    if kind == "choose_truck":
        setup.choose_truck(state, player, action["truck"], ev)
    elif kind == "place":
        prep.place_card(state, player, action["card"], ev)
    elif kind == "take_back" and state["phase"] == "prep":
        prep.take_back_card(state, player, ev)
    elif kind == "take_back":
        trucks.take_back_rearranged(state, player, ev)
    elif kind == "rearrange":
        trucks.place_rearranged(state, player, action["card"], ev)
    elif kind == "reveal":
        service.reveal_card(state, ev)
    elif kind == "resolve":
        service.resolve_pending(state, ev)
    elif kind == "play_truck":
        trucks.play_truck(state, player, action, ev)
    else:
        service.take_from_supply(state, player, action["card"], ev)


ENGINE = FoodTruck()
