"""Start a server command and check it serves: readiness, the lobby page, a guest, a table and its socket.

    python scripts/smoke.py [--cwd DIR] -- COMMAND...

The command must listen on $PORT (set here, a free one) on 127.0.0.1. Exits 0 when every check passes; otherwise
prints what failed and the server's last output. Used by scripts/check-floors.sh and tests/deploy/test_wheel.py;
it needs only the standard library and the runtime set's `websockets`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

try:
    from websockets.asyncio.client import connect

    HEADERS = "additional_headers"
except ImportError:  # websockets before 13, which the floors check installs, has only the legacy client
    from websockets import connect  # type: ignore[attr-defined,no-redef]

    HEADERS = "extra_headers"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        url, data=data, headers=headers, method="POST" if data is not None else "GET"
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status), r.read()
    except urllib.error.HTTPError as e:
        return int(e.code), e.read()


def wait_ready(base: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with status {proc.returncode}")
        try:
            if request(f"{base}/api/health/ready")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"not ready within {timeout:.0f} s")


async def play(base: str) -> None:
    status, page = request(f"{base}/")
    assert status == 200 and b"<html" in page.lower(), f"GET / gave {status}"
    status, raw = request(f"{base}/api/auth/guest", {"name": "Smoke"})
    assert status == 200, f"a guest: {status} {raw[:200]!r}"
    token = json.loads(raw)["token"]
    status, raw = request(f"{base}/api/tables", {"game": "food-truck", "seats": 2}, token)
    assert status in (200, 201), f"a table: {status} {raw[:200]!r}"
    table = json.loads(raw)["id"]
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    async with connect(url, **{HEADERS: {"Authorization": f"Bearer {token}"}}) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert first.get("type") == "snapshot", f"the socket's first message: {first}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", default=None)
    parser.add_argument("--timeout", type=float, default=90)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port)}
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(args.command, cwd=args.cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_ready(base, proc, args.timeout)
            asyncio.run(play(base))
        except AssertionError as e:
            out.seek(0)
            tail = out.read().decode(errors="replace")[-3000:]
            print(f"smoke check failed: {e}\n--- server output ---\n{tail}", file=sys.stderr)
            return 1
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"smoke check passed: {' '.join(args.command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
