"""The OpenAPI description as the server behaves: its own error shape, every refusal each operation can give, and
how a request is authenticated.

FastAPI describes a refusal by its own validation body (`HTTPValidationError`), which this server never sends, and
knows nothing of the session token, which the routes read by hand (`api.deps.token_from`). Here, once the schema is
built, every operation lists its refusals in the server's error shape, `{"error": {"code", "message"}}`: those that
follow from what the operation is, by rule (422 `invalid_request` where it takes parameters or a body, 503
`database_unavailable` or `server_busy` where it reads the database, 401 and 403 `banned` where it reads a session, 404 where its path
names something), and its own from `REFUSALS`, each with the stable codes it answers with (docs/api.md). There is no
`default` response: a status an operation does not list is a bug, which the schemathesis test
(tests/hardening/test_rest_fuzz.py) looks for. The operations that read a session declare the two ways to send one
(a bearer token, or the browser's cookie).
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
                "code": {"type": "string", "description": "stable, for programs (docs/api.md and its topic pages list them)"},
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
# Routes that answer without the database.
NO_DATABASE = {("/api/health/live", "get"), ("/api/games", "get"), ("/api/games/{game_id}/catalog", "get")}

Refusals = dict[int, list[str]]
_CURSOR: Refusals = {422: ["bad_cursor"]}
_HOST_BEFORE_START: Refusals = {403: ["not_host"], 409: ["already_started"]}
_HOST_CHAT: Refusals = {403: ["not_host"], 429: ["too_many_attempts"]}
_INVITE_LIMIT: Refusals = {429: ["too_many_attempts"]}
# Each operation's own refusals, beyond those `describe` adds by rule. Every operation must be listed
# (tests/api/test_openapi.py), so a new route says what it refuses.
REFUSALS: dict[tuple[str, str], Refusals] = {
    ("get", "/api/health/live"): {},
    ("get", "/api/health/ready"): {503: ["not_ready"]},
    ("get", "/api/health"): {503: ["not_ready"]},
    ("post", "/api/auth/guest"): {422: ["bad_name"], 429: ["too_many_requests"]},
    ("post", "/api/auth/register"): {
        422: ["bad_name", "bad_username", "weak_password"],
        409: ["username_taken", "already_registered"],
        429: ["too_many_requests"],
    },
    ("post", "/api/auth/login"): {401: ["bad_credentials"], 403: ["banned"], 429: ["too_many_attempts"]},
    ("post", "/api/auth/forgot"): {403: ["email_off"], 422: ["bad_request"], 429: ["too_many_requests"]},
    ("post", "/api/auth/reset"): {
        400: ["bad_link"], 410: ["link_expired"], 422: ["weak_password"], 429: ["too_many_attempts"]
    },
    # A refused token signs nothing out: answered `ok`.
    ("post", "/api/auth/logout"): {401: [], 403: []},
    ("post", "/api/auth/logout_all"): {},
    ("get", "/api/auth/session"): {},  # a refused token is said in the answer's `refused`
    ("get", "/api/me"): {},
    ("patch", "/api/me"): {409: ["name_confusable"], 422: ["bad_name"], 429: ["too_many_renames"]},
    ("post", "/api/me/password"): {403: ["wrong_password"], 409: ["not_registered"], 422: ["weak_password"]},
    ("get", "/api/games"): {},
    ("get", "/api/games/{game_id}/catalog"): {404: ["unknown_game"]},
    ("post", "/api/tables"): {
        404: ["unknown_game"],
        409: ["option_seat_empty"],
        422: ["bad_seats", "bad_visibility", "bad_options", "bad_time_control", "bad_name"],
        429: ["too_many_requests", "too_many_open_tables"],
    },
    ("get", "/api/tables"): _CURSOR,
    ("get", "/api/me/tables"): _CURSOR,
    ("get", "/api/tables/{table_id}"): _INVITE_LIMIT,
    ("post", "/api/tables/{table_id}/join"): {
        403: ["bad_invite"],
        409: ["already_seated", "already_started", "table_full", "seat_taken", "name_confusable"],
        422: ["no_such_seat"],
        429: ["too_many_attempts"],
    },
    ("post", "/api/tables/{table_id}/leave"): {409: ["not_seated", "already_started"]},
    ("post", "/api/tables/{table_id}/start"): {
        **_HOST_BEFORE_START, 409: ["already_started", "not_enough_players", "option_seat_empty"]
    },
    ("post", "/api/tables/{table_id}/bots"): {
        **_HOST_BEFORE_START, 409: ["already_started", "seat_taken"], 422: ["no_such_seat"]
    },
    ("post", "/api/tables/{table_id}/kick"): {
        **_HOST_BEFORE_START, 409: ["already_started", "seat_empty"], 422: ["no_such_seat"]
    },
    ("post", "/api/tables/{table_id}/stand_in"): {
        403: ["not_seated"],
        409: ["not_playing", "not_a_player", "already_standing_in", "not_awaited", "not_idle_yet"],
        422: ["no_such_seat"],
    },
    ("post", "/api/tables/{table_id}/invite"): {403: ["not_host"], 409: ["not_private"]},
    ("post", "/api/tables/{table_id}/reclaim"): {
        409: ["not_playing", "not_seated", "not_standing_in", "timed_out"]
    },
    ("post", "/api/tables/{table_id}/abandon"): {
        409: ["not_playing", "not_seated", "no_proposal", "already_voted"],
        422: ["bad_vote", "bad_proposal"],
    },
    ("post", "/api/tables/{table_id}/takeback"): {
        409: ["not_playing", "not_seated", "bot_playing", "takeback_open", "nothing_to_take_back", "no_takeback",
              "own_takeback", "already_voted"],
        422: ["bad_say", "bad_proposal"],
    },
    ("post", "/api/tables/{table_id}/rematch"): {
        409: ["not_finished", "not_seated"], 422: ["bad_options"], 429: ["too_many_open_tables"]
    },
    ("get", "/api/tables/{table_id}/moves"): _INVITE_LIMIT,
    ("get", "/api/tables/{table_id}/replay"): {
        409: ["not_started", "game_not_over"], 422: ["bad_step", "bad_seat"], 429: ["too_many_attempts"]
    },
    ("get", "/api/tables/{table_id}/verify"): {409: ["not_finished"], 429: ["too_many_attempts"]},
    ("get", "/api/tables/{table_id}/chat"): {**_CURSOR, 429: ["too_many_attempts"]},
    ("post", "/api/tables/{table_id}/chat"): {
        403: ["muted", "chat_closed"],
        409: ["chat_removed"],
        422: ["bad_message", "chat_empty", "chat_too_long"],
        429: ["rate_limited", "chat_busy", "too_many_attempts"],
    },
    ("delete", "/api/tables/{table_id}/chat/{message_id}"): {**_HOST_CHAT, 404: ["no_such_message"]},
    ("get", "/api/tables/{table_id}/chat/mutes"): _HOST_CHAT,
    ("put", "/api/tables/{table_id}/chat/mutes/{user_id}"): {
        **_HOST_CHAT, 403: ["not_host", "cannot_mute_host"], 404: ["not_at_table"]
    },
    ("delete", "/api/tables/{table_id}/chat/mutes/{user_id}"): _HOST_CHAT,
    ("put", "/api/tables/{table_id}/chat/mode"): {403: ["not_host"], 409: ["no_change"],
                                                  422: ["bad_chat_mode"]},
    ("get", "/api/players/{user_id}"): _CURSOR,
    ("get", "/api/games/{game_id}/leaderboard"): {**_CURSOR, 404: ["unknown_game"]},
    ("get", "/api/me/notifications"): {},
    ("put", "/api/me/notifications"): {403: ["not_registered"], 422: ["bad_email", "bad_notify"],
                                       429: ["rate_limited"]},
    # The links a mail carries answer a page, whatever their token says.
    ("get", "/api/email/verify"): {},
    ("get", "/api/email/unsubscribe"): {},
    ("post", "/api/email/unsubscribe"): {},
    ("post", "/api/tables/{table_id}/invite_email"): {
        403: ["not_host", "email_off"], 409: ["already_started"], 422: ["bad_username"]
    },
    ("get", "/api/push/key"): {503: ["push_unavailable"]},
    ("get", "/api/me/push"): {},
    ("post", "/api/me/push"): {403: ["not_registered"], 422: ["bad_subscription"], 503: ["push_unavailable"]},
    ("delete", "/api/me/push"): {422: ["bad_subscription"]},
}


def _error(codes: list[str]) -> dict[str, Any]:
    return {
        "description": ", ".join(f"`{code}`" for code in codes),
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


def _refusals(path: str, method: str, operation: dict[str, Any], needs: str | None) -> dict[str, Any]:
    """The operation's error responses: those of its kind, then its own (an empty list of codes takes one away)."""
    found: dict[int, list[str]] = {}

    def add(status: int, *codes: str) -> None:
        found.setdefault(status, [])
        found[status] += [c for c in codes if c not in found[status]]

    if operation.get("parameters") or "requestBody" in operation:
        add(422, "invalid_request")
    if (path, method) not in NO_DATABASE:
        add(503, "database_unavailable", "server_busy")
    if needs == "required":
        add(401, "not_signed_in", "bad_token", "token_expired", "session_revoked")
    if needs in ("required", "optional"):
        add(401, "bad_token", "token_expired", "session_revoked")
        add(403, "banned")
    if "{table_id}" in path or "{user_id}" in path:
        add(404, "not_found")
    own = REFUSALS.get((method, path))
    if own is None:
        raise KeyError(f"{method.upper()} {path}: list its refusals in app/api/openapi.py REFUSALS")
    for status, codes in own.items():
        if codes:
            add(status, *codes)
        else:
            found.pop(status, None)
    return {str(status): _error(codes) for status, codes in sorted(found.items())}


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
                needs = auth.get((path, method)) or BY_HAND.get((path, method))
                answers = {k: v for k, v in operation.get("responses", {}).items() if k != "422"}  # FastAPI's own
                operation["responses"] = {**answers, **_refusals(path, method, operation, needs)}
                if needs == "required":
                    operation["security"] = SIGNED_IN
                elif needs == "optional":
                    operation["security"] = ANONYMOUS_OR_SIGNED_IN
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
