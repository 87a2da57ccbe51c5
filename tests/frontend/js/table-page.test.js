// The whole table page (frontend/app/table.js) in the small document of setup-browser.js, with the API and the socket
// answered here: a snapshot draws the seats, the turn bar and the log; an update that moves the game redraws what it
// changed and leaves the rest; presence changes the dots, not the log or the head.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.location = /** @type {any} */ ({ href: "http://localhost/t/t1", pathname: "/t/t1", search: "", protocol: "http:",
  host: "localhost", origin: "http://localhost", reload() {}, assign() {} });
await import("./setup-browser.js");

const TABLE = {
  id: "t1", game: "no-such-game", name: "Lunch", status: "playing", version: 3, visibility: "public", rated: false,
  host: { id: "u0", name: "Ana" }, is_host: true, my_seat: "0", awaiting: ["0"], chat_mode: "everyone",
  seats: [{ seat: "0", user: { id: "u0", name: "Ana" }, bot: null }, { seat: "1", user: { id: "u1", name: "Bo" }, bot: null }],
};
const requests = [];
globalThis.fetch = /** @type {any} */ (async (path) => {
  requests.push(path);
  const answers = {
    "/api/auth/session": { user: { id: "u0", name: "Ana", username: "ana" }, session: "s1" },
    "/api/tables/t1": TABLE,
    "/api/games": [{ id: "no-such-game", title: "No Such Game", options: [] }],
    "/api/tables/t1/moves": { moves: [{ version: 3, seat: "1", events: [{ type: "placed", seat: "1" }] }], lobby: [] },
    "/api/tables/t1/chat": { messages: [] },
    "/api/tables/t1/chat/mutes": { mutes: [] },
  };
  const body = answers[String(path).split("?")[0]];
  return { status: body ? 200 : 404, ok: Boolean(body), statusText: "", text: async () => JSON.stringify(body ?? { error: { code: "not_found" } }) };
});
const sockets = [];
globalThis.WebSocket = /** @type {any} */ (class {
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.readyState = 0;
    sockets.push(this);
  }

  send(data) {
    this.sent.push(JSON.parse(data));
  }

  close() {}
});
const { main, quiet, until } = await import("./page-setup.js");

function receive(message) {
  sockets[0].onmessage({ data: JSON.stringify(message) });
}

await import("../../../frontend/app/table.js");
await until(() => sockets.length === 1);
sockets[0].readyState = 1;
sockets[0].onopen();

test("a snapshot draws the seats, whose turn it is, the log and the table's version", async () => {
  receive({ type: "snapshot", version: 3, table: TABLE, view: { n: 1 }, actions: [{ type: "go" }], awaiting: ["0"], seat: "0" });
  await until(() => main.querySelector("[data-testid='log']")?.children.length > 0);
  assert.equal(main.dataset.version, "3");
  assert.equal(main.dataset.status, "playing");
  assert.deepEqual(main.querySelectorAll("[data-testid='seats'] li").map((li) => li.dataset.seat), ["0", "1"]);
  assert.match(main.querySelector("[data-testid='turn']").textContent, /Your turn/);
  assert.equal(main.querySelector("[data-testid='no-renderer']")?.textContent.length > 0, true);
  const state = /** @type {any} */ (window).foodGames.state();
  assert.deepEqual(state.actions, [{ type: "go" }]);
  assert.equal(document.title, "▶ Your turn · Lunch · Food Games");
});

test("a move redraws the turn bar and adds its log line; the head and the log's old lines stay", async () => {
  const head = main.querySelector("h1");
  const logLines = main.querySelector("[data-testid='log']").children;
  const seatRow = main.querySelector("li[data-seat='1']");
  receive({ type: "update", version: 4, view: { n: 2 }, actions: [], awaiting: ["1"], events: [{ type: "moved", seat: "0" }] });
  assert.equal(main.dataset.version, "4");
  assert.match(main.querySelector("[data-testid='turn']").textContent, /Bo/);
  const after = main.querySelector("[data-testid='log']").children;
  assert.equal(after.length, logLines.length + 1);
  assert.equal(after[0], logLines[0], "the old line is the same node");
  assert.equal(main.querySelector("h1"), head, "the head has not changed: its title stays the same node");
  assert.notEqual(main.querySelector("li[data-seat='1']"), seatRow, "the seat whose turn it is now is marked");
  assert.ok(main.querySelector("li[data-seat='1']").classList.contains("turn"));
});

test("presence marks who is here without redrawing the log, the turn bar or the head", async () => {
  const turnLine = main.querySelector("[data-testid='turn']").firstChild;
  const head = main.querySelector("h1");
  const lines = main.querySelector("[data-testid='log']").children.length;
  receive({ type: "presence", online: ["0", "1"], watching: 1, watchers: [{ id: "u7", name: "Cy" }] });
  assert.ok(main.querySelector("li[data-seat='1'] .seat-dot.online"));
  assert.equal(main.querySelector("[data-testid='turn']").firstChild, turnLine);
  assert.equal(main.querySelector("h1"), head);
  assert.equal(main.querySelector("[data-testid='log']").children.length, lines);
  assert.match(main.querySelector("[data-testid='watchers']").textContent, /Cy/);
  // The same people again: the seats stay as they are.
  const row = main.querySelector("li[data-seat='1']");
  receive({ type: "presence", online: ["0", "1"], watching: 2, watchers: [{ id: "u7", name: "Cy" }] });
  assert.equal(main.querySelector("li[data-seat='1']"), row);
  console.error = quiet;
});
