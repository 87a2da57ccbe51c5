"""The bot plays sensibly: it beats a uniformly random player in at least 70% of 200 seeded games."""

from __future__ import annotations

import random

from tests.games.foodies.helpers import G


def play_bot_vs_random(seed: int) -> bool:
    """One two-player game, the bot in seat 0 or 1 by seed; True if the bot alone wins."""
    bot_seat = str(seed % 2)
    state = G.new_game(["0", "1"], seed)
    rnd = random.Random(seed)
    while G.outcome(state) is None:
        seat = rnd.choice(G.awaiting(state))
        action = G.bot_action(G.view(state, seat), seat, seed) if seat == bot_seat else rnd.choice(G.actions(state, seat))
        state = G.apply(state, seat, action).state
    out = G.outcome(state)
    assert out is not None
    return out["winners"] == [bot_seat]


def test_bot_beats_random_player() -> None:
    wins = sum(play_bot_vs_random(seed) for seed in range(200))
    assert wins >= 140, f"bot won only {wins} of 200"
