"""The Foodies engine behind the game contract: who is awaited, what is legal, applying an action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.games.base import Applied, BotLevel, Game, IllegalAction, OptionSpec, Outcome
from app.games.foodies import chefs, market, setup, turn, visit
from app.games.foodies.data import MAX_PLAYERS, MIN_PLAYERS, SPACES, SPECIAL_CHEFS
from app.games.foodies.view import redact
from app.games.toolkit import JSON, copy_json

# Each action type: its fields and their JSON types, and the phase that accepts it.
SCHEMAS: dict[str, dict[str, type]] = {
    "roll": {},
    "choose_face": {"face": int},
    "keep_zero": {},
    "use_flyer": {"space": int},
    "no_flyer": {},
    "buy": {"slot": int, "space": int},
    "skip_buy": {},
    "hire_chef": {},
    "claim_chef": {"chef": str},
    "end_turn": {},
}
PHASE_OF = {
    "roll": "roll", "choose_face": "choose_face", "keep_zero": "choose_face",
    "use_flyer": "flyers", "no_flyer": "flyers", "buy": "buy", "skip_buy": "buy",
    "hire_chef": "hire", "claim_chef": "hire", "end_turn": "hire",
}
PHASE_NAMES = {
    "roll": "rolling the die", "choose_face": "choosing the die face", "flyers": "deciding on flyers",
    "buy": "buying a stall", "hire": "hiring chefs",
}


def check_shape(action: Any) -> str:
    """Refuse anything that is not a known action with exactly its fields; return the type."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("unknown_action", "That is not a Foodies action.")
    kind = action["type"]
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise IllegalAction("unknown_action", f"Foodies has no action {kind!r}.")
    if set(action) != {"type", *schema}:
        raise IllegalAction("bad_action", f"A {kind} action needs exactly: {', '.join(schema) or 'no fields'}.")
    for key, expected in schema.items():
        value = action[key]
        if isinstance(value, bool) or not isinstance(value, expected):
            raise IllegalAction("bad_action", f"The {key} of a {kind} action must be a {expected.__name__}.")
    return kind


# The lobby's words for the special-chef option: the chefs' names, in English and in Spanish. The names are the
# site's own (spec 3.4: the rulebook's are lost); the requirements are the rulebook's.
CHEF_CHOICE_LABELS = setup.special_chef_choice_labels({c: chef.label for c, chef in SPECIAL_CHEFS.items()}, "A random pair")
CHEF_CHOICE_LABELS_ES = setup.special_chef_choice_labels({
    "specialist": "El Especialista", "globetrotter": "El Trotamundos", "star_gazer": "El Astrónomo",
    "crossroads": "El Chef del Cruce", "trio": "El Maestro del Trío",
}, "Una pareja al azar")


class Foodies(Game):
    """Foodies (CMON, 2019): build a 3x3 food court; every roll pays every player."""

    id = "foodies"
    title = "Foodies"
    description = "Roll the die, every food court pays out: buy stalls, match stars, hire chefs."
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: list[OptionSpec] = [
        {"id": "first_player", "type": "choice", "default": "random", "label": "First player",
         "choices": list(setup.FIRST_PLAYER_CHOICES),
         "choice_labels": {"random": "Random", "listed": "The first seat listed"}},
        {"id": "special_chefs", "type": "choice", "default": "random", "label": "Special chefs",
         "choices": list(setup.SPECIAL_CHEF_CHOICES),
         "choice_labels": CHEF_CHOICE_LABELS},
    ]
    # The lobby's texts in other languages, by their English wording.
    i18n: dict[str, dict[str, str]] = {"es": {
        description: "Tira el dado y todos los patios de comidas pagan: compra puestos, completa estrellas, contrata chefs.",
        "First player": "Primer jugador", "Random": "Al azar", "The first seat listed": "El primer asiento de la lista",
        "Special chefs": "Chefs especiales",
        **{CHEF_CHOICE_LABELS[c]: CHEF_CHOICE_LABELS_ES[c] for c in CHEF_CHOICE_LABELS},
    }}

    def new_game(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> JSON:
        """Set up a new game (spec section 4)."""
        return setup.new_game(players, seed, options)

    def awaiting(self, state: JSON) -> list[str]:
        """Seats whose input is awaited: the active player, or every undecided flyer holder at once."""
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "flyers":
            return [s for s in state["seats"]
                    if s in state["flyer_choices"] and not state["flyer_choices"][s]["decided"]]
        return [state["active"]]

    def actions(self, state: JSON, player: str) -> list[JSON]:
        """Every legal action of `player` now."""
        if player not in self.awaiting(state):
            return []
        phase = state["phase"]
        if phase == "roll":
            return [{"type": "roll"}]
        if phase == "choose_face":
            faces = [{"type": "choose_face", "face": f} for f in visit.CHOOSABLE_FACES]
            return faces + [{"type": "keep_zero"}]
        if phase == "flyers":
            return [{"type": "use_flyer", "space": s} for s in visit.flyer_targets(state)] + [{"type": "no_flyer"}]
        if phase == "buy":
            buys = [{"type": "buy", "slot": k, "space": s}
                    for k in market.affordable_slots(state, player) for s in SPACES]
            return buys + [{"type": "skip_buy"}]
        legal: list[JSON] = []
        if chefs.can_hire_chef(state, player):
            legal.append({"type": "hire_chef"})
        legal += [{"type": "claim_chef", "chef": c} for c in chefs.claimable_chefs(state, player)]
        return legal + [{"type": "end_turn"}]

    def apply(self, state: JSON, player: str, action: JSON) -> Applied:
        """Apply a legal action to a copy of the state, or raise IllegalAction."""
        kind = check_shape(action)
        self._check_turn(state, player, kind)
        new = copy_json(state)
        events: list[JSON] = []
        undoable = HANDLERS[kind](new, player, action, events)
        return Applied(new, events, undoable)

    def _check_turn(self, state: JSON, player: str, kind: str) -> None:
        phase = state["phase"]
        if phase == "over":
            raise IllegalAction("game_over", "The game is over.")
        if player not in state["players"]:
            raise IllegalAction("unknown_seat", "You are not playing at this table.")
        if phase == "flyers" and player in state["flyer_choices"] and state["flyer_choices"][player]["decided"]:
            raise IllegalAction("already_decided", "You have already decided about your flyer for this visit.")
        if player not in self.awaiting(state):
            if phase == "flyers" and player not in state["flyer_choices"] and kind in ("use_flyer", "no_flyer"):
                raise IllegalAction("no_flyers", "You have no flyer to use.")
            raise IllegalAction("not_your_turn", "It is not your turn.")
        wanted = PHASE_OF[kind]
        if wanted != phase:
            if kind == "buy" and phase == "hire":
                raise IllegalAction("already_bought", "This turn's Acquire a Stall phase is over: one stall at most, or none.")
            raise IllegalAction("wrong_phase", f"You can't do that now: the game is {PHASE_NAMES[phase]}.")

    def view(self, state: JSON, viewer: str | None) -> JSON:
        """What `viewer` may see (None = spectator)."""
        return redact(state, viewer)

    def outcome(self, state: JSON) -> Outcome | None:
        """None while the game runs; the final result once it is over."""
        return turn.final_outcome(state) if state["phase"] == "over" else None

    def bot_action(
        self, view: JSON, player: str, seed: int, level: BotLevel = BotLevel.NORMAL, playouts: int | None = None
    ) -> JSON:
        """A bot seat's move, decided from that seat's view alone."""
        # imported here because the bot module imports this engine
        from app.games.foodies.bot import choose

        return choose(view, player, seed, level, playouts)


Handler = Callable[[JSON, str, JSON, list[JSON]], bool]  # returns `undoable`


def _roll(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    visit.roll(state, events)
    return False


def _choose_face(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    visit.choose_face(state, action["face"], events)
    return True


def _keep_zero(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    visit.keep_zero(state, events)
    return True


def _use_flyer(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    visit.decide_flyer(state, seat, action["space"], events)
    return state["phase"] == "flyers"


def _no_flyer(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    visit.decide_flyer(state, seat, None, events)
    return state["phase"] == "flyers"


def _buy(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    market.buy_stall(state, seat, action["slot"], action["space"], events)
    return False  # the refill reveals the deck's top card


def _skip_buy(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    market.skip_buy(state, seat, events)
    return True


def _hire_chef(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    chefs.hire_chef(state, seat, events)
    return True


def _claim_chef(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    chefs.claim_chef(state, seat, action["chef"], events)
    return True


def _end_turn(state: JSON, seat: str, action: JSON, events: list[JSON]) -> bool:
    turn.end_turn(state, seat, events)
    return True


HANDLERS: dict[str, Handler] = {
    "roll": _roll, "choose_face": _choose_face, "keep_zero": _keep_zero, "use_flyer": _use_flyer,
    "no_flyer": _no_flyer, "buy": _buy, "skip_buy": _skip_buy, "hire_chef": _hire_chef,
    "claim_chef": _claim_chef, "end_turn": _end_turn,
}

ENGINE = Foodies()
