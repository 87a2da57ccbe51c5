"""Fixtures the socket tests share."""

from tests.socket_implementations import _servers_started_in_the_test_use_it, server, ws_impl  # noqa: F401 - fixtures
