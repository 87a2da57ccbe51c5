"""Operations: liveness, readiness and Prometheus metrics."""

from __future__ import annotations

import asyncio
import hmac
import logging

from fastapi import APIRouter, Depends, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.api.deps import get_rt
from app.api.schemas import HealthOut, LiveOut
from app.metrics import TABLES
from app.runtime import Runtime
from app.services.errors import ServiceError
from app.services.health import database_answers, tables_by_status
from app.services.record import TableStatus

router = APIRouter(tags=["operations"])
log = logging.getLogger("app.ops")


@router.get("/api/health/live", response_model=LiveOut)
async def live() -> LiveOut:
    """The process answers (for a supervisor deciding whether to restart it): nothing else is checked."""
    return LiveOut(status="ok")


@router.get("/api/health/ready", response_model=HealthOut)
async def ready(rt: Runtime = Depends(get_rt)) -> HealthOut:
    """The process can serve: its database answers and its broker (the link to the other processes) is connected.
    503 otherwise (`database_unavailable`, as every request answers then, or `not_ready` for the broker), so a proxy
    or orchestrator sends it no players."""
    try:
        async with rt.reads() as session:
            await asyncio.wait_for(database_answers(session), 5)
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        raise ServiceError("database_unavailable", "The database is not answering; try again shortly.", 503) from exc
    if not await rt.broker.ready():
        raise ServiceError("not_ready", "The broker (the link to the other server processes) is not connected.", 503)
    return HealthOut(status="ok", database="postgresql" if rt.is_postgres else "sqlite", broker="ok")


@router.get("/api/health", response_model=HealthOut)
async def health(rt: Runtime = Depends(get_rt)) -> HealthOut:
    """The same as `/api/health/ready`."""
    return await ready(rt)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request, rt: Runtime = Depends(get_rt)) -> Response:
    """Prometheus metrics, only with `Authorization: Bearer <METRICS_TOKEN>` (404 without the setting: the public port
    does not serve them; METRICS_PORT serves them on a port of their own)."""
    token = rt.settings.metrics_token
    given = request.headers.get("authorization", "")
    if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        raise ServiceError("not_found", "Not Found", 404)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


async def count_tables(rt: Runtime) -> None:
    """Set the tables-by-status gauge (one GROUP BY over every table: on a timer, never per scrape)."""
    async with rt.reads() as session:
        counts = await tables_by_status(session)
    for status in TableStatus:
        TABLES.labels(status=status).set(counts.get(status, 0))


async def keep_counting_tables(rt: Runtime, every: float) -> None:
    while True:
        try:
            await count_tables(rt)
        except Exception:  # noqa: BLE001 - the gauge keeps its last figures until the next round
            log.warning("counting tables failed", exc_info=True)
        await asyncio.sleep(every)
