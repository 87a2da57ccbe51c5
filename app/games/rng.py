"""A tiny deterministic generator whose whole state is one JSON integer.

Engines keep `state["rng"]` (an int) and thread it through these functions, so a
game's randomness is part of its state document and replays are byte-identical.
The algorithm is SplitMix64: small, fast and well distributed.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, uniform integer in [0, n))."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, x = next_u64(state)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Shuffle `items` in place (Fisher-Yates); return the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


class Rng:
    """Convenience wrapper: `r = Rng(state["rng"]); ...; state["rng"] = r.state`."""

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, n: int) -> int:
        self.state, x = below(self.state, n)
        return x

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.state = shuffle(self.state, items)

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]
