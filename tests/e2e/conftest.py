"""End-to-end fixtures: the application served in a thread of the test process (on a SQLite file of its own) and
Debian's Chromium via Playwright: its headless shell for pages, the whole browser for what only it has."""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import pytest

from tests.conftest import Database, Server
from tests.mail import Inbox, smtp_server
from tests.platform.tiny_game import withdraw

ROOT = Path(__file__).resolve().parents[2]
# Debian's two builds of Chromium: the whole browser, and its headless shell (package chromium-headless-shell) with
# the same Blink and V8 but none of the browser around them, which Playwright itself runs headless pages in. The
# shell draws the same pages on ~40 % less CPU; the tests that need the whole browser (its notification permission:
# the shell grants a request but reports "denied" after) ask for `full_browser`. E2E_CHROMIUM runs every browser
# test in the executable it names.
CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
PAGES_CHROMIUM = os.environ.get("E2E_CHROMIUM") or (HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else CHROMIUM)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
TIMEOUT_MS = 10_000
BOT_DELAY = 0.05  # seconds between a bot's moves on the browser tests' server

try:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Dialog,
        Page,
        Playwright,
        Request,
        sync_playwright,
    )
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None  # type: ignore[assignment]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the browser tests where no browser is available (they never download one)."""
    if sync_playwright is not None and Path(CHROMIUM).exists() and Path(PAGES_CHROMIUM).exists():
        return
    skip = pytest.mark.skip(reason=f"needs playwright, {CHROMIUM} and {PAGES_CHROMIUM}")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


class AppServer(Server):
    """The application the browser tests open, in a thread of the test process: its own SQLite file (these tests are
    about the page, not the database), the games people play and nothing else (no tiny test game: the lobby would list
    it), and bots that move at a pace a person can follow. Its clock is a running `FakeClock`: a test jumps past a
    wait (`jump`) instead of sitting through it; stop() and start() keep the port, the database and the clock."""

    tiny_game = False

    def __init__(self, tmp: Path, **env: str) -> None:
        super().__init__(Database(tmp, sqlite=True), tmp, ping=20, BOT_DELAY=str(BOT_DELAY), **env)

    def start(self) -> Self:
        # The registry is this process's: the tiny game the API tests' servers registered in it earlier would be
        # offered in the lobby. The browser tests run after every other test of the process (tests/conftest.py).
        withdraw()
        return super().start()

    @contextmanager
    def quick_bots(self) -> Iterator[None]:
        """Within this block the server's bots move at once: for a test that waits for bots to finish a game, not
        one that watches them play."""
        bots = self.runtime.bots
        bots.delay = 0
        try:
            yield
        finally:
            bots.delay = BOT_DELAY


@contextmanager
def mailing_server(tmp: Path, inbox: Inbox) -> Iterator[AppServer]:
    """A browser tests' server of its own that sends its mail at once to `inbox`, at a local SMTP server."""
    with smtp_server(inbox) as port:
        server = AppServer(tmp, SMTP_HOST="127.0.0.1", SMTP_PORT=str(port), SMTP_STARTTLS="false",
                           EMAIL_SWEEP_SECONDS="0.05").start()
        try:
            yield server
        finally:
            server.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test's report ends with what the server logged (its warnings and errors)."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    server = getattr(item, "funcargs", {}).get("app_server")
    if report.failed and isinstance(server, AppServer) and server.log.exists():
        report.sections.append(("server log (last 6,000 characters)", server.log.read_text()[-6000:] or "(empty)"))


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(tmp_path_factory.mktemp("e2e")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


def launch(playwright: Playwright, executable: str) -> Browser:
    assert shutil.which(executable) or Path(executable).exists()
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The Chromium pages are tested in (the headless shell where it is installed)."""
    chromium = launch(playwright, PAGES_CHROMIUM)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def full_browser(playwright: Playwright) -> Iterator[Browser]:
    """The whole Chromium browser, started for the first test that asks for it."""
    chromium = launch(playwright, os.environ.get("E2E_CHROMIUM") or CHROMIUM)
    yield chromium
    chromium.close()


@dataclass
class Person:
    """One browser context (one person) and the problems their page reported."""

    context: BrowserContext
    page: Page
    base: str
    server: AppServer  # where the page is: a test may set up a table on it (tests/e2e/bot_games.py) or move its clock
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)  # what the page's console logged as errors
    failed_requests: list[str] = field(default_factory=list)  # requests that failed, not those a navigation ended
    navigations: dict[int, int] = field(default_factory=dict)  # id(page) -> pages it has navigated to so far
    probes: list[str] = field(default_factory=list)  # HEAD requests: a page asking whether a file exists
    started: dict[int, int] = field(default_factory=dict)  # id(request) -> the navigation of its page it began under
    # What the test itself provokes on purpose (a refused request the page reports): console errors or failed
    # requests matching one of these are not the page's fault.
    expected: list[re.Pattern[str]] = field(default_factory=list)

    def watch(self) -> None:
        """Record the console's errors and the failed requests of the person's pages, those of the tabs they open
        later too (see `noise`)."""
        self.watch_page(self.page)
        self.context.on("page", self.watch_page)

    def watch_page(self, page: Page) -> None:
        page.on("console", self.note_console)
        page.on("request", self.note_request)
        page.on("requestfailed", self.note_failed)

    def note_request(self, request: Request) -> None:
        page = id(request.frame.page)
        # A new page is asked for: the requests of the one before it in that tab may be cut short from now on.
        if request.is_navigation_request() and request.frame.parent_frame is None:
            self.navigations[page] = self.navigations.get(page, 0) + 1
        self.started[id(request)] = self.navigations.get(page, 0)
        if request.method == "HEAD":
            self.probes.append(request.url)

    def note_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({message.location.get('url', '')})")

    def note_failed(self, request: Request) -> None:
        # A request still under way when the page moved on (a poll, the socket's page) is ended by the browser, not
        # failed: only one that failed on the page that made it counts.
        now = self.navigations.get(id(request.frame.page), 0)
        if self.started.pop(id(request), now) != now:
            return
        # Cut short by the browser itself (a redraw or a closing page dropped the request), not refused or lost.
        if request.failure and "ERR_ABORTED" in request.failure:
            return
        self.failed_requests.append(f"{request.method} {request.url}: {request.failure}")

    def expect_noise(self, pattern: str) -> None:
        """The test provokes a console error or failed request matching `pattern` (a regular expression) on
        purpose; say so where it does, so that every other one still fails the test."""
        self.expected.append(re.compile(pattern))

    def noise(self) -> list[str]:
        """The console errors, failed requests and probe requests of this person's pages the test did not expect."""
        found = [f"console error: {e}" for e in self.console_errors]
        found += [f"failed request: {r}" for r in self.failed_requests]
        found += [f"probe request: HEAD {url}" for url in self.probes]
        return [line for line in found if not any(p.search(line) for p in self.expected)]

    def note_dialog(self, dialog: Dialog) -> None:
        """Any alert/confirm is a failure (e.g. script injected through a name); note it and dismiss."""
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def sign_in_as_guest(self, name: str) -> None:
        """Sign in from the form shown on the page (lobby or a table link)."""
        self.page.locator("form input[name=name]").fill(name)
        self.page.locator("form button[type=submit]").click()
        self.page.get_by_test_id("user-name").wait_for()


@contextmanager
def people(browser: Browser, server: AppServer) -> Iterator[Callable[..., Person]]:
    """Factory of new people (browser contexts) at the lobby of `server` (or another of its pages), optionally signed in
    as guests; on the way out, no page may have thrown, opened a dialog, logged a console error or had a request fail
    (but what the test said it provokes: `Person.expect_noise`)."""
    made: list[Person] = []

    def make(
        name: str | None = None, width: int = 1200, height: int = 900, bypass_csp: bool = False, touch: bool = False,
        at: str = "/",
    ) -> Person:
        # `at`: the path their page opens first, a lobby load less for one who goes straight to a table or a profile.
        # `bypass_csp` only for tools injected into the page (axe measures with inline styles of its own); `touch`: a
        # phone's touch screen. Everyone prefers reduced motion, so a move is one frame drawn instead of twenty (cards
        # glide and changes fade in for a quarter of a second; with bots moving every 50 ms the page drew without
        # pause); the tests of motion itself ask for it (`page.emulate_media`).
        context = browser.new_context(
            viewport={"width": width, "height": height}, bypass_csp=bypass_csp, is_mobile=touch, has_touch=touch,
            reduced_motion="reduce",
        )
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        who = Person(context, page, server.url, server)
        page.on("pageerror", lambda exc: who.errors.append(str(exc)))
        page.on("dialog", who.note_dialog)
        who.watch()
        # Every page runs under the site's Content-Security-Policy: anything it blocks fails every browser test.
        page.on("console", lambda msg: who.errors.append(f"CSP: {msg.text}")
                if "Content Security Policy" in msg.text else None)
        made.append(who)
        if name is not None:
            # Signed in as the lobby's form does it, through the API, which sets the context's cookie: a page load
            # and a form less (the form itself has tests of its own: `sign_in_as_guest`).
            answer = context.request.post(server.url + "/api/auth/guest", data={"name": name})
            assert answer.ok, answer.text()
        who.goto(at)
        if name is not None:
            who.page.get_by_test_id("user-name").wait_for()
        return who

    try:
        yield make
    finally:
        for who in made:
            who.context.close()
    for who in made:
        assert not who.errors, f"uncaught errors in the page: {who.errors}"
        assert not who.dialogs, f"unexpected dialogs: {who.dialogs}"
        assert not who.noise(), f"console errors or failed requests: {who.noise()}"


@pytest.fixture
def person(browser: Browser, app_server: AppServer) -> Iterator[Callable[..., Person]]:
    """Factory: a new person (browser context) at the lobby or the page `at` names, optionally signed in as a guest."""
    with people(browser, app_server) as make:
        yield make


@pytest.fixture
def person_in_full_browser(full_browser: Browser, app_server: AppServer) -> Iterator[Callable[..., Person]]:
    """`person` in the whole Chromium browser, for what its headless shell lacks."""
    with people(full_browser, app_server) as make:
        yield make


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where the browser tests leave what a person would see (screenshots): `E2E_ARTIFACTS`, else test-results/e2e."""
    folder = Path(os.environ.get("E2E_ARTIFACTS") or ROOT / "test-results" / "e2e")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)
