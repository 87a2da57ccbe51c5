"""Run the real server with the tiny game registered (used by the platform tests)."""

from __future__ import annotations

import os

import uvicorn

from tests.platform.tiny_game import install

install()

from app.config import get_settings  # noqa: E402
from app.main import asgi_app, uvicorn_options  # noqa: E402

if __name__ == "__main__":
    uvicorn.run(
        asgi_app(),
        host="127.0.0.1",
        port=int(os.environ["PORT"]),
        log_level=get_settings().log_level,
        log_config=None,  # the app's own JSON logging (app.logs), as `python -m app.main` has it
        **{**uvicorn_options(get_settings()), "ws_ping_interval": 5, "ws_ping_timeout": 5},
    )
