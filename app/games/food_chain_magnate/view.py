"""What each viewer may see: reserve cards and secret choices in progress are hidden (§1.6)."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.food_chain_magnate.board import STATIC
from app.games.food_chain_magnate.milestones import holds
from app.games.toolkit import JSON, copy_state

HIDDEN = "hidden"


def may_see_reserves(state: JSON, viewer: str | None) -> bool:
    """After the first break everyone; before it only holders of 'first to have $20'."""
    if state["reserves_revealed"] or state["phase"] == "over":
        return True
    return viewer is not None and viewer in state["p"] and holds(state, viewer, "first_to_have_20")


def redact(state: JSON, viewer: str | None) -> JSON:
    """A copy of the state with everything the viewer may not know replaced by placeholders."""
    out = copy_state(state, STATIC)
    del out["rng"]
    see_all = may_see_reserves(state, viewer)
    for seat, p in out["p"].items():
        if seat != viewer and not see_all and p["reserve"] is not None:
            p["reserve"] = HIDDEN
    secret = out.get("secret") or {}
    for seat in list(secret):
        if seat != viewer:
            secret[seat] = {"done": secret[seat]["done"]}
    return out


def redact_all(state: JSON, viewers: Sequence[str | None]) -> list[JSON]:
    """`redact` for each viewer, sharing with the state every part the viewer sees as it is: only the players
    whose reserve is hidden and the secret choices are rebuilt (views are only serialised, never changed)."""
    common = {key: value for key, value in state.items() if key != "rng"}
    secret = state.get("secret")
    out = []
    for viewer in viewers:
        see_all = may_see_reserves(state, viewer)
        view = dict(common)
        view["p"] = {seat: p if seat == viewer or see_all or p["reserve"] is None else {**p, "reserve": HIDDEN}
                     for seat, p in state["p"].items()}
        if secret:
            view["secret"] = {seat: choice if seat == viewer else {"done": choice["done"]}
                              for seat, choice in secret.items()}
        out.append(view)
    return out
