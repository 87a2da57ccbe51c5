"""Fixtures the API tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.mail import Inbox, smtp_server
from tests.socket_implementations import _servers_started_in_the_test_use_it, server, ws_impl  # noqa: F401 - fixtures


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    """A local SMTP server's inbox and port."""
    inbox = Inbox()
    with smtp_server(inbox) as port:
        yield inbox, port
