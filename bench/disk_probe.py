"""How long the disk takes to make a small write durable, sampled while something else runs.

Usage: .venv/bin/python bench/disk_probe.py --seconds 15 [--dir DIR]

Every 10 ms it writes 8 KB (one WAL page) into a file of its own in DIR and waits for `fdatasync`, which
is what every Postgres commit waits for, and at the end prints one JSON line: samples, p50/p99/max in ms
and how many took over 50 and 100 ms. DIR defaults to the folder above Postgres' data directory (the same
disk) when it is writable, else the temporary folder. `bench/load.py` runs it during its measured window.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

PAGE = b"\0" * 8192


def postgres_disk_dir() -> str:
    """A writable folder on Postgres' data disk, or the temporary folder."""
    try:
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc", "SHOW data_directory"],
                             capture_output=True, text=True, timeout=10)
        parent = Path(out.stdout.strip()).parent
        if out.returncode == 0 and parent.is_dir() and os.access(parent, os.W_OK):
            return str(parent)
    except (OSError, subprocess.SubprocessError):
        pass
    return tempfile.gettempdir()


def probe(folder: str, seconds: float, every: float = 0.01) -> dict[str, object]:
    """Sample write + fdatasync latency for `seconds`."""
    fd, path = tempfile.mkstemp(prefix="disk-probe-", dir=folder)
    samples: list[float] = []
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.perf_counter()
            os.pwrite(fd, PAGE, (len(samples) % 128) * len(PAGE))
            os.fdatasync(fd)
            samples.append((time.perf_counter() - t) * 1000)
            time.sleep(every)
    finally:
        os.close(fd)
        os.unlink(path)
    s = sorted(samples)

    def at(q: float) -> float:
        return round(s[min(len(s) - 1, int(q * len(s)))], 2) if s else float("nan")

    return {"dir": folder, "samples": len(s), "p50_ms": at(0.5), "p99_ms": at(0.99),
            "max_ms": round(s[-1], 1) if s else float("nan"),
            "over_50ms": sum(x > 50 for x in s), "over_100ms": sum(x > 100 for x in s)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--dir", help="folder on the disk to probe (default: Postgres' data disk)")
    args = ap.parse_args()
    print(json.dumps(probe(args.dir or postgres_disk_dir(), args.seconds)))


if __name__ == "__main__":
    main()
