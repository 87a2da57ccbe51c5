"""A local SMTP server (aiosmtpd) for the tests of the mail the server sends, and an inbox that keeps what came."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller

from tests.conftest import free_port


@contextmanager
def smtp_server(handler: Any) -> Iterator[int]:
    """An SMTP server on a free local port, its messages handed to `handler` (aiosmtpd's handler hooks); the port."""
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


class Inbox:
    """What the SMTP server received, as parsed messages."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.mails.append(message_from_bytes(envelope.content, policy=default))  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address and subject in str(m["Subject"])]

    async def wait(self, address: str, subject: str, count: int = 1, timeout: float = 10) -> list[EmailMessage]:
        deadline = time.monotonic() + timeout
        while len(self.to(address, subject)) < count:
            assert time.monotonic() < deadline, f"no mail {subject!r} to {address}: {[m['Subject'] for m in self.mails]}"
            await asyncio.sleep(0.05)
        return self.to(address, subject)
