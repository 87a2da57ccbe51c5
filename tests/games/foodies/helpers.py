"""Builders for hand-made Foodies states used by the tests."""

from __future__ import annotations

from app.games.base import Applied
from app.games.foodies import ENGINE
from app.games.rng import below
from app.games.toolkit import JSON
from tests.games.contract import seats

G = ENGINE


def blank_state(n: int, *, cultures: list[str] | None = None, seed: int = 0) -> JSON:
    """A fresh game with seats in listed order ("0" first), empty courts, no flyers, setup corner tokens."""
    state = G.new_game(seats(n), seed, {"first_player": "listed"})
    if cultures is not None:
        state["cultures"] = sorted(cultures)
    for player in state["players"].values():
        player["flyers"] = 0
    return state


def set_player(state: JSON, seat: str, *, coins: int | None = None, popularity: int | None = None,
               flyers: int | None = None, court: dict[int, str] | None = None,
               popularity_tokens: dict[int, int] | None = None, coin_tokens: dict[int, int] | None = None) -> None:
    """Overwrite parts of a player's area; `court` and token maps replace the whole grid."""
    player = state["players"][seat]
    if coins is not None:
        player["coins"] = coins
    if popularity is not None:
        player["popularity"] = popularity
        player["earned"]["tokens"] = popularity  # keeps popularity == sum of its sources
    if flyers is not None:
        player["flyers"] = flyers
    if court is not None:
        player["court"] = [court.get(s) for s in range(1, 10)]
    if popularity_tokens is not None:
        player["popularity_tokens"] = [popularity_tokens.get(s, 0) for s in range(1, 10)]
    if coin_tokens is not None:
        player["coin_tokens"] = [coin_tokens.get(s, 0) for s in range(1, 10)]


def rng_rolling(face: int) -> int:
    """A generator state whose next ten-sided roll is `face`."""
    for candidate in range(10_000):
        if below(candidate, 10)[1] == face:
            return candidate
    raise AssertionError("no state found")


def roll(state: JSON, face: int) -> Applied:
    """The active player rolls `face` (the generator is set up for it)."""
    assert state["phase"] == "roll"
    state = dict(state, rng=rng_rolling(face))
    return G.apply(state, state["active"], {"type": "roll"})


def step(state: JSON, seat: str, action: JSON) -> JSON:
    """Apply and return the new state."""
    return G.apply(state, seat, action).state


def tokens(player: JSON, kind: str) -> dict[int, int]:
    """A player's tokens of one kind as {space: count}, zeros left out."""
    return {s: n for s, n in enumerate(player[kind], start=1) if n}
