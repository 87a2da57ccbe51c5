"""The OpenAPI description as the server behaves: its own error shape, and how a request is authenticated.

FastAPI describes a refusal by its own validation body (`HTTPValidationError`), which this server never sends, and
knows nothing of the session token, which the routes read by hand (`api.deps.token_from`). Here, once the schema is
built, every operation gets the server's error shape, `{"error": {"code", "message"}}`, for the refusals every
request may meet (422 `invalid_request`, 503 `database_unavailable`) and as its `default` (each code is listed in
docs/api.md), 401 where it needs a session and 404 where its path names something; the operations that read a session
declare the two ways to send one (a bearer token, or the browser's cookie).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from app.api.deps import COOKIE, current_session, current_user, optional_signed_in, optional_user

ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "description": "stable, for programs (docs/api.md lists them)"},
                "message": {"type": "string", "description": "for people"},
            },
        }
    },
}
SECURITY_SCHEMES: dict[str, Any] = {
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "The `token` that signing in (or becoming a guest) answered.",
    },
    "cookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": COOKIE,
        "description": "The HttpOnly cookie the same answer sets, which a browser sends by itself.",
    },
}
SIGNED_IN: list[dict[str, list[str]]] = [{"bearer": []}, {"cookie": []}]
ANONYMOUS_OR_SIGNED_IN: list[dict[str, list[str]]] = [{}, *SIGNED_IN]
REQUIRED: tuple[Callable[..., Any], ...] = (current_user, current_session)
OPTIONAL: tuple[Callable[..., Any], ...] = (optional_user, optional_signed_in)
# Routes that read the token themselves rather than through a dependency.
BY_HAND = {("/api/auth/logout", "post"): "optional"}


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _calls(dependant: Dependant) -> Iterator[Any]:
    for dep in dependant.dependencies:
        yield dep.call
        yield from _calls(dep)


def _auth(route: APIRoute) -> str | None:
    calls = set(_calls(route.dependant))
    if calls & set(REQUIRED):
        return "required"
    if calls & set(OPTIONAL):
        return "optional"
    return None


def describe(app: FastAPI, routers: list[APIRouter]) -> None:
    """Make `app.openapi()` describe the server's errors and authentication (built once, then cached); `routers` are
    those the app includes (without a prefix of their own), whose routes say which dependencies read a session."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        components = schema.setdefault("components", {})
        schemas = components.setdefault("schemas", {})
        for fastapi_own in ("HTTPValidationError", "ValidationError"):
            schemas.pop(fastapi_own, None)
        schemas["Error"] = ERROR_SCHEMA
        components["securitySchemes"] = SECURITY_SCHEMES
        auth = {
            (route.path_format, method.lower()): _auth(route)
            for router in routers
            for route in router.routes
            if isinstance(route, APIRoute) and route.include_in_schema
            for method in route.methods or ()
        }
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                responses = operation.setdefault("responses", {})
                responses["422"] = _error(
                    "`invalid_request`: a parameter or the body is malformed (or a rule's own code)"
                )
                responses["503"] = _error("`database_unavailable` (or `not_ready`): try again shortly")
                responses["default"] = _error("Any other refusal, with its stable code (docs/api.md)")
                needs = auth.get((path, method)) or BY_HAND.get((path, method))
                if needs == "required":
                    operation["security"] = SIGNED_IN
                    responses["401"] = _error("`not_signed_in`, `bad_token` or `session_revoked`")
                elif needs == "optional":
                    operation["security"] = ANONYMOUS_OR_SIGNED_IN
                if needs is not None:
                    responses["403"] = responses.get("403") or _error("`banned`, or not allowed here")
                if "{" in path:
                    responses["404"] = _error("`not_found`: nothing by that id (or not visible to you)")
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
