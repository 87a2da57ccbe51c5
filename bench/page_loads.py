"""Repeat page loads: the server CPU and the browser CPU one visit to a page costs once the browser has been there.

Usage: .venv/bin/python bench/page_loads.py [--loads 60] [--reps 3] [--against DIR]

It starts one server process on a fresh SQLite file (`python -m app.main`, as bench/load.py does) and Debian's
Chromium headless shell (`/usr/bin/chromium-headless-shell`, Playwright from the dev extra), signs a guest in, opens
the lobby once, then loads the lobby and the leaderboards in turn, --loads times, in the same tab, each until its
`load` event (and the lobby until it shows the guest's name). The server's CPU (user + system, from /proc) and the
browser's (each of its processes) over those loads, divided by --loads, is the cost of one load.
Prints the median over --reps rounds and the machine's load.

--against DIR measures another checkout beside this one (`git worktree add ../before <commit>`), each with its own
server and browser, their rounds interleaved: the machine's drift over a minute is as large as a change's effect.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import ROOT, TICK, cpu_ticks, loadavg, start_server, stop_server, wait_healthy  # noqa: E402

SHELL = "/usr/bin/chromium-headless-shell"


def browser_ticks(server_pid: int) -> int:
    """The CPU ticks of the browser's processes alive now: this process's descendants but the server and the
    Playwright driver (node)."""
    parent: dict[int, int] = {}
    name: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    head, rest = f.read().rsplit(")", 1)
                parent[int(entry)] = int(rest.split()[1])
                name[int(entry)] = head.split("(", 1)[1]
            except OSError:  # gone meanwhile
                continue
    total = 0
    for pid in parent:
        up = pid
        while up > 1 and up != os.getpid() and up != server_pid:
            up = parent.get(up, 0)
        if up == os.getpid() and pid != server_pid and name[pid] != "node":
            with contextlib.suppress(OSError):
                total += cpu_ticks(pid)
    return total


def one_round(tree: Path, port: int, loads: int) -> tuple[float, float]:
    """Server and browser CPU-ms per repeat load of the checkout at `tree`."""
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(f"sqlite+aiosqlite:///{tmp}/bench.sqlite", port, True, Path(tmp), tree=tree)
        try:
            asyncio.run(wait_healthy(server))
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=SHELL, args=["--no-sandbox", "--disable-gpu"])
                context = browser.new_context()
                page = context.new_page()
                assert context.request.post(server.url + "/api/auth/guest", data={"name": "Ana"}).ok
                page.goto(server.url + "/")
                page.get_by_test_id("user-name").wait_for()
                s0, b0 = cpu_ticks(server.proc.pid), browser_ticks(server.proc.pid)
                for i in range(loads):
                    page.goto(server.url + ("/leaders" if i % 2 == 0 else "/"))
                    if i % 2:
                        page.get_by_test_id("user-name").wait_for()
                s1, b1 = cpu_ticks(server.proc.pid), browser_ticks(server.proc.pid)
                browser.close()
        finally:
            stop_server(server)
    return (s1 - s0) / TICK * 1000 / loads, (b1 - b0) / TICK * 1000 / loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured beside this one")
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"other": args.against.resolve()} if args.against else {})
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    for _ in range(args.reps):
        for port, (name, tree) in enumerate(trees.items(), start=8790):
            figures[name].append(one_round(tree, port, args.loads))
    print(f"{args.loads} repeat loads, median of {args.reps} rounds; load average {loadavg()}")
    for name, tree in trees.items():
        server = statistics.median(f[0] for f in figures[name])
        browser = statistics.median(f[1] for f in figures[name])
        print(f"  {name:5s} ({tree.name}): server {server:5.1f} ms, browser {browser:6.1f} ms, "
              f"together {server + browser:6.1f} ms of CPU a load")


if __name__ == "__main__":
    main()
