"""Prometheus metrics of the server."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram


def _seconds(name: str, documentation: str) -> Histogram:
    """A histogram of durations from a millisecond to seconds."""
    return Histogram(name, documentation, buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))


COMMANDS_APPLIED = Counter("foodgames_commands_applied_total", "Game actions applied")
COMMANDS_REFUSED = Counter("foodgames_commands_refused_total", "Game actions refused", ["code"])
COMMAND_LATENCY = _seconds("foodgames_command_latency_seconds", "Time to apply and persist one action")
SOCKETS_OPEN = Gauge("foodgames_sockets_open", "Open websocket connections")
TABLES = Gauge("foodgames_tables", "Tables by status", ["status"])
# Every acknowledgement on Postgres waits for its batch's commit, so a slow disk flush shows here first.
GROUP_COMMIT_SECONDS = _seconds("foodgames_group_commit_seconds", "Time to commit one batch of moves (Postgres)")
GROUP_COMMIT_MOVES = Histogram(
    "foodgames_group_commit_moves",
    "Moves in one committed batch (Postgres)",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
# A collection stops every table of the process at once.
GC_PAUSE_SECONDS = Histogram(
    "foodgames_gc_pause_seconds",
    "Garbage collector pauses of this process",
    ["generation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
)
