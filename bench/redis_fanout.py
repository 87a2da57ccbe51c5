"""Redis fan-out cost: CPU per move notice published to K subscribing server processes, as the Redis broker does it.

Usage: .venv/bin/python bench/redis_fanout.py [--subscribers 1,4,16] [--messages 20000] [--url redis://127.0.0.1:6379/0]

The Redis broker (app/realtime/broker.py) publishes one message per loop turn on one channel, carrying the
"<table id>:<version>" of the moves committed in it (one move a message at a human pace), and every server process
subscribes to that channel. For each count K of subscribers (K connections held by one subscribing process, with
redis-py's asyncio pub/sub, as the servers use it) this publishes --messages such notices, 8 in flight, and waits
until every subscriber has every one. It prints the redis-server's CPU per message published and per delivery
(from /proc; Redis on this machine may serve others meanwhile, so these are upper bounds), and the subscribing
process's CPU per delivery: what each server process pays for each notice of a move it may not even hold.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from pathlib import Path

import redis.asyncio as aioredis

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import TICK, cpu_ticks, loadavg, pids_named  # noqa: E402

CHANNEL = f"bench-fanout-{os.getpid()}"


def subscriber(url: str, k: int, n: int, ready: multiprocessing.synchronize.Event,
               done: multiprocessing.queues.Queue[float]) -> None:
    """K subscriptions in one process; reports its CPU seconds once each has n messages."""

    async def run() -> None:
        clients = [aioredis.from_url(url) for _ in range(k)]
        subs = [c.pubsub() for c in clients]
        for s in subs:
            await s.subscribe(CHANNEL)
            await s.get_message(timeout=5)  # the subscription's confirmation
        ready.set()
        t0 = time.process_time()

        async def drain(s: aioredis.client.PubSub) -> None:
            got = 0
            while got < n:
                m = await s.get_message(ignore_subscribe_messages=True, timeout=30)
                if m is None:
                    raise RuntimeError(f"a subscriber stalled at {got} of {n}")
                got += 1

        await asyncio.gather(*(drain(s) for s in subs))
        done.put(time.process_time() - t0)
        for s in subs:
            await s.aclose()
        for c in clients:
            await c.aclose()

    asyncio.run(run())


async def publish(url: str, n: int) -> None:
    client = aioredis.from_url(url)
    sem = asyncio.Semaphore(8)

    async def one(i: int) -> None:
        async with sem:
            await client.publish(CHANNEL, f"{i:016x}:{i}")

    await asyncio.gather(*(one(i) for i in range(n)))
    await client.aclose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--subscribers", default="1,4,16")
    ap.add_argument("--messages", type=int, default=20000)
    ap.add_argument("--url", default="redis://127.0.0.1:6379/0")
    args = ap.parse_args()
    redis_pids = pids_named("redis-server")
    print(f"redis_fanout: {args.messages} notices a run, 8 in flight ({time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())})")
    for k in (int(x) for x in args.subscribers.split(",")):
        ready = multiprocessing.Event()
        done: multiprocessing.queues.Queue[float] = multiprocessing.Queue()
        proc = multiprocessing.Process(target=subscriber, args=(args.url, k, args.messages, ready, done))
        proc.start()
        if not ready.wait(30):
            raise SystemExit("subscribers not ready")
        r0 = sum(cpu_ticks(p) for p in redis_pids)
        t0 = time.perf_counter()
        asyncio.run(publish(args.url, args.messages))
        sub_cpu = done.get(timeout=300)
        elapsed = time.perf_counter() - t0
        redis_s = (sum(cpu_ticks(p) for p in redis_pids) - r0) / TICK
        proc.join(30)
        deliveries = args.messages * k
        print(f"  {k:>3} subscribers: redis {redis_s / args.messages * 1e6:6.1f} µs a notice, "
              f"{redis_s / deliveries * 1e6:5.1f} µs a delivery; a subscriber {sub_cpu / deliveries * 1e6:5.1f} µs a "
              f"delivery; {deliveries / elapsed:,.0f} deliveries/s   (load average {loadavg()})")


if __name__ == "__main__":
    main()
