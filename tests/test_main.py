"""app.main's process set-up."""

from __future__ import annotations

import gc

from prometheus_client import REGISTRY

from app.main import GcPauses


def test_every_garbage_collection_is_timed_by_generation() -> None:
    def pauses(generation: str) -> float:
        return REGISTRY.get_sample_value("foodgames_gc_pause_seconds_count", {"generation": generation}) or 0.0

    others = [cb for cb in gc.callbacks if isinstance(cb, GcPauses)]  # a server set up in this process
    for cb in others:
        gc.callbacks.remove(cb)
    before = pauses("1"), pauses("2")
    timer = GcPauses()
    gc.callbacks.append(timer)
    try:
        gc.collect(1)
        gc.collect(2)
    finally:
        gc.callbacks.remove(timer)
        gc.callbacks.extend(others)
    assert (pauses("1"), pauses("2")) == (before[0] + 1, before[1] + 1)
    assert (REGISTRY.get_sample_value("foodgames_gc_pause_seconds_sum", {"generation": "2"}) or 0.0) > 0
