"""Web Push notifications (VAPID, RFC 8030/8291/8292): "your turn at …" to a person whose browser has the site closed.

A person's browser subscribes through the service worker (`frontend/sw.js`) with the server's VAPID public key
(`GET /api/push/key`) and hands the subscription over (`POST /api/me/push`): the push service's endpoint, the
browser's P-256 key (`p256dh`) and auth secret. One row per endpoint (`push_subscriptions`); a browser that
subscribes again under another account moves to it. The sending is pywebpush's: it encrypts the text for that browser
alone (aes128gcm) and signs the request with the VAPID key; the push service learns nothing of the text.

What to send is notify.py's decision (`Notifications.turns_started`: your turn began in a turn-based game and you are
not at the table), made once the change is committed and published. Each notice is inserted into `push_notices` under the
same key the email outbox uses; whichever process inserts it sends it, so it goes once. An endpoint the push service
says is gone (404, 410) is deleted.

The VAPID key comes from VAPID_PRIVATE_KEY, else it is generated once and kept beside the database (app/config.py).

Web Push is the optional `push` extra (pywebpush, py-vapid, cryptography: about 30 MB the serve venv does without).
Without it the server has no VAPID key (`PushNotices.vapid` is None): nothing is pushed, and subscribing or asking for
the key answers 503 `push_unavailable`. Its libraries are therefore imported where they are used, never at import time.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson
from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import PushNotice, PushSubscription, User
from app.services.errors import ServiceError

if TYPE_CHECKING:
    from py_vapid import Vapid

    from app.services.database import Database

log = logging.getLogger("app.push")
MAX_PER_USER = 10  # browsers one person gets pushes on; the oldest subscription goes to make room
TTL = 24 * 3600  # seconds a push service keeps a notice for a browser that is offline
KEEP_NOTICES = timedelta(days=7)
GONE = (404, 410)  # the push service's word for an endpoint that no longer exists


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def available() -> bool:
    """Whether the `push` extra is installed."""
    try:
        import cryptography  # noqa: F401
        import py_vapid  # noqa: F401
        import pywebpush  # noqa: F401
    except ImportError:
        return False
    return True


def unavailable() -> ServiceError:
    return ServiceError(
        "push_unavailable", "This server sends no Web Push notifications (it runs without the push extra).", 503
    )


def new_private_key() -> str:
    """A new VAPID private key: its raw 32 bytes as base64url."""
    from cryptography.hazmat.primitives.asymmetric import ec

    number = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return _b64(number.to_bytes(32, "big"))


@dataclass(frozen=True)
class VapidKeys:
    """The server's VAPID identity: the key that signs, its public half as browsers take it (`applicationServerKey`:
    the uncompressed point, base64url), and the contact given to push services."""

    signer: Vapid
    public_key: str
    subject: str

    @classmethod
    def load(cls, settings: Settings) -> VapidKeys | None:
        """The server's keys; None without the `push` extra (then no key is generated either)."""
        if not available():
            log.info("Web Push is off: the push extra (pywebpush) is not installed")
            return None
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        from py_vapid import Vapid

        signer = Vapid.from_raw(settings.effective_vapid_private_key(new_private_key).encode())
        public = signer.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        subject = settings.vapid_subject or settings.effective_public_url
        return cls(signer, _b64(public), subject)


def _check(insecure_endpoints: bool, endpoint: Any, p256dh: Any, auth: Any) -> tuple[str, str, str]:
    from cryptography.hazmat.primitives.asymmetric import ec

    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise ServiceError("bad_subscription", "The push endpoint must be an address of at most 1000 characters.", 422)
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if insecure_endpoints else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise ServiceError("bad_subscription", "The push endpoint must be an https:// address.", 422)
    try:
        key, secret = _unb64(p256dh), _unb64(auth)
    except (TypeError, ValueError) as exc:
        raise ServiceError("bad_subscription", "The subscription's keys must be base64url.", 422) from exc
    if len(key) != 65 or key[0] != 4:
        raise ServiceError("bad_subscription", "p256dh must be an uncompressed P-256 public key.", 422)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    except ValueError as exc:
        raise ServiceError("bad_subscription", "p256dh is not a point of P-256.", 422) from exc
    if len(secret) != 16:
        raise ServiceError("bad_subscription", "auth must be a 16-byte secret.", 422)
    return endpoint, _b64(key), _b64(secret)


async def unsubscribe(session: AsyncSession, user: User, endpoint: Any) -> None:
    """Forget this browser's subscription (of this person: nobody ends another's)."""
    if not isinstance(endpoint, str):
        raise ServiceError("bad_subscription", "Name the push endpoint to forget.", 422)
    await session.execute(
        delete(PushSubscription).where(PushSubscription.endpoint == endpoint, PushSubscription.user_id == user.id)
    )
    await session.commit()


async def count(session: AsyncSession, user: User) -> int:
    return int(await session.scalar(
        select(func.count()).select_from(PushSubscription).where(PushSubscription.user_id == user.id)
    ) or 0)


class PushNotices:
    """The browsers people get Web Push notices on, and the sending of those notices (none without the `push`
    extra: `vapid` None)."""

    def __init__(self, *, database: Database, vapid: VapidKeys | None, insecure_endpoints: bool) -> None:
        self.database = database
        self.vapid = vapid
        self.insecure_endpoints = insecure_endpoints  # http:// endpoints too (PUSH_INSECURE_ENDPOINTS, for tests)

    async def subscribe(self, session: AsyncSession, user: User, endpoint: Any, p256dh: Any, auth: Any) -> None:
        """Keep this browser's subscription for the person (the one before under this endpoint goes)."""
        if self.vapid is None:
            raise unavailable()
        if not user.username:
            raise ServiceError("not_registered", "Create an account first: guests get no push notifications.", 403)
        endpoint, p256dh, auth = _check(self.insecure_endpoints, endpoint, p256dh, auth)
        insert = pg_insert if self.database.is_postgres else sqlite_insert
        values = {"user_id": user.id, "p256dh": p256dh, "auth": auth, "created_at": datetime.now(UTC)}
        # One statement whoever held the endpoint, so the same browser subscribing twice at once cannot collide.
        await session.execute(
            insert(PushSubscription).values(endpoint=endpoint, **values)
            .on_conflict_do_update(index_elements=["endpoint"], set_=values)
        )
        held = list(await session.scalars(
            select(PushSubscription.endpoint).where(PushSubscription.user_id == user.id)
            .order_by(PushSubscription.created_at.desc())
        ))
        if len(held) > MAX_PER_USER:
            await session.execute(delete(PushSubscription).where(PushSubscription.endpoint.in_(held[MAX_PER_USER:])))
        await session.commit()

    async def send(self, notices: list[tuple[str, str, dict[str, str]]]) -> int:
        """Send each notice (key, user id, message: title, body, url) not sent before to the person's browsers; how
        many pushes the push services took (none without the `push` extra)."""
        keys = self.vapid
        if not notices or keys is None:
            return 0
        async with self.database.reads() as session:
            subscribed = set(await session.scalars(
                select(PushSubscription.user_id).where(PushSubscription.user_id.in_({n[1] for n in notices}))
                .distinct()
            ))
        notices = [n for n in notices if n[1] in subscribed]  # most people have no browser subscribed: nothing to write
        if not notices:
            return 0
        now = datetime.now(UTC)
        targets: list[tuple[PushSubscription, bytes]] = []
        async with self.database.write() as session:
            insert = pg_insert if self.database.is_postgres else sqlite_insert
            await session.execute(delete(PushNotice).where(PushNotice.created_at < now - KEEP_NOTICES))
            for key, user_id, message in notices:
                made = await session.execute(
                    insert(PushNotice).values(key=key, created_at=now).on_conflict_do_nothing(index_elements=["key"])
                    .returning(PushNotice.key)
                )
                if made.first() is None:
                    continue  # made before, here or by another process
                data = orjson.dumps({**message, "tag": key})
                for sub in await session.scalars(select(PushSubscription).where(PushSubscription.user_id == user_id)):
                    targets.append((sub, data))
            await session.commit()
            session.expunge_all()
        from pywebpush import WebPushException, webpush_async

        sent, gone = 0, []
        for sub, data in targets:
            try:
                await webpush_async(
                    {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                    data.decode(), vapid_private_key=keys.signer, vapid_claims={"sub": keys.subject}, ttl=TTL,
                    timeout=10,
                )
                sent += 1
            except WebPushException as exc:
                if exc.status_code in GONE:
                    gone.append(sub.endpoint)
                else:
                    log.warning("push not sent", extra={"user_id": sub.user_id, "error": str(exc)[:300]})
            except Exception as exc:  # noqa: BLE001 - a push service unreachable loses a notice, nothing else
                log.warning("push not sent", extra={"user_id": sub.user_id, "error": str(exc)[:300]})
        if gone:
            async with self.database.write() as session:
                await session.execute(delete(PushSubscription).where(PushSubscription.endpoint.in_(gone)))
                await session.commit()
        return sent
