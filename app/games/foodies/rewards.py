"""Paying rewards to a player, and noticing when that triggers the end of the game."""

from __future__ import annotations

from app.games.toolkit import JSON


def gain(state: JSON, seat: str, events: list[JSON], *, coins: int = 0, popularity: int = 0,
         flyers: int = 0, source: str = "") -> None:
    """Add coins, popularity and flyers to a seat; popularity is booked under `source`."""
    player = state["players"][seat]
    player["coins"] += coins
    player["flyers"] += flyers
    if popularity:
        player["popularity"] += popularity
        player["earned"][source] += popularity
        check_end_trigger(state, seat, events)


def check_end_trigger(state: JSON, seat: str, events: list[JSON]) -> None:
    """The end is triggered the moment anyone reaches the threshold; it stays triggered."""
    if state["end_triggered"]:
        return
    popularity = state["players"][seat]["popularity"]
    if popularity >= state["threshold"]:
        state["end_triggered"] = True
        events.append({"type": "end_triggered", "seat": seat, "popularity": popularity,
                       "threshold": state["threshold"], "visible_to": None})
