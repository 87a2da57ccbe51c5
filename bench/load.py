"""Load test: simulated browser clients over real websockets against the server on Postgres.

Usage (defaults: 200 tables x 4 players + 200 spectators, Food Truck Champion, one server process):
    .venv/bin/python bench/load.py --duration 30
    .venv/bin/python bench/load.py --tables 5 --spectators 5 --duration 5 --warmup 2      # smoke run
    .venv/bin/python bench/load.py --servers 2                                            # scale-out
    .venv/bin/python bench/load.py --servers 2 --broker-url redis://127.0.0.1:6379/0      # ... over Redis
    .venv/bin/python bench/load.py --rate 300                                             # open-loop cap

It creates a fresh Postgres database, starts one or two server processes (`python -m app.main`, BOT_DELAY=0,
LOG_LEVEL=warning) on it, and for each table slot: guest users via REST, one creates the table, the others
join, the host starts it; then every player and the slot's spectators open websockets (spread over the
server processes). Each player acts as soon as its snapshot/update says it is awaited, sending one of the
legal actions listed for it (no expected_version, as the browser client does), one command in flight per
socket. The sockets are played by bench/loadclient.c (compiled on first use with `cc`): one process, in C,
so that the load generator takes as little as it can of the cores it shares with the servers. A finished
game is replaced by a new table in the same slot. After --warmup seconds it measures for --duration seconds, then stops acting, lets deliveries drain, closes everything, stops the servers it
started (by PID) and drops the database. Loopback only; a hard time bound ends it in every case.

Reports: commands applied/s (acks), ack latency p50/p95/p99 (act sent -> ack received), update delivery
latency to the table's other sockets p50/p99 (act sent -> first update of that version or newer on each
other socket), deliveries missed, errors by code, server CPU % and resident memory (each process),
Postgres CPU %, this client's CPU % (both of its processes), the servers' group commits, garbage-collector
pauses and time from a move's check to its durability in the window (from their /metrics), how long the disk
took to flush a page meanwhile (bench/disk_probe.py), and how late the sockets' event loop woke (a late client
delays every ack it reads, whatever the server did).
`--timeline FILE` writes the acks per 100 ms of the window, to tell a stall from a steady queue and the
client's own stalls from the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import itertools
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interpreter import interpreter  # noqa: E402
from proxy import Proxy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
PG = {"host": "127.0.0.1", "port": "5432", "user": "postgres"}
CLIENT_SRC = Path(__file__).resolve().parent / "loadclient.c"  # the sockets' side, in C
SETTLE = 0.5  # seconds between starting the window's instruments and opening it


# ---------------------------------------------------------------------------------------------- processes

def cpu_ticks(pid: int) -> int:
    """User + system CPU ticks of one process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def run_queue_ns(pid: int) -> int:
    """Nanoseconds the process's main thread (the event loop) has spent runnable but waiting for a CPU."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def loadavg() -> str:
    """The 1-minute load average: this machine is shared, so every report says how busy it was."""
    return Path("/proc/loadavg").read_text().split()[0]


def pids_named(name: str) -> list[int]:
    """Every process with this command name (e.g. the postgres server and its backends), as /proc allows."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/comm") as f:
                    if f.read().strip() == name:
                        out.append(int(d))
            except OSError:
                continue
    return out


def ticks_of(name: str) -> dict[int, int]:
    ticks = {}
    for pid in pids_named(name):
        with contextlib.suppress(OSError, IndexError, ValueError):
            ticks[pid] = cpu_ticks(pid)
    return ticks


def cpu_pct_since(before: dict[int, int], name: str, elapsed: float) -> float:
    return sum(t - before.get(p, 0) for p, t in ticks_of(name).items()) / TICK / elapsed * 100


def psql(sql: str) -> str:
    """Run one statement on the maintenance database; its unaligned output."""
    done = subprocess.run(
        ["psql", "-h", PG["host"], "-p", PG["port"], "-U", PG["user"], "-d", "postgres", "-qAt", "-c", sql],
        check=True,
        capture_output=True,
        timeout=60,
        text=True,
    )
    return done.stdout.strip()


def postgres_started() -> str:
    """When the Postgres server last started: a change during a run means someone restarted it."""
    try:
        return psql("SELECT pg_postmaster_start_time()")
    except (subprocess.SubprocessError, OSError):
        return "unavailable"


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


METRICS_TOKEN = "bench-metrics"
SECRET_KEY = "bench-secret-key-shared-by-all-processes"


def start_server(db_url: str, port: int, migrate: bool, log_dir: Path, broker_url: str = "",
                 extra_env: dict[str, str] | None = None, tree: Path = ROOT) -> Server:
    """One `python -m app.main` process on this database (its output goes to a log file), from the checkout at
    `tree` (this one unless told); `extra_env` overrides its settings."""
    env = dict(
        os.environ,
        DATABASE_URL=db_url,
        PORT=str(port),
        HOST="127.0.0.1",
        BOT_DELAY="0",
        LOG_LEVEL="warning",
        SECRET_KEY=SECRET_KEY,
        RUN_MIGRATIONS="true" if migrate else "false",
        BROKER_URL=broker_url,
        METRICS_TOKEN=METRICS_TOKEN,
        # Thousands of guests and tables from one address: the per-address limits are for people, not this bench.
        LIMIT_GUESTS="1000000/minute", LIMIT_TABLES="1000000/minute", MAX_OPEN_TABLES="1000000",
        WS_PER_ADDRESS="1000000", WS_PER_PERSON_PER_TABLE="1000000", CHAT_NEWCOMERS_PER_MINUTE="1000000",
    ) | (extra_env or {})
    log = log_dir / f"server-{port}.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.main"], cwd=tree, env=env, stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    return Server(proc, port, log)


async def wait_healthy(server: Server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=server.url, timeout=5) as http:
        while time.monotonic() < deadline:
            if server.proc.poll() is not None:
                raise RuntimeError(f"server on {server.port} exited; see {server.log}")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.2)
    raise RuntimeError(f"server on {server.port} not healthy after {timeout}s; see {server.log}")


def stop_server(server: Server) -> None:
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(10)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            server.proc.wait(5)


# ---------------------------------------------------------------------------------------------- clients

def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


@dataclass
class Ack:
    table: str
    version: int
    sent: float
    actor: int  # socket serial number
    base: int = 0  # the version the act was chosen from: an ack at it made no new version (a private draft)


@dataclass
class Stats:
    playing: bool = False  # players act only once every table is set up
    play_started: asyncio.Event = field(default_factory=asyncio.Event)
    measuring: bool = False
    stopping: bool = False
    window: tuple[float, float] = (0.0, 0.0)
    ack_ms: list[float] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    tables_started: int = 0
    out_of_order: int = 0
    loop_lags: list[tuple[float, float]] = field(default_factory=list)  # (when, seconds late) of the client
    chat_ms: list[float] = field(default_factory=list)  # chat line posted -> its ack, in the window


def build_client() -> Path:
    """bench/loadclient.c compiled into bench/.build/ (again whenever the source is newer)."""
    out = CLIENT_SRC.parent / ".build" / "loadclient"
    if not out.exists() or out.stat().st_mtime < CLIENT_SRC.stat().st_mtime:
        out.parent.mkdir(exist_ok=True)
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", str(out), str(CLIENT_SRC), "-lm"], check=True,
                       timeout=120)
    return out


class Driver:
    """The sockets' process (bench/loadclient.c): this one sends it a line per command and reads its events.

    It plays every socket of the run in one epoll loop, in C, because the load generator shares the two
    cores with what it measures: the Python client it replaces spent ~75 µs of CPU per move."""

    def __init__(self, proc: asyncio.subprocess.Process, stats: Stats) -> None:
        self.proc, self.stats = proc, stats
        self.socks: dict[int, Sock] = {}
        self.dumped: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.main = asyncio.current_task()
        self.reader = asyncio.create_task(self._events())

    @classmethod
    async def start(cls, stats: Stats, rate: float, seed: int, deflate: bool, extra: list[str] | None = None) -> Driver:
        argv = [str(build_client()), "--rate", str(rate), "--seed", str(seed)] + ([] if deflate else ["--no-deflate"])
        argv += extra or []
        proc = await asyncio.create_subprocess_exec(*argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return cls(proc, stats)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")

    def open(self, sock: Sock, url: str, token: str | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme != "ws" or not parts.hostname:
            raise ValueError(f"only ws:// URLs, not {url!r}")
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.socks[sock.serial] = sock
        self.send(f"open {sock.serial} {socket.gethostbyname(parts.hostname)} {parts.port or 80} {path} {int(sock.acting)}"
                  + (f" {token}" if token else ""))

    async def _events(self) -> None:
        assert self.proc.stdout is not None
        try:
            await self._read_events(self.proc.stdout)
        finally:
            # Without its sockets the run cannot go on: end it (the driver's own message is on stderr).
            if not self.stats.stopping and self.main is not None:
                self.main.cancel()

    async def _read_events(self, stdout: asyncio.StreamReader) -> None:
        async for raw in stdout:
            kind, *rest = raw.decode().split()
            if kind == "dumped":
                self.dumped.set_result(None)
                continue
            s = self.socks[int(rest[0])]
            if kind == "opened":
                s.opened = float(rest[1])
            elif kind == "snapshot":
                s.snapshot_seen = True
                s.snapshot_version = int(rest[1])
                s.snapshot.set()
            elif kind == "finished":
                s.game_over = True
                s.finished.set()
            elif kind == "closed":
                s.closed_at, s.close_reason = float(rest[1]), rest[2]
                s.closed.set()
                s.finished.set()

    async def collect(self, path: Path, window_end: float) -> None:
        """Take the run's records from the driver into `stats` and the sockets."""
        self.send(f"dump {path}")
        await asyncio.wait_for(asyncio.shield(self.dumped), 120)
        stats, t0 = self.stats, self.stats.window[0]
        with path.open() as f:
            for line in f:
                kind, *v = line.split()
                if kind == "a":
                    s, version, sent, received = self.socks[int(v[0])], int(v[1]), float(v[2]), float(v[3])
                    # As the window counts them: acts sent in it whose ack came before it closed.
                    if t0 <= sent and received <= window_end:
                        stats.ack_ms.append((received - sent) * 1000)
                        stats.acks.append(Ack(s.table, version, sent, s.serial, int(v[4]) if len(v) > 4 else 0))
                elif kind == "u":
                    s = self.socks[int(v[0])]
                    s.versions.append(int(v[1]))
                    s.times.append(float(v[2]))
                elif kind == "l":
                    if t0 <= float(v[0]) <= window_end:
                        stats.loop_lags.append((float(v[0]), float(v[1])))
                elif kind == "e":
                    stats.errors[v[0]] += int(v[1])
                elif kind == "o":
                    stats.out_of_order += int(v[0])
                elif kind == "c" and t0 <= float(v[1]) and float(v[2]) <= window_end:
                    stats.chat_ms.append((float(v[2]) - float(v[1])) * 1000)
        path.unlink()

    async def stop(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(Exception):
                self.send("quit")
                await asyncio.wait_for(self.proc.wait(), 10)
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.reader.cancel()


_serial = itertools.count()


class Sock:
    """One browser tab: a websocket at a table, seated (acting) or watching, played by the driver."""

    def __init__(self, driver: Driver, stats: Stats, table: str, acting: bool) -> None:
        self.serial = next(_serial)
        self.driver, self.stats = driver, stats
        self.table, self.acting = table, acting
        self.versions: list[int] = []  # versions of the updates received, in order (filled at the end)
        self.times: list[float] = []  # when each was received
        self.opened = self.closed_at = 0.0
        self.snapshot_seen = self.game_over = False
        self.snapshot_version = 0  # the version of its first snapshot
        self.snapshot = asyncio.Event()  # set by its first snapshot
        self.close_reason = ""
        self.closed = asyncio.Event()
        self.finished = asyncio.Event()  # the game ended or the socket closed

    async def run(self, url: str, token: str | None = None, held: bool = False) -> None:
        self.driver.open(self, url, token)
        if held:
            self.driver.send(f"hold {self.serial}")
        await self.closed.wait()
        if not self.stats.stopping:
            if self.close_reason != "ok":
                self.stats.errors[f"socket:{self.close_reason}"] += 1
            if not self.game_over:
                self.stats.errors["socket_closed_early"] += 1

    def finished_game(self) -> bool:
        return self.game_over

    async def close(self, timeout: float = 5.0) -> None:
        """The closing handshake (the driver drops the socket if it takes over 2 s)."""
        if not self.closed.is_set():
            self.driver.send(f"close {self.serial}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.closed.wait(), timeout)


class Slot:
    """One table's place in the test: its users, the current table, and its sockets."""

    def __init__(self, index: int, args: argparse.Namespace, servers: list[str], stats: Stats, driver: Driver,
                 http: list[httpx.AsyncClient], connect_gate: asyncio.Semaphore) -> None:
        self.index, self.args, self.servers, self.stats, self.driver = index, args, servers, stats, driver
        self.http, self.gate = http, connect_gate
        self.spectators = args.spectators // args.tables + (index < args.spectators % args.tables)
        self.tokens: list[str] = []
        self.socks: list[Sock] = []  # every socket ever opened by this slot (for delivery accounting)
        self.ready = asyncio.Event()
        self.releasing: asyncio.Task[None] | None = None  # held here so that the loop keeps the task alive

    def _http(self, k: int) -> httpx.AsyncClient:
        return self.http[(self.index + k) % len(self.http)]

    async def _post(self, path: str, token: str, body: dict[str, Any], k: int = 0) -> dict[str, Any]:
        r = await self._http(k).post(path, json=body, headers={"Authorization": f"Bearer {token}"})
        if r.status_code != 200:
            self.stats.errors[f"rest:{path.split('/')[-1]}:{r.status_code}"] += 1
            raise RuntimeError(f"{path}: {r.status_code} {r.text[:200]}")
        data: dict[str, Any] = r.json()
        return data

    async def new_table(self) -> str:
        if not self.tokens:
            tokens = []
            for k in range(self.args.players):
                r = await self._http(k).post("/api/auth/guest", json={"name": f"bench {self.index}.{k}"})
                if r.status_code != 200:
                    self.stats.errors[f"rest:guest:{r.status_code}"] += 1
                    raise RuntimeError(f"guest: {r.status_code}")
                tokens.append(r.json()["token"])
            self.tokens = tokens
        table = await self._post("/api/tables", self.tokens[0],
                                 {"game": self.args.game, "seats": self.args.players, "visibility": "public"})
        tid = table["id"]
        for k in range(1, self.args.players):
            await self._post(f"/api/tables/{tid}/join", self.tokens[k], {}, k)
        await self._post(f"/api/tables/{tid}/start", self.tokens[0], {})
        self.stats.tables_started += 1
        return str(tid)

    async def run(self) -> None:
        first = True
        while not self.stats.stopping:
            try:
                async with self.gate:
                    tid = await self.new_table()
                    socks = [Sock(self.driver, self.stats, tid, True) for _ in self.tokens]
                    socks += [Sock(self.driver, self.stats, tid, False) for _ in range(self.spectators)]
                    tasks = []
                    for k, s in enumerate(socks):
                        token = self.tokens[k] if s.acting else None
                        at = self.index if self.args.spread == "tables" else self.index + k
                        base = self.servers[at % len(self.servers)].replace("http", "ws", 1)
                        url = f"{base}/ws/tables/{tid}"
                        tasks.append(asyncio.create_task(s.run(url, token, held=first and self.args.stagger > 0)))
                    await asyncio.wait_for(asyncio.gather(*(self._opened(s) for s in socks)), 60)
                self.socks.extend(socks)
            except Exception as exc:  # noqa: BLE001 - counted; the slot tries again
                self.stats.errors[f"setup:{type(exc).__name__}"] += 1
                await asyncio.sleep(1)
                continue
            if first:
                self.ready.set()
                first = False
                if self.args.stagger > 0:
                    self.releasing = asyncio.create_task(self._release(socks))
            # Until the game ends (every socket saw it, or closed) or the run stops.
            stop_wait = asyncio.create_task(self._stopping())
            await asyncio.wait([stop_wait, *(asyncio.create_task(s.finished.wait()) for s in socks)],
                               return_when=asyncio.FIRST_COMPLETED)
            if not self.stats.stopping:
                # A game over, or a socket lost (counted as an error): either way a new table for this slot.
                if any(s.finished_game() for s in socks):
                    self.stats.games_finished += 1
                await asyncio.wait([asyncio.create_task(s.finished.wait()) for s in socks], timeout=5)
                for s in socks:
                    await s.close()
            else:
                await stop_wait
            await asyncio.wait(tasks, timeout=10)
        self.ready.set()

    async def _release(self, socks: list[Sock]) -> None:
        """Let the first game's players act from their share of --stagger after play, so games end apart."""
        await self.stats.play_started.wait()
        await asyncio.sleep(self.args.stagger * self.index / self.args.tables)
        for s in socks:
            self.driver.send(f"release {s.serial}")

    async def _opened(self, s: Sock) -> None:
        while not s.snapshot_seen:
            if s.closed.is_set():
                raise RuntimeError("socket closed before its snapshot")
            await asyncio.sleep(0.02)

    async def _stopping(self) -> None:
        while not self.stats.stopping:
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.socks))


def deliveries(slots: list[Slot], stats: Stats) -> tuple[list[float], int, int]:
    """Delivery latency (ms) of each acked version to every other socket open at the table then; misses."""
    by_table: dict[str, list[Sock]] = {}
    for slot in slots:
        for s in slot.socks:
            by_table.setdefault(s.table, []).append(s)
    lat: list[float] = []
    missed = total = 0
    for ack in stats.acks:
        for s in by_table.get(ack.table, []):
            if s.serial == ack.actor or s.opened > ack.sent:
                continue
            total += 1
            i = bisect.bisect_left(s.versions, ack.version)
            if i < len(s.versions):
                lat.append((s.times[i] - ack.sent) * 1000)
            else:
                missed += 1
    return lat, missed, total


# ---------------------------------------------------------------------------------------------- the run

async def run(args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    driver = await Driver.start(stats, args.rate, args.seed, args.compression is not None)
    servers: list[Server] = []
    db = f"bench_load_{int(time.time())}_{os.getpid()}"
    log_dir = Path(args.log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {}
    proxy: Proxy | None = None
    http: list[httpx.AsyncClient] = []
    try:
        if args.url:
            urls = [u.rstrip("/") for u in args.url]
            pids = args.server_pid or []
        else:
            psql(f"CREATE DATABASE {db}")
            db_url = f"postgresql://{PG['user']}@{PG['host']}:{PG['port']}/{db}"
            first = start_server(db_url, args.port, True, log_dir, args.broker_url)
            servers.append(first)
            await wait_healthy(first)
            for k in range(1, args.servers):
                servers.append(start_server(db_url, args.port + k, False, log_dir, args.broker_url))
            for s in servers[1:]:
                await wait_healthy(s)
            urls = [s.url for s in servers]
            pids = [s.proc.pid for s in servers]
        server_urls = list(urls)
        if args.proxy:
            # The clients see only nginx with the deployment's config, which routes each table to one server.
            proxy = Proxy([u.removeprefix("http://") for u in urls], args.port + 100, log_dir / "nginx").start()
            server_count, urls = len(urls), [proxy.url]
        else:
            server_count = len(urls)
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        http = [httpx.AsyncClient(base_url=u, timeout=60, limits=limits) for u in urls]
        # Each server's own /metrics, past any proxy.
        direct = [httpx.AsyncClient(base_url=u, timeout=60, headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
                  for u in server_urls]
        http += direct
        gate = asyncio.Semaphore(args.setup_concurrency)
        slots = [Slot(i, args, urls, stats, driver, http, gate) for i in range(args.tables)]
        t_setup = time.perf_counter()
        tasks = [asyncio.create_task(s.run()) for s in slots]
        try:
            await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in slots)), args.setup_timeout)
        except TimeoutError:
            raise RuntimeError(f"set-up not done in {args.setup_timeout} s: {dict(stats.errors)}") from None
        setup_s = time.perf_counter() - t_setup
        stats.playing = True
        driver.send("play")
        stats.play_started.set()
        await asyncio.sleep(args.stagger + args.warmup)
        # What starts a process or asks the servers for work goes first, and the window opens once that has
        # settled: a scrape of /metrics or a Python start-up on these two cores stalls every socket for tens
        # of milliseconds, which would be counted as the servers' latency.
        pg_start = postgres_started()
        metrics0 = [await server_metrics(h) for h in direct]
        scraped0 = time.perf_counter()
        disk = subprocess.Popen([sys.executable, str(Path(__file__).parent / "disk_probe.py"), "--seconds",
                                 str(args.duration + SETTLE)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)
        spy = None
        if args.profile and pids:
            # py-spy (pip install py-spy into .venv; not a project dependency) samples server 0 meanwhile.
            spy = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p", str(pids[0]),
                                    "-d", str(int(args.duration + SETTLE)), "-r", "200", "-f", "raw", "-o",
                                    args.profile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await asyncio.sleep(SETTLE)
        # The measured window: from here on only cheap reads of /proc until it closes.
        cpu0 = {p: cpu_ticks(p) for p in pids}
        wait0 = {p: run_queue_ns(p) for p in pids}
        pg0, redis0 = ticks_of("postgres"), ticks_of("redis-server")
        proxy0 = {p: cpu_ticks(p) for p in proxy.pids()} if proxy else {}
        me0 = resource.getrusage(resource.RUSAGE_SELF)
        driver0 = cpu_ticks(driver.proc.pid)
        rss_peak = {p: rss_mb(p) for p in pids}
        t0 = time.perf_counter()
        stats.window = (t0, t0 + args.duration)
        stats.measuring = True
        while time.perf_counter() < t0 + args.duration:
            await asyncio.sleep(min(1.0, t0 + args.duration - time.perf_counter()))
            for p in pids:
                rss_peak[p] = max(rss_peak[p], rss_mb(p))
        stats.measuring = False
        window_end = time.perf_counter()
        elapsed = window_end - t0
        cpu = {p: (cpu_ticks(p) - cpu0[p]) / TICK / elapsed * 100 for p in pids}
        waiting = {p: (run_queue_ns(p) - wait0[p]) / 1e9 / elapsed * 100 for p in pids}
        pg_cpu = cpu_pct_since(pg0, "postgres", elapsed)
        redis_cpu = cpu_pct_since(redis0, "redis-server", elapsed)
        proxy_cpu = sum(cpu_ticks(p) - t for p, t in proxy0.items()) / TICK / elapsed * 100
        me1 = resource.getrusage(resource.RUSAGE_SELF)
        # The sockets' process and this one (which only sets tables up and replaces finished games).
        client_cpu = ((me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime) * 100
                      + (cpu_ticks(driver.proc.pid) - driver0) / TICK * 100) / elapsed
        rss_end = {p: rss_mb(p) for p in pids}
        load_end = loadavg()
        metrics1 = [await server_metrics(h) for h in direct]
        commits = commit_figures(metrics0, metrics1, time.perf_counter() - scraped0)
        disk_out, _ = disk.communicate(timeout=60)
        if postgres_started() != pg_start:
            stats.errors["postgres_restarted_during_window"] += 1
        stats.stopping = True
        driver.send("stop")
        await asyncio.sleep(args.drain)  # the last acked moves reach everyone
        if spy is not None:
            spy.wait(30)
        await driver.collect(log_dir / f"client-{os.getpid()}.txt", window_end)
        lat, missed, total = deliveries(slots, stats)
        if args.timeline:
            write_timeline(args.timeline, stats)
        for s in slots:
            await s.close()
        await asyncio.wait(tasks, timeout=10)
        result = {
            "game": args.game, "tables": args.tables, "players": args.players, "spectators": args.spectators,
            "servers": server_count, "spread": "proxy" if proxy else args.spread, "broker": args.broker_url or "postgres", "rate_cap": args.rate, "stagger_s": args.stagger, "compression": args.compression or "none",
            "setup_s": round(setup_s, 1), "seconds": round(elapsed, 1),
            "commands_per_s": round(len(stats.ack_ms) / elapsed, 1),
            "ack_p50_ms": round(pct(stats.ack_ms, 0.5), 1), "ack_p95_ms": round(pct(stats.ack_ms, 0.95), 1),
            "ack_p99_ms": round(pct(stats.ack_ms, 0.99), 1),
            "delivery_p50_ms": round(pct(lat, 0.5), 1), "delivery_p99_ms": round(pct(lat, 0.99), 1),
            "deliveries": total, "deliveries_missed": missed, "out_of_order_updates": stats.out_of_order,
            "errors": dict(stats.errors), "tables_started": stats.tables_started,
            "games_finished": stats.games_finished,
            "server_cpu_pct": [round(cpu[p], 1) for p in pids],
            # Robust to a busy shared machine: commands per second of server CPU actually received.
            "commands_per_server_cpu_s": round(len(stats.ack_ms) / elapsed / max(1e-9, sum(cpu.values()) / 100), 1)
            if pids else None,
            "server_cpu_wait_pct": [round(waiting[p], 1) for p in pids],
            "server_rss_mb": [round(rss_end[p], 1) for p in pids],
            "server_rss_peak_mb": [round(rss_peak[p], 1) for p in pids],
            "postgres_cpu_pct": round(pg_cpu, 1), "redis_cpu_pct": round(redis_cpu, 1),
            "proxy_cpu_pct": round(proxy_cpu, 1) if proxy else None,
            "client_cpu_pct": round(client_cpu, 1), **loop_lag_figures(stats),
            **commits,
            "disk_fsync": orjson.loads(disk_out) if disk_out.strip() else None,
            "load_average": load_end, "python": interpreter(), "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
    finally:
        stats.stopping = True
        await driver.stop()
        for h in http:
            await h.aclose()
        if proxy is not None:
            proxy.stop()
        for s in servers:
            stop_server(s)
        if servers and not args.keep_db:
            with contextlib.suppress(Exception):
                psql(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
    return result


MetricKey = tuple[str, tuple[tuple[str, str], ...]]  # a Prometheus sample's name and sorted labels


async def server_metrics(client: httpx.AsyncClient) -> dict[MetricKey, float]:
    """One server's Prometheus samples (empty if it has none to give)."""
    try:
        text = (await client.get("/metrics")).text
    except httpx.HTTPError:
        return {}
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def commit_figures(before: list[dict[MetricKey, float]], after: list[dict[MetricKey, float]],
                   elapsed: float) -> dict[str, Any]:
    """The servers' group commits and garbage collections between two scrapes of their metrics (around the
    window), per second of `elapsed`, the time between the scrapes."""
    delta: Counter[MetricKey] = Counter()
    for b, a in zip(before, after, strict=True):
        for key, value in a.items():
            delta[key] += value - b.get(key, 0.0)
    commits = delta[("foodgames_group_commit_seconds_count", ())]

    def upper_ms(histogram: str, q: float) -> float | None:
        """The bucket bound (ms) under which a share `q` of the histogram's observations fell."""
        total = delta[(f"{histogram}_count", ())]
        buckets = sorted((float(dict(labels)["le"]), n) for (name, labels), n in delta.items()
                         if name == f"{histogram}_bucket")
        for le, n in buckets:
            if total and n >= q * total:
                return le * 1000 if le != float("inf") else None
        return None

    gc_n = sum(n for (name, _), n in delta.items() if name == "foodgames_gc_pause_seconds_count")
    gc_s = sum(n for (name, _), n in delta.items() if name == "foodgames_gc_pause_seconds_sum")
    slow_gc = gc_n - sum(n for (name, labels), n in delta.items()
                         if name == "foodgames_gc_pause_seconds_bucket" and dict(labels)["le"] == "0.01")
    by_generation = {dict(labels)["generation"]: int(n) for (name, labels), n in sorted(delta.items())
                     if name == "foodgames_gc_pause_seconds_count" and n}
    return {
        "commits_per_s": round(commits / elapsed, 1),
        "moves_per_commit": round(delta[("foodgames_group_commit_moves_sum", ())] / commits, 1) if commits else None,
        "commit_ms_p50_under": upper_ms("foodgames_group_commit_seconds", 0.5),
        "commit_ms_p99_under": upper_ms("foodgames_group_commit_seconds", 0.99),
        # From the move's check to its durability, inside the server: the rest of an ack's time is spent
        # before the server reads the act (its loop's backlog) or after it writes the ack.
        "command_ms_p50_under": upper_ms("foodgames_command_latency_seconds", 0.5),
        "command_ms_p99_under": upper_ms("foodgames_command_latency_seconds", 0.99),
        "commit_s_total": round(delta[("foodgames_group_commit_seconds_sum", ())], 2),
        "gc_pauses": int(gc_n), "gc_pause_ms_total": round(gc_s * 1000, 1), "gc_pauses_over_10ms": int(slow_gc),
        "gc_pauses_by_generation": by_generation,
    }


def loop_lag_figures(stats: Stats) -> dict[str, Any]:
    """This client's wake-up lag in the window: p99, worst, and how many wakes came over 10 ms late."""
    lags = [lag * 1000 for _, lag in stats.loop_lags]
    return {"client_loop_lag_p99_ms": round(pct(lags, 0.99), 1), "client_loop_lag_max_ms": round(max(lags, default=0), 1),
            "client_loop_lags_over_10ms": sum(1 for x in lags if x > 10)}


def write_timeline(path: str, stats: Stats, bucket: float = 0.1) -> None:
    """Per `bucket` seconds of the window (by when the act was sent): acts, median and worst ack in ms, and
    how late this client's own loop woke at worst in that time (a stall of its own shows in every ack)."""
    buckets: dict[int, list[float]] = {}
    for ack, ms in zip(stats.acks, stats.ack_ms, strict=True):
        buckets.setdefault(int((ack.sent - stats.window[0]) / bucket), []).append(ms)
    worst_lag: dict[int, float] = {}
    for at, lag in stats.loop_lags:
        k = int((at - stats.window[0]) / bucket)
        worst_lag[k] = max(worst_lag.get(k, 0.0), lag * 1000)
    with open(path, "w") as f:
        f.write(f"# window starts at monotonic {stats.window[0]:.3f}; seconds, acts, median ack, worst ack, "
                "worst client loop lag (ms)\n")
        for k in sorted(buckets):
            xs = sorted(buckets[k])
            f.write(f"{k * bucket:6.1f} {len(xs):5d} {xs[len(xs) // 2]:7.1f} {xs[-1]:7.1f} {worst_lag.get(k, 0.0):7.1f}\n")


def report(r: dict[str, Any]) -> None:
    print(f"load: {r['tables']} tables x {r['players']} players + {r['spectators']} spectators, {r['game']}, "
          f"{r['servers']} server process(es) (spread by {r['spread']}), broker {r['broker']}, rate cap {r['rate_cap'] or 'none'}, first games staggered over {r['stagger_s']:g} s, ws compression offered "
          f"{r['compression']}; set-up {r['setup_s']} s, measured {r['seconds']} s")
    print(f"  commands applied/s   {r['commands_per_s']}   (per second of server CPU: "
          f"{r['commands_per_server_cpu_s']})")
    print(f"  ack latency ms       p50 {r['ack_p50_ms']}  p95 {r['ack_p95_ms']}  p99 {r['ack_p99_ms']}   "
          f"(in the server, check to durable: under {r['command_ms_p50_under']} ms at the median, "
          f"{r['command_ms_p99_under']} ms at p99)")
    print(f"  delivery latency ms  p50 {r['delivery_p50_ms']}  p99 {r['delivery_p99_ms']}  "
          f"({r['deliveries']} deliveries, {r['deliveries_missed']} missed, "
          f"{r['out_of_order_updates']} out of order)")
    print(f"  errors               {r['errors'] or 'none'}")
    print(f"  tables started {r['tables_started']}, games finished {r['games_finished']}")
    print(f"  server CPU %         {r['server_cpu_pct']}   waiting for a CPU % {r['server_cpu_wait_pct']}   "
          f"RSS MB {r['server_rss_mb']} (peak {r['server_rss_peak_mb']})")
    proxy = f"   nginx CPU % {r['proxy_cpu_pct']}" if r.get("proxy_cpu_pct") is not None else ""
    print(f"  postgres CPU %       {r['postgres_cpu_pct']}   redis CPU % {r['redis_cpu_pct']}{proxy}   client CPU % {r['client_cpu_pct']}   "
          f"(machine load average {r['load_average']}, {os.cpu_count()} cores, {r['utc']})")
    print(f"  servers run on       {r['python']}")
    print(f"  group commits        {r['commits_per_s']}/s, {r['moves_per_commit']} moves each, under "
          f"{r['commit_ms_p50_under']} ms at the median and {r['commit_ms_p99_under']} ms at p99   "
          f"GC pauses {r['gc_pauses']} ({r['gc_pause_ms_total']} ms in all, {r['gc_pauses_over_10ms']} over 10 ms; by generation {r['gc_pauses_by_generation']})")
    d = r.get("disk_fsync")
    if d:
        print(f"  disk 8 KB fdatasync  p50 {d['p50_ms']} ms  p99 {d['p99_ms']} ms  max {d['max_ms']} ms  "
              f"({d['over_100ms']} of {d['samples']} over 100 ms; {d['dir']})")
    print(f"  client loop lag      p99 {r['client_loop_lag_p99_ms']} ms  max {r['client_loop_lag_max_ms']} ms  "
          f"({r['client_loop_lags_over_10ms']} wakes over 10 ms late)")
    print(orjson.dumps(r).decode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--spectators", type=int, default=200, help="in total, spread over the tables")
    ap.add_argument("--game", default="food-truck-champion", choices=["food-truck-champion", "food-truck"])
    ap.add_argument("--duration", type=float, default=30, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=5, help="seconds of play before measuring")
    ap.add_argument("--stagger", type=float, default=0,
                    help="start the tables' first games evenly over this many seconds (then --warmup), so that "
                         "their games end, and their slots set up new tables, apart rather than all at once; "
                         "about a game's length spreads them evenly")
    ap.add_argument("--drain", type=float, default=5, help="seconds after the window for deliveries")
    ap.add_argument("--servers", type=int, default=1, help="server processes on the one database (1 or 2)")
    ap.add_argument("--spread", choices=["sockets", "tables"], default="sockets",
                    help="with several servers: a table's sockets alternate between them (every move crosses "
                    "processes), or each table's sockets all go to one (as a load balancer routing by table would)")
    ap.add_argument("--proxy", action="store_true",
                    help="clients reach the servers through nginx with deploy/nginx.conf (which routes by table)")
    ap.add_argument("--broker-url", default="", help="BROKER_URL for the servers (redis://...; default: LISTEN/NOTIFY)")
    ap.add_argument("--port", type=int, default=8300, help="first server port")
    ap.add_argument("--rate", type=float, default=0, help="cap on commands/s over all clients (0 = closed loop)")
    ap.add_argument("--compression", default="deflate", choices=["deflate", "none"],
                    help="websocket permessage-deflate, as browsers negotiate it")
    ap.add_argument("--seed", type=int, default=1)
    # More than 4 joins in flight can exhaust the server's 10-connection pool (see docs/performance.md).
    ap.add_argument("--setup-concurrency", type=int, default=4, help="tables being set up at once")
    ap.add_argument("--setup-timeout", type=float, default=300)
    ap.add_argument("--url", action="append", help="use a running server instead (repeat for several)")
    ap.add_argument("--server-pid", type=int, action="append", help="PID of a --url server, for CPU/RSS")
    ap.add_argument("--keep-db", action="store_true")
    ap.add_argument("--profile", help="write a py-spy profile (collapsed stacks) of server 0 to this file")
    ap.add_argument("--log-dir", default=str(Path(tempfile.gettempdir()) / "bench-load-logs"))
    ap.add_argument("--timeline", help="write per 100 ms of the window: acts sent, median and worst ack, and this "
                    "client's worst loop lag (ms)")
    args = ap.parse_args()
    if args.compression == "none":
        args.compression = None
    if args.players < 1 or args.tables < 1:
        ap.error("need at least one table and one player")
    with contextlib.suppress(ImportError), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import uvloop

        uvloop.install()
    bound = args.setup_timeout + args.stagger + args.warmup + args.duration + args.drain + 120
    try:
        result = asyncio.run(asyncio.wait_for(run(args), bound))
    except TimeoutError:
        print(f"load: hard time bound ({bound:.0f} s) hit", file=sys.stderr)
        sys.exit(2)
    except asyncio.CancelledError:
        print("load: the sockets' process (bench/loadclient.c) exited during the run", file=sys.stderr)
        sys.exit(2)
    report(result)


if __name__ == "__main__":
    main()
