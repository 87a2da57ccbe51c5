// The table page's panels (frontend/app/panels/*.js) over a store, in the small document of setup-browser.js: each
// draws again when its inputs changed, and leaves its nodes alone when they did not.
import "./setup-browser.js";
import { test } from "node:test";
import assert from "node:assert/strict";

import { h, morph, mount } from "../../../frontend/lib/dom.js";
import { SHAPES, icon } from "../../../frontend/lib/icons.js";
import { keepSame, tableStore } from "../../../frontend/app/table-state.js";
import { seatsPanel } from "../../../frontend/app/panels/seats.js";
import { turnPanel } from "../../../frontend/app/panels/turn.js";
import { boardPanel } from "../../../frontend/app/panels/board.js";
import { logPanel } from "../../../frontend/app/panels/log.js";
import { prestartPanel } from "../../../frontend/app/panels/prestart.js";

function table(extra = {}) {
  return {
    id: "t1", game: "food-truck", status: "playing", version: 5, host: { id: "u0", name: "Ana" }, is_host: true, rated: false,
    seats: [
      { seat: "0", user: { id: "u0", name: "Ana" }, bot: null },
      { seat: "1", user: { id: "u1", name: "Bo" }, bot: null },
    ],
    ...extra,
  };
}

function seatsOf(store) {
  const deps = { seats: h("ul"), watching: h("span"), watchers: h("div"), hostCall: () => {}, invite: null,
    seatNode: () => h("span", { class: "clock" }), chat: () => null };
  return { deps, handles: seatsPanel(store, deps) };
}

test("the seats are drawn again for a new table or presence, and not for the log, the chat or the since list", () => {
  const store = tableStore("en");
  store.set({ table: table(), seat: "0", awaiting: ["1"] });
  const { deps, handles } = seatsOf(store);
  const first = deps.seats.querySelector("li[data-seat='1']");
  assert.ok(first);
  assert.equal(handles.seats.draws(), 1);

  store.set({ log: ["Ana: card placed"], since: ["Bo: card placed"], mutes: 1, draft: 1 });
  assert.equal(deps.seats.querySelector("li[data-seat='1']"), first, "not drawn again");
  assert.equal(handles.seats.draws(), 1);

  store.set({ presence: { online: ["1"], watching: 2, watchers: [] } });
  const second = deps.seats.querySelector("li[data-seat='1']");
  assert.notEqual(second, first);
  assert.ok(second.querySelector(".seat-dot.online"));
  assert.equal(deps.watching.textContent, "2 watching");

  // Watchers coming and going (the same `online` list kept) change the watchers' line, not the seats.
  const online = store.get().presence.online;
  store.set({ presence: { online, watching: 3, watchers: [{ id: "u9", name: "Cy" }] } });
  assert.equal(deps.seats.querySelector("li[data-seat='1']"), second);
  assert.match(deps.watchers.textContent, /Cy/);
  assert.equal(deps.watching.textContent, "3 watching");

  store.set({ table: table({ outcome: null, version: 6 }) });
  assert.notEqual(deps.seats.querySelector("li[data-seat='1']"), second);
});

test("the turn bar says whose turn it is, drawn again only when the turn, the seat or the language change", () => {
  const store = tableStore("en");
  store.set({ table: table(), seat: "0", awaiting: ["0"] });
  const deps = { turn: h("div"), turnNote: h("div"), since: h("section"), undo: () => {}, reclaimButton: () => h("button") };
  const { turn } = turnPanel(store, deps);
  assert.match(deps.turn.textContent, /Your turn/);
  const line = deps.turn.firstChild;
  store.set({ log: ["x"], view: { phase: "prep" }, renderer: { module: null } });
  assert.equal(deps.turn.firstChild, line);
  assert.equal(turn.draws(), 1);
  store.set({ awaiting: ["1"] });
  assert.match(deps.turn.textContent, /Bo/);
  assert.doesNotMatch(deps.turn.textContent, /Your turn/);
  store.set({ undo: true, awaiting: ["0"] });
  assert.ok(deps.turn.querySelector("[data-testid='undo']"));
  assert.equal(turn.draws(), 3);
});

test("the board's renderer draws for a new view or new actions, and not for presence, chat or log changes", () => {
  const store = tableStore("en");
  let renders = 0;
  const module = {
    render(container, view, ctx) {
      renders += 1;
      mount(container, h("p", null, `phase ${view.phase}, ${ctx.actions.length} moves`));
    },
  };
  store.set({ table: table(), seat: "0", awaiting: ["0"], view: { phase: "prep" }, actions: [{ type: "a" }],
    renderer: { module } });
  const deps = { game: h("div"), gameTitle: h("h2"), layout: h("div"), prompt: h("div"), bar: h("div"),
    ctx: () => ({ actions: store.get().actions, prompt: null }) };
  const { board } = boardPanel(store, deps);
  assert.equal(renders, 1);
  assert.equal(deps.game.textContent, "phase prep, 1 moves");

  store.set({ presence: { online: ["0"], watching: 0, watchers: [] } });
  store.set({ log: ["line"], mutes: 2, since: null, conn: { status: "online", info: {} }, chime: false });
  assert.equal(renders, 1);

  // A message that repeats the actions keeps the array already drawn (keepSame), so nothing is drawn again.
  store.set({ actions: keepSame(store.get().actions, [{ type: "a" }]) });
  assert.equal(renders, 1);

  store.set({ actions: keepSame(store.get().actions, [{ type: "a" }, { type: "b" }]) });
  assert.equal(renders, 2);
  store.set({ view: { phase: "cook" } });
  assert.equal(renders, 3);
  assert.equal(deps.game.textContent, "phase cook, 2 moves");
  board.redraw(); // a refused move: drawn again from the last known state
  assert.equal(renders, 4);

  store.set({ table: table({ status: "open" }) });
  assert.equal(deps.game.hidden, true);
});

test("the log appends the lines added to it and redraws all when it is read again", () => {
  const store = tableStore("en");
  const { el } = logPanel(store);
  const list = el.querySelector("ol");
  store.set({ log: ["one", "two"] });
  const firstItem = list.children[0];
  store.set({ log: [...store.get().log, "three"] });
  assert.deepEqual(list.children.map((li) => li.textContent), ["one", "two", "three"]);
  assert.equal(list.children[0], firstItem, "appended, the old lines left in place");
  store.set({ log: ["one"] }); // read again without a step taken back
  assert.deepEqual(list.children.map((li) => li.textContent), ["one"]);
  assert.notEqual(list.children[0], firstItem);
});

test("the log follows its newest line until the reader scrolls up, and again once they scroll back down", async () => {
  const store = tableStore("en");
  const { el } = logPanel(store);
  const box = /** @type {any} */ (el);
  Object.assign(box, { scrollHeight: 500, clientHeight: 100, scrollTop: 400 });
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  store.set({ log: ["one"] });
  box.scrollHeight = 520;
  await frame();
  assert.equal(box.scrollTop, 520, "pinned: scrolled to the new line");
  box.scrollTop = 100; // the reader scrolls up to read
  el.dispatchEvent({ type: "scroll" });
  store.set({ log: ["one", "two"] });
  box.scrollHeight = 540;
  await frame();
  assert.equal(box.scrollTop, 100, "left where the reader is");
  box.scrollTop = 440; // back at the bottom
  el.dispatchEvent({ type: "scroll" });
  store.set({ log: ["one", "two", "three"] });
  box.scrollHeight = 560;
  await frame();
  assert.equal(box.scrollTop, 560);
});

test("the host's invitation by email: the typed name survives redraws; the confirmation and refusals are said", async () => {
  const store = tableStore("en");
  store.set({ table: table({ status: "open", invite_code: null }), seat: "0" });
  const deps = { prestart: h("section"), tablePath: () => "/api/tables/t1", hostCall: () => {} };
  prestartPanel(store, deps);
  const form = deps.prestart.querySelector("[data-testid='invite-email']");
  assert.ok(form, "offered to the host");
  const input = form.querySelector("input");
  const status = form.querySelector("[data-testid='invite-email-status']");
  const send = form.querySelector("[data-testid='invite-email-send']");

  input.value = "bo";
  input.focus();
  // Someone sits down: the panel is drawn again, the field is the same one, with what was typed and the focus.
  store.set({ table: table({ status: "open", version: 6 }) });
  assert.equal(deps.prestart.querySelector("input"), input);
  assert.equal(input.value, "bo");
  assert.equal(document.activeElement, input);

  const calls = [];
  const answers = [
    { status: 200, body: { ok: true } },
    { status: 409, body: { error: { code: "already_started", message: "The game has already started." } } },
  ];
  globalThis.fetch = /** @type {any} */ (async (path, init) => {
    calls.push([path, init.method, JSON.parse(init.body)]);
    const { status: code, body } = answers.shift();
    return { status: code, ok: code < 300, statusText: "", text: async () => JSON.stringify(body) };
  });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  send.click();
  await settled();
  assert.deepEqual(calls[0], ["/api/tables/t1/invite_email", "POST", { username: "bo" }]);
  assert.equal(status.textContent, "Invitation sent to bo if they take invitations by email.");
  assert.equal(status.dataset.state, "sent");
  assert.equal(input.value, "");

  input.value = "cy";
  send.click();
  await settled();
  assert.equal(status.textContent, "The game has already started.");
  assert.equal(status.dataset.state, "error");
  assert.equal(input.value, "cy", "what was typed stays");

  input.value = "  ";
  send.click();
  await settled();
  assert.equal(calls.length, 2, "nothing sent for an empty name");
  assert.equal(status.textContent, "Type the username of the person to invite.");

  // Not the host: no such field.
  store.set({ table: table({ status: "open", is_host: false, version: 7 }) });
  assert.equal(deps.prestart.querySelector("[data-testid='invite-email']"), null);
});

test("mount keeps focus on the control with the same data-focus-id though its text changed", () => {
  const box = h("div");
  document.body.appendChild(box);
  mount(box, h("button", { "data-focus-id": "a" }, "Add bot"), h("button", { "data-focus-id": "b" }, "Kick"));
  box.querySelectorAll("button")[1].focus();
  mount(box, h("button", { "data-focus-id": "x" }, "Something new"), h("button", { "data-focus-id": "a" }, "Añadir bot"),
    h("button", { "data-focus-id": "b" }, "Expulsar"));
  assert.equal(document.activeElement.dataset.focusId, "b");
  // Without a focus id, the control of the same kind nearest to the old place, whatever its words.
  mount(box, h("button", null, "One"), h("button", null, "Two"));
  box.querySelectorAll("button")[1].focus();
  mount(box, h("button", null, "Uno"), h("button", null, "Dos"));
  assert.equal(document.activeElement.textContent, "Dos");
  box.remove();
});

test("the replay's move list marks the step shown and is built again only for a new step or new moves", async () => {
  const { Store } = await import("../../../frontend/app/store.js");
  const { replayPanels } = await import("../../../frontend/app/panels/replay.js");
  let renders = 0;
  const module = { render(container, view) { renders += 1; mount(container, h("p", null, `at ${view.at}`)); } };
  const store = new Store({ table: table(), renderer: { module }, current: null, moves: [], seenBy: null, error: null, lang: "en" });
  const buttons = { first: h("button"), prev: h("button"), next: h("button"), last: h("button") };
  const deps = { area: h("div"), counter: h("span"), slider: /** @type {any} */ (h("input")), eventsBox: h("ol"),
    movesBox: h("ol"), roundsBox: h("div"), buttons, ctx: () => ({ names: {}, lang: "en" }), go: () => {}, errorText: () => "" };
  const handles = replayPanels(store, deps);
  const moves = [{ version: 1, events: [{ type: "round_started", round: 1 }] }, { version: 2, events: [] }];
  store.set({ moves });
  store.set({ current: { step: 1, total: 2, seat: null, view: { at: 1 }, events: [] } });
  assert.equal(renders, 1);
  assert.equal(deps.area.textContent, "at 1");
  assert.equal(deps.counter.textContent.length > 0, true);
  assert.equal(buttons.prev.disabled, false);
  assert.equal(buttons.next.disabled, false);
  assert.equal(deps.movesBox.querySelector("li.current button").dataset.step, "1");
  assert.ok(deps.roundsBox.querySelector("[data-round='1']"));
  const drawnMoves = handles.moves.draws();

  store.set({ seenBy: "0" }); // asked for, not yet answered: nothing of the panels changes
  assert.equal(handles.moves.draws(), drawnMoves);
  assert.equal(renders, 1);

  store.set({ current: { step: 2, total: 2, seat: "0", view: { at: 2 }, events: [] } });
  assert.equal(renders, 2);
  assert.equal(deps.movesBox.querySelector("li.current button").dataset.step, "2");
  assert.equal(buttons.next.disabled, true);
});

test("morph keeps the elements drawn again and changes only what differs", () => {
  const box = h("div");
  document.body.appendChild(box);
  const clicks = [];
  const card = (id, cls, onclick) => h("div", { class: cls, "data-card": id, onclick }, `card ${id}`);
  morph(box, h("ol", null, card("a", "legal", () => clicks.push("old a")), card("b", "x")), h("p", null, "one"));
  const [list, line] = box.childNodes;
  const [a, b] = list.childNodes;
  // b now comes first and a lost its class; a card is new, the line's words changed.
  morph(box, h("ol", null, card("b", "x"), card("c", "legal"), card("a", null, () => clicks.push("new a"))),
    h("p", { style: "--seat: red" }, "two"));
  assert.equal(box.childNodes[0], list);
  assert.equal(box.childNodes[1], line);
  assert.deepEqual(list.childNodes.map((el) => el.dataset.card), ["b", "c", "a"]);
  assert.equal(list.childNodes[0], b);
  assert.equal(list.childNodes[2], a);
  assert.equal(a.hasAttribute("class"), false);
  assert.equal(line.textContent, "two");
  assert.equal(line.style.getPropertyValue("--seat"), "red");
  // A kept element answers with the handler of the one drawn in its place, and one drawn without any answers nothing.
  a.click();
  assert.deepEqual(clicks, ["new a"]);
  morph(box, h("ol", null, card("a", null, null)));
  a.click();
  assert.deepEqual(clicks, ["new a"]);
  assert.equal(box.childNodes.length, 1);
  box.remove();
});

test("morph keeps each element by its tag and first class when a line comes or goes before it", () => {
  const box = h("div");
  document.body.appendChild(box);
  const board = (...lines) => h("div", { class: "game" }, ...lines,
    h("div", { class: "table" }, h("div", { class: "middle" }, "market"), h("section", { class: "board" }, "mine")),
    h("div", { class: "others" }, h("section", { class: "board" }, "theirs")));
  morph(box, board(h("div", { class: "prompt" }, "Your turn")));
  const [prompt, table, others] = box.firstChild.childNodes;
  const [middle, mine] = table.childNodes;
  morph(box, board()); // the instruction went: the table is not turned into it, nor the rivals' area into the table
  assert.deepEqual(box.firstChild.childNodes, [table, others]);
  assert.deepEqual(table.childNodes, [middle, mine]);
  assert.equal(prompt.parentNode, null);
  morph(box, board(h("div", { class: "prompt" }, "Your turn again"), h("p", { class: "note legal" }, "Choose")));
  assert.deepEqual(box.firstChild.childNodes.slice(2), [table, others]);
  assert.equal(box.firstChild.childNodes[0].textContent, "Your turn again");
  box.remove();
});

test("morph leaves an icon drawn again as it was alone, and changes one drawn otherwise", () => {
  const box = h("div");
  document.body.appendChild(box);
  morph(box, h("span", null, icon("burger", "big")));
  const svg = box.firstChild.firstChild;
  const shapes = [...svg.childNodes];
  morph(box, h("span", null, icon("burger", "big")));
  assert.equal(box.firstChild.firstChild, svg);
  assert.deepEqual(svg.childNodes, shapes);
  morph(box, h("span", null, icon("pizza")));
  assert.equal(box.firstChild.firstChild, svg);
  assert.equal(svg.getAttribute("class"), "icon icon-pizza");
  assert.ok(svg.isEqualNode(icon("pizza")));
  assert.equal(svg.childNodes.length, SHAPES.pizza.length);
  box.remove();
});

test("morph draws form fields and elements of another tag anew, and keeps focus on a kept control", () => {
  const box = h("div");
  document.body.appendChild(box);
  morph(box, h("input", { name: "n" }), h("span", null, "x"), h("button", { "data-focus-id": "go" }, "Go"));
  const [input, span, button] = box.childNodes;
  button.focus();
  morph(box, h("input", { name: "n" }), h("em", null, "x"), h("button", { "data-focus-id": "go" }, "Ir"));
  assert.notEqual(box.childNodes[0], input);
  assert.notEqual(box.childNodes[1], span);
  assert.equal(box.childNodes[2], button);
  assert.equal(document.activeElement, button);
  assert.equal(button.textContent, "Ir");
  box.remove();
});
