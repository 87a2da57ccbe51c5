"""`python -m app.verify TABLE_ID` (also `foodgames verify TABLE_ID`): replay a finished table from its revealed seed and check it."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from app.config import Settings
from app.db.session import make_engine, make_sessionmaker
from app.services.history import verify
from app.services.loading import load_record


async def check(table_id: str) -> dict[str, Any]:
    """The replay's verdict on the table (`services.history.verify`), read from the configured database."""
    engine = make_engine(Settings())
    try:
        async with make_sessionmaker(engine)() as session:
            return await verify(session, await load_record(session, table_id))
    finally:
        await engine.dispose()


async def _main(table_id: str) -> int:
    result = await check(table_id)
    print(json.dumps(result, indent=2))
    return 0 if result["ok"] else 1


def main() -> None:
    if len(sys.argv) != 2:
        print("usage: python -m app.verify TABLE_ID", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(asyncio.run(_main(sys.argv[1])))


if __name__ == "__main__":
    main()
