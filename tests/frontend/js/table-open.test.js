// The table page of an open table's host (frontend/app/table.js) in the small document of setup-browser.js, with the
// API and the socket answered here: seating a bot from the keyboard keeps focus on that seat's control, the host's
// invitation by email goes to the API, and the start empties the waiting room.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.location = /** @type {any} */ ({ href: "http://localhost/t/t2", pathname: "/t/t2", search: "", protocol: "http:",
  host: "localhost", origin: "http://localhost", reload() {}, assign() {} });
await import("./setup-browser.js");

const ana = { id: "u0", name: "Ana" };
const open = {
  id: "t2", game: "no-such-game", name: "Brunch", status: "open", version: 1, visibility: "public", rated: false,
  host: ana, is_host: true, my_seat: "0", awaiting: [], chat_mode: "everyone",
  seats: [{ seat: "0", user: ana, bot: null }, { seat: "1", user: null, bot: null }],
};
const withBot = { ...open, version: 2, seats: [open.seats[0], { seat: "1", user: null, bot: { level: "hard", name: "Bot Bea" } }] };
const posts = [];
globalThis.fetch = /** @type {any} */ (async (path, init = {}) => {
  const route = String(path).split("?")[0];
  if (init.method === "POST") posts.push([route, JSON.parse(init.body ?? "null")]);
  const answers = {
    "/api/auth/session": { user: { ...ana, username: "ana" }, session: "s1" },
    "/api/tables/t2": open,
    "/api/games": [],
    "/api/tables/t2/moves": { moves: [], lobby: [] },
    "/api/tables/t2/chat": { messages: [] },
    "/api/tables/t2/chat/mutes": { mutes: [] },
    "/api/tables/t2/bots": withBot,
    "/api/tables/t2/invite_email": { ok: true },
  };
  const body = answers[route];
  return { status: body ? 200 : 404, ok: Boolean(body), statusText: "", text: async () => JSON.stringify(body ?? { error: { code: "not_found" } }) };
});
const sockets = [];
globalThis.WebSocket = /** @type {any} */ (class {
  static OPEN = 1;
  constructor() {
    sockets.push(this);
  }

  send() {}
  close() {}
});
const { main, quiet, until } = await import("./page-setup.js");

await import("../../../frontend/app/table.js");
await until(() => sockets.length === 1);
sockets[0].onopen();
const receive = (message) => sockets[0].onmessage({ data: JSON.stringify(message) });
receive({ type: "snapshot", version: 1, table: open, seat: "0" });

test("the host seats a bot from the keyboard and focus stays on that seat's control", async () => {
  const seat = () => main.querySelector("li[data-seat='1']");
  const add = [...seat().querySelectorAll("button")].find((b) => b.textContent === "Add bot");
  assert.ok(add);
  assert.match(main.querySelector("[data-testid='waiting']").textContent, /1 more player/);
  add.focus();
  add.click();
  await until(() => !seat().classList.contains("empty"));
  assert.deepEqual(posts.at(-1), ["/api/tables/t2/bots", { seat: "1", level: "normal" }]);
  assert.match(seat().textContent, /Bot/);
  assert.ok(seat().contains(document.activeElement), "focus on the seat's new control, not back at the page's start");
  assert.equal(document.activeElement.textContent, "Remove");
  // The socket's update repeating the same table redraws nothing.
  const row = seat();
  receive({ type: "update", version: 2, table: withBot, seat: "0", events: [] });
  assert.equal(seat(), row);
});

test("the host's invitation by email is sent with the name typed and confirmed", async () => {
  const form = main.querySelector("[data-testid='invite-email']");
  form.querySelector("input").value = "bo";
  form.querySelector("[data-testid='invite-email-send']").click();
  await until(() => posts.at(-1)?.[0] === "/api/tables/t2/invite_email");
  assert.deepEqual(posts.at(-1), ["/api/tables/t2/invite_email", { username: "bo" }]);
  await until(() => form.querySelector("[data-testid='invite-email-status']").dataset.state === "sent");
});

test("the start empties the waiting room and shows the turn bar", async () => {
  const playing = { ...withBot, status: "playing", version: 3, awaiting: ["1"] };
  receive({ type: "update", version: 3, table: playing, seat: "0", view: { n: 1 }, actions: [], awaiting: ["1"],
    events: [{ type: "game_started" }] });
  assert.equal(main.dataset.status, "playing");
  const prestart = main.querySelector("[data-testid='prestart']");
  assert.equal(prestart.hidden, true);
  assert.equal(prestart.childNodes.length, 0);
  assert.match(main.querySelector("[data-testid='turn']").textContent, /Waiting for Bot/);
  console.error = quiet;
});
