"""Operations: health and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_reads, get_rt
from app.api.schemas import HealthOut
from app.db.models import GameTable
from app.metrics import TABLES
from app.runtime import Runtime

router = APIRouter(tags=["operations"])


@router.get("/api/health", response_model=HealthOut)
async def health(rt: Runtime = Depends(get_rt), session: AsyncSession = Depends(get_reads)) -> HealthOut:
    """The server is up and its database answers."""
    await session.execute(text("SELECT 1"))
    return HealthOut(status="ok", database="postgresql" if rt.is_postgres else "sqlite")


@router.get("/metrics", include_in_schema=False)
async def metrics(session: AsyncSession = Depends(get_reads)) -> Response:
    """Prometheus metrics."""
    rows = (await session.execute(select(GameTable.status, func.count()).group_by(GameTable.status))).all()
    counts = {status: n for status, n in rows}
    for status in ("open", "playing", "finished"):
        TABLES.labels(status=status).set(counts.get(status, 0))
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
