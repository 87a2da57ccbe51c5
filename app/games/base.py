"""The contract every rules engine implements (see ARCHITECTURE.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypedDict, runtime_checkable

from app.games.toolkit import JSON


class IllegalAction(Exception):
    """An action the rules do not allow now; `code` is stable, `message` is for players."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BotLevel(StrEnum):
    """How strongly a bot plays: a gentle opponent, a sound greedy player, or a search over sampled deals."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


@dataclass
class Applied:
    """The result of a legal action: the new state and what happened."""

    state: JSON
    events: list[JSON] = field(default_factory=list)
    # False once the step revealed hidden information, drew randomly or closed
    # another player's window.
    undoable: bool = False


class Outcome(TypedDict):
    """A finished game's result."""

    scores: dict[str, int]
    ranking: list[list[str]]  # groups of tied seats, best first
    winners: list[str]
    details: dict[str, Any]  # per-seat breakdown for the final scoring screen


class OptionSpec(TypedDict, total=False):
    """One lobby option of a game: {"id", "type": "bool"|"choice"|"int", "default", "label", "choices"}.

    `choice_labels` names a choice's value in words for the lobby (the value itself when missing). With
    `seat` true, the choices that are digits name a seat of the table ("1" is the first); the platform keeps
    them pointing at the same person when it closes up the empty seats at the start."""

    id: str
    type: str
    default: Any
    label: str
    choices: list[Any]
    choice_labels: dict[str, str]
    seat: bool


@runtime_checkable
class Game(Protocol):
    """A pure rules engine: JSON state in, JSON state out, no I/O."""

    id: str
    title: str
    description: str
    min_players: int
    max_players: int
    options: list[OptionSpec]

    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> JSON: ...

    def awaiting(self, state: JSON) -> list[str]: ...

    def actions(self, state: JSON, player: str) -> list[JSON]: ...

    def apply(self, state: JSON, player: str, action: JSON) -> Applied: ...

    def view(self, state: JSON, viewer: str | None) -> JSON: ...

    def outcome(self, state: JSON) -> Outcome | None: ...

    def bot_action(
        self, view: JSON, player: str, seed: int, level: BotLevel = BotLevel.NORMAL, playouts: int | None = None
    ) -> JSON: ...

    # `bot_action` decides from `view(state, player)` alone, never from the state, so a bot cannot use what its
    # seat may not see (the other hands, the deck order, the generator): fair by construction. The same view,
    # seed, level and `playouts` (the hard level's budget, a count so the decision never depends on a clock)
    # give the same action.

    # The optional members below have defaults here: an engine subclasses `Game` to get them and overrides
    # those it can do better.

    # The platform's texts in other languages (description, option labels), by their English wording.
    i18n: dict[str, dict[str, str]] = {}
    # A static JSON document of component faces (card texts …) that a renderer fetches once from
    # GET /api/games/{id}/catalog instead of receiving it in every view; None when the game has none.
    catalog: JSON | None = None

    def apply_listed(self, state: JSON, player: str, action: JSON) -> Applied:
        """`apply` of an action the caller found among `actions(state, player)` (by `toolkit.is_listed`),
        without listing the options again to check it; the server checks every move against the list anyway."""
        return self.apply(state, player, action)

    def views(self, state: JSON, viewers: Sequence[str | None]) -> list[JSON]:
        """`[view(state, v) for v in viewers]`, which an engine may compute at once, sharing the work on the
        public parts. Views may share unchanged parts with the state: callers only serialise them and never
        mutate them."""
        return [self.view(state, viewer) for viewer in viewers]


def rank_by(scores: Mapping[str, Sequence[int]], seats: Sequence[str]) -> list[list[str]]:
    """Group seats by descending score tuples; equal tuples share a place."""
    ordered = sorted(seats, key=lambda s: tuple(scores[s]), reverse=True)
    ranking: list[list[str]] = []
    for seat in ordered:
        if ranking and tuple(scores[ranking[-1][0]]) == tuple(scores[seat]):
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking
