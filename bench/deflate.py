"""What permessage-deflate would cost and save on our updates: bytes and CPU per message.

Usage: .venv/bin/python bench/deflate.py [--moves 400] [--seed 3]

Plays a random 4-seat Food Truck Champion game to its middle, then for the messages the server sends
after each move (the four players' and the spectator's updates, built by the hub's own viewer_message)
measures raw deflate (RFC 7692 frames, wbits -15) at levels 1 and 6: the compressed size and the time
to compress, per message, with a fresh compressor per message (server_no_context_takeover: the same
compressed bytes could go to every socket of a viewer) and with one compressor per socket kept across
messages (context takeover, the browsers' default: better ratios, but one compression per socket).
Pure CPU, one core, no server.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from app.config import Settings  # noqa: E402
from app.games import GAMES  # noqa: E402
from app.realtime.hub import viewer_message  # noqa: E402
from app.services.presentation import TablePresenter  # noqa: E402
from app.services.record import SeatInfo, TableRecord  # noqa: E402

SEATS = ["0", "1", "2", "3"]


def record(state: dict[str, Any], version: int) -> TableRecord:
    from datetime import UTC, datetime

    now = datetime.now(UTC)
    game = GAMES["food-truck-champion"]
    return TableRecord(
        id="0123456789abcdef", game="food-truck-champion", name="bench", host_id="u0", host_name="p0",
        visibility="public", invite_hash=None, status="playing", seat_count=4, options={}, seed=1,
        seed_commitment="0" * 64, state=state, version=version, state_seq=0, move_count=version,
        awaiting=game.awaiting(state), outcome=None, created_at=now, updated_at=now,
        seats=[SeatInfo(s, f"u{s}", f"p{s}", False) for s in SEATS],
    )


def messages(moves: int, seed: int) -> list[list[bytes]]:
    """Per move: the five updates (seats 0-3, then the spectator) as the hub would send them."""
    game = GAMES["food-truck-champion"]
    from datetime import UTC, datetime

    presenter = TablePresenter(secret_key="bench", settings=Settings(), now=lambda: datetime.now(UTC))
    rnd = random.Random(seed)
    state = game.new_game(SEATS, seed)
    out = []
    for version in range(1, moves + 1):
        seat = rnd.choice(game.awaiting(state))
        applied = game.apply(state, seat, rnd.choice(game.actions(state, seat)))
        state = applied.state
        if game.outcome(state) is not None:
            break
        rec = record(state, version)
        viewers: list[str | None] = [*SEATS, None]
        views = game.views(state, viewers)
        users = [f"u{s}" for s in SEATS] + [None]
        out.append([orjson.dumps(viewer_message(presenter, rec, user, "update", applied.events, view, None, False))
                    for user, view in zip(users, views, strict=True)])
    return out


def deflate_fresh(payload: bytes, level: int) -> bytes:
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(payload) + c.flush(zlib.Z_SYNC_FLUSH)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=400)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    batches = messages(args.moves, args.seed)
    flat = [m for batch in batches for m in batch]
    raw = statistics.mean(len(m) for m in flat)
    print(f"deflate on {len(flat)} updates of a Food Truck Champion game ({len(batches)} moves x 5 viewers); "
          f"mean update {raw:.0f} B")
    print(f"{'mode':<28}{'level':>6}{'mean B':>9}{'ratio':>7}{'us/message':>12}")
    for level in (1, 6):
        t0 = time.perf_counter()
        sizes = [len(deflate_fresh(m, level)) for m in flat]
        us = (time.perf_counter() - t0) / len(flat) * 1e6
        print(f"{'fresh (no context takeover)':<28}{level:>6}{statistics.mean(sizes):>9.0f}"
              f"{statistics.mean(sizes) / raw:>7.2f}{us:>12.1f}")
        socks = [zlib.compressobj(level, zlib.DEFLATED, -15) for _ in range(5)]
        t0 = time.perf_counter()
        sizes = [len(c.compress(m) + c.flush(zlib.Z_SYNC_FLUSH)) for batch in batches
                 for c, m in zip(socks, batch, strict=True)]
        us = (time.perf_counter() - t0) / len(flat) * 1e6
        print(f"{'per socket (context kept)':<28}{level:>6}{statistics.mean(sizes):>9.0f}"
              f"{statistics.mean(sizes) / raw:>7.2f}{us:>12.1f}")


if __name__ == "__main__":
    main()
