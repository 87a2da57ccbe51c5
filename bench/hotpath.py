"""The server's CPU per move with the sockets and the database taken out: what our Python costs.

Usage: .venv/bin/python bench/hotpath.py [--tables 50] [--players 2] [--spectators 0] [--moves 20000] [--reps 3]
                                         [--through protocol]

In one process, on a throwaway SQLite database: sets the tables up through the real API, then swaps the
move writer for one that returns at once and gives every seat and spectator a connection whose frame
writer only keeps the bytes. Then it plays random listed actions through `api.ws.handle_message`, the
same call a socket's message makes (parse, check, apply, write, ack, views, updates). Prints the CPU
microseconds per move (median of the repetitions) and the bytes sent per move, so a change to that path
can be judged in seconds, without the noise of a load run. A load run adds the kernel's socket work,
uvicorn's frame parsing, the group commit and the client's share of the cores.

With `--through protocol` each move enters as the bytes of a masked client frame, through the websocket
protocol the server runs (its `data_received`, on a transport that only counts what is written) and the
socket's own ASGI task, and the writer makes each move wait for the next turn of the event loop as a
commit does: our Python per move as the real server runs it, without the kernel and Postgres.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import os
import random
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import orjson
import uvicorn
from uvicorn.server import ServerState

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import interpreter  # noqa: E402

from app.api.ws import handle_message, with_table_sockets  # noqa: E402
from app.config import Settings  # noqa: E402
from app.main import create_app, uvicorn_options  # noqa: E402
from app.realtime.connections import Connection  # noqa: E402
from app.realtime.protocol import FRAME_WRITER, FramedWebSocketProtocol  # noqa: E402
from app.runtime import Runtime  # noqa: E402


class InstantWriter:
    """Stands in for the move writer: every move is durable at once."""

    async def write(self, item: Any) -> None:
        return None


class NextTurnWriter:
    """Stands in for the move writer: a move is durable at the next turn of the event loop, so its task
    waits and is woken as it is by a real commit."""

    async def write(self, item: Any) -> None:
        fut = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(fut.set_result, None)
        await fut


class CountingTransport:
    """What the websocket protocol writes to: counts the bytes, never pushes back."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.closing = False

    def write(self, data: bytes) -> None:
        self.sink.bytes += len(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    abort = close

    def pause_reading(self) -> None:
        return None

    resume_reading = pause_reading

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 40000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


def client_frame(payload: bytes) -> bytes:
    """One masked text frame, as a browser sends it."""
    key = os.urandom(4)
    n = len(payload)
    head = struct.pack("!BB", 0x81, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x81, 0x80 | 126, n)
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes((key * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
    return head + key + masked


class Sink:
    """A socket's frame writer that keeps only a count of the bytes."""

    def __init__(self) -> None:
        self.bytes = 0

    def __call__(self, frame: bytes) -> bool:
        self.bytes += len(frame)
        return True


async def set_up(client: httpx.AsyncClient, args: argparse.Namespace, index: int) -> tuple[str, list[str]]:
    """One started table; its players' user tokens."""
    tokens = []
    for k in range(args.players):
        r = await client.post("/api/auth/guest", json={"name": f"hot {index}.{k}"})
        tokens.append(r.json()["token"])
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    r = await client.post("/api/tables", json={"game": args.game, "seats": args.players}, headers=auth[0])
    tid = r.json()["id"]
    for k in range(1, args.players):
        await client.post(f"/api/tables/{tid}/join", json={}, headers=auth[k])
    r = await client.post(f"/api/tables/{tid}/start", headers=auth[0])
    assert r.status_code == 200, r.text
    return tid, tokens


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hotpath-") as folder:
        return await run_in(folder, args)


async def run_in(folder: str, args: argparse.Namespace) -> dict[str, Any]:
    # No per-socket rate limit: the moves come far faster than any person's; nor a limit on the guests and tables
    # one address makes, since every player here comes from one.
    settings = Settings(database_url=f"sqlite+aiosqlite:///{folder}/db.sqlite3", secret_key="h" * 40,
                        bot_delay=0, log_level="warning", ws_rate_per_second=1e9, ws_rate_burst=10**9,
                        limit_guests="1000000/hour", limit_tables="1000000/hour", max_open_tables=10**6)
    app = create_app(settings)
    rnd = random.Random(args.seed)
    async with app.router.lifespan_context(app):
        rt: Runtime = app.state.runtime
        transport = httpx.ASGITransport(app=app)
        client = httpx.AsyncClient(transport=transport, base_url="http://hot")
        tables = [await set_up(client, args, i) for i in range(args.tables)]
        real_writer = rt.play.writer
        sink = Sink()
        seated: dict[str, dict[str, Connection]] = {}

        def attach(tid: str, tokens: list[str], rec: Any) -> None:
            """Connections for the table's players (by seat) and its share of the spectators."""
            seated[tid] = {}
            for token in tokens:
                user = rt.signer.claims(token).user_id
                conn = Connection.open(SimpleNamespace(scope={"extensions": {FRAME_WRITER: sink}}, client=None), tid, user)  # type: ignore[arg-type]
                rt.hub.attach(conn)
                seated[tid][rec.seat_of(user) or ""] = conn
            for _ in range(args.spectators // args.tables):
                rt.hub.attach(Connection.open(SimpleNamespace(scope={"extensions": {FRAME_WRITER: sink}}, client=None),  # type: ignore[arg-type]
                                              tid, None))

        config = uvicorn.Config(with_table_sockets(app), log_level="warning",
                                **{k: v for k, v in uvicorn_options(settings).items() if k.startswith("ws")})
        config.load()
        feeds: dict[str, dict[str, FramedWebSocketProtocol]] = {}

        async def open_sockets(tid: str, tokens: list[str], rec: Any) -> None:
            """Real protocol instances for the table's players (by seat) and its spectators, each past its
            handshake and snapshot."""
            feeds[tid] = {}
            for token in tokens + [""] * (args.spectators // args.tables):
                proto = FramedWebSocketProtocol(config=config, server_state=ServerState(), app_state={})
                proto.connection_made(CountingTransport(sink))  # type: ignore[arg-type]
                cookie = f"Cookie: session={token}\r\n" if token else ""
                key = base64.b64encode(os.urandom(16))
                proto.data_received(
                    f"GET /ws/tables/{tid} HTTP/1.1\r\nHost: hot\r\n{cookie}Upgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .encode())
                if token:
                    feeds[tid][rec.seat_of(rt.signer.claims(token).user_id) or ""] = proto
            room = rt.hub.rooms.get(tid)
            while room is None or len(room.conns) < len(tokens) + args.spectators // args.tables:
                await asyncio.sleep(0.001)
                room = rt.hub.rooms.get(tid)

        through = open_sockets if args.through == "protocol" else attach
        for tid, tokens in tables:
            result = through(tid, tokens, await rt.tables.reload(tid))
            if result is not None:
                await result
        fast_writer = NextTurnWriter() if args.through == "protocol" else InstantWriter()
        rt.play.writer = fast_writer  # type: ignore[assignment]

        async def replace(slot: int) -> float:
            """A new table for a slot whose game ended (set up with the real writer); its CPU seconds."""
            t0 = time.process_time()
            rt.play.writer = real_writer
            tid, tokens = await set_up(client, args, 1000 + slot)
            tables[slot] = (tid, tokens)
            result = through(tid, tokens, await rt.tables.reload(tid))
            if result is not None:
                await result
            rt.play.writer = fast_writer  # type: ignore[assignment]
            return time.process_time() - t0

        async def play(moves: int) -> tuple[int, float]:
            """Play this many moves; the CPU seconds spent setting up replacement tables meanwhile."""
            played, aside = 0, 0.0
            while played < moves:
                slot = played % len(tables)
                tid = tables[slot][0]
                rec = rt.cache.get(tid) or await rt.tables.reload(tid)
                if rec.status != "playing":
                    aside += await replace(slot)
                    continue
                seat = rnd.choice(rec.awaiting)
                action = rnd.choice(rec.actions_for(seat))
                raw = orjson.dumps({"type": "act", "action": action, "client_id": f"c{played}"})
                if args.through == "protocol":
                    feeds[tid][seat].data_received(client_frame(raw))
                    # A few turns of the loop as a rule; longer when it waits on SQLite's one write lock, which a
                    # finished game's rating (its own transaction, once per game) holds for a real commit.
                    deadline = time.monotonic() + 10
                    spins = 0
                    while rec.version == (rt.cache.get(tid) or rec).version:
                        if time.monotonic() > deadline:
                            raise RuntimeError(f"move {played} was not applied")
                        spins += 1
                        await asyncio.sleep(0 if spins < 1000 else 0.0005)
                else:
                    await handle_message(rt, seated[tid][seat], raw.decode())
                played += 1
            return played, aside

        await play(args.moves // 10)  # warm-up
        gc.collect()
        per_move, sent = [], []
        for _ in range(args.reps):
            sink.bytes = 0
            t0 = time.process_time()
            n, aside = await play(args.moves)
            per_move.append((time.process_time() - t0 - aside) / n * 1e6)
            sent.append(sink.bytes / n)
        rt.play.writer = real_writer
        await client.aclose()
    return {"game": args.game, "through": args.through, "tables": args.tables, "players": args.players, "spectators": args.spectators,
            "moves": args.moves, "us_per_move": [round(x, 1) for x in per_move],
            "us_per_move_median": round(statistics.median(per_move), 1),
            "bytes_sent_per_move": round(statistics.median(sent))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="food-truck-champion")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--spectators", type=int, default=0, help="in total, spread over the tables")
    ap.add_argument("--moves", type=int, default=20000, help="moves per repetition")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--through", choices=["handler", "protocol"], default="handler",
                    help="enter each move at handle_message, or as a frame through the websocket protocol")
    args = ap.parse_args()
    import uvloop

    result = uvloop.run(run(args))
    print(f"hot path: {result['game']}, {result['tables']} tables x {result['players']} players + "
          f"{result['spectators']} spectators: {result['us_per_move_median']} us of CPU per move "
          f"(runs {result['us_per_move']}), {result['bytes_sent_per_move']} bytes sent per move; "
          f"{interpreter()}")
    print(orjson.dumps(result).decode())


if __name__ == "__main__":
    main()
