// The lobby page: sign-in, the games, my tables, public tables (polled).

import { h, mount } from "../lib/dom.js";
import { afterPress } from "../lib/press.js";
import { api, query } from "./api.js";
import { t, tParts, getLang, onLangChange } from "./i18n.js";
import { me, loadMe, onSignedOut } from "./session.js";
import {
  toast, errorMessage, renderHeader, signInForm, inviteBox, seatNames, seatPeople, seatLinks, statusLabel, statusBadge,
  rulesLink, gameText, personLink, signedOutText,
} from "./ui.js";
import { describeTimeControl, formatLeft, myTimeLeft } from "./clock.js";

const POLL_MS = 3000;
const FINISHED_PAGE = 5; // finished tables of one's own shown at first, and added by each "Show more"
const LIST_LIMIT = 20; // per section; the newest first as the server sends them
const STATUSES = ["open", "playing", "finished"];

const state = {
  games: [],
  gamesError: null,
  myTables: null,
  publicTables: { open: null, playing: null, finished: null },
  listError: null,
  gameFilter: "",
  creating: null, // game id whose "new table" form is open
  finishedShown: FINISHED_PAGE,
  myTablesAt: 0, // when the list of my tables arrived (Date.now()): their clocks' figures are as of then
};

const els = {};

function gameTitle(id) {
  const game = state.games.find((g) => g.id === id);
  return game ? game.title : id;
}

function tableUrl(table) {
  return `/t/${encodeURIComponent(table.id)}`;
}

function playersLabel(game) {
  return game.min_players === game.max_players
    ? t("lobby.players_same", { min: game.min_players })
    : t("lobby.players", { min: game.min_players, max: game.max_players });
}

// ---- create a table -------------------------------------------------------

// A game's own lobby text (description, option and choice labels) in the person's language, if it has one.
function optionInput(game, option) {
  const id = `opt-${option.id}`;
  const label = gameText(game, option.label || option.id);
  if (option.type === "bool") {
    return h("label", { class: "check" },
      h("input", { type: "checkbox", name: option.id, id, checked: Boolean(option.default) }),
      h("span", null, label));
  }
  let input;
  if (option.type === "choice" && Array.isArray(option.choices)) {
    input = h("select", { name: option.id, id },
      option.choices.map((choice, index) => {
        const value = choice !== null && typeof choice === "object" ? choice.value : choice;
        const named = choice !== null && typeof choice === "object" ? (choice.label ?? choice.value)
          : (option.choice_labels && option.choice_labels[choice]) ?? choice;
        // A choice naming a seat ("Seat 4") is offered only while the table has that seat.
        const seat = option.seat && /^\d+$/.test(String(value)) ? String(value) : null;
        return h("option", { value: String(index), selected: value === option.default, "data-seat": seat },
          gameText(game, String(named)));
      }));
  } else {
    input = h("input", {
      type: option.type === "int" ? "number" : "text",
      name: option.id,
      id,
      value: option.default ?? "",
      min: option.min,
      max: option.max,
      step: option.type === "int" ? "1" : null,
    });
  }
  return h("label", { class: "field", for: id }, h("span", null, label), input);
}

function readOption(option, data) {
  if (option.type === "bool") return data.get(option.id) === "on";
  const raw = data.get(option.id);
  if (option.type === "choice" && Array.isArray(option.choices)) {
    const choice = option.choices[Number(raw)];
    return choice !== null && typeof choice === "object" ? choice.value : choice;
  }
  if (option.type === "int") return Number.parseInt(String(raw), 10);
  return raw;
}

const PER_MOVE_CHOICES = [3600, 12 * 3600, 24 * 3600, 3 * 24 * 3600]; // seconds; the server takes any from 10 s

/** The clock part of the "create a table" form: none, real time or turn based, and what a timeout does. */
function clockFields() {
  const detail = h("div", { class: "clock-fields stack" });
  const number = (name, label, value, attrs) => h("label", { class: "field" }, h("span", null, t(label)),
    h("input", { type: "number", name, value: String(value), required: true, ...attrs }));
  const draw = (kind) => mount(detail,
    kind === "realtime" ? [
      number("clock_base", "lobby.clock_base", 10, { min: "0.1", max: "1440", step: "any" }),
      number("clock_increment", "lobby.clock_increment", 10, { min: "0", max: "3600", step: "1" }),
    ] : null,
    kind === "turn" ? [
      h("label", { class: "field" }, h("span", null, t("lobby.clock_per_move")),
        h("select", { name: "clock_per_move" }, PER_MOVE_CHOICES.map((seconds) =>
          h("option", { value: String(seconds), selected: seconds === 24 * 3600 }, formatChoice(seconds))))),
      number("clock_bank", "lobby.clock_bank", 12, { min: "0", max: "720", step: "any" }),
    ] : null,
    kind !== "none" ? h("label", { class: "field" }, h("span", null, t("lobby.clock_timeout")),
      h("select", { name: "clock_timeout", "data-testid": "clock-timeout" },
        h("option", { value: "bot_move" }, t("lobby.clock_timeout_bot")),
        h("option", { value: "loss" }, t("lobby.clock_timeout_loss")))) : null);
  const kind = h("select", { name: "clock_kind", "data-testid": "clock-kind", onchange: (event) => draw(event.target.value) },
    ["none", "realtime", "turn"].map((k) => h("option", { value: k }, t(`lobby.clock_${k}`))));
  draw("none");
  return h("fieldset", { class: "clock-choice" }, h("legend", null, t("lobby.time_control")), kind, detail);
}

function formatChoice(seconds) {
  return seconds % 86400 === 0 ? `${seconds / 86400} d` : `${seconds / 3600} h`;
}

/** The time control the form asks for, as the API takes it (null: no clock). */
function readClock(data) {
  const kind = data.get("clock_kind");
  const timeout = data.get("clock_timeout") === "loss" ? "loss" : "bot_move";
  if (kind === "realtime") {
    return { kind, base: Math.round(Number(data.get("clock_base")) * 60), increment: Number.parseInt(String(data.get("clock_increment")), 10), timeout };
  }
  if (kind === "turn") {
    return { kind, per_move: Number(data.get("clock_per_move")), bank: Math.round(Number(data.get("clock_bank")) * 3600), timeout };
  }
  return null;
}

function createForm(game) {
  const errorLine = h("p", { class: "form-error", role: "alert" });
  const seatChoices = [];
  for (let n = game.min_players; n <= game.max_players; n += 1) seatChoices.push(n);
  const submit = async (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    const options = {};
    for (const option of game.options || []) options[option.id] = readOption(option, data);
    const body = {
      game: game.id,
      seats: Number(data.get("seats")),
      options,
      visibility: data.get("visibility") === "private" ? "private" : "public",
    };
    const clock = readClock(data);
    if (clock) body.time_control = clock;
    // Unnamed, the table is named in the host's language (the server's default is English).
    const name = String(data.get("name") || "").trim() || (me() ? t("lobby.default_table_name", { host: me().name, game: game.title }) : "");
    if (name) body.name = name;
    const button = event.target.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const table = await api("POST", "/api/tables", body);
      location.href = tableUrl(table);
    } catch (error) {
      errorLine.textContent = errorMessage(error);
      button.disabled = false;
    }
  };
  const fitSeats = (form) => {
    const seats = Number(form.elements.seats.value);
    for (const select of form.querySelectorAll("select")) {
      for (const choice of select.querySelectorAll("option[data-seat]")) choice.disabled = Number(choice.dataset.seat) > seats;
      if (select.selectedOptions[0]?.disabled) select.selectedIndex = [...select.options].findIndex((o) => o.defaultSelected);
    }
  };
  const form = h("form", { class: "create-form stack", onsubmit: submit, "data-testid": "create-form" },
    h("label", { class: "field" }, h("span", null, t("lobby.seats")),
      h("select", { name: "seats", onchange: (event) => fitSeats(event.target.form) }, seatChoices.map((n) => h("option", { value: String(n) }, String(n))))),
    (game.options || []).map((option) => optionInput(game, option)),
    h("label", { class: "field" }, h("span", null, t("lobby.table_name")),
      h("input", { name: "name", maxlength: "60" })),
    clockFields(),
    h("fieldset", { class: "visibility" }, h("legend", null, t("lobby.visibility")),
      h("label", { class: "check" }, h("input", { type: "radio", name: "visibility", value: "public", checked: true }),
        h("span", null, t("lobby.public"))),
      h("label", { class: "check" }, h("input", { type: "radio", name: "visibility", value: "private" }),
        h("span", null, t("lobby.private"))),
      h("p", { class: "muted small" }, t("lobby.rated_hint")),
      // A guest would otherwise wonder why their public games never move their rating.
      me() && !me().username ? h("p", { class: "muted small", "data-testid": "guest-unrated" }, t("lobby.guest_unrated")) : null),
    errorLine,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary" }, t("lobby.create")),
      h("button", { type: "button", class: "ghost", onclick: closeCreate }, t("lobby.cancel"))));
  fitSeats(form);
  return form;
}

/**
 * The "create a table" form in a modal dialog over the lobby: opened inside the game's card, it would widen that
 * card to the whole row and move every other card of the grid.
 */
function createDialog(game) {
  const titleId = `create-title-${game.id}`;
  return h("dialog", {
    class: "dialog create-dialog", "aria-labelledby": titleId, "data-testid": "create-dialog",
    oncancel: (event) => {
      event.preventDefault();
      closeCreate();
    },
  },
  h("h2", { id: titleId }, t("lobby.create_title", { game: game.title })),
  createForm(game));
}

/** Close the form; the focus goes back to the game's "New table" button. */
function closeCreate() {
  const id = state.creating;
  state.creating = null;
  drawGames();
  if (id) els.games.querySelector(`.game-card[data-game="${CSS.escape(id)}"] .new-table`)?.focus();
}

function drawGames() {
  if (state.gamesError) {
    mount(els.games, h("p", { class: "form-error" }, state.gamesError));
    return;
  }
  if (!state.games.length) {
    mount(els.games, h("p", { class: "muted" }, t("lobby.loading")));
    return;
  }
  const signedIn = Boolean(me());
  mount(els.games, state.games.map((game) =>
    h("article", { class: "game-card", "data-game": game.id },
      h("div", { class: "game-card-head" },
        h("h3", null, game.title),
        h("span", { class: "pill" }, playersLabel(game))),
      h("p", { class: "game-desc" }, gameText(game, game.description)),
      h("p", { class: "game-rules" }, rulesLink(game.id)),
      h("div", { class: "row game-actions" },
        h("button", {
          type: "button",
          class: "primary new-table",
          disabled: !signedIn,
          title: signedIn ? null : t("lobby.sign_in_first"),
          onclick: () => {
            state.creating = game.id;
            drawGames();
          },
        }, t("lobby.new_table")),
        h("button", {
          type: "button",
          class: "secondary",
          disabled: !signedIn,
          title: signedIn ? null : t("lobby.sign_in_first"),
          "data-testid": "play-bot",
          onclick: (event) => playAgainstBots(game, event.currentTarget),
        }, t("lobby.play_bot")),
        h("select", { class: "small-select", "data-testid": "play-bot-level", "aria-label": t("table.bot_level"),
          title: t("table.bot_level"), disabled: !signedIn, onchange: (event) => rememberBotLevel(event.target.value) },
        ["easy", "normal", "hard"].map((level) =>
          h("option", { value: level, selected: level === botLevel() ? true : null }, t(`bot.${level}`))))),
      state.creating === game.id ? createDialog(game) : null)));
  const dialog = els.games.querySelector("dialog.create-dialog");
  if (dialog && !dialog.open) {
    dialog.showModal();
    dialog.querySelector(".create-form select, .create-form input")?.focus();
  }
}

const BOT_LEVEL_KEY = "fg.bot_level";

/** The bot level last chosen for "Play against a bot" (normal at first). */
function botLevel() {
  try {
    const saved = localStorage.getItem(BOT_LEVEL_KEY);
    return saved === "easy" || saved === "hard" ? saved : "normal";
  } catch {
    return "normal";
  }
}

function rememberBotLevel(level) {
  try {
    localStorage.setItem(BOT_LEVEL_KEY, level);
  } catch {
    // Storage refused: the select keeps the choice while the page is open.
  }
}

/**
 * One click to a game against bots at the level chosen beside the button: a private table (nobody else is seated by chance, and a bot's game is not rated)
 * of the fewest seats the game allows, a bot in each other seat, started; then the table. A step refused on the way
 * leaves the person at the table, where they can finish it by hand.
 */
async function playAgainstBots(game, button) {
  button.disabled = true;
  let table = null;
  try {
    const seats = Math.max(2, game.min_players);
    const name = t("lobby.bot_table_name", { host: me().name, game: game.title }).slice(0, 60);
    table = await api("POST", "/api/tables", { game: game.id, seats, visibility: "private", name, options: {} });
    const path = `/api/tables/${encodeURIComponent(table.id)}`;
    const choice = button.parentElement?.querySelector("[data-testid=play-bot-level]");
    const level = choice instanceof HTMLSelectElement ? choice.value : botLevel();
    for (let seat = 1; seat < seats; seat += 1) await api("POST", `${path}/bots`, { seat: String(seat), level });
    table = await api("POST", `${path}/start`, {});
    location.href = tableUrl(table);
  } catch (error) {
    if (table) location.href = tableUrl(table);
    else {
      toast(errorMessage(error), "error");
      button.disabled = false;
    }
  }
}

// ---- table lists ------------------------------------------------------------

async function join(table) {
  try {
    await api("POST", `/api/tables/${encodeURIComponent(table.id)}/join`, {});
    location.href = tableUrl(table);
  } catch (error) {
    toast(errorMessage(error), "error");
  }
}

function seatsTaken(table) {
  return table.seats.filter((s) => s.user || s.bot).length;
}

function tableRow(table, { mine }) {
  const names = seatNames(table);
  const seated = table.my_seat !== null && table.my_seat !== undefined;
  const myTurn = seated && table.status === "playing" && (table.awaiting || []).includes(table.my_seat);
  const free = table.seats.some((s) => !s.user && !s.bot);
  const actions = [];
  if (seated || table.is_host) {
    actions.push(h("a", { class: "button primary", href: tableUrl(table) }, t("lobby.open_table")));
  } else {
    if (table.status === "open" && free && me()) {
      actions.push(h("button", { type: "button", class: "primary", onclick: () => join(table) }, t("lobby.join")));
    }
    if (table.status === "finished") {
      actions.push(h("a", { class: "button secondary", href: `${tableUrl(table)}?replay=0` }, t("lobby.replay")));
    }
    actions.push(h("a", { class: "button secondary", href: tableUrl(table) }, t("lobby.watch")));
  }
  let turn = null;
  if (myTurn) {
    turn = h("span", { class: "badge turn" }, t("lobby.your_turn"));
  } else if (table.status === "finished" && table.outcome && (table.outcome.winners || []).length) {
    turn = h("span", { class: "small table-turn", "data-testid": "table-turn" },
      tParts("lobby.won_by", { names: seatLinks(table, table.outcome.winners, names) }));
  } else if (table.status === "playing" && (table.awaiting || []).length) {
    turn = h("span", { class: "muted small table-turn", "data-testid": "table-turn" },
      tParts("lobby.turn_of", { names: seatLinks(table, table.awaiting, names) }));
  }
  return h("li", {
    class: ["table-row", myTurn && "my-turn"],
    "data-table-id": table.id,
    "data-status": table.status,
  },
    h("div", { class: "table-main" },
      h("div", { class: "table-title" },
        h("strong", null, table.name || gameTitle(table.game)),
        table.name ? h("span", { class: "muted small" }, ` · ${gameTitle(table.game)}`) : null),
      h("div", { class: "table-meta small" },
        statusBadge(table),
        h("span", null, t("lobby.seats_taken", { taken: seatsTaken(table), total: table.seat_count ?? table.seats.length })),
        // The host's name leads to their profile, as the seated players' names below do.
        table.host ? h("span", { class: "muted table-host" }, tParts("lobby.host", { name: personLink(table.host) })) : null,
        turn,
        table.time_control ? h("span", { class: "muted table-clock", "data-testid": "table-clock" },
          describeTimeControl(table.time_control, { short: true })) : null,
        mine ? timeLeft(table) : null),
      h("div", { class: "table-players small muted", "data-testid": "table-players" }, seatPeople(table)),
      mine && table.invite_code && table.status === "open" ? inviteBox(table.id, table.invite_code) : null),
    h("div", { class: "table-actions" }, actions));
}

/** My time left at a table where my clock runs, counting down (`tickTimeLeft`); null elsewhere. */
function timeLeft(table) {
  const left = myTimeLeft(table, state.myTablesAt, Date.now());
  if (left === null) return null;
  const node = h("span", { class: "badge time-left", "data-testid": "time-left", dataset: { until: String(Date.now() + left) } });
  showTimeLeft(node);
  return node;
}

function showTimeLeft(node) {
  const left = Number(node.dataset.until) - Date.now();
  node.textContent = t("lobby.time_left", { time: formatLeft(left) });
  node.classList.toggle("low", left < 60_000);
}

let timeLeftTimer = null;

/** Count down the "time left" shown in my tables (redrawn with each poll, ticking in between). */
function tickTimeLeft() {
  clearInterval(timeLeftTimer);
  timeLeftTimer = null;
  if (!els.mine.querySelector("[data-testid=time-left]")) return;
  timeLeftTimer = setInterval(() => {
    for (const node of els.mine.querySelectorAll("[data-testid=time-left]")) showTimeLeft(/** @type {HTMLElement} */ (node));
  }, 1000);
}

/** The most urgent first: my running clocks by time left, then the rest as they were. */
function byUrgency(tables) {
  const at = Date.now();
  const left = new Map(tables.map((x) => [x, myTimeLeft(x, state.myTablesAt, at)]));
  return [...tables].sort((a, b) => (left.get(a) ?? Infinity) - (left.get(b) ?? Infinity));
}

function drawMyTables() {
  if (!me()) {
    mount(els.mine, h("p", { class: "muted" }, t("lobby.sign_in_first")));
    return;
  }
  if (state.myTables === null) {
    mount(els.mine, h("p", { class: "muted" }, t("lobby.loading")));
    return;
  }
  if (!state.myTables.length) {
    mount(els.mine, h("p", { class: "muted" }, t("lobby.no_my_tables")));
    return;
  }
  const recent = [...state.myTables].sort((a, b) => String(b.updated_at || "").localeCompare(String(a.updated_at || "")));
  const myTurn = (x) => x.status === "playing" && x.my_seat !== null && x.my_seat !== undefined
    && (x.awaiting || []).includes(x.my_seat);
  // What asks for the person first: the games waiting on them, then the others running, those not started, the ended.
  /** @type {{key: string, tables: any[]}[]} */
  const groups = [
    { key: "turn", tables: byUrgency(recent.filter(myTurn)) },
    { key: "playing", tables: recent.filter((x) => x.status === "playing" && !myTurn(x)) },
    { key: "open", tables: recent.filter((x) => x.status === "open") },
    { key: "finished", tables: recent.filter((x) => x.status === "finished") },
  ].filter((group) => group.tables.length);
  const finishedShown = state.finishedShown;
  mount(els.mine, h("div", { class: "my-tables", "data-testid": "my-tables" }, groups.map(({ key, tables }) => {
    const shown = key === "finished" ? tables.slice(0, finishedShown) : tables;
    const more = tables.length - shown.length;
    return h("section", { class: "my-group", "data-testid": `my-tables-${key}`, "aria-labelledby": `my-${key}-title` },
      h("h3", { id: `my-${key}-title` }, t(`lobby.mine_${key}`), h("span", { class: "muted small" }, ` (${tables.length})`)),
      h("ul", { class: "table-list" }, shown.map((x) => tableRow(x, { mine: true }))),
      more ? h("button", {
        type: "button", class: "ghost small-btn", "data-testid": "my-tables-more",
        onclick: () => {
          state.finishedShown += FINISHED_PAGE;
          drawMyTables();
        },
      }, t("lobby.mine_more", { n: Math.min(more, FINISHED_PAGE) })) : null);
  })));
  tickTimeLeft();
}

function drawFilter() {
  mount(els.filter, h("label", { class: "field inline" }, h("span", null, t("lobby.filter_game")),
    h("select", {
      "data-testid": "game-filter",
      onchange: (event) => {
        state.gameFilter = event.target.value;
        STATUSES.forEach((status) => { state.publicTables[status] = null; });
        drawPublic();
        refreshLists();
      },
    },
      h("option", { value: "" }, t("lobby.all_games")),
      state.games.map((g) => h("option", { value: g.id, selected: state.gameFilter === g.id }, g.title)))));
}

function drawPublic() {
  const sections = STATUSES.map((status) => {
    const tables = state.publicTables[status];
    let body;
    if (tables === null) body = h("p", { class: "muted small" }, t("lobby.loading"));
    else if (!tables.length) body = h("p", { class: "muted small" }, t("lobby.none"));
    else {
      const shown = tables.slice(0, LIST_LIMIT);
      body = [
        h("ul", { class: "table-list" }, shown.map((x) => tableRow(x, { mine: false }))),
        tables.length > shown.length ? h("p", { class: "muted small" }, t("lobby.more", { n: tables.length - shown.length })) : null,
      ];
    }
    return h("section", { class: "public-section", "data-testid": `public-${status}` },
      h("h3", null, statusLabel(status), tables && tables.length ? h("span", { class: "count" }, String(tables.length)) : null),
      body);
  });
  mount(els.public,
    state.listError ? h("p", { class: "form-error" }, state.listError) : null,
    h("div", { class: "public-grid" }, sections));
}

let refreshing = false;
let lastLists = "";
const PUBLIC_PAGE = 100; // the most one page holds: a section shows LIST_LIMIT of them and counts the rest
const MY_PAGES = 20; // pages of 100 of my own tables read at most (they are grouped and sorted here, so all are read)

/** Every page of a list (docs/api/pagination.md), following `next`, up to `most` pages. */
async function allPages(path, most) {
  const items = [];
  let cursor = null;
  for (let page = 0; page < most; page += 1) {
    const answer = await api("GET", `${path}${query({ limit: PUBLIC_PAGE, cursor })}`);
    items.push(...answer.tables);
    cursor = answer.next;
    if (!cursor) break;
  }
  return items;
}

async function refreshLists() {
  if (refreshing) return;
  refreshing = true;
  try {
    const requests = STATUSES.map((status) =>
      api("GET", `/api/tables${query({ status, game: state.gameFilter, limit: PUBLIC_PAGE })}`).then((page) => page.tables));
    if (me()) requests.push(allPages("/api/me/tables", MY_PAGES));
    const results = await Promise.allSettled(requests);
    let failure = null;
    STATUSES.forEach((status, index) => {
      const result = results[index];
      if (result.status === "fulfilled") {
        // The server may ignore an unknown filter; keep only what the section is about.
        state.publicTables[status] = (result.value || []).filter((x) => x.status === status);
      } else failure = result.reason;
    });
    if (me()) {
      const result = results[STATUSES.length];
      if (result.status === "fulfilled") {
        state.myTables = result.value || [];
        state.myTablesAt = Date.now();
      }
      else failure = result.reason;
    }
    // A list stopped by signing out is read again at once, as the visitor's.
    if (failure && failure.code === "aborted") failure = null;
    state.listError = failure ? `${t("lobby.load_failed")} ${errorMessage(failure)}` : null;
  } finally {
    refreshing = false;
  }
  const myTurns = (state.myTables || []).filter((x) => x.status === "playing" && x.my_seat !== null
    && (x.awaiting || []).includes(x.my_seat)).length;
  document.title = `${myTurns ? `(${myTurns}) ` : ""}${t("app.name")}`;
  const snapshot = JSON.stringify([state.myTables, state.publicTables, state.listError]);
  if (snapshot !== lastLists) {
    lastLists = snapshot;
    // Not under a press: the Join or Watch being clicked would be swapped out and its click lost.
    afterPress(() => {
      drawMyTables();
      drawPublic();
    });
  }
}

// ---- page -------------------------------------------------------------------

let drawnIntro = null;

function drawPage() {
  renderHeader(els.header, { onChange: () => start(), nav: true });
  const user = me();
  // Redraw the intro only when it changes, so a sign-in form being filled in is never replaced.
  const introKey = `${user ? user.id : ""}|${getLang()}`;
  if (introKey !== drawnIntro) {
    drawnIntro = introKey;
    mount(els.intro,
      h("h1", null, t("app.name")),
      h("p", { class: "lead" }, t("app.tagline")),
      user ? null : h("section", { class: "panel signin-panel", "aria-labelledby": "signin-title" },
        h("h2", { id: "signin-title" }, t("auth.title")),
        signInForm(() => start())));
  }
  els.gamesTitle.textContent = t("lobby.games");
  els.mineTitle.textContent = t("lobby.my_tables");
  els.publicTitle.textContent = t("lobby.public_tables");
  els.mineSection.hidden = !user;
  drawGames();
  drawFilter();
  drawMyTables();
  drawPublic();
  lastLists = JSON.stringify([state.myTables, state.publicTables, state.listError]);
}

async function loadGames() {
  try {
    state.games = await api("GET", "/api/games");
    state.gamesError = null;
  } catch (error) {
    state.gamesError = errorMessage(error);
  }
}

let pollTimer = null;

function schedulePoll() {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(async () => {
    if (!document.hidden) await refreshLists().catch(() => {});
    schedulePoll();
  }, POLL_MS);
}

async function start() {
  state.myTables = null;
  try {
    await loadMe();
  } catch (error) {
    toast(errorMessage(error), "error");
  }
  // Drawn when no press is under way: a click on what the page showed while loading keeps its element.
  afterPress(drawPage);
  if (!state.games.length) await loadGames();
  afterPress(drawPage);
  await refreshLists().catch(() => {});
  schedulePoll();
}

function init() {
  els.header = document.getElementById("header");
  els.intro = document.getElementById("intro");
  els.games = document.getElementById("games");
  els.gamesTitle = document.getElementById("games-title");
  els.mine = document.getElementById("my-tables");
  els.mineTitle = document.getElementById("my-tables-title");
  els.mineSection = document.getElementById("my-tables-section");
  els.public = document.getElementById("public-tables");
  els.filter = document.getElementById("public-filter");
  els.publicTitle = document.getElementById("public-tables-title");
  onLangChange(drawPage);
  // The session ended elsewhere (a password change, a sign-out everywhere), found by a refused poll: say so, and
  // show the lobby as a visitor's.
  onSignedOut((refusal) => {
    toast(signedOutText(refusal), "error");
    start();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refreshLists().catch(() => {});
  });
  start();
}

init();
