"""The rules engines stay pure: no server, database, clock, network or unseeded randomness.

Reading the package's own JSON data files at import is allowed (it is component data, not I/O
that depends on the world)."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[2] / "app" / "games"
FORBIDDEN = {
    "random", "time", "datetime", "os", "socket", "asyncio", "subprocess", "threading", "secrets", "uuid",
    "fastapi", "starlette", "sqlalchemy", "asyncpg", "aiosqlite", "httpx", "requests", "websockets", "uvicorn",
    "app.api", "app.db", "app.services", "app.realtime", "app.runtime", "app.main", "app.config",
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("__import__", "eval", "exec"):
            names.append(f"<call {node.func.id}>")  # type: ignore[attr-defined]
    return names


def test_engines_import_nothing_impure() -> None:
    offenders = []
    files = sorted(GAMES_DIR.rglob("*.py"))
    assert files
    for path in files:
        for name in _imports(path):
            root_parts = name.split(".")
            prefixes = {".".join(root_parts[: i + 1]) for i in range(len(root_parts))}
            if prefixes & FORBIDDEN or name.startswith("<call"):
                offenders.append(f"{path.relative_to(GAMES_DIR)}: {name}")
    assert not offenders, "impure imports in app/games:\n" + "\n".join(offenders)
