"""Run the real server with the tiny game registered (used by the platform tests).

The server runs on a running `FakeClock`: it keeps time as usual, and a test moves it forward past a wait with
`POST /_test/clock {"advance": seconds}` (`Server.advance`) instead of sleeping through it. That route is this
module's, never the application's."""

from __future__ import annotations

import json
import os

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from tests.platform.tiny_game import install

install()

from app.clock import FakeClock  # noqa: E402
from app.config import get_settings  # noqa: E402
from app.main import asgi_app, uvicorn_options  # noqa: E402

CLOCK_PATH = "/_test/clock"


def with_clock_control(app: ASGIApp, clock: FakeClock) -> ASGIApp:
    """`app`, with `POST /_test/clock` moving its clock forward by the body's `advance` seconds."""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != CLOCK_PATH or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        clock.advance(float(json.loads(body)["advance"]))
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    return serve


if __name__ == "__main__":
    clock = FakeClock(running=True)
    uvicorn.run(
        with_clock_control(asgi_app(clock=clock), clock),
        host="127.0.0.1",
        port=int(os.environ["PORT"]),
        log_level=get_settings().log_level,
        log_config=None,  # the app's own JSON logging (app.logs), as `python -m app.main` has it
        **{**uvicorn_options(get_settings()), "ws_ping_interval": 5, "ws_ping_timeout": 5},
    )
