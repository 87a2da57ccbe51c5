"""A person plays Food Chain Magnate against a bot in the browser, by clicking the board, until a sale is made."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from app.games.food_chain_magnate import map as fcm_map
from app.games.food_chain_magnate.data import CAMPAIGNS
from app.games.food_chain_magnate.employees import card
from tests.e2e.conftest import Person
from tests.e2e.helpers import finished, unnamed_pieces, version

pytestmark = pytest.mark.e2e

JSON = dict[str, Any]
# What the person hires, round by round: a marketeer for the billboard, cooks for the pizza, else waitresses.
HIRES = {1: "marketing_trainee", 2: "kitchen_trainee", 3: "kitchen_trainee", 5: "kitchen_trainee"}


def snapshot(page: Page) -> JSON:
    """The view, the person's legal actions and the awaited seats, as the table page holds them."""
    return page.evaluate(
        "(() => { const s = window.foodGames.state();"
        " return {view: s.view, actions: s.actions || [], awaiting: s.awaiting || [], seat: s.seat}; })()"
    )


def log_text(page: Page) -> str:
    return str(page.get_by_test_id("log").inner_text())


def area(page: Page) -> Any:
    return page.get_by_test_id("game-area")


def click_and_wait(page: Page, locator: Any) -> None:
    """Click a board element; wait until the move it sent has come back (new version, new choices)."""
    if not locator.count():
        page.wait_for_timeout(100)  # redrawn by someone else's move: look again
        return
    before = (version(page), json.dumps(snapshot(page), sort_keys=True))
    try:
        locator.click(timeout=3000)
    except PlaywrightTimeout:
        return  # redrawn under the pointer: look again
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        now = (version(page), json.dumps(snapshot(page), sort_keys=True))
        if now[0] != before[0] and now[1] != before[1]:
            return
        page.wait_for_timeout(25)
    raise AssertionError("the click did not make a move")


def best_billboard_spot(view: JSON, seat: str, spots: list[JSON]) -> tuple[JSON, bool]:
    """A listed footprint beside a house we reach by road, best one no other campaign reaches and the bot is far from;
    and whether its house is on our roads."""
    houses = {h["number"]: h for h in view["houses"]}
    ours = fcm_map.chain_entrances(view["restaurants"], seat, False)
    theirs = [
        e
        for s in view["players"]
        if s != seat
        for e in fcm_map.chain_entrances(view["restaurants"], s, False)
    ]
    taken = {n for c in view["campaigns"] for n in fcm_map.campaign_reach(view["map"], view["houses"], c)}
    best: tuple[tuple[int, ...], JSON, bool] | None = None
    for spot in spots:
        reached = fcm_map.campaign_reach(
            view["map"], view["houses"], {"type": "billboard", "cells": spot["cells"]}
        )
        if not reached:
            continue
        house = houses[reached[0]]
        mine = fcm_map.house_distance(view["map"], ours, house)
        rival = fcm_map.house_distance(view["map"], theirs, house) if theirs else None
        # A house off our roads is the last resort (some maps offer no other spot in range this round):
        # its billboard is still placed, and a later round's campaign may do better.
        score = (
            int(mine is None),
            int(reached[0] in taken),
            len(reached),
            0 if rival is None or rival > mine else 1,
            -(rival if rival is not None else 99),
            mine if mine is not None else 99,
        )
        if best is None or score < best[0]:
            best = (score, spot, mine is not None)
    assert best is not None, "no billboard spot reaches a house"
    return best[1], best[2]


def billboard_for_a_house(view: JSON, seat: str, billboards: list[JSON]) -> JSON | None:
    """The listed billboard tile (smallest footprint first) with a spot in range that reaches a house, if any: the
    bot's buildings and campaigns may have taken every such spot this round."""
    m = view["map"]
    taken = fcm_map.occupied_cells(m, view["houses"], view["restaurants"], view["campaigns"])
    ours = fcm_map.chain_entrances([r for r in view["restaurants"] if not r.get("dead")], seat, False)
    for choice in sorted(billboards, key=lambda a: -a["number"]):
        reach = card(choice["marketeer"])["range"]["value"]
        spots = fcm_map.campaign_placements(m, taken, CAMPAIGNS[choice["number"]]["size"], entrances=ours, reach=reach)
        if any(fcm_map.campaign_reach(m, view["houses"], {"type": "billboard", "cells": c}) for c in spots):
            return choice
    return None


def door_value(view: JSON, door: list[int]) -> tuple[int, float]:
    """(a trainee's billboard from this entrance can reach a house connected to it, closeness to the houses)."""
    m = view["map"]
    taken = fcm_map.occupied_cells(m, view["houses"], view["restaurants"], view["campaigns"])
    served = {h["number"] for h in view["houses"] if fcm_map.house_distance(m, [door], h) is not None}
    billboard = any(
        set(fcm_map.campaign_reach(m, view["houses"], {"type": "billboard", "cells": cells})) & served
        for cells in fcm_map.campaign_placements(m, taken, [2, 1], entrances=[door], reach=2)
    )
    closeness = sum(
        1 / (1 + d) for h in view["houses"] if (d := fcm_map.house_distance(m, [door], h)) is not None
    )
    return int(billboard), closeness


def restaurant_spot(view: JSON, acts: list[JSON]) -> JSON:
    """The first restaurant: the top-left square, then the entrance, from which a billboard finds customers."""
    anchors = [a for a in acts if a["type"] == "restaurant_at"]
    if anchors:

        def best_corner(a: JSON) -> tuple[int, float]:
            r, c = a["cell"]
            corners = [[r + i, c + j] for i in (0, 1) for j in (0, 1)]
            doors = [
                d
                for d in corners
                if any(
                    fcm_map.is_road(view["map"], [d[0] + dr, d[1] + dc])
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                )
            ]
            return max((door_value(view, d) for d in doors), default=(0, 0.0))

        return max(anchors, key=best_corner)
    doors = [a for a in acts if a["type"] == "restaurant_entrance"]
    return max(doors, key=lambda a: door_value(view, a["entrance"]))


def food_for_our_house(view: JSON, seat: str, plan: JSON) -> str:
    """The food the advertised house still wants beyond our stock (the bot may have advertised burgers there too)."""
    stock = view["p"][seat]["stock"]
    wants = view["demand"].get(str(plan.get("house")), [])
    for food in ("burger", "pizza"):
        if wants.count(food) > stock[food]:
            return food
    return "pizza"


def take_turn(page: Page, snap: JSON, plan: JSON) -> None:
    """One decision of the person, made by clicking the matching thing in the game area."""
    view, acts, seat = snap["view"], snap["actions"], snap["seat"]
    game = area(page)
    phase = view["phase"]
    kinds = {a["type"] for a in acts}
    mine = game.locator(f".fcm-chain[data-seat='{seat}']")
    # The board must show this very decision before anything on it is clicked.
    drawn = f".fcm-root[data-phase='{phase}'][data-round='{view['round']}'][data-actions='{len(acts)}']"
    if not game.locator(drawn).count():
        page.wait_for_timeout(50)
        return

    if phase == "first_restaurants":
        spot = restaurant_spot(view, acts)
        cell = spot.get("cell") or spot["entrance"]
        click_and_wait(page, game.locator(f"[data-testid=fcm-map] [data-cell='{cell[0]},{cell[1]}'].legal"))
    elif phase == "reserve":
        click_and_wait(page, game.locator("[data-reserve='reserve_100']"))
    elif phase == "restructuring":
        # Every hand card that still fits the pyramid goes to work (none once we only play on); then submit.
        # Once, the first card placed is clicked in the pyramid to take it back to the hand, then placed again.
        card = mine.locator("[data-testid=fcm-hand] .fcm-card.legal:not(.fcm-overfit)")
        placed = mine.locator(".fcm-pyramid .fcm-card.fcm-placed.legal")
        if placed.count() and not plan.get("took_back"):
            hand = mine.locator("[data-testid=fcm-hand] .fcm-card")
            in_hand = hand.count()
            click_and_wait(page, placed.first)
            if hand.count() == in_hand + 1:  # not redrawn under the pointer: the card is back in the hand
                plan["took_back"] = True
                expect(page.get_by_test_id("log")).to_contain_text("back out of your structure")
            return
        keen = card.count() and not plan.get("passive")
        click_and_wait(page, card.first if keen else game.get_by_test_id("fcm-submit"))
    elif phase == "order_of_business":
        click_and_wait(page, game.locator(".fcm-track-pos.legal").first)
    elif phase in ("payday_firing",):
        click_and_wait(page, game.get_by_test_id("fcm-submit"))
    elif phase in ("payday_forced", "cleanup"):
        click_and_wait(page, mine.locator(".legal").first)
    elif phase == "working" and plan.get("passive"):
        click_and_wait(page, game.get_by_test_id("fcm-done"))
    elif phase == "working":
        work_step(page, snap, plan, kinds, mine)
    else:
        raise AssertionError(f"unexpected phase {phase} with actions {acts[:3]}")


def work_step(page: Page, snap: JSON, plan: JSON, kinds: set[str], mine: Any) -> None:
    view, acts, seat = snap["view"], snap["actions"], snap["seat"]
    game = area(page)
    step = view["work"]["step"]
    done = game.get_by_test_id("fcm-done")
    if step == "recruit":
        want = HIRES.get(view["round"], "waitress")
        if {"type": "hire", "card": want} in acts:
            click_and_wait(page, game.locator(f".fcm-supply [data-card='{want}'].legal"))
            return
    elif step == "marketing":
        if "advertise" in kinds:
            longest = max(a["duration"] for a in acts if a["good"] == "pizza")
            durations = [a for a in acts if a["good"] == "pizza"]
            pizza = game.locator(".fcm-advertise [data-good='pizza']")
            if len(durations) == 1:
                click_and_wait(page, pizza)
            else:
                pizza.click()
                click_and_wait(page, game.locator(f".fcm-advertise [data-duration='{longest}']"))
            plan["advertised"] = plan.get("served", True)  # else another round's billboard may reach one
            return
        spots = [a for a in acts if a["type"] == "campaign_at"]
        if spots:
            spot, plan["served"] = best_billboard_spot(view, seat, spots)
            plan["house"] = fcm_map.campaign_reach(
                view["map"], view["houses"], {"type": "billboard", "cells": spot["cells"]}
            )[0]
            # Click the footprint's squares until the renderer has pinned it down and sent it.
            before = version(page)
            for cell in spot["cells"]:
                if version(page) != before:
                    break
                game.locator(f"[data-testid=fcm-map] [data-cell='{cell[0]},{cell[1]}'].legal").click()
                page.wait_for_timeout(150)
            expect(game.locator(".fcm-advertise")).to_be_visible()
            return
        billboards = [a for a in acts if a["type"] == "campaign" and a["number"] >= 11]
        choice = billboard_for_a_house(view, seat, billboards) if not plan.get("advertised") else None
        if choice is not None:  # else no campaign this round: a later one may find a free spot
            click_and_wait(page, game.locator(f".fcm-ctile[data-campaign='{choice['number']}'].legal"))
            return
    elif step == "food_and_drinks":
        food = food_for_our_house(view, seat, plan)
        cooks = [a for a in acts if a["type"] == "produce" and a["good"] == food]
        if cooks:
            card = mine.locator(f".fcm-card[data-card='{cooks[0]['card']}']").first
            choice = card.locator(f".g-{food}.legal")
            click_and_wait(page, choice if choice.count() else card)
            return
    click_and_wait(page, done)


def test_a_person_plays_a_bot_sells_at_dinnertime_and_sees_the_final_scoring(
    person: Callable[..., Person],
) -> None:
    ana = person("Ana", width=390, height=844)
    page = ana.page
    table = page.request.post(
        ana.base + "/api/tables", data={"game": "food-chain-magnate", "seats": 2, "visibility": "public"}
    ).json()
    ana.goto(f"/t/{table['id']}")
    page.get_by_role("button", name="Add bot").click()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("table-status")).to_have_text("In progress")
    expect(page.get_by_test_id("no-renderer")).to_have_count(0)
    expect(page.get_by_test_id("fcm-map")).to_be_visible()

    plan: JSON = {}
    sale = re.compile(r"House \d+( \(garden\))? buys [^\n]* from Ana: [^\n]*\$-?\d+ each, distance \d+ → total -?\d+")
    deadline = time.monotonic() + 200
    while True:
        assert time.monotonic() < deadline, "no sale by round 4"
        snap = snapshot(page)
        view = snap["view"]
        if view["round"] >= 4 and view["phase"] == "restructuring" and sale.search(log_text(page)):
            break
        assert view["phase"] != "over" and view["round"] <= 9, "Ana sold nothing in eight rounds"
        if snap["seat"] not in snap["awaiting"] or not snap["actions"]:
            page.wait_for_timeout(50)
            continue
        take_turn(page, snap, plan)

    # Three full rounds were played; the pizza advertised on the billboard was sold to the house at dinner.
    log = page.get_by_test_id("log")
    expect(log).to_contain_text(sale)
    assert plan.get("took_back"), "no card was ever taken back out of the pyramid"
    expect(log).to_contain_text("Dinnertime: in number order, each house with demand buys")
    assert snapshot(page)["view"]["p"][snap["seat"]]["cash"] > 0
    game = area(page)
    expect(game.locator(".fcm-camp")).not_to_have_count(0)
    expect(game.locator(f".fcm-chain[data-seat='{snap['seat']}'] .fcm-cash")).not_to_have_text("$0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Play on to the end of the game (the CEO alone, to be quick): the board shows the final scoring.
    plan["passive"] = True
    deadline = time.monotonic() + 240
    while not finished(page):
        assert time.monotonic() < deadline, "the game did not end"
        snap = snapshot(page)
        if snap["view"]["phase"] == "over" or snap["seat"] not in snap["awaiting"] or not snap["actions"]:
            page.wait_for_timeout(50)
            continue
        take_turn(page, snap, plan)
    final = game.get_by_test_id("fcm-final")
    expect(final).to_be_visible()
    expect(final).to_contain_text("Ana")
    expect(final.locator("tbody tr")).to_have_count(2)
    expect(page.get_by_test_id("ranking")).to_contain_text("Ana")
    assert game.locator(".legal").count() == 0
    # Every card, token, pile and square says what it is in words ("Burger Cook, salary $5", not "▢ $5").
    pieces = ".fcm-card, .fcm-good, .fcm-slot, .fcm-htile, .fcm-track-pos, .fcm-reserve, .fcm-sq"
    assert not unnamed_pieces(page, pieces), unnamed_pieces(page, pieces)[:5]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def focused_cell(page: Page) -> str | None:
    """The map square that has keyboard focus ("row,column"), or None when focus is elsewhere."""
    cell: str | None = page.evaluate(
        "(() => { const el = document.activeElement;"
        " return el && el.closest('[data-testid=fcm-map]') ? el.dataset.cell || null : null; })()"
    )
    return cell


def arrow_to(page: Page, cell: str) -> None:
    """Move the keyboard focus over the map to `cell`, square by square with the arrow keys."""
    here = focused_cell(page)
    assert here is not None, "focus is not on the map"
    (r0, c0), (r1, c1) = (tuple(map(int, x.split(","))) for x in (here, cell))
    for _ in range(abs(r1 - r0)):
        page.keyboard.press("ArrowDown" if r1 > r0 else "ArrowUp")
    for _ in range(abs(c1 - c0)):
        page.keyboard.press("ArrowRight" if c1 > c0 else "ArrowLeft")
    assert focused_cell(page) == cell


def test_the_map_is_one_tab_stop_walked_with_the_arrow_keys(person: Callable[..., Person]) -> None:
    ana = person("Ana")
    page = ana.page
    table = page.request.post(
        ana.base + "/api/tables", data={"game": "food-chain-magnate", "seats": 2, "visibility": "public"}
    ).json()
    ana.goto(f"/t/{table['id']}")
    page.get_by_role("button", name="Add bot").click()
    page.get_by_test_id("start").click()
    page.wait_for_function(
        "() => (window.foodGames.state().actions || []).some((a) => a.type === 'restaurant_at')", timeout=20_000
    )
    game_map = area(page).get_by_test_id("fcm-map")
    expect(game_map).to_have_attribute("role", "grid")
    expect(area(page).locator(".fcm-root[data-phase='first_restaurants']")).to_be_visible()
    squares = game_map.locator("[role=gridcell]")
    rows, cols = (len(snapshot(page)["view"]["map"]["grid"]), len(snapshot(page)["view"]["map"]["grid"][0]))
    assert squares.count() == rows * cols >= 225
    # Dozens of squares can take the first restaurant, yet the whole map is one tab stop: its first legal square.
    legal = game_map.locator(".fcm-sq.legal")
    assert legal.count() > 10
    expect(game_map.locator("[tabindex='0']")).to_have_count(1)
    first_legal = legal.first.get_attribute("data-cell")
    page.get_by_role("button", name="Whole map").focus()  # the map's last tool, just before it
    page.keyboard.press("Tab")
    assert focused_cell(page) == first_legal
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^Row \d+, column \d+: .* you can choose it$"))
    page.keyboard.press("Tab")
    assert focused_cell(page) is None, "Tab stopped on another square of the map"
    page.keyboard.press("Shift+Tab")
    assert focused_cell(page) == first_legal

    # The arrow keys move square by square; each square says what is on it and whether it can be chosen.
    r, c = map(int, str(first_legal).split(","))
    page.keyboard.press("ArrowDown")
    assert focused_cell(page) == f"{r + 1},{c}"
    page.keyboard.press("ArrowRight" if c + 1 < cols else "ArrowLeft")
    here = focused_cell(page)
    assert here in (f"{r + 1},{c + 1}", f"{r + 1},{c - 1}")
    expect(game_map.locator("[tabindex='0']")).to_have_attribute("data-cell", str(here))
    rr, cc = map(int, str(here).split(","))
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(rf"^Row {rr + 1}, column {cc + 1}: "))
    page.keyboard.press("Control+Home")
    assert focused_cell(page) == "0,0"
    page.keyboard.press("End")
    assert focused_cell(page) == f"0,{cols - 1}"

    # Enter on a legal square places the restaurant's corner; after the redraw focus is on that square still,
    # which is the map's tab stop; Space on a highlighted corner makes it the entrance.
    spot = restaurant_spot(snapshot(page)["view"], snapshot(page)["actions"])
    corner = f"{spot['cell'][0]},{spot['cell'][1]}"
    arrow_to(page, corner)
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=str(before))
    page.wait_for_function(
        "() => (window.foodGames.state().actions || []).some((a) => a.type === 'restaurant_entrance')"
    )
    expect(area(page).locator(".fcm-sq.legal").first).to_be_visible()
    assert focused_cell(page) == corner
    expect(game_map.locator("[tabindex='0']")).to_have_attribute("data-cell", corner)
    door = restaurant_spot(snapshot(page)["view"], snapshot(page)["actions"])["entrance"]
    arrow_to(page, f"{door[0]},{door[1]}")
    page.keyboard.press(" ")
    expect(page.get_by_test_id("log")).to_contain_text("Ana places a restaurant")
    assert focused_cell(page) == f"{door[0]},{door[1]}"
