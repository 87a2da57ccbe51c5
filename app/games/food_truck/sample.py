"""A full Food Truck state that a seat cannot tell from the real one.

What a seat may not know: the central deck's order, the order of every Truck pile (its own too), and the
other players' secret orders (which of their cards are still in hand, and the order of their draw piles).
Everything a player owns is public, so only orders are dealt at random.
"""

from __future__ import annotations

from collections import Counter

from app.games.food_truck.data import ALL_CARDS, TRUCK_CARDS
from app.games.rng import Rng
from app.games.toolkit import JSON, copy_state

# What a view adds for drawing the table; the state does not hold it.
DRAWN_ONLY = ("viewer", "central_deck_count", "trucks_left", "seats", "rearrange", "meal_names",
              "meal_backgrounds", "effects", "truck_names", "outcome")


def without(cards: list[str], gone: list[str]) -> list[str]:
    """`cards` less one copy of each card in `gone`."""
    left = Counter(gone)
    out = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            out.append(card)
    return out


def unstacked(seat: JSON) -> list[str]:
    """A player's cards that are neither served, nor a served Dessert, nor the revealed card."""
    shown = [c for cards in seat["served"].values() for c in cards] + list(seat["desserts_served"])
    if seat["pending"] is not None:
        shown.append(seat["pending"])
    return without(seat["collection"], shown)


def sample_seat(view: JSON, name: str, seat: JSON, mine: bool, rng: Rng) -> JSON:
    """One seat of the state: its Truck pile shuffled; another player's secret order guessed."""
    pile = []
    if seat["truck"] is not None:
        gone = [*seat["truck_discard"], *([seat["truck_current"]] if seat["truck_current"] else [])]
        pile = without(TRUCK_CARDS[seat["truck"]], gone)
        rng.shuffle(pile)
    out = {k: v for k, v in seat.items() if k not in ("truck_current_effect", "truck_pile_count", "draw_pile_count")}
    out.update(collection=list(seat["collection"]), served={m: list(c) for m, c in seat["served"].items()},
               desserts_served=list(seat["desserts_served"]), truck_discard=list(seat["truck_discard"]),
               truck_pile=pile)
    if mine:
        out.update(hand=list(seat["hand"]), draw_pile=list(seat["draw_pile"]))
        return out
    cards = unstacked(seat)
    rearranging = view["rearrange"] if view["turn"] == name and view["rearrange"] is not None else None
    if rearranging is not None:
        # Cards being rearranged are off the draw pile; which ones is that player's secret.
        rng.shuffle(cards)
        out["rearranging"] = cards[: rearranging["cards"]]
        cards = cards[rearranging["cards"]:]
    if view["phase"] == "prep":
        # An order still being built is secret, even its size: a ready player has stacked everything.
        if seat["ready"]:
            rng.shuffle(cards)
            out.update(hand=[], draw_pile=cards)
        else:
            out.update(hand=cards, draw_pile=[])
        return out
    rng.shuffle(cards)
    count = seat["draw_pile_count"]
    out.update(draw_pile=cards[:count], hand=sorted(cards[count:]))
    return out


def sample_state(view: JSON, seat: str, rng: Rng) -> JSON:
    """The view made a state again, the unseen orders dealt at random."""
    state = copy_state({k: v for k, v in view.items() if k not in DRAWN_ONLY})
    seats = {p: sample_seat(view, p, s, p == seat, rng) for p, s in view["seats"].items()}
    rearrange = view["rearrange"]
    if rearrange is not None and "todo" not in rearrange:
        rearrange = {"todo": seats[view["turn"]].pop("rearranging"), "done": []}
    elif rearrange is not None:
        rearrange = {"todo": list(rearrange["todo"]), "done": list(rearrange["done"])}
    owned = [c for s in view["seats"].values() for c in s["collection"]]
    deck = without(ALL_CARDS, owned + view["supply"] + view["box"])
    rng.shuffle(deck)
    state.update(seats=seats, rearrange=rearrange, central_deck=deck[: view["central_deck_count"]],
                 rng=rng.below(1 << 62))
    return state
