// The table page's wiring: one store (table-state.js) holds what the page knows, the socket's messages and the API's
// answers change it, and the panels (panels/*.js) draw their part of the page when their inputs changed.

import { h, mount } from "../lib/dom.js";
import { holdWhilePressed } from "../lib/press.js";
import { api, query, ApiError } from "./api.js";
import { t, getLang, onLangChange, errorText } from "./i18n.js";
import { me, loadMe, checkSession, onSignedOut } from "./session.js";
import { toast, errorMessage, renderHeader, signInForm, confirmDialog, signedOutText, openProfilesBeside } from "./ui.js";
import { TableSocket } from "./socket.js";
import { linesForEvents, linesForMove } from "./log.js";
import { loadRenderer } from "./renderer.js";
import { runReplay } from "./replay.js";
import { confirmSwitch, mayMove } from "./takeback.js";
import { armChime, chimeOn, chimesRung, lookingElsewhere, ring } from "./chime.js";
import { ClockBoard } from "./clock.js";
import { notificationsShown, notifyTurn, turnNotificationsOn } from "./notifications.js";
import { panel } from "./store.js";
import { isMyTurn, isSpectator, keepSame, names, people, playingHere, standingIn, tableStore } from "./table-state.js";
import { boardPanel } from "./panels/board.js";
import { chatPanel } from "./panels/chat.js";
import { headPanel } from "./panels/head.js";
import { logPanel } from "./panels/log.js";
import { prestartPanel } from "./panels/prestart.js";
import { resultPanel } from "./panels/result.js";
import { seatsPanel } from "./panels/seats.js";
import { turnPanel } from "./panels/turn.js";
import { votesPanel } from "./panels/votes.js";

const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || params.get("id") || "");
const invite = params.get("invite");

const store = tableStore(getLang());
// What the socket brings while a pointer is down is drawn once it is up: a redraw under a press loses its click.
holdWhilePressed(store);
const NO_EVENTS = Object.freeze([]);

const els = {};
let socket = null;
/** @type {ReturnType<typeof boardPanel>|null} */
let board = null;
/** @type {import("./chat.js").ChatPanel|null} */
let chat = null;
let viewKey = null; // the last view as JSON: an update whose view differs from it is a move
let logLoading = false;
let updatesDuringLog = 0;
let logEpoch = 0;
// Each seat's time at a clocked table (clock.js); my own running low is said once a turn.
const clocks = new ClockBoard({
  mine: () => (isSpectator(store.get()) ? null : store.get().seat), onLow: () => toast(t("clock.low"), "info"),
});
let signedInHere = false; // the page was opened signed in: its session ending signs it out (showSignedOut)
let signedOutShown = null; // {refusal} once the page said its session ended
// The table's version this browser last showed (kept in localStorage), read once as the page opens: the moves made
// since are told in words above the game ("Since you last looked"). Null for a first visit.
let seenBefore = null;
let sinceTold = false;

function seenKey() {
  return `fg.seen.${tableId}`;
}

function readSeen() {
  try {
    const raw = localStorage.getItem(seenKey());
    return raw === null || !/^\d+$/.test(raw) ? null : Number(raw);
  } catch {
    return null;
  }
}

/** Remember the version shown, while the page is looked at (a tab in the background has not been seen). */
function noteSeen() {
  const version = store.get().version;
  if (document.hidden || typeof version !== "number") return;
  try {
    localStorage.setItem(seenKey(), String(version));
  } catch {
    // Not remembered: the next visit tells nothing new.
  }
}

/** The header's Leaderboards link: to the board of this table's game once it is known. */
function headerNav() {
  return store.get().table?.game ?? true;
}

function tablePath() {
  return `/api/tables/${encodeURIComponent(tableId)}`;
}

/** The renderers' ctx (docs/renderers.md), from the store's state now. */
function ctx(prompt = board?.showPrompt) {
  const s = store.get();
  const spectator = isSpectator(s);
  return {
    seat: spectator ? null : s.seat,
    // While a bot plays the seat, its moves are not the person's to make (the server refuses them).
    actions: spectator || s.table?.status !== "playing" || standingIn(s) ? [] : s.actions,
    awaiting: s.awaiting,
    send,
    names: names(s),
    people: people(s),
    host: s.table?.host ?? null,
    lang: s.lang,
    events: s.events,
    lastMoveEvents: s.lastMoveEvents,
    // An abandoned game's view is left mid-game (its phase is not the engine's end), so without this a renderer would
    // still read a prompt ("Ana is choosing a truck…") from it under the end screen.
    over: s.table?.status === "finished",
    // The renderer hands its instruction to the viewer (text and its buttons) here, on every draw of its own: it is
    // shown in the sticky turn bar, which stays in sight wherever the targets it names are.
    prompt,
  };
}

// ---- moves ---------------------------------------------------------------------

function localErrorMessage(error) {
  if (error.code === "offline" || error.code === "closed") return t("errors.offline");
  if (error.code === "timeout") return t("errors.timeout");
  return errorText(error.code, error.message) || t("errors.generic");
}

/** Draw the game area again from the last known state: whatever the renderer had picked for a move is let go. */
function redrawGame() {
  board?.board.redraw();
}

/** ctx.send: submit an action over the socket; rejects with {code, message} when refused. */
async function send(action) {
  if (isSpectator(store.get())) throw { code: "spectator", message: t("table.spectator") };
  // A player who asked to confirm the moves that cannot be taken back is asked first (takeback.js).
  if (!(await mayMove(socket, action))) {
    redrawGame();
    throw { code: "cancelled", message: "" };
  }
  // No expected_version: in simultaneous phases (secret prep) other seats move the version all the
  // time, and the engine re-checks every action against the current state anyway.
  return socket.act(action).catch((error) => {
    // Server refusals arrive as "error" messages and are toasted there; local failures are toasted here.
    if (["offline", "timeout", "closed"].includes(error.code)) {
      toast(localErrorMessage(error), "error");
      redrawGame();
    }
    throw { code: error.code, message: localErrorMessage(error) };
  });
}

/** Take back this seat's last step (the server offered it with this version). */
function undo() {
  const version = store.get().version;
  if (!socket || version === null) return;
  store.set({ undo: false }); // one request per offer: a second click must not take back a second step
  socket.undo(version).catch((error) => {
    if (["offline", "timeout", "closed"].includes(error.code)) toast(localErrorMessage(error), "error");
  });
}

/** Take an answer's table unless the socket has already brought something newer; true when taken. */
function takeTable(table) {
  const s = store.get();
  if (!table || !table.id || (s.version !== null && (table.version ?? 0) < s.version)) return false;
  /** @type {Partial<import("./table-state.js").TableState>} */
  const patch = { table };
  if (typeof table.waited === "number") patch.idleSince = Date.now() - table.waited * 1000;
  store.set(patch);
  return true;
}

async function hostCall(path, body) {
  const seatBefore = store.get().seat;
  try {
    const table = await api("POST", `${tablePath()}/${path}`, body);
    if (takeTable(table) && table.my_seat !== undefined) store.set({ seat: table.my_seat });
    // Our own seat changed (we sat down or left): a fresh snapshot brings our view and actions at once. A change
    // to someone else's seat (a kick, a bot, a stand-in) needs none: the socket's update brings it, log line and all.
    if ((store.get().seat ?? null) !== (seatBefore ?? null)) socket?.resync();
  } catch (error) {
    toast(errorMessage(error), "error");
  }
}

// ---- takeback requests and abandon by agreement -------------------------------------

/** Say "ask", "yes" or "no" about taking back moves; a refusal is toasted as the socket's errors are. */
function sayTakeback(word, proposal) {
  if (!socket) return;
  socket.takeback(word, proposal).catch((error) => {
    if (["offline", "timeout", "closed"].includes(error.code)) toast(localErrorMessage(error), "error");
  });
}

/** Say yes or no to abandoning; a "yes" with no proposal open proposes it (after a confirmation). */
async function voteToAbandon(vote) {
  const open = store.get().table.abandon;
  try {
    // Naming the proposal: a click meant for one that ended meanwhile must not open (or decline) another.
    const table = await api("POST", `${tablePath()}/abandon`, open ? { vote, proposal: open.id } : { vote });
    // No resync, unlike a change of seat: the socket's update brings the vote's log line, which a snapshot would not.
    takeTable(table);
  } catch (error) {
    toast(errorMessage(error), "error");
  }
}

async function proposeToAbandon() {
  const sure = await confirmDialog({
    title: t("table.abandon_confirm_title"),
    text: t("table.abandon_confirm_text"),
    confirm: t("table.abandon_confirm"),
    cancel: t("table.abandon_cancel"),
  });
  if (sure && store.get().table.status === "playing") voteToAbandon("yes");
}

// ---- log -------------------------------------------------------------------

/** Add lines at the end of the log (a new array: the log panel appends them). */
function appendLog(lines) {
  if (lines.length) store.set({ log: [...store.get().log, ...lines] });
}

let rendererReady = Promise.resolve();

async function reloadLog() {
  const epoch = ++logEpoch;
  logLoading = true;
  await rendererReady;
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      updatesDuringLog = 0;
      const answer = await api("GET", `${tablePath()}/moves${query({ invite })}`);
      if (epoch !== logEpoch) return;
      // A move that landed while we were fetching may or may not be in the answer: fetch again.
      if (updatesDuringLog && attempt < 2) continue;
      const c = ctx();
      const module = store.get().renderer?.module;
      // Moves and lobby changes (seats, bots, votes, renames) in the order of the versions they made, so a
      // reloaded log reads as the live one did.
      const lobby = answer.lobby || [];
      const entries = [
        ...lobby.map((entry) => ({ version: entry.version, lines: () => linesForEvents(module, entry.events, c) })),
        ...(answer.moves || []).map((move) => ({ version: move.version, lines: () => linesForMove(module, move, c) })),
      ].sort((a, b) => a.version - b.version);
      // Tables older than the lobby log have no stored start or end: say them here.
      const told = (type) => lobby.some((entry) => entry.events.some((event) => event.type === type));
      const table = store.get().table;
      const started = table && table.status !== "open" && !told("game_started") ? [t("log.started")] : [];
      const ended = table && table.abandoned && !told("abandoned") ? [t("log.abandoned")] : [];
      /** @type {Partial<import("./table-state.js").TableState>} */
      const patch = { log: [...started, ...entries.flatMap((entry) => entry.lines()), ...ended] };
      if (!sinceTold) {
        sinceTold = true;
        const fresh = seenBefore === null ? [] : entries.filter((entry) => entry.version > seenBefore);
        const lines = fresh.flatMap((entry) => entry.lines());
        patch.since = lines.length ? lines : null;
      }
      const moves = answer.moves || [];
      const lastEvents = moves.length ? moves[moves.length - 1].events || [] : [];
      // A finished game's end screen may draw what its last move left (Food Truck's last round).
      if (lastEvents.length && JSON.stringify(lastEvents) !== JSON.stringify(store.get().lastMoveEvents)) patch.lastMoveEvents = lastEvents;
      store.set(patch);
      break;
    }
  } catch (error) {
    console.warn("move log unavailable", error);
  } finally {
    if (epoch === logEpoch) logLoading = false;
  }
}

/** The log lines of the last message's events: appended now, or counted while the log is being read again. */
function logEvents() {
  if (logLoading) updatesDuringLog += 1;
  else appendLog(linesForEvents(store.get().renderer?.module, store.get().events, ctx()));
}

// ---- socket messages -----------------------------------------------------------

/** A game message (snapshot, update, draft) into the store: the slices it changed are replaced, the others kept. */
function applyMessage(message) {
  const before = store.get();
  /** @type {Partial<import("./table-state.js").TableState>} */
  const patch = {};
  const table = message.table ? keepSame(before.table, message.table) : before.table;
  if (table !== before.table) {
    patch.table = table;
    if (typeof table.waited === "number") patch.idleSince = Date.now() - table.waited * 1000;
  } else if (!message.table && message.type === "update") {
    patch.idleSince = Date.now(); // an update without its table is a move: the table changed just now
  }
  if (typeof message.version === "number") patch.version = message.version;
  if ("view" in message) {
    const key = JSON.stringify(message.view);
    if (key !== viewKey) {
      patch.view = message.view;
      // A move changes the view; an update about seats, stand-ins or votes leaves it as it was (and the marks too).
      if (message.type === "update" && viewKey !== null) patch.lastMoveEvents = Array.isArray(message.events) ? message.events : [];
    }
    viewKey = key;
  }
  if (Array.isArray(message.actions)) patch.actions = keepSame(before.actions, message.actions);
  if (Array.isArray(message.awaiting)) patch.awaiting = keepSame(before.awaiting, message.awaiting);
  else if (table && Array.isArray(table.awaiting)) patch.awaiting = keepSame(before.awaiting, table.awaiting);
  if ("seat" in message) patch.seat = message.seat ?? null;
  else if (table && "my_seat" in table) patch.seat = table.my_seat ?? null;
  patch.events = Array.isArray(message.events) && message.events.length ? message.events : NO_EVENTS;
  patch.undo = message.undo === true;
  // How many of our own secret steps are drafts (shown to us alone; no version of their own).
  patch.draft = typeof message.draft === "number" ? message.draft : 0;
  store.set(patch);
  // The host removed this person (one who pressed Leave knows it already).
  const after = store.get();
  const kicked = after.events.some((e) => e.type === "seat_left" && e.kicked && e.seat === before.seat);
  if (!isSpectator(before) && isSpectator(after) && after.table?.status === "open" && kicked) toast(t("table.kicked"), "info");
}

/** A "no" ended the proposal to abandon: the players who wanted to stop hear it at once, not only from the log. */
function toastDeclined() {
  const s = store.get();
  const declined = s.events.find((event) => event && event.type === "abandon_declined");
  // The one who said no knows it; a spectator had no say and has the log line.
  if (!declined || isSpectator(s) || String(declined.seat) === String(s.seat)) return;
  const name = declined.name || names(s)[declined.seat] || declined.seat;
  toast(t(declined.withdrawn ? "table.abandon_withdrawn_toast" : "table.abandon_declined_toast", { name }), "info");
}

function onMessage(message) {
  chat.onMessage(message);
  if (message.type === "snapshot" || message.type === "update") clocks.update(message);
  if (message.type === "snapshot") {
    applyMessage(message);
    reloadLog();
    noteSeen();
  } else if (message.type === "draft") {
    const draftsBefore = store.get().draft;
    store.batch(() => {
      applyMessage(message);
      // A draft taken back: the log is read again without it (drafts are in it once a move carries them).
      if (store.get().draft < draftsBefore) reloadLog();
      else logEvents();
    });
  } else if (message.type === "update") {
    const myTurnBefore = isMyTurn(store.get());
    store.batch(() => {
      applyMessage(message);
      const s = store.get();
      const undone = s.events.find((event) => event && (event.type === "undone" || event.type === "taken_back"));
      if (undone) {
        // The step is gone from the game: the log is read again without it.
        if (undone.type === "undone" && String(undone.seat) !== String(s.seat)) {
          toast(t("log.undone", { name: names(s)[undone.seat] ?? undone.seat }), "info");
        }
        reloadLog();
      } else logEvents();
    });
    const s = store.get();
    if (!myTurnBefore && isMyTurn(s)) {
      if (lookingElsewhere()) ring();
      notifyTurn(me()?.id, s.table.name || s.game?.title || s.table.game, `turn:${tableId}`);
    }
    toastDeclined();
    noteSeen();
  } else if (message.type === "presence") {
    if (Array.isArray(message.online) && typeof message.watching === "number") {
      const before = store.get().presence;
      // Watchers coming and going leave the seat rows (and a button under the pointer) as they are: the same
      // `online` list is kept while it says the same.
      const online = keepSame(before?.online ?? null, message.online.map(String));
      const watchers = Array.isArray(message.watchers) ? message.watchers.filter((w) => w && w.id && w.name) : [];
      store.set({ presence: { online, watching: message.watching, watchers: keepSame(before?.watchers ?? null, watchers) } });
    }
  } else if (message.type === "error" && message.code === "access_lost") {
    // Kicked from a private table's seat (or no longer its host): the server closes the socket for good.
    socket.stop();
    showMessage(t("table.access_lost"));
  } else if (message.type === "error") {
    toast(errorText(message.code, message.message) || t("errors.generic"), "error");
    // Redraw from the last known state so nothing the renderer tentatively changed sticks.
    redrawGame();
    if (/version|stale|conflict/i.test(String(message.code || ""))) socket.resync();
  }
}

function onStatus(status, info) {
  if (status === "closed" && info.signedOut && signedInHere) {
    showSignedOut(info.refusal);
    return;
  }
  // Not connected, we do not know who is: the dots say nothing until the server tells us again.
  store.set(status !== "online" ? { conn: { status, info }, presence: null } : { conn: { status, info } });
}

// ---- start ---------------------------------------------------------------------

/** The page's parts, each drawn by the panel that owns it. */
function skeleton() {
  els.head = h("div", { class: "table-head" });
  els.conn = h("span", { class: "conn", "data-testid": "conn", role: "status", "aria-live": "polite" });
  els.banner = h("div", { class: "banner spectator-banner", "data-testid": "spectator-banner", hidden: true });
  els.turn = h("div", { "data-testid": "turn", hidden: true });
  els.prompt = h("div", { class: "turn-prompt", "data-testid": "turn-prompt", hidden: true });
  // Polite: it appears by itself once the wait is long enough, and says what a player may now do.
  els.turnNote = h("div", { class: "turn-note-wrap", "aria-live": "polite", hidden: true });
  els.abandon = h("section", { class: "banner abandon-banner", "data-testid": "abandon", hidden: true });
  els.since = h("section", { class: "panel since", "data-testid": "since", "aria-labelledby": "since-title", hidden: true });
  els.abandonOffer = h("div", { class: "abandon-offer", hidden: true });
  els.takeback = h("section", { class: "banner takeback-banner", "data-testid": "takeback", hidden: true });
  // The switch is made once: redraws keep the same box, so a click on it is never lost to one.
  els.takebackOffer = h("div", { class: "takeback-offer", hidden: true }, els.takebackAsk = h("div"), confirmSwitch());
  els.prestart = h("section", { class: "panel prestart", "data-testid": "prestart", hidden: true });
  els.result = h("section", { class: "panel result", "data-testid": "result", hidden: true });
  els.game = h("div", { class: "game-area", id: "game", "data-testid": "game-area", hidden: true });
  // The renderers title their parts with h3s: a heading for the game itself keeps the page's outline in order
  // (h1 table, h2 game, h3 its parts) for those who move by headings; sighted people see the board instead.
  els.gameTitle = h("h2", { class: "sr-only", hidden: true });
  els.seats = h("ul", { class: "seats", "data-testid": "seats" });
  els.seatsTitle = h("h2");
  els.watching = h("span", { class: "watching muted small", "data-testid": "watching", hidden: true });
  els.watchers = h("div", { class: "watchers small", "data-testid": "watchers", hidden: true });
  els.logTitle = h("h2");
  const log = logPanel(store);
  chat = chatPanel(store, { tableId, invite, socket: () => socket, signIn: openSignIn }).chat;
  mount(els.main,
    // The turn line and the chat's "new in chat" button share the bar that stays in sight: the button covers
    // nothing of the game (on a phone a corner button sat on the board until the chat was read).
    // The instruction and its buttons ride in the same bar, under the turn line.
    els.head, els.banner, els.bar = h("div", { class: "table-bar" }, h("div", { class: "table-bar-main" }, els.turn, els.prompt),
      chat.jump), els.turnNote, els.since, els.abandon, els.takeback, els.result,
    els.prestart,
    els.layout = h("div", { class: "table-layout" },
      els.gameTitle,
      els.game,
      h("aside", { class: "sidebar" },
        h("section", { class: "panel" }, h("div", { class: "seats-head" }, els.seatsTitle, els.watching), els.seats,
          els.watchers, els.abandonOffer, els.takebackOffer),
        chat.el,
        h("section", { class: "panel log" }, els.logTitle, log.el))));
}

/** The panels, in the order they draw on a change: what the others' names depend on first. */
function wirePanels() {
  // Before anything is drawn: the names below (and those drawn already) open profiles beside a game the viewer plays.
  panel(store, (s) => [playingHere(s)], (beside) => openProfilesBeside(beside));
  // Exposed for tests and tools that need to know when a move landed.
  panel(store, (s) => [s.version, s.table, s.draft], (version, table, draft) => {
    if (!table) return;
    els.main.dataset.version = String(version ?? table.version ?? "");
    els.main.dataset.draft = String(draft || 0);
    els.main.dataset.status = table.status;
  });
  panel(store, (s) => [s.lang], () => {
    els.seatsTitle.textContent = t("table.seats");
    els.logTitle.textContent = t("table.log");
    els.gameTitle.textContent = t("table.game");
  });
  panel(store, (s) => [s.table?.status, s.lang], (status) => {
    // "Sign in to play" while seats may be taken, "Sign in to chat" once the game has started.
    if (els.signInTitle && status) els.signInTitle.textContent = t(status === "open" ? "auth.title" : "auth.title_chat");
  });
  headPanel(store, { head: els.head, conn: els.conn, banner: els.banner, invite, retry: () => socket.retry(), hostCall });
  const seats = seatsPanel(store, { seats: els.seats, watching: els.watching, watchers: els.watchers, hostCall, invite,
    seatNode: (seat) => clocks.seatNode(seat), chat: () => chat });
  turnPanel(store, { turn: els.turn, turnNote: els.turnNote, since: els.since, undo, reclaimButton: seats.reclaimButton });
  prestartPanel(store, { prestart: els.prestart, tablePath, hostCall });
  resultPanel(store, { result: els.result, tablePath, invite, ctx: () => ctx() });
  votesPanel(store, { abandon: els.abandon, abandonOffer: els.abandonOffer, takeback: els.takeback,
    takebackAsk: els.takebackAsk, takebackOffer: els.takebackOffer, vote: voteToAbandon, propose: proposeToAbandon, sayTakeback });
  board = boardPanel(store, { game: els.game, gameTitle: els.gameTitle, layout: els.layout, prompt: els.prompt, bar: els.bar, ctx });
}

/** The sign-in fold's title and form, in the page's language. */
function fillSignIn() {
  els.signInTitle = h("summary");
  const status = store.get().table?.status;
  if (status) els.signInTitle.textContent = t(status === "open" ? "auth.title" : "auth.title_chat");
  mount(els.signIn, els.signInTitle, signInForm(() => location.reload()));
}

/** Open the page's sign-in fold, in view, with the cursor in its first field. */
function openSignIn() {
  if (!els.signIn) return;
  els.signIn.open = true;
  els.signIn.scrollIntoView({ block: "nearest" });
  els.signIn.querySelector("input")?.focus({ preventScroll: true });
}

/** The session this page was signed in with ended (the password changed elsewhere, or a sign-out everywhere): the page
 * stops its socket and says so; signing in again (the page reloads as a visitor's) brings the person back to their seat. */
function showSignedOut(refusal) {
  if (signedOutShown || !signedInHere) return;
  signedOutShown = { refusal };
  socket?.stop();
  drawSignedOut();
}

function drawSignedOut() {
  renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() });
  mount(els.main, h("section", { class: "panel", "data-testid": "signed-out", role: "alert" },
    h("h1", null, t("session.ended_title")),
    h("p", null, signedOutText(signedOutShown.refusal)),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", onclick: () => location.reload() }, t("session.sign_in_again")),
      h("a", { class: "button secondary", href: "/" }, t("table.back")))));
}

function showMessage(text) {
  mount(els.main, h("section", { class: "panel" }, h("p", null, text), h("a", { class: "button secondary", href: "/" }, t("table.back"))));
}

async function openTable() {
  let table;
  try {
    table = await api("GET", `${tablePath()}${query({ invite })}`);
  } catch (error) {
    showMessage(error instanceof ApiError && [403, 404].includes(error.status) ? t("table.not_found") : errorMessage(error));
    return;
  }
  seenBefore = readSeen();
  document.addEventListener("visibilitychange", noteSeen);
  const user = me();
  store.set({
    table, seat: table.my_seat ?? null, awaiting: table.awaiting || [], chime: chimeOn(),
    notify: user ? turnNotificationsOn(user.id) : false,
    ...(typeof table.waited === "number" ? { idleSince: Date.now() - table.waited * 1000 } : {}),
  });
  renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() }); // Leaderboards: this game's
  rendererReady = loadRenderer(table.game).then((renderer) => store.set({ renderer }));
  api("GET", "/api/games").then((games) => {
    const game = (games || []).find((g) => g.id === table.game);
    if (game) store.set({ game });
  }).catch(() => {});
  skeleton();
  if (!user) {
    // A visitor who is not signed in can watch; signing in (one field) lets them take a seat, or once the game
    // has started, chat (the chat panel's "Sign in" opens this).
    els.signIn = h("details", { class: "panel signin-inline", "data-testid": "signin-inline" });
    fillSignIn();
    els.banner.after(els.signIn);
  }
  wirePanels();
  socket = new TableSocket({ tableId, invite, onMessage, onStatus, checkSession });
  socket.start();
  // A handle for the console and the browser tests: the same path a renderer's clicks take.
  /** @type {any} */ (window).foodGames = {
    send, state: () => store.get(), pending: () => socket.pending.size,
    connected: () => socket.ws?.readyState === WebSocket.OPEN, chimes: chimesRung, notifications: notificationsShown,
  };
  armChime();
}

async function init() {
  els.header = document.getElementById("header");
  els.main = document.getElementById("main");
  if (!tableId) {
    showMessage(t("table.not_found"));
    return;
  }
  if (params.has("replay")) {
    await loadMe().catch(() => null);
    renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() });
    onLangChange(() => renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() }));
    runReplay(els.main, { tableId, invite, step: Number.parseInt(params.get("replay"), 10) || 0 });
    return;
  }
  mount(els.main, h("p", { class: "muted" }, t("table.loading")));
  let user;
  try {
    user = await loadMe();
  } catch (error) {
    showMessage(errorMessage(error));
    return;
  }
  signedInHere = Boolean(user);
  onSignedOut(showSignedOut);
  renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() });
  // The turn bar sticks just under the (sticky) header, whose height depends on the width and language.
  new ResizeObserver(() => document.documentElement.style.setProperty("--header-h", `${els.header.offsetHeight}px`))
    .observe(els.header);
  onLangChange(() => {
    if (signedOutShown) {
      drawSignedOut();
      return;
    }
    renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() });
    if (els.signIn) fillSignIn();
    store.set({ lang: getLang() });
    if (store.get().table) reloadLog();
  });
  if (!user && invite) {
    // Someone following an invite link: sign in first (one field for a guest), then the table and its Join button.
    mount(els.main, h("section", { class: "panel signin-panel" }, h("h1", null, t("auth.title")),
      h("p", { class: "muted" }, t("table.invited")),
      signInForm(() => {
        signedInHere = true;
        renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() });
        openTable();
      })));
    els.main.querySelector("input")?.focus();
    return;
  }
  openTable();
}

init();
