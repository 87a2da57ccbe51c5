"""Summarise a py-spy raw profile (collapsed stacks, as `bench/load.py --profile FILE` writes it).

Usage: .venv/bin/python bench/profile_summary.py FILE [--top 40]
Prints the share of samples in which each function appears (inclusive) and is on top (self), line numbers
folded, idle thread waits (threading Condition.wait, queue get) left out of the total.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

IDLE = ("Condition.wait (threading.py)", "_worker (concurrent/futures/thread.py)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    with open(args.file) as f:
        for line in f:
            stack, _, count = line.rstrip().rpartition(" ")
            if not stack:
                continue
            frames = [re.sub(r":\d+\)", ")", fr) for fr in stack.split(";")]
            if frames[-1] in IDLE:
                continue
            n = int(count)
            total += n
            for fr in set(frames):
                inclusive[fr] += n
            own[frames[-1]] += n
    print(f"busy samples: {total}")
    print("-- inclusive")
    for name, n in inclusive.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {name[:140]}")
    print("-- self")
    for name, n in own.most_common(args.top // 2):
        print(f"{100 * n / total:5.1f}%  {name[:140]}")


if __name__ == "__main__":
    main()
