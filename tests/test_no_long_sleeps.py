"""No test sleeps through a wait longer than half a second: a test moves the server's clock past a wait
(`Server.advance`, app/clock.py's `FakeClock`), or polls for what it waits for with a deadline."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# asyncio.sleep(s) or time.sleep(s) over 0.5 s, and Playwright's wait_for_timeout(ms) over 500 ms, as literals.
LONG_WAIT = re.compile(r"sleep\(([1-9]|0\.[6-9])|wait_for_timeout\(([6-9][0-9]{2}|[1-9][0-9]{3,})\)")
# A handler that never returns, cancelled by the test: it blocks, it is not waited for.
NEVER_RETURNS = {("realtime/test_protocol.py", "await asyncio.sleep(3600)")}


def test_no_test_sleeps_longer_than_half_a_second() -> None:
    found = [
        (path.relative_to(TESTS).as_posix(), line.strip(), n)
        for path in sorted(TESTS.rglob("*.py")) if path.name != Path(__file__).name
        for n, line in enumerate(path.read_text().splitlines(), 1) if LONG_WAIT.search(line)
    ]
    long_waits = [f"tests/{where}:{n}: {line}" for where, line, n in found if (where, line) not in NEVER_RETURNS]
    assert not long_waits, "advance the server's clock or poll with a deadline instead:\n" + "\n".join(long_waits)
    assert {(where, line) for where, line, _n in found} == NEVER_RETURNS  # the exception still names a real line
