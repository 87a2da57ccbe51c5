"""Choices about moves made, as two people see them: Ana asks to take back her last move and Bo agrees, then Ana
turns on "confirm moves that can't be taken back" and is asked before such a move (and only such a one)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Person
from tests.e2e.helpers import snapshot, version
from tests.e2e.test_accessibility import as_report, settle, violations

pytestmark = pytest.mark.e2e


def _two_at_a_table(person: Callable[..., Person]) -> tuple[Person, Person, str]:
    # Bo's page lets axe in (tests/e2e/test_accessibility.py); Ana's keeps the site's CSP.
    ana, bo = person("Ana"), person("Bo", bypass_csp=True)
    post = ana.page.request.post
    tid = str(post(ana.base + "/api/tables", data={"game": "food-truck", "seats": 2}).json()["id"])
    assert bo.page.request.post(f"{bo.base}/api/tables/{tid}/join", data={}).ok
    assert post(f"{ana.base}/api/tables/{tid}/start", data={}).ok
    for who in (ana, bo):
        who.goto(f"/t/{tid}")
        expect(who.page.get_by_test_id("conn")).to_have_attribute("data-state", "online")
    return ana, bo, tid


def _mine(page: Page) -> dict[str, Any] | None:
    """The person's state when it is their turn with a move to make, else None."""
    snap = snapshot(page)
    return snap if snap["seat"] in snap["awaiting"] and snap["actions"] else None


def _move_count(who: Person, tid: str) -> int:
    return int(who.page.request.get(f"{who.base}/api/tables/{tid}").json()["move_count"])


def _send_first(page: Page) -> None:
    """Make the first legal move the way a renderer's click does (not waiting for its answer: a dialog may ask)."""
    page.evaluate("() => { const s = window.foodGames.state(); window.foodGames.send(s.actions[0]).catch(() => {}); }")


def _settle(*pages: Page) -> None:
    """Until every page shows the same version and has no move on its way."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if len({version(p) for p in pages}) == 1 and not any(p.evaluate("window.foodGames.pending()") for p in pages):
            return
        pages[0].wait_for_timeout(30)
    raise AssertionError("the pages did not settle")


def test_a_takeback_asked_and_agreed_and_a_confirmed_irreversible_move(person: Callable[..., Person]) -> None:
    ana, bo, tid = _two_at_a_table(person)
    pages = (ana.page, bo.page)
    # Until Ana has made a move and Bo one after her (a step kept as a draft is no move: services/drafts.py).
    def seats_moved() -> list[str]:
        return list(ana.page.evaluate(
            f"async () => (await (await fetch('/api/tables/{tid}/moves')).json()).moves.map((m) => m.seat)"))

    def ana_then_bo() -> bool:
        seats = seats_moved()
        return "0" in seats and "1" in seats[seats.index("0") + 1:]

    for _ in range(80):
        if ana_then_bo():
            break
        for page in pages:
            if _mine(page):
                _send_first(page)
                _settle(*pages)
    assert ana_then_bo()
    moves_before = _move_count(ana, tid)
    mine = ana.page.evaluate(
        f"async () => (await (await fetch('/api/tables/{tid}/moves')).json()).moves.filter((m) => m.seat === '0')"
        ".map((m) => m.seq)"
    )
    taken = moves_before - max(mine) + 1
    assert taken >= 2  # Ana's move and Bo's after it

    # Ana asks; Bo sees who asks and how many moves, and agrees.
    ana.page.get_by_test_id("takeback-ask").click()
    expect(ana.page.get_by_test_id("takeback")).to_contain_text("You asked to take back your last move")
    expect(ana.page.get_by_test_id("takeback-withdraw")).to_be_visible()
    request = bo.page.get_by_test_id("takeback")
    expect(request).to_contain_text(f"Ana asks to take back their last move ({taken} in all")
    expect(ana.page.get_by_test_id("takeback-ask")).to_have_count(0)  # one request at a time
    settle(bo.page)
    found = violations(bo.page, "a request to take back moves")
    assert not found, as_report(found)
    request.get_by_test_id("takeback-yes").click()
    for page in pages:
        expect(page.get_by_test_id("takeback")).to_be_hidden()
        expect(page.get_by_test_id("log")).to_contain_text(f"{taken} move(s) taken back at Ana's request.")

    assert _move_count(ana, tid) == moves_before - taken

    # The preference: off by default; on, a move that can't be taken back is confirmed first, others go at once.
    switch = ana.page.get_by_test_id("confirm-irreversible")
    expect(switch).not_to_be_checked()
    switch.check()
    dialog = ana.page.get_by_test_id("confirm-dialog")
    asked = 0
    for _ in range(80):
        if asked:
            break
        _settle(*pages)
        if _mine(bo.page):
            _send_first(bo.page)
            continue
        if not _mine(ana.page):
            ana.page.wait_for_timeout(50)
            continue
        before = version(ana.page)
        _send_first(ana.page)
        ana.page.wait_for_function(
            "v => document.querySelector('main').dataset.version !== v || document.querySelector('[data-testid=confirm-dialog]')",
            arg=str(before),
        )
        if dialog.count():
            # Not yet: nothing is sent. Then again, and made.
            dialog.get_by_role("button", name="Not yet").click()
            expect(dialog).to_have_count(0)
            assert version(ana.page) == before and not ana.page.evaluate("window.foodGames.pending()")
            _send_first(ana.page)
            dialog.get_by_test_id("confirm").click()
            ana.page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=str(before))
            asked += 1
    assert asked == 1, "no move that can't be taken back came"
    assert ana.page.evaluate("localStorage.getItem('fg.confirmIrreversible')") == "1"
