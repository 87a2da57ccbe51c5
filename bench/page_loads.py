"""Page loads: the server CPU and the browser CPU one visit to a page costs, once the browser has been there or (with
--first) on a first visit.

Usage: .venv/bin/python bench/page_loads.py [--loads 60] [--reps 3] [--first] [--against DIR]

It starts one server process on a fresh SQLite file (`python -m app.main`, as bench/load.py does) and Debian's
Chromium headless shell (`/usr/bin/chromium-headless-shell`, Playwright from the dev extra), signs a guest in, opens
the lobby once, then loads the lobby and the leaderboards in turn, --loads times, in the same tab, each until its
`load` event (and the lobby until it shows the guest's name). The server's CPU (user + system, from /proc) and the
browser's (each of its processes) over those loads, divided by --loads, is the cost of one load.
With --first each load is a first visit: a new browser context (nothing cached), signed in as a new guest beforehand,
the lobby and the leaderboards in turn; the bytes the site's files took on the wire are printed too.
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

from playwright.sync_api import BrowserContext, Page, Response, sync_playwright

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


def one_round(tree: Path, port: int, loads: int, first: bool = False) -> tuple[float, float, float]:
    """Server and browser CPU-ms per load of the checkout at `tree` (repeat loads in one tab, or first visits each in a
    context of its own), and the kilobytes its files took on the wire on a first visit to each of the two pages."""
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(f"sqlite+aiosqlite:///{tmp}/bench.sqlite", port, True, Path(tmp), tree=tree)
        try:
            asyncio.run(wait_healthy(server))
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=SHELL, args=["--no-sandbox", "--disable-gpu"])

                def visitor() -> tuple[BrowserContext, Page]:
                    context = browser.new_context()
                    assert context.request.post(server.url + "/api/auth/guest", data={"name": "Ana"}).ok
                    return context, context.new_page()

                def load(page: Page, i: int) -> None:
                    page.goto(server.url + ("/leaders" if i % 2 == 0 else "/"))
                    if i % 2:
                        page.get_by_test_id("user-name").wait_for()

                context, page = visitor()
                load(page, 1)
                s0, b0 = cpu_ticks(server.proc.pid), browser_ticks(server.proc.pid)
                for i in range(loads):
                    if first:
                        context.close()
                        context, page = visitor()
                    load(page, i)
                s1, b1 = cpu_ticks(server.proc.pid), browser_ticks(server.proc.pid)
                # The bytes, outside the measured loads: asking the browser for them costs it round trips.
                wire = 0
                for i in range(2):
                    context.close()
                    context, page = visitor()
                    files: list[Response] = []
                    page.on("response", lambda r, files=files: files.append(r) if "/v/" in r.url else None)
                    load(page, i)
                    wire += sum(r.request.sizes()["responseBodySize"] for r in files)
                browser.close()
        finally:
            stop_server(server)
    return (s1 - s0) / TICK * 1000 / loads, (b1 - b0) / TICK * 1000 / loads, wire / 1000 / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=60)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--first", action="store_true", help="first visits, each in a new browser context")
    parser.add_argument("--against", type=Path, help="another checkout, measured beside this one")
    args = parser.parse_args()
    trees = {"this": ROOT} | ({"other": args.against.resolve()} if args.against else {})
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in trees}
    for _ in range(args.reps):
        for port, (name, tree) in enumerate(trees.items(), start=8790):
            figures[name].append(one_round(tree, port, args.loads, args.first))
    kind = "first visits" if args.first else "repeat loads"
    print(f"{args.loads} {kind}, median of {args.reps} rounds; load average {loadavg()}")
    for name, tree in trees.items():
        server = statistics.median(f[0] for f in figures[name])
        browser = statistics.median(f[1] for f in figures[name])
        print(f"  {name:5s} ({tree.name}): server {server:5.1f} ms, browser {browser:6.1f} ms, "
              f"together {server + browser:6.1f} ms of CPU a load; a first visit's files "
              f"{statistics.median(f[2] for f in figures[name]):5.0f} kB on the wire")


if __name__ == "__main__":
    main()
