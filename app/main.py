"""The FastAPI application: routers, error shape, static frontend, lifespan."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from prometheus_client import start_http_server
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp

from app.api import auth, chat, notify, ops, players, tables, ws
from app.api.openapi import describe
from app.api.ws import BUSY_MESSAGE, is_database_outage
from app.clock import Clock
from app.config import Settings, get_settings
from app.http import RequestContext
from app.logs import setup_logging
from app.metrics import GC_PAUSE_SECONDS
from app.paths import FRONTEND, SOURCE_ROOT, run_migrations
from app.runtime import Runtime
from app.services.errors import ServiceError
from app.site_files import PREFIX, Revalidated, SiteFiles, Versioned

ROOT = SOURCE_ROOT
__all__ = ["FRONTEND", "ROOT", "asgi_app", "create_app", "main", "run_migrations", "uvicorn_options"]
log = logging.getLogger("app")


async def _migrate_when_ready(url: str, wait: float = 30.0) -> None:
    """Run the migrations, waiting for a database that is still starting (up to `wait` seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        try:
            await asyncio.to_thread(run_migrations, url)
            return
        except Exception as exc:  # noqa: BLE001
            if loop.time() > deadline or not is_database_outage(exc.__cause__ or exc):
                raise
            log.warning("database not ready, retrying: %s", exc)
            await asyncio.sleep(1)


def _tune_gc() -> None:
    """Fewer, cheaper garbage collections: the long-lived objects made at start-up are frozen out of
    them, and young collections run less often (each pass over thousands of socket objects stalls every
    table for milliseconds)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    if not any(isinstance(cb, GcPauses) for cb in gc.callbacks):
        gc.callbacks.append(GcPauses())


class GcPauses:
    """A `gc.callbacks` entry timing each collection, for `foodgames_gc_pause_seconds`."""

    def __init__(self) -> None:
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            GC_PAUSE_SECONDS.labels(generation=str(info["generation"])).observe(time.perf_counter() - self.started)


def _is_bad_data(exc: Exception) -> bool:
    """A database refusal of the data itself (a NUL byte, a malformed value), not an outage: by the driver's error
    class, or by Postgres' SQLSTATE class 22, "data exception" (asyncpg's refusal of a NUL in a text array comes as a
    plain `Error`)."""
    orig = getattr(exc, "orig", None)
    name = type(orig).__name__ if orig is not None else ""
    sqlstate = str(getattr(orig, "sqlstate", None) or "")
    return ("DataError" in name or "Character" in name or "ValueError" in name or type(exc).__name__ == "DataError"
            or sqlstate.startswith("22"))


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    """Build the application for these settings, on this clock (the machine's by default)."""
    settings = settings or get_settings()
    setup_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.run_migrations:
            await _migrate_when_ready(settings.effective_database_url)
        rt = Runtime(settings, clock=clock)
        app.state.runtime = rt
        await rt.start()
        if settings.metrics_token or settings.metrics_port:
            rt.spawn(ops.keep_counting_tables(rt, settings.metrics_refresh))
        if settings.metrics_port:
            start_http_server(settings.metrics_port, settings.metrics_host)
        _tune_gc()
        log.info("server started", extra={"path": settings.effective_database_url.split("@")[-1]})
        try:
            yield
        finally:
            await rt.stop()

    docs = settings.api_docs
    app = FastAPI(
        title="Food Truck Games", version="0.1.0", lifespan=lifespan,
        docs_url="/docs" if docs else None, redoc_url="/redoc" if docs else None,
    )
    routers = [ops.router, auth.router, tables.router, chat.router, players.router, notify.router]
    for router in routers:
        app.include_router(router)
    describe(app, routers)

    @app.exception_handler(ServiceError)
    async def service_error(_req: Request, exc: ServiceError) -> JSONResponse:
        response = _error(exc.status, exc.code, exc.message)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(_req: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", []) if p != "body")
        return _error(422, "invalid_request", f"{where or 'request'}: {first.get('msg', 'invalid')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # FastAPI's word for a body it could not parse: a malformed request, like any other
            return _error(422, "invalid_request", f"body: {exc.detail}")
        codes = {404: "not_found", 405: "method_not_allowed"}
        return _error(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail))

    @app.exception_handler(OperationalError)
    @app.exception_handler(DBAPIError)
    @app.exception_handler(OSError)
    async def db_down(req: Request, exc: Exception) -> JSONResponse:
        if _is_bad_data(exc):
            return _error(422, "invalid_request", "The request holds characters the server cannot store.")
        log.warning("database unavailable: %s", exc, extra={"path": req.url.path})
        return _error(503, "database_unavailable", "The database is not answering; try again shortly.")

    @app.exception_handler(PoolTimeout)
    async def busy(req: Request, exc: PoolTimeout) -> JSONResponse:
        # Every pooled connection stayed in use for the pool's timeout: an overload, not a fault of the request.
        log.warning("server busy: %s", exc, extra={"path": req.url.path})
        response = _error(503, "server_busy", BUSY_MESSAGE)
        response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(Exception)
    async def crash(req: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed", extra={"path": req.url.path})
        return _error(500, "server_error", "Something went wrong on our side.")

    site = SiteFiles(FRONTEND)

    def page(name: str, request: Request) -> Response:
        path = FRONTEND / name
        return site.page(path if path.exists() else FRONTEND / "index.html", request.headers, request.method)

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> Response:
        return page("table.html", request)

    @app.api_route("/p/{user_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def player_page(user_id: str, request: Request) -> Response:
        return page("player.html", request)

    @app.api_route("/leaders", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/leaders/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def leaders_page(request: Request, game_id: str | None = None) -> Response:
        return page("leaders.html", request)

    @app.api_route("/api/{rest:path}", methods=list(_METHODS), include_in_schema=False)
    async def no_such_operation(request: Request, rest: str) -> JSONResponse:
        """An /api/ address no route takes is the API's refusal (the site's files would answer a 405 to any method
        but GET): 405 where another method has a route there, else 404."""
        for route in app.router.routes:
            if getattr(route, "endpoint", None) is not no_such_operation and route.matches(request.scope)[0] == Match.PARTIAL:
                return _error(405, "method_not_allowed", "Method Not Allowed")
        return _error(404, "not_found", "Not Found")

    if FRONTEND.exists():
        app.mount(PREFIX, Versioned(site=site), name="versioned")
        app.mount("/", Revalidated(site=site), name="frontend")
    return app


def asgi_app(settings: Settings | None = None, *, clock: Clock | None = None) -> ASGIApp:
    """What uvicorn serves: the FastAPI app with the table sockets in front of it (see `api.ws`), behind the request
    context (trusted proxies' headers, request ids, security headers: `app.http`)."""
    settings = settings or get_settings()
    return served(create_app(settings, clock=clock), settings)


def served(web: FastAPI, settings: Settings) -> ASGIApp:
    """`web` as uvicorn serves it: the table sockets in front of it, the request context around both."""
    return RequestContext(ws.with_table_sockets(web), settings)


app = asgi_app()


WS_IMPLS = {"framed": "app.realtime.protocol:FramedWebSocketProtocol"}


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves this app (shared by `main`, `foodgames serve` and the test servers). The framed websocket
    implementation refuses a uvicorn it was not tested with, before anything starts."""
    if settings.ws_impl == "framed":
        import uvicorn

        from app.realtime.protocol import check_uvicorn

        check_uvicorn(uvicorn.__version__)
    return {
        "ws": WS_IMPLS.get(settings.ws_impl, settings.ws_impl),
        "ws_max_size": 1024 * 1024,
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
        # Our messages are small JSON documents: compressing each costs more CPU than it saves.
        "ws_per_message_deflate": False,
        # Forwarded headers are read by app.http.RequestContext, from FORWARDED_ALLOW_IPS only.
        "proxy_headers": False,
    }


def main() -> None:
    """Run the server (`python -m app.main`)."""
    import uvicorn

    settings = get_settings()
    uvicorn.run(
        "app.main:app",
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        **uvicorn_options(settings),
    )


if __name__ == "__main__":
    main()
