"""The Food Chain Magnate engine behind the shared `Game` contract."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.games.base import Applied, BotLevel, Game, IllegalAction, OptionSpec, Outcome, rank_by
from app.games.food_chain_magnate import setup
from app.games.food_chain_magnate.board import STATIC
from app.games.food_chain_magnate.flow import advance
from app.games.food_chain_magnate.phases import (
    cleanup,
    order_of_business,
    payday,
    restructuring,
    setup_choices,
)
from app.games.food_chain_magnate.phases.working import turn
from app.games.food_chain_magnate.phases.working.turn import working_candidates
from app.games.food_chain_magnate.view import redact, redact_all
from app.games.toolkit import JSON, copy_state, is_listed

ActionsFn = Callable[[JSON, str], list[JSON]]
ApplyFn = Callable[[JSON, str, JSON, list[JSON]], None]
CandidatesFn = Callable[[JSON, str, JSON], list[JSON] | None]

PHASES: dict[str, tuple[ActionsFn, ApplyFn]] = {
    "first_restaurants": (setup_choices.first_restaurant_actions, setup_choices.apply_first_restaurant),
    "reserve": (setup_choices.reserve_actions, setup_choices.apply_reserve),
    "restructuring": (restructuring.restructuring_actions, restructuring.apply_restructuring),
    "order_of_business": (order_of_business.order_actions, order_of_business.apply_order),
    "working": (turn.working_actions, turn.apply_working),
    "payday_firing": (payday.firing_actions, payday.apply_firing),
    "payday_forced": (payday.forced_actions, payday.apply_forced),
    "cleanup": (cleanup.cleanup_actions, cleanup.apply_cleanup),
}
# Phases that can tell, for some actions (a piece's placement), which listed actions equal one without listing
# every legal spot on the map; `None` from them means "list them all".
CANDIDATES: dict[str, CandidatesFn] = {
    "first_restaurants": setup_choices.first_restaurant_candidates,
    "working": working_candidates,
}
# Choices that only narrow down a placement or add to a secret set can be taken back. A `fire` is secret only at
# the Payday firing; the forced firing that follows is public and done (§6.5, E9).
UNDOABLE = {"restaurant_at", "campaign", "campaign_at", "new_house", "garden", "house_at", "new_restaurant",
            "move_restaurant", "work", "take_back", "fire"}


def _refuse_unlisted(apply_step: ApplyFn, state: JSON, player: str, action: JSON) -> None:
    """Raise the step's own refusal (for a precise message), or a generic one for look-alike actions."""
    try:
        apply_step(copy_state(state, STATIC), player, action, [])
    except IllegalAction:
        raise
    except (TypeError, KeyError, ValueError, IndexError, AttributeError):
        pass
    raise IllegalAction("not_listed", "That action is not available now.")


class FoodChainMagnate(Game):
    """Food Chain Magnate, base game, 2-5 players."""

    id = "food-chain-magnate"
    title = "Food Chain Magnate"
    description = "Build a fast-food empire: hire, train, market, cook and sell before the bank runs dry."
    min_players = 2
    max_players = 5
    options: list[OptionSpec] = [
        {"id": "intro", "type": "bool", "default": False,
         "label": "Introductory game (no milestones, reserves or salaries; ends at the first bank break)"},
    ]
    # The lobby's texts in other languages, by their English wording.
    i18n: dict[str, dict[str, str]] = {"es": {
        description: "Construye un imperio de comida rápida: contrata, forma, anuncia, cocina y vende antes de que el "
                     "banco se quede sin dinero.",
        "Introductory game (no milestones, reserves or salaries; ends at the first bank break)":
            "Partida introductoria (sin hitos, reservas ni salarios; acaba cuando el banco se rompe por primera vez)",
    }}

    def new_game(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
        """Set up the table; the last player in turn order places a restaurant first."""
        return setup.new_game(players, seed, options)

    def awaiting(self, state: JSON) -> list[str]:
        """Seats whose input is awaited now."""
        phase = state["phase"]
        if phase == "first_restaurants":
            return [state["setup"]["queue"][0]]
        if phase in ("reserve", "restructuring", "payday_firing"):
            return [s for s in state["players"] if s in state["secret"] and not state["secret"][s]["done"]]
        if phase in ("order_of_business", "payday_forced"):
            return state["queue"][:1]
        if phase == "working":
            return [state["work"]["seat"]] if state["work"]["seat"] else []
        if phase == "cleanup":
            return [s for s in state["players"] if s in state["queue"]]
        return []

    def actions(self, state: JSON, player: str) -> list[JSON]:
        """Every legal action of the seat now."""
        if player not in self.awaiting(state):
            return []
        return PHASES[state["phase"]][0](state, player)

    def apply(self, state: JSON, player: str, action: JSON) -> Applied:
        """Apply a legal action to a copy of the state and run any automatic phases that follow."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", "An action must be an object with a type.")
        if player not in self.awaiting(state):
            raise IllegalAction("not_your_turn", "It is not your turn to act.")
        find = CANDIDATES.get(state["phase"])
        legal = find(state, player, action) if find is not None else None
        if not is_listed(action, self.actions(state, player) if legal is None else legal):
            _refuse_unlisted(PHASES[state["phase"]][1], state, player, action)
        return self.apply_listed(state, player, action)

    def apply_listed(self, state: JSON, player: str, action: JSON) -> Applied:
        """`apply` of an action that `actions` lists, without checking it again."""
        apply_step = PHASES[state["phase"]][1]
        new = copy_state(state, STATIC)
        events: list[JSON] = []
        apply_step(new, player, action, events)
        advance(new, events)
        # Taking back is safe only while the same decision is still open.
        same_window = new["phase"] == state["phase"] and self.awaiting(new) == self.awaiting(state)
        undoable = action["type"] in UNDOABLE and state["phase"] != "payday_forced" and same_window
        return Applied(state=new, events=events, undoable=undoable)

    def view(self, state: JSON, viewer: str | None) -> JSON:
        """What `viewer` may see (None = spectator)."""
        return redact(state, viewer)

    def views(self, state: JSON, viewers: Sequence[str | None]) -> list[JSON]:
        """`view` for several viewers at once, sharing the parts each sees unchanged with the state."""
        return redact_all(state, viewers)

    def outcome(self, state: JSON) -> Outcome | None:
        """Cash decides; ties go to the earlier seat in the current turn order; bankrupt chains rank last."""
        if state["phase"] != "over":
            return None
        order = state["turn_order"]
        seats = state["players"]
        keys = {s: (0 if state["p"][s]["bankrupt"] or state["p"][s]["out"] else 1, state["p"][s]["cash"],
                    -order.index(s)) for s in seats}
        ranking = rank_by(keys, seats)
        everyone_lost = all(keys[s][0] == 0 for s in seats)
        return {
            "scores": {s: state["p"][s]["cash"] for s in seats},
            "ranking": ranking,
            "winners": [] if everyone_lost else list(ranking[0]),
            "details": {s: {"cash": state["p"][s]["cash"], "turn_position": order.index(s) + 1,
                            "bankrupt": state["p"][s]["bankrupt"] or state["p"][s]["out"],
                            "milestones": sorted(state["p"][s]["milestones"])} for s in seats},
        }

    def bot_action(
        self, view: JSON, player: str, seed: int, level: BotLevel = BotLevel.NORMAL, playouts: int | None = None
    ) -> JSON:
        """A bot seat's move, decided from that seat's view alone."""
        # imported here because the bot module imports this engine
        from app.games.food_chain_magnate.bot import choose

        return choose(view, player, seed, level, playouts)


ENGINE = FoodChainMagnate()
