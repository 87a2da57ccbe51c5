"""What wraps every request and socket before the app sees it: who the client is (forwarded headers believed from
trusted proxies only), a request id for the logs, and the security headers of every page."""

from __future__ import annotations

import re
import secrets
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.config import Settings
from app.logs import log_table_id, log_user_id, request_id

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")

# The site's own scripts, styles and images only; no inline script or style, no framing (clickjacking), no plugins.
# 'self' covers the same origin's ws:// and wss:// in connect-src.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    # An invite link's code is in the page's address: no other site may learn it from a Referer.
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
_HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
# The interactive API pages load Swagger UI and ReDoc from a CDN with inline scripts; served only when enabled.
_DOC_PAGES = ("/docs", "/redoc")


class RequestContext:
    """The outermost layer: a request id (a trusted proxy's X-Request-ID, or a new one) in every log line of the
    request or socket and in the response's `X-Request-ID`; the security headers on every HTTP response (HSTS when the
    request came over HTTPS); then the trusted proxies' forwarded headers, and the app."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.proxies: ProxyHeadersMiddleware | None = None
        if settings.forwarded_allow_ips.strip():
            self.proxies = ProxyHeadersMiddleware(app, trusted_hosts=settings.forwarded_allow_ips)  # type: ignore[arg-type]
            app = self.proxies  # type: ignore[assignment]
        self.app = app

    def _trusted(self, scope: Scope) -> bool:
        client = scope.get("client")
        return self.proxies is not None and client is not None and client[0] in self.proxies.trusted_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = None
        if self._trusted(scope):
            for name, value in scope["headers"]:
                if name == b"x-request-id":
                    candidate = value.decode("latin1")
                    rid = candidate if _REQUEST_ID.fullmatch(candidate) else None
                    break
        rid = rid or secrets.token_hex(8)
        tokens = [request_id.set(rid), log_table_id.set(None), log_user_id.set(None)]
        try:
            if scope["type"] == "http":
                await self.app(scope, receive, _with_headers(scope, send, rid))
            else:
                await self.app(scope, receive, send)
        finally:
            log_user_id.reset(tokens[2])
            log_table_id.reset(tokens[1])
            request_id.reset(tokens[0])


def _with_headers(scope: Scope, send: Send, rid: str) -> Send:
    docs = scope["path"] in _DOC_PAGES or scope["path"].startswith("/docs/")

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers: list[Any] = list(message.get("headers", []))
            present = {name.lower() for name, _ in headers}
            extra = [h for h in _HEADERS if h[0] not in present and not (docs and h[0] == b"content-security-policy")]
            if scope.get("scheme") == "https":
                extra.append(_HSTS)
            extra.append((b"x-request-id", rid.encode()))
            message = {**message, "headers": headers + extra}
        await send(message)

    return send_with_headers
