"""The four games' renderers in node (no browser): every step of a game played by random legal moves drawn for a
player in both languages and for a spectator, legal pieces clicked, events told; a half-made choice kept per game
area across redraws (`uiState`). `tests/frontend/js/render-steps.js` does the drawing."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


def played(game_id: str, steps: int = 60, seed: int = 7) -> dict[str, Any]:
    engine = GAMES[game_id]
    rng = random.Random(seed)
    seats = [str(i) for i in range(min(3, engine.max_players))]
    state = engine.new_game(seats, seed)
    out = []
    for _ in range(steps):
        awaiting = engine.awaiting(state)
        if not awaiting:
            break
        seat = rng.choice(awaiting)
        actions = engine.actions(state, seat)
        if not actions:
            break
        step = {"view": engine.view(state, "0"), "spectator": engine.view(state, None), "awaiting": awaiting,
                "actions": engine.actions(state, "0")}
        applied = engine.apply(state, seat, rng.choice(actions))
        step["events"] = applied.events
        state = applied.state
        out.append(step)
    return {"seats": seats, "steps": out, "catalog": engine.catalog}


# The site's games, as registered when the tests are collected (servers in the test process add a test game later).
GAME_IDS = sorted(GAMES)


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_every_renderer_draws_each_step_and_keeps_its_ui_state_per_area(tmp_path: Path) -> None:
    fixtures = tmp_path / "games.json"
    fixtures.write_text(json.dumps({game_id: played(game_id) for game_id in GAME_IDS}))
    run = subprocess.run([str(NODE), str(ROOT / "tests/frontend/js/render-steps.js"), str(fixtures), str(ROOT)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-4000:]
    counts = {c["game"]: c for c in map(json.loads, run.stdout.splitlines())}
    assert set(counts) == set(GAME_IDS)
    for c in counts.values():
        assert c["draws"] == 60, c
        assert c["clicks"] > 10 and c["sent"] > 0, c
    # Foodies' market card picked and Food Truck's card armed wait for their target: choices kept per game area.
    assert counts["foodies"]["kept"] > 0 and counts["food-truck"]["kept"] > 0, counts
