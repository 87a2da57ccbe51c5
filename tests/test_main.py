"""app.main's process set-up, and how it tells a refusal of the data from a database outage."""

from __future__ import annotations

import gc

from prometheus_client import REGISTRY
from sqlalchemy.exc import DBAPIError

from app.main import GcPauses, _is_bad_data


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


class _DriverError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def test_a_data_exception_is_the_requests_fault_and_anything_else_an_outage() -> None:
    # Postgres' class 22, as asyncpg raises it for a NUL in a text array: a plain driver error with its SQLSTATE.
    assert _is_bad_data(DBAPIError("SELECT", {}, _DriverError("22021")))
    assert not _is_bad_data(DBAPIError("SELECT", {}, _DriverError("08006")))  # the connection failed
