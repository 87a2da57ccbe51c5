"""Structured logs: one JSON object a line, each tagged with the request (or socket) it belongs to, secrets redacted."""

from __future__ import annotations

import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime

import orjson

_FIELDS = ("table_id", "user_id", "seat", "client_id", "game", "path", "status")

# The request or socket whose work is running: set by app.http.RequestContext, read into every log line.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
log_table_id: ContextVar[str | None] = ContextVar("log_table_id", default=None)
log_user_id: ContextVar[str | None] = ContextVar("log_user_id", default=None)

# Credentials that may ride in a query string (an old client's `token=`, an invite link's `invite=`) or a header
# quoted in an error: the value is dropped from every line.
_SECRET_PARAM = re.compile(r"(?i)\b(token|invite|ticket|invite_code|authorization)(=|:\s*(?:bearer\s+)?)([^\s&\"',;]+)")


def redact(text: str) -> str:
    """`text` with the values of token, invite code and ticket parameters replaced."""
    return _SECRET_PARAM.sub(lambda m: f"{m.group(1)}{m.group(2)}[redacted]", text)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        rid = request_id.get()
        if rid is not None:
            entry["request_id"] = rid
        for name, var in (("table_id", log_table_id), ("user_id", log_user_id)):
            value = var.get()
            if value is not None:
                entry[name] = value
        for name in _FIELDS:
            if hasattr(record, name):
                entry[name] = getattr(record, name)
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return orjson.dumps(entry, default=str).decode()


def setup_logging(level: str) -> None:
    """Send every log record to stderr as JSON."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
