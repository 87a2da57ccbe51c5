"""Human-paced load: many tables of all four games, players who think for seconds, watchers, lobby, chat, reconnects.

Usage (defaults: 300 tables, one server process, 60 s measured after 20 s of play):
    .venv/bin/python bench/human.py --tables 100 --duration 20 --warmup 10        # smoke run
    .venv/bin/python bench/human.py --tables 5000 --servers 1                     # 15,000 sockets, one process
    .venv/bin/python bench/human.py --tables 10000 --servers 2                    # 30,000 sockets, two processes
    .venv/bin/python bench/human.py --tables 2000 --think-median 1                # 5x the moves of 2,000 tables

What a run holds (every figure a flag; the defaults, stated here, are what the report quotes):
- Tables of the four games in the mix `--mix` (default Food Truck Champion 40 %, Food Truck 30 %, Foodies 20 %,
  Food Chain Magnate 10 %), `--seats` seats each (3); `--bot-share` of them (20 %) have a bot (level easy, the
  servers' BOT_DELAY `--bot-delay` 2 s) in their last seat, the other seats are people.
- A person thinks before each move for a time drawn from a lognormal distribution of seconds, median
  `--think-median` (5 s) and shape `--think-sigma` (0.8: p10 1.8 s, p90 14 s, mean 6.9 s); one move in flight.
- `--watchers` (0.2) spectators per table: one at every fifth table.
- Lobby traffic from `--lobby-rate` (2) people a second: each lists the open tables (`GET /api/tables?status=open`),
  and every `--lobby-every`-th (4th) of them also creates a table, another joins it and the host starts it (those
  tables are then left to stand, as people abandon tables).
- Chat: every seated person posts a line over their socket `--chat-per-minute` (0.2) times a minute on average.
- Every socket sends the browser's keepalive ping every `--ping` (20) seconds.
- Reconnects: every minute a share `--reconnect-share` (3 %) of the open sockets drop (a closing handshake) and
  come back `--offline` (2) seconds later as a new socket to the same seat, which must resume from a snapshot.

It raises its open-file limit to the hard limit (the servers and socket processes inherit it), creates a fresh
Postgres database and starts `--servers` server processes on it. Set-up, `--setup sql` (the default): one template
table per game and bot layout is set up through REST (guests, create, join, bot, start), then cloned in SQL for
every table with fresh ids, guests and seed commitments (the same seed as its template, so clones begin alike and
part at their first random moves); the guests' tokens are signed here with the servers' key. Through REST a table
costs ~25 ms of server CPU and seven requests, which on this shared machine took minutes per thousand tables;
the clones take seconds. `--setup rest` sets every table up through REST (`--setup-concurrency` tables at a time per
server; more exhausts a server's connection pool). A finished game's next table is set up through REST either
way. Each table's sockets all go to
one server process (`index % servers`, as deploy/nginx.conf routes by table id); each server's sockets are played by
its own bench/loadclient.c process bound to its own loopback source address (127.0.0.1+k), so no process holds more
than ~15,000 sockets (a process here may open at most 20,000 files).

Accounting, as bench/load.py's: ack latency (act sent -> ack), delivery latency to the table's other sockets (act
sent -> first update of that version or newer), deliveries missed, updates out of order. A socket that is dropping is
not owed the updates of moves sent in its last `GRACE` seconds or after; instead its successor must resume from a
snapshot at least as new as every move acknowledged before it opened (a stale resume is counted as lost). Also:
chat acks, lobby requests' latency by kind, server RSS (each server and its bot worker), CPU of the servers,
Postgres and the load generator, and the machine's load average at the start and end of the window.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import resource
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interpreter import interpreter  # noqa: E402
from load import (  # noqa: E402
    PG,
    SECRET_KEY,
    TICK,
    Driver,
    Server,
    Sock,
    Stats,
    cpu_pct_since,
    cpu_ticks,
    loadavg,
    pct,
    psql,
    run_queue_ns,
    start_server,
    stop_server,
    ticks_of,
    wait_healthy,
)

from app.services.auth import TokenSigner  # noqa: E402

GRACE = 1.0  # seconds before a socket's drop whose moves it is not owed (its successor's snapshot carries them)
GAMES = ("food-truck-champion", "food-truck", "foodies", "food-chain-magnate")


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (a server and its bot worker), MB."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                pids += [int(c) for c in f.read().split()]
    for p in pids:
        with contextlib.suppress(OSError), open(f"/proc/{p}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


def parse_mix(text: str) -> list[tuple[str, float]]:
    mix = []
    for part in text.split(","):
        game, _, weight = part.partition(":")
        if game not in GAMES:
            raise argparse.ArgumentTypeError(f"unknown game {game!r} (one of {', '.join(GAMES)})")
        mix.append((game, float(weight or 1)))
    return mix


class Seat(Sock):
    """A socket of a human-paced table; `leaving_at` marks a deliberate drop, which is no error."""

    def __init__(self, driver: Driver, stats: Stats, table: str, acting: bool, slot: Table, token: str | None) -> None:
        super().__init__(driver, stats, table, acting)
        self.slot, self.token = slot, token
        self.leaving_at: float | None = None  # when its drop was asked
        self.successor: Seat | None = None
        self.finished = _GameOver(self)  # type: ignore[assignment]

    async def run(self, url: str, token: str | None = None, held: bool = False) -> None:
        self.driver.open(self, url, token)
        await self.closed.wait()
        if not self.stats.stopping and self.leaving_at is None:
            self.stats.errors[f"socket:{self.close_reason}"] += 1
            if not self.game_over:
                self.stats.errors["socket_closed_early"] += 1
                self.slot.over.set()


class _GameOver:
    """Stands in for a socket's `finished` event: the driver sets it when the game ends (or the socket closes);
    only the game's end ends the table."""

    def __init__(self, sock: Seat) -> None:
        self.sock = sock

    def set(self) -> None:
        if self.sock.game_over:
            self.sock.slot.over.set()

    async def wait(self) -> None:
        await self.sock.slot.over.wait()


class Table:
    """One table's place in the run: its people, the current table, its sockets (every one ever opened)."""

    def __init__(self, index: int, run: Run) -> None:
        self.index, self.run = index, run
        self.server = index % len(run.servers)
        self.http = run.http[self.server]
        self.driver = run.drivers[self.server % len(run.drivers)]
        rng = random.Random(run.args.seed * 1_000_003 + index)
        self.game = rng.choices([g for g, _ in run.mix], [w for _, w in run.mix])[0]
        self.bot = rng.random() < run.args.bot_share
        self.watchers = int((index + 1) * run.args.watchers) - int(index * run.args.watchers)
        self.tokens: list[str] = []
        self.seeded: str | None = None  # the table cloned for this place (--setup sql)
        self.socks: list[Seat] = []
        self.live: list[Seat] = []  # the sockets open now (or opening)
        self.over = asyncio.Event()
        self.ready = asyncio.Event()

    async def post(self, path: str, token: str, body: dict[str, Any], kind: str) -> dict[str, Any]:
        r = await self.http.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
        if r.status_code != 200:
            self.run.stats.errors[f"rest:{kind}:{r.status_code}"] += 1
            raise RuntimeError(f"{path}: {r.status_code} {r.text[:200]}")
        data: dict[str, Any] = r.json()
        return data

    async def new_table(self) -> str:
        args = self.run.args
        people = args.seats - (1 if self.bot else 0)
        if not self.tokens:
            for k in range(people):
                r = await self.http.post("/api/auth/guest", json={"name": f"human {self.index}.{k}"})
                if r.status_code != 200:
                    self.run.stats.errors[f"rest:guest:{r.status_code}"] += 1
                    raise RuntimeError(f"guest: {r.status_code}")
                self.tokens.append(r.json()["token"])
        table = await self.post("/api/tables", self.tokens[0],
                                {"game": self.game, "seats": args.seats, "visibility": "public"}, "create")
        tid = str(table["id"])
        for k in range(1, people):
            await self.post(f"/api/tables/{tid}/join", self.tokens[k], {}, "join")
        if self.bot:
            await self.post(f"/api/tables/{tid}/bots", self.tokens[0], {"seat": str(args.seats - 1), "level": "easy"},
                            "bot")
        await self.post(f"/api/tables/{tid}/start", self.tokens[0], {}, "start")
        self.run.stats.tables_started += 1
        return tid

    def url(self, tid: str) -> str:
        return f"{self.run.servers[self.server].url.replace('http', 'ws', 1)}/ws/tables/{tid}"

    def open(self, tid: str, acting: bool, token: str | None) -> Seat:
        s = Seat(self.driver, self.run.stats, tid, acting, self, token)
        self.socks.append(s)
        self.live.append(s)
        self.run.tasks.add(t := asyncio.create_task(s.run(self.url(tid), token)))
        t.add_done_callback(self.run.tasks.discard)
        return s

    async def play(self) -> None:
        stats = self.run.stats
        while not stats.stopping:
            try:
                # A cloned table only opens its sockets: more of those go at once than REST set-ups.
                async with (self.run.open_gates if self.seeded else self.run.gates)[self.server]:
                    tid = self.seeded or await self.new_table()
                    self.over.clear()
                    self.live = []
                    socks = [self.open(tid, True, t) for t in self.tokens]
                    socks += [self.open(tid, False, None) for _ in range(self.watchers)]
                    await asyncio.wait_for(asyncio.gather(*(self._opened(s) for s in socks)), 120)
                    self.seeded = None  # a failed opening tries the same table again
            except Exception as exc:  # noqa: BLE001 - counted; the table tries again
                stats.errors[f"setup:{type(exc).__name__}"] += 1
                for s in self.live:
                    s.leaving_at = time.perf_counter()
                    await s.close()
                await asyncio.sleep(1)
                continue
            self.ready.set()
            await self.run.stop_or(self.over.wait())
            if stats.stopping:
                return
            stats.games_finished += 1
            for s in list(self.live):
                s.leaving_at = time.perf_counter()
                await s.close()

    @staticmethod
    async def _opened(s: Seat) -> None:
        closed = asyncio.create_task(s.closed.wait())
        snap = asyncio.create_task(s.snapshot.wait())
        await asyncio.wait([closed, snap], return_when=asyncio.FIRST_COMPLETED)
        closed.cancel()
        snap.cancel()
        if not s.snapshot_seen:
            raise RuntimeError("socket closed before its snapshot")

    async def reconnect(self, s: Seat) -> None:
        """Drop one socket, and after --offline seconds open its successor to the same seat."""
        s.leaving_at = time.perf_counter()
        self.live.remove(s)
        await s.close()
        await asyncio.sleep(self.run.args.offline)
        if self.run.stats.stopping or self.over.is_set():
            return
        s.successor = self.open(s.table, s.acting, s.token)
        self.run.reconnects += 1


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.mix = args.mix
        self.stats = Stats()
        self.servers: list[Server] = []
        self.http: list[httpx.AsyncClient] = []
        self.drivers: list[Driver] = []
        self.gates: list[asyncio.Semaphore] = []
        self.open_gates: list[asyncio.Semaphore] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopped = asyncio.Event()
        self.tables: list[Table] = []
        self.lobby_ms: dict[str, list[float]] = {}
        self.reconnects = 0
        self.chats_sent = 0
        self.db_url = ""

    async def progress(self) -> None:
        """Every 10 s of the set-up, how many tables have their sockets open."""
        while True:
            await asyncio.sleep(10)
            ready = sum(t.ready.is_set() for t in self.tables)
            print(f"human: {ready} of {len(self.tables)} tables open (load average {loadavg()}; errors "
                  f"{dict(self.stats.errors)})", file=sys.stderr)

    async def stop_or(self, aw: Any) -> None:
        """Wait for `aw` or the run's stop, whichever comes first."""
        a, b = asyncio.ensure_future(aw), asyncio.create_task(self.stopped.wait())
        await asyncio.wait([a, b], return_when=asyncio.FIRST_COMPLETED)
        a.cancel()
        b.cancel()

    def stop(self) -> None:
        self.stats.stopping = True
        self.stopped.set()

    async def lobby(self) -> None:
        """People in the lobby: list the open tables; every --lobby-every-th also creates, joins and starts one."""
        args = self.args
        rng = random.Random(args.seed + 7)
        people: list[tuple[httpx.AsyncClient, list[str]]] = []
        for k, h in enumerate(self.http):
            tokens = []
            for i in range(2):
                while (r := await h.post("/api/auth/guest", json={"name": f"lobby {k}.{i}"})).status_code != 200:
                    self.stats.errors[f"lobby:guest:{r.status_code}"] += 1
                    await asyncio.sleep(1)
                tokens.append(r.json()["token"])
            people.append((h, tokens))
        n = 0
        inflight: set[asyncio.Task[None]] = set()
        while not self.stats.stopping:
            await asyncio.sleep(rng.expovariate(args.lobby_rate))
            n += 1
            h, tokens = people[n % len(people)]
            task = asyncio.create_task(self._lobby_visit(h, tokens, n % args.lobby_every == 0))
            inflight.add(task)
            task.add_done_callback(inflight.discard)

    async def _timed(self, kind: str, call: Any) -> httpx.Response:
        t = time.perf_counter()
        r: httpx.Response = await call
        if self.stats.measuring:
            self.lobby_ms.setdefault(kind, []).append((time.perf_counter() - t) * 1000)
        if r.status_code != 200:
            self.stats.errors[f"lobby:{kind}:{r.status_code}"] += 1
        return r

    async def _lobby_visit(self, h: httpx.AsyncClient, tokens: list[str], make: bool) -> None:
        try:
            r = await self._timed("list", h.get("/api/tables", params={"status": "open"}))
            body = r.json() if r.status_code == 200 else []
            # A plain list, or a page with the list in it (cursor pagination).
            if not isinstance(body, list) and not (isinstance(body, dict) and any(isinstance(v, list)
                                                                                for v in body.values())):
                self.stats.errors["lobby:list:shape"] += 1
            if not make:
                return
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            game = GAMES[random.randrange(len(GAMES))]
            r = await self._timed("create", h.post("/api/tables", json={"game": game, "seats": 2, "visibility": "public"},
                                                   headers=auth[0]))
            tid = r.json()["id"]
            await self._timed("join", h.post(f"/api/tables/{tid}/join", json={}, headers=auth[1]))
            await self._timed("start", h.post(f"/api/tables/{tid}/start", json={}, headers=auth[0]))
        except (httpx.HTTPError, KeyError, ValueError) as exc:
            self.stats.errors[f"lobby:{type(exc).__name__}"] += 1

    async def chat(self) -> None:
        """Seated sockets post chat lines, --chat-per-minute each on average (a Poisson stream over all)."""
        rng = random.Random(self.args.seed + 11)
        while not self.stats.stopping:
            seated = [s for t in self.tables for s in t.live if s.acting and s.snapshot_seen]
            rate = len(seated) * self.args.chat_per_minute / 60
            if not seated or rate <= 0:
                await asyncio.sleep(1)
                continue
            # A second's lines at a time: choosing among tens of thousands of sockets per line costs too much here.
            end = time.perf_counter() + 1
            for _ in range(int(rate) + (rng.random() < rate - int(rate))):
                s = rng.choice(seated)
                if s.leaving_at is None and not s.closed.is_set():
                    s.driver.send(f"chat {s.serial}")
                    self.chats_sent += 1
            await asyncio.sleep(max(0.0, end - time.perf_counter()))

    async def churn(self) -> None:
        """Every second, drop --reconnect-share / 60 of the open sockets; each comes back --offline s later."""
        rng = random.Random(self.args.seed + 13)
        carry = 0.0
        while not self.stats.stopping:
            await asyncio.sleep(1)
            live = [(t, s) for t in self.tables for s in t.live if s.snapshot_seen and s.leaving_at is None]
            carry += len(live) * self.args.reconnect_share / 60
            k, carry = int(carry), carry - int(carry)
            for t, s in rng.sample(live, min(k, len(live))):
                self.tasks.add(task := asyncio.create_task(t.reconnect(s)))
                task.add_done_callback(self.tasks.discard)


async def seed_tables(run: Run) -> None:
    """Clone a REST-made template table per game and bot layout for every table of the run, in SQL."""
    import asyncpg  # the servers' own driver

    signer = TokenSigner(SECRET_KEY, 30 * 86400)
    conn = await asyncpg.connect(run.db_url)
    try:
        columns: dict[str, list[str]] = {}
        for name in ("users", "game_tables", "seats", "table_log"):
            rows = await conn.fetch("SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
                                    "ORDER BY ordinal_position", name)
            columns[name] = [r["column_name"] for r in rows if not (name == "seats" and r["column_name"] == "id")]

        async def clone(table: str, where: str, arrays: list[list[str]], names: list[str], swap: dict[str, str],
                        *params: Any) -> None:
            cols = columns[table]
            exprs = ", ".join(swap.get(c, f"t.{c}") for c in cols)
            unnest = ", ".join(f"${k + 1}::text[]" for k in range(len(arrays)))
            await conn.execute(
                f"INSERT INTO {table} ({', '.join(cols)}) SELECT {exprs} FROM {table} t, unnest({unnest}) AS n({', '.join(names)}) "
                f"WHERE {where}", *arrays, *params)

        groups: dict[tuple[str, bool], list[Table]] = {}
        for t in run.tables:
            groups.setdefault((t.game, t.bot), []).append(t)
        for (game, bot), members in groups.items():
            template = Table(-1 - len(groups), run)
            template.game, template.bot, template.http = game, bot, run.http[0]
            tid = await template.new_table()
            run.stats.tables_started -= 1  # a template is not one of the run's tables
            seats = await conn.fetch("SELECT seat, user_id FROM seats WHERE table_id = $1 ORDER BY seat", tid)
            people = [r for r in seats if r["user_id"] is not None]
            ids = [f"{(0xB0 << 56) + t.index:016x}" for t in members]
            users = [[f"{(0xA0 << 56) + t.index * 8 + k:016x}" for t in members] for k in range(len(people))]
            for k, person in enumerate(people):
                await clone("users", "t.id = $3", [users[k], [f"human {t.index}.{k}" for t in members]], ["id", "name"],
                            {"id": "n.id", "name": "n.name"}, person["user_id"])
            await clone("game_tables", "t.id = $3", [ids, users[0]], ["id", "host"],
                        {"id": "n.id", "host_id": "n.host", "name": "'human ' || n.id",
                         "seed_commitment": "encode(sha256(convert_to(n.id || ':' || t.seed::text, 'UTF8')), 'hex')"},
                        tid)
            for r in seats:
                who = next((i for i, p in enumerate(people) if p["seat"] == r["seat"]), None)
                arrays = [ids, users[who] if who is not None else ids]
                swap = {"table_id": "n.tid"} | ({"user_id": "n.uid"} if who is not None else {})
                await clone("seats", "t.table_id = $3 AND t.seat = $4", arrays, ["tid", "uid"], swap, tid, r["seat"])
            await clone("table_log", "t.table_id = $2", [ids], ["tid"], {"table_id": "n.tid"}, tid)
            for t, table_id in zip(members, ids, strict=True):
                t.seeded = table_id
                t.tokens = [signer.issue(users[k][members.index(t)]) for k in range(len(people))]
    finally:
        await conn.close()


def accounting(run: Run) -> tuple[list[float], int, int, int, int]:
    """Delivery latencies (ms), missed deliveries, deliveries owed, resumes checked, stale resumes."""
    stats = run.stats
    by_table: dict[str, list[Seat]] = {}
    for t in run.tables:
        for s in t.socks:
            by_table.setdefault(s.table, []).append(s)
    lat: list[float] = []
    missed = owed = 0
    for ack in stats.acks:
        if ack.version <= ack.base:
            continue  # a move private to its seat until the phase ends (a draft): no update to anyone
        for s in by_table.get(ack.table, []):
            if s.serial == ack.actor or s.opened == 0 or s.opened > ack.sent:
                continue
            if s.leaving_at is not None and ack.sent >= s.leaving_at - GRACE:
                continue
            owed += 1
            i = bisect.bisect_left(s.versions, ack.version)
            if i < len(s.versions):
                lat.append((s.times[i] - ack.sent) * 1000)
            else:
                missed += 1
                if os.environ.get("HUMAN_DEBUG"):
                    print(f"missed: table {ack.table} v{ack.version} sent {ack.sent:.3f} by {ack.actor} -> sock "
                          f"{s.serial} acting {s.acting} opened {s.opened:.3f} snap v{s.snapshot_version} leaving "
                          f"{s.leaving_at} closed {s.closed_at:.3f} {s.close_reason} last {s.versions[-3:]} "
                          f"{s.times[-1:]}", file=sys.stderr)
    # Every successor's first snapshot must hold every move acknowledged before it opened.
    acked: dict[str, list[tuple[float, int]]] = {}
    for ack, ms in zip(stats.acks, stats.ack_ms, strict=True):
        acked.setdefault(ack.table, []).append((ack.sent + ms / 1000, ack.version))
    resumes = stale = 0
    for t in run.tables:
        for s in t.socks:
            new = s.successor
            if new is None or not new.snapshot_seen:
                continue
            resumes += 1
            newest = max((v for at, v in acked.get(s.table, []) if at < new.opened), default=0)
            if new.snapshot_version < newest:
                stale += 1
    return lat, missed, owed, resumes, stale


async def main_run(args: argparse.Namespace) -> dict[str, Any]:
    run = Run(args)
    stats = run.stats
    db = f"bench_human_{int(time.time())}_{os.getpid()}"
    log_dir = Path(args.log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    created = False
    try:
        psql(f"CREATE DATABASE {db}")
        created = True
        db_url = run.db_url = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{db}"
        env = {"BOT_DELAY": str(args.bot_delay), **dict(kv.split("=", 1) for kv in args.server_env)}
        run.servers.append(start_server(db_url, args.port, True, log_dir, args.broker_url, env))
        await wait_healthy(run.servers[0])
        for k in range(1, args.servers):
            run.servers.append(start_server(db_url, args.port + k, False, log_dir, args.broker_url, env))
        for s in run.servers[1:]:
            await wait_healthy(s)
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        run.http = [httpx.AsyncClient(base_url=s.url, timeout=120, limits=limits) for s in run.servers]
        run.gates = [asyncio.Semaphore(args.setup_concurrency) for _ in run.servers]
        run.open_gates = [asyncio.Semaphore(args.open_concurrency) for _ in run.servers]
        for k in range(args.clients or args.servers):
            think = ["--think-median", str(args.think_median), "--think-sigma", str(args.think_sigma),
                     "--ping", str(args.ping)]
            run.drivers.append(await Driver.start(stats, 0, args.seed + k, False,
                                                  [*think, "--bind", f"127.0.0.{2 + k}"]))
        pids = [s.proc.pid for s in run.servers]
        rss_idle = [tree_rss_mb(p) for p in pids]
        run.tables = [Table(i, run) for i in range(args.tables)]
        t_setup = time.perf_counter()
        if args.setup == "sql":
            await seed_tables(run)
            print(f"human: {args.tables} tables cloned in {time.perf_counter() - t_setup:.1f} s", file=sys.stderr)
        setups = [asyncio.create_task(t.play()) for t in run.tables]
        ready = asyncio.gather(*(t.ready.wait() for t in run.tables))
        progress = asyncio.create_task(run.progress())
        try:
            await asyncio.wait_for(ready, args.setup_timeout)
        except TimeoutError:
            raise RuntimeError(f"set-up not done in {args.setup_timeout} s: {dict(stats.errors)}") from None
        progress.cancel()
        setup_s = time.perf_counter() - t_setup
        rss_ready = [tree_rss_mb(p) for p in pids]
        sockets = sum(len(t.live) for t in run.tables)
        stats.playing = True
        for d in run.drivers:
            d.send("play")
        background = [asyncio.create_task(c) for c in (run.lobby(), run.chat(), run.churn())]
        await asyncio.sleep(args.warmup)
        load_start = loadavg()
        cpu0 = {p: cpu_ticks(p) for p in pids}
        wait0 = {p: run_queue_ns(p) for p in pids}
        pg0 = ticks_of("postgres")
        wal0 = psql("SELECT pg_current_wal_lsn()")
        db_stats = ("SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, blks_read, blks_hit "
                    f"FROM pg_stat_database WHERE datname = '{db}'")
        writes0 = [int(x) for x in psql(db_stats).split("|")]
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        drivers0 = sum(cpu_ticks(d.proc.pid) for d in run.drivers)
        rss_peak = [tree_rss_mb(p) for p in pids]
        t0 = time.perf_counter()
        stats.window = (t0, t0 + args.duration)
        stats.measuring = True
        chats0, reconnects0 = run.chats_sent, run.reconnects
        while time.perf_counter() < t0 + args.duration:
            await asyncio.sleep(min(2.0, t0 + args.duration - time.perf_counter()))
            rss_peak = [max(a, tree_rss_mb(p)) for a, p in zip(rss_peak, pids, strict=True)]
        stats.measuring = False
        window_end = time.perf_counter()
        elapsed = window_end - t0
        cpu = [(cpu_ticks(p) - cpu0[p]) / TICK / elapsed * 100 for p in pids]
        waiting = [(run_queue_ns(p) - wait0[p]) / 1e9 / elapsed * 100 for p in pids]
        pg_cpu = cpu_pct_since(pg0, "postgres", elapsed)
        wal_bytes = int(psql(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{wal0}')"))
        await asyncio.sleep(1)  # the statistics collector's reports lag the transactions by up to a second
        writes = [b - a for a, b in zip(writes0, [int(x) for x in psql(db_stats).split("|")], strict=True)]
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = ((me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime) * 100
                      + (sum(cpu_ticks(d.proc.pid) for d in run.drivers) - drivers0) / TICK * 100) / elapsed
        rss_end = [tree_rss_mb(p) for p in pids]
        load_end = loadavg()
        chats, reconnects = run.chats_sent - chats0, run.reconnects - reconnects0
        run.stop()
        for d in run.drivers:
            d.send("stop")
        await asyncio.sleep(args.drain)
        for k, d in enumerate(run.drivers):
            await d.collect(log_dir / f"human-{os.getpid()}-{k}.txt", window_end)
        lat, missed, owed, resumes, stale = accounting(run)
        for b in background:
            if b.done() and b.exception() is not None:
                stats.errors[f"bench:{type(b.exception()).__name__}"] += 1
                print(f"human: {b.exception()!r}", file=sys.stderr)
            b.cancel()
        await asyncio.gather(*(s.close() for t in run.tables for s in t.live))
        await asyncio.wait(setups, timeout=10)
        lobby = {k: {"n": len(v), "p50_ms": round(pct(v, 0.5), 1), "p99_ms": round(pct(v, 0.99), 1)}
                 for k, v in sorted(run.lobby_ms.items())}
        games = Counter(t.game for t in run.tables)
        return {
            "tables": args.tables, "servers": args.servers, "socket_processes": len(run.drivers),
            "sockets_at_start": sockets, "seats": args.seats, "bot_tables": sum(t.bot for t in run.tables),
            "watchers": sum(t.watchers for t in run.tables), "games": dict(games),
            "think": f"lognormal median {args.think_median:g} s sigma {args.think_sigma:g}",
            "lobby_rate_per_s": args.lobby_rate, "lobby_every": args.lobby_every,
            "chat_per_minute": args.chat_per_minute, "reconnect_share_per_minute": args.reconnect_share,
            "setup_s": round(setup_s, 1), "seconds": round(elapsed, 1),
            "moves_per_s": round(len(stats.ack_ms) / elapsed, 1),
            "ack_p50_ms": round(pct(stats.ack_ms, 0.5), 1), "ack_p99_ms": round(pct(stats.ack_ms, 0.99), 1),
            "ack_max_ms": round(max(stats.ack_ms, default=float("nan")), 1),
            "delivery_p50_ms": round(pct(lat, 0.5), 1), "delivery_p99_ms": round(pct(lat, 0.99), 1),
            "deliveries": owed, "deliveries_missed": missed, "out_of_order_updates": stats.out_of_order,
            "resumes_checked": resumes, "stale_resumes": stale,
            "chats_sent": chats, "chat_acks": len(stats.chat_ms), "chat_ack_p99_ms": round(pct(stats.chat_ms, 0.99), 1),
            "reconnects": reconnects, "lobby": lobby,
            "errors": dict(stats.errors), "games_finished": stats.games_finished,
            "server_cpu_pct": [round(c, 1) for c in cpu], "postgres_cpu_pct": round(pg_cpu, 1),
            # How much of the window each server's event loop was ready to run but waited for a CPU.
            "server_cpu_wait_pct": [round(w, 1) for w in waiting],
            # The whole server's WAL in the window (other databases on it too): an upper bound per move.
            "wal_bytes_per_s": round(wal_bytes / elapsed),
            # This database's own counts in the window (moves, chat, lobby, reconnects' reads and all), per move.
            "db_per_move": {k: round(v / max(1, len(stats.ack_ms)), 2) for k, v in zip(
                ("commits", "rows_inserted", "rows_updated", "rows_deleted", "blocks_read", "blocks_hit"), writes,
                strict=True)}, "wal_bytes_per_move": round(wal_bytes / max(1, len(stats.ack_ms))),
            "client_cpu_pct": round(client_cpu, 1),
            "server_rss_mb_idle": [round(x, 1) for x in rss_idle], "server_rss_mb_ready": [round(x, 1) for x in rss_ready],
            "server_rss_mb": [round(x, 1) for x in rss_end], "server_rss_peak_mb": [round(x, 1) for x in rss_peak],
            "server_rss_total_peak_mb": round(sum(rss_peak), 1),
            "load_average": [load_start, load_end], "python": interpreter(),
            "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
    finally:
        run.stop()
        for d in run.drivers:
            await d.stop()
        for h in run.http:
            await h.aclose()
        for s in run.servers:
            stop_server(s)
        if created and not args.keep_db:
            with contextlib.suppress(Exception):
                psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")


def report(r: dict[str, Any]) -> None:
    print(f"human: {r['tables']} tables ({r['games']}; {r['bot_tables']} with a bot) x {r['seats']} seats + "
          f"{r['watchers']} watchers = {r['sockets_at_start']} sockets on {r['servers']} server process(es), "
          f"{r['socket_processes']} socket process(es); think {r['think']}; set-up {r['setup_s']} s, measured "
          f"{r['seconds']} s")
    print(f"  moves/s              {r['moves_per_s']}")
    print(f"  ack latency ms       p50 {r['ack_p50_ms']}  p99 {r['ack_p99_ms']}  max {r['ack_max_ms']}")
    print(f"  delivery latency ms  p50 {r['delivery_p50_ms']}  p99 {r['delivery_p99_ms']}  ({r['deliveries']} owed, "
          f"{r['deliveries_missed']} missed, {r['out_of_order_updates']} out of order; {r['resumes_checked']} "
          f"resumes, {r['stale_resumes']} stale)")
    print(f"  chat                 {r['chats_sent']} lines, {r['chat_acks']} acked, ack p99 {r['chat_ack_p99_ms']} ms; "
          f"reconnects {r['reconnects']}")
    print(f"  lobby                {r['lobby']}")
    print(f"  errors               {r['errors'] or 'none'}")
    print(f"  server RSS MB        idle {r['server_rss_mb_idle']} ready {r['server_rss_mb_ready']} end "
          f"{r['server_rss_mb']} peak {r['server_rss_peak_mb']} (in all {r['server_rss_total_peak_mb']})")
    print(f"  Postgres WAL         {r['wal_bytes_per_s']:,} bytes/s, {r['wal_bytes_per_move']:,} per move (the whole "
          "server's, other databases included)")
    print(f"  this database        per move: {r['db_per_move']}")
    print(f"  CPU %                servers {r['server_cpu_pct']} (waiting for a CPU {r['server_cpu_wait_pct']})  postgres {r['postgres_cpu_pct']}  "
          f"load generator {r['client_cpu_pct']}   (load average {r['load_average'][0]} -> {r['load_average'][1]}, "
          f"{os.cpu_count()} cores, {r['utc']})")
    print(orjson.dumps(r).decode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=300)
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--mix", type=parse_mix,
                    default=parse_mix("food-truck-champion:40,food-truck:30,foodies:20,food-chain-magnate:10"),
                    help="games and weights, e.g. food-truck:1,foodies:1")
    ap.add_argument("--bot-share", type=float, default=0.2, help="share of tables with a bot in the last seat")
    ap.add_argument("--bot-delay", type=float, default=2.0, help="the servers' BOT_DELAY (seconds)")
    ap.add_argument("--watchers", type=float, default=0.2, help="spectators per table")
    ap.add_argument("--think-median", type=float, default=5.0, help="median think time before a move (s)")
    ap.add_argument("--think-sigma", type=float, default=0.8, help="the lognormal think time's shape")
    ap.add_argument("--lobby-rate", type=float, default=2.0, help="lobby visits per second (each lists tables)")
    ap.add_argument("--lobby-every", type=int, default=4, help="every n-th visit also creates, joins, starts")
    ap.add_argument("--chat-per-minute", type=float, default=0.2, help="chat lines per seated socket per minute")
    ap.add_argument("--reconnect-share", type=float, default=0.03, help="share of sockets dropping per minute")
    ap.add_argument("--ping", type=float, default=20.0, help="seconds between a socket's keepalives (the browser's)")
    ap.add_argument("--offline", type=float, default=2.0, help="seconds a dropped socket stays away")
    ap.add_argument("--servers", type=int, default=1)
    ap.add_argument("--clients", type=int, default=0, help="socket processes (default: one per server)")
    ap.add_argument("--broker-url", default="")
    ap.add_argument("--server-env", action="append", default=[], help="KEY=VALUE for the servers (repeatable)")
    ap.add_argument("--port", type=int, default=8400)
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--warmup", type=float, default=20)
    ap.add_argument("--drain", type=float, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--setup", choices=["sql", "rest"], default="sql",
                    help="clone template tables in SQL, or set every table up through REST")
    ap.add_argument("--setup-concurrency", type=int, default=4, help="tables being set up at once, per server")
    ap.add_argument("--open-concurrency", type=int, default=8, help="cloned tables opening their sockets at once, per server")
    ap.add_argument("--setup-timeout", type=float, default=1800)
    ap.add_argument("--keep-db", action="store_true")
    ap.add_argument("--log-dir", default=str(Path(tempfile.gettempdir()) / "bench-human-logs"))
    args = ap.parse_args()
    if args.tables < 1 or args.seats < 2:
        ap.error("need a table and two seats")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with contextlib.suppress(ImportError), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import uvloop

        uvloop.install()
    bound = args.setup_timeout + args.warmup + args.duration + args.drain + 180
    try:
        result = asyncio.run(asyncio.wait_for(main_run(args), bound))
    except TimeoutError:
        print(f"human: hard time bound ({bound:.0f} s) hit", file=sys.stderr)
        sys.exit(2)
    except asyncio.CancelledError:
        print("human: a socket process (bench/loadclient.c) exited during the run", file=sys.stderr)
        sys.exit(2)
    report(result)


if __name__ == "__main__":
    main()
