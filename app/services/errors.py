"""The one error type the services raise; the API turns it into `{"error": {code, message}}`."""

from __future__ import annotations

# Said to a session whose token epoch is past (`session_revoked`), on REST and on its sockets.
SESSION_ENDED_MESSAGE = "You were signed out: your password changed, or you signed out everywhere. Sign in again."


class ServiceError(Exception):
    """A refused request with a stable code, a readable message and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after  # seconds, for a 429: sent as Retry-After


def not_found(what: str = "table") -> ServiceError:
    return ServiceError("not_found", f"No such {what}.", 404)


def banned() -> ServiceError:
    """Said to a banned person's requests and sign-ins (services/admin.py)."""
    return ServiceError("banned", "This account is banned from the site.", 403)
