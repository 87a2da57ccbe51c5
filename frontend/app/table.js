// The table page: seats and host controls before the start, the live game, log, result.

import { h, mount, mountIfChanged, named } from "../lib/dom.js";
import { api, query, ApiError } from "./api.js";
import { t, tParts, getLang, onLangChange, errorText } from "./i18n.js";
import { me, loadMe, checkSession, onSignedOut } from "./session.js";
import {
  toast, errorMessage, renderHeader, signInForm, inviteBox, seatNames, listNames, statusBadge, rulesLink, optionsText,
  confirmDialog, personLink, ratingBadge, signedOutText, seatLinks, seatLink, openProfilesBeside,
} from "./ui.js";
import { TableSocket } from "./socket.js";
import { LogPanel, linesForEvents, linesForMove } from "./log.js";
import { loadRenderer } from "./renderer.js";
import { runReplay } from "./replay.js";
import { confirmSwitch, mayMove, takebackBanner, takebackOffer } from "./takeback.js";
import { ChatPanel } from "./chat.js";
import { armChime, chimeOn, chimesRung, lookingElsewhere, ring, setChimeOn } from "./chime.js";
import { ClockBoard, describeTimeControl } from "./clock.js";
import { notificationsShown, notificationsSupported, notifyTurn, setTurnNotifications, turnNotificationsOn } from "./notifications.js";

const params = new URLSearchParams(location.search);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || params.get("id") || "");
const invite = params.get("invite");

const S = {
  table: null,
  view: null,
  actions: [],
  awaiting: [],
  seat: null,
  events: [],
  // The events of the game's last move: from the update that brought it, or read with the log (a page opened anew has
  // had no update). Renderers mark what they changed on the board until the next move (ctx.lastMoveEvents).
  lastMoveEvents: [],
  viewKey: null, // the last view as JSON: an update whose view differs from it is a move
  undo: false, // the server lets this seat take back its last step
  version: null,
  draft: 0, // how many of this seat's secret steps are drafts (services/drafts.py): shown to it alone
  gameTitle: null,
  game: null, // the game's lobby entry (GET /api/games): its options' names
  renderer: null, // {module, missing, error?} once loaded
  conn: { status: "connecting", info: {} },
  idleSince: Date.now(), // when the running table last changed, by this browser's clock
  presence: null, // {online: [seat], watching: n, watchers: [{id, name}]} from the server, while the socket is open
};

const els = {};
let socket = null;
let logPanel = null;
let logLoading = false;
let updatesDuringLog = 0;
let logEpoch = 0;
let chatPanel = null;
// Each seat's time at a clocked table (clock.js); my own running low is said once a turn.
const clocks = new ClockBoard({ mine: () => (isSpectator() ? null : S.seat), onLow: () => toast(t("clock.low"), "info") });
let idleTimer = null;
let signedInHere = false; // the page was opened signed in: its session ending signs it out (showSignedOut)
/** The bot level the host has picked so far for each empty seat (the seat list is redrawn on every update). */
const botLevels = {};
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
  if (document.hidden || typeof S.version !== "number") return;
  try {
    localStorage.setItem(seenKey(), String(S.version));
  } catch {
    // Not remembered: the next visit tells nothing new.
  }
}

/** The header's Leaderboards link: to the board of this table's game once it is known. */
function headerNav() {
  return S.table?.game ?? true;
}

function tablePath() {
  return `/api/tables/${encodeURIComponent(tableId)}`;
}

function isSpectator() {
  return S.seat === null || S.seat === undefined;
}

function names() {
  return S.table ? seatNames(S.table) : {};
}

/** {seat: {id, name}} for every seat a person holds (a bot's own seat has none): the log links their names. */
function people() {
  const out = {};
  for (const entry of S.table ? S.table.seats : []) if (entry.user) out[entry.seat] = entry.user;
  return out;
}

/** Whether this page is a game its viewer plays (open or running): following a name must not leave it. */
function playingHere() {
  return !isSpectator() && ["open", "playing"].includes(S.table?.status);
}

function ctx() {
  return {
    seat: isSpectator() ? null : S.seat,
    // While a bot plays the seat, its moves are not the person's to make (the server refuses them).
    actions: isSpectator() || S.table?.status !== "playing" || standingIn() ? [] : S.actions,
    awaiting: S.awaiting,
    send,
    names: names(),
    people: people(),
    host: S.table?.host ?? null,
    lang: getLang(),
    events: S.events,
    lastMoveEvents: S.lastMoveEvents,
    // An abandoned game's view is left mid-game (its phase is not the engine's end), so without this a renderer would
    // still read a prompt ("Ana is choosing a truck…") from it under the end screen.
    over: S.table?.status === "finished",
    // The renderer hands its instruction to the viewer (text and its buttons) here, on every draw of its own: it is
    // shown in the sticky turn bar, which stays in sight wherever the targets it names are.
    prompt: showPrompt,
  };
}

// ---- moves ---------------------------------------------------------------------

function localErrorMessage(error) {
  if (error.code === "offline" || error.code === "closed") return t("errors.offline");
  if (error.code === "timeout") return t("errors.timeout");
  return errorText(error.code, error.message) || t("errors.generic");
}

/** ctx.send: submit an action over the socket; rejects with {code, message} when refused. */
async function send(action) {
  if (isSpectator()) throw { code: "spectator", message: t("table.spectator") };
  // A player who asked to confirm the moves that cannot be taken back is asked first (takeback.js).
  if (!(await mayMove(socket, action))) {
    drawGame(); // whatever the renderer had picked for the move is let go
    throw { code: "cancelled", message: "" };
  }
  // No expected_version: in simultaneous phases (secret prep) other seats move the version all the
  // time, and the engine re-checks every action against the current state anyway.
  return socket.act(action).catch((error) => {
    // Server refusals arrive as "error" messages and are toasted there; local failures are toasted here.
    if (["offline", "timeout", "closed"].includes(error.code)) {
      toast(localErrorMessage(error), "error");
      drawGame();
    }
    throw { code: error.code, message: localErrorMessage(error) };
  });
}

/** Take back this seat's last step (the server offered it with this version). */
function undo() {
  if (!socket || S.version === null) return;
  S.undo = false; // one request per offer: a second click must not take back a second step
  drawTurn();
  socket.undo(S.version).catch((error) => {
    if (["offline", "timeout", "closed"].includes(error.code)) toast(localErrorMessage(error), "error");
  });
}

async function hostCall(path, body) {
  const seatBefore = S.seat;
  try {
    const table = await api("POST", `${tablePath()}/${path}`, body);
    // The socket may already have brought something newer than this answer.
    if (table && table.id && (S.version === null || (table.version ?? 0) >= S.version)) {
      S.table = table;
      noteIdle(table);
      if (table.my_seat !== undefined) S.seat = table.my_seat;
    }
    drawAll();
    // Our own seat changed (we sat down or left): a fresh snapshot brings our view and actions at once. A change
    // to someone else's seat (a kick, a bot, a stand-in) needs none: the socket's update brings it, log line and all.
    if ((S.seat ?? null) !== (seatBefore ?? null)) socket?.resync();
  } catch (error) {
    toast(errorMessage(error), "error");
  }
}

// ---- drawing -------------------------------------------------------------------

function seatEntry(entry) {
  const table = S.table;
  const nameMap = names();
  const taken = Boolean(entry.user || entry.bot);
  const mine = !isSpectator() && entry.seat === S.seat;
  const turn = table.status === "playing" && S.awaiting.includes(entry.seat);
  const isHostSeat = taken && entry.user && table.host && entry.user.id === table.host.id;
  const controls = [];
  if (table.status === "open") {
    if (!taken && isSpectator() && me()) {
      controls.push(h("button", {
        type: "button",
        class: "primary small-btn",
        onclick: () => hostCall("join", invite ? { seat: entry.seat, invite_code: invite } : { seat: entry.seat }),
      }, t("table.join_seat")));
    }
    if (table.is_host && !taken) {
      // The seat list is redrawn on every update: the level chosen so far is kept per seat, not in the element.
      const level = h("select", { class: "small-select", "aria-label": t("table.bot_level"), title: t("table.bot_level"),
        onchange: (event) => { botLevels[entry.seat] = event.target.value; } },
        ["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === (botLevels[entry.seat] || "normal") }, t(`bot.${l}`))));
      controls.push(level, h("button", { type: "button", class: "secondary small-btn",
        onclick: () => hostCall("bots", { seat: entry.seat, level: level.value }) }, t("table.add_bot")));
    }
    if (table.is_host && taken && !mine) {
      controls.push(h("button", { type: "button", class: "ghost small-btn danger", onclick: () => hostCall("kick", { seat: entry.seat }) },
        t("table.kick")));
    }
  } else if (table.status === "playing" && entry.user) {
    // A player away for a while: a bot plays their seat until they take it back.
    if (entry.bot && mine) controls.push(reclaimButton());
    else if (!entry.bot && (mine || (table.is_host && !table.rated) || mayCallBotFor(entry, 0))) {
      // At a rated table the host waits like everyone (a bot's place is rated as its player's).
      controls.push(h("button", {
        type: "button", class: "ghost small-btn", "data-testid": "stand-in", onclick: () => hostCall("stand_in", { seat: entry.seat }),
        // Every seat may have one: the name says whose.
        "aria-label": mine ? null : t("table.stand_in_for", { name: nameMap[entry.seat] }),
      }, t("table.stand_in")));
    }
  }
  const score = table.outcome && table.outcome.scores ? table.outcome.scores[entry.seat] : undefined;
  const here = presenceOf(entry);
  return h("li", {
    class: ["seat", turn && "turn", mine && "mine", !taken && "empty"],
    "data-seat": entry.seat,
    "aria-current": turn ? "true" : null,
  },
    // Whether the seat's person has the table open now: a filled or a hollow dot, named in words.
    here ? h("span", { class: ["seat-dot", here], title: t(`table.${here}`), ...named(t(`table.${here}`)) })
      : h("span", { class: "seat-dot", "aria-hidden": "true" }),
    h("span", { class: "seat-name" },
      // A person's name leads to their profile; a bot has none.
      entry.user ? personLink(entry.user, nameMap[entry.seat])
        : taken ? nameMap[entry.seat] : h("span", { class: "muted" }, t("table.seat_empty")),
      // A player's seat a bot stood in for is theirs again once the game is over.
      entry.bot && (!entry.user || table.status === "playing") ? h("span", { class: "tag" }, t("table.bot")) : null,
      mine ? h("span", { class: "tag you" }, t("table.you")) : null,
      isHostSeat ? h("span", { class: "tag" }, t("table.host")) : null),
    score !== undefined ? h("span", { class: "seat-score" }, String(score)) : null,
    clocks.seatNode(entry.seat),
    turn ? h("span", { class: "turn-mark" }, "◀") : null,
    controls.length ? h("span", { class: "seat-controls" }, controls) : null);
}

/** "online" or "away" for a person's seat in an open or running game (a bot playing for them shows them too). */
function presenceOf(entry) {
  if (!S.presence || !entry.user || !["open", "playing"].includes(S.table.status)) return null;
  return S.presence.online.includes(entry.seat) ? "online" : "away";
}

/**
 * Seconds the game must wait on `entry`'s seat before any other player may hand it to a bot: longer while its
 * player is connected (thinking, perhaps). Unknown presence counts as away; the server has the last word.
 */
function standInAfter(entry) {
  const table = S.table;
  const online = typeof table.stand_in_after_online === "number" && presenceOf(entry) === "online";
  return online ? table.stand_in_after_online : table.stand_in_after;
}

/**
 * Whether this player may hand `entry`'s seat to a bot in `ms` milliseconds, though neither the seat's player
 * nor the host: the game has waited on that seat alone, with no change, for the server's `stand_in_after`.
 */
function mayCallBotFor(entry, ms) {
  const table = S.table;
  if (isSpectator() || table.status !== "playing" || typeof table.stand_in_after !== "number") return false;
  if (!entry.user || entry.bot || entry.seat === S.seat || !S.awaiting.includes(entry.seat)) return false;
  return Date.now() + ms - S.idleSince >= standInAfter(entry) * 1000;
}

/** Remember when the table last changed: `waited` counts from the server's last change to this message. */
function noteIdle(table) {
  if (typeof table.waited === "number") S.idleSince = Date.now() - table.waited * 1000;
}

/**
 * Why a "Let a bot play" button has appeared on someone else's seat: the game has waited long on them. Said right
 * under the turn bar to the players who may now press it, and only to them: not in the sticky bar, where on a phone
 * its five wrapped lines beside the chat button covered a fifth of the screen for as long as the wait lasted.
 */
function standInDue() {
  const nameMap = names();
  const dueSeats = S.table.seats.filter((entry) => mayCallBotFor(entry, 0));
  const due = dueSeats.map((entry) => nameMap[entry.seat] ?? entry.seat);
  if (!due.length) return null;
  const after = Math.min(...dueSeats.map(standInAfter));
  const time = after < 90 ? `${Math.round(after)} s` : `${Math.round(after / 60)} min`;
  return h("p", { class: "turn-note", "data-testid": "stand-in-due" },
    t(due.length > 1 ? "table.stand_in_due_many" : "table.stand_in_due", { names: listNames(due), time, button: t("table.stand_in") }));
}

/** Redraw the seats and the turn bar when a waited-on seat's bot button becomes due. */
function scheduleIdleRedraw() {
  clearTimeout(idleTimer);
  const table = S.table;
  if (isSpectator() || table.status !== "playing" || typeof table.stand_in_after !== "number") return;
  const dues = table.seats.map((entry) => S.idleSince + standInAfter(entry) * 1000 - Date.now())
    .filter((due, i) => due > 0 && mayCallBotFor(table.seats[i], due));
  if (dues.length) {
    idleTimer = setTimeout(() => {
      drawSeats();
      drawTurn();
    }, Math.min(...dues) + 250);
  }
}

function reclaimButton() {
  return h("button", { type: "button", class: "primary small-btn", "data-testid": "reclaim", onclick: () => hostCall("reclaim") },
    t("table.reclaim"));
}

function standingIn() {
  const entry = !isSpectator() && S.table.seats.find((s) => s.seat === S.seat);
  return Boolean(entry && entry.bot && entry.user);
}

function drawSeats() {
  mount(els.seats, S.table.seats.map(seatEntry));
  drawWatching();
  scheduleIdleRedraw();
}

/** "N watching" by the Seats heading, and who under the seats: in every status, as the chat is open in every one. */
function drawWatching() {
  const watching = S.presence ? S.presence.watching : 0;
  els.watching.hidden = !watching;
  els.watching.textContent = watching ? t("table.watching", { n: watching }) : "";
  drawWatchers();
}

/**
 * "Watching: Cy, Dee and 2 more" under the seats: the signed-in watchers the server names, each leading to their
 * profile, and for the host a Mute (or Unmute) beside each, the way to silence someone who has not written.
 */
function drawWatchers() {
  const people = S.presence ? S.presence.watchers : [];
  if (!people.length) {
    els.watchers.replaceChildren();
    els.watchers.hidden = true;
    return;
  }
  const host = S.table.is_host === true;
  const more = Math.max(0, S.presence.watching - people.length); // signed out, or past the names sent
  mountIfChanged(els.watchers, h("div", { class: "watchers-inner" },
    h("span", { class: "watchers-label muted", id: "watchers-label" }, t("table.watchers")),
    h("ul", { class: "watchers-list", "aria-labelledby": "watchers-label" }, people.map((person) => {
      // Only the host knows who is muted (the others are never told).
      const muted = host && Boolean(chatPanel?.isMuted(person.id));
      const mine = person.id === me()?.id;
      return h("li", { class: "watcher", "data-user-id": person.id },
        personLink(person, person.name),
        mine ? h("span", { class: "tag you" }, t("table.you")) : null,
        muted ? h("span", { class: "tag chat-muted-tag" }, t("chat.muted_tag")) : null,
        host && !mine ? h("button", {
          type: "button", class: "ghost chat-tool", "data-testid": "watcher-mute",
          "aria-label": t(muted ? "chat.unmute_label" : "chat.mute_label", { name: person.name }),
          onclick: () => chatPanel.toggleMute(person, (text) => toast(text, "error")),
        }, t(muted ? "chat.unmute" : "chat.mute")) : null);
    })),
    more ? h("span", { class: "muted" }, t(more === 1 ? "table.watchers_more_one" : "table.watchers_more", { n: more })) : null));
  els.watchers.hidden = false;
}

function isMyTurn() {
  return S.table?.status === "playing" && !isSpectator() && S.awaiting.includes(S.seat);
}

/** The sound switch: only someone seated at a running game has turns to hear of. */
function chimeSwitch() {
  if (isSpectator() || S.table.status !== "playing") return null;
  // One button kept across redraws (every update redraws the head), so a click never lands between two copies.
  els.chime ??= h("button", {
    type: "button", class: "ghost small-btn chime-switch", "data-testid": "chime-switch",
    onclick: () => {
      setChimeOn(!chimeOn());
      drawHead();
    },
  });
  const on = chimeOn();
  els.chime.setAttribute("aria-pressed", String(on));
  els.chime.title = t("table.chime_hint");
  els.chime.textContent = on ? t("table.chime_on") : t("table.chime_off");
  return els.chime;
}

/** "Notify me": a notification when it becomes my turn while this tab is hidden; the browser's permission is asked
 * on this click, never on load. */
function notifySwitch() {
  const user = me();
  if (!user || !notificationsSupported() || isSpectator() || S.table.status !== "playing") return null;
  els.notify ??= h("button", {
    type: "button", class: "ghost small-btn notify-switch", "data-testid": "notify-switch",
    onclick: async () => {
      const on = await setTurnNotifications(user.id, !turnNotificationsOn(user.id));
      if (!on && Notification.permission === "denied") toast(t("notify.denied"), "error");
      drawHead();
    },
  });
  const on = turnNotificationsOn(user.id);
  els.notify.setAttribute("aria-pressed", String(on));
  els.notify.title = t("notify.hint");
  els.notify.textContent = on ? t("notify.on") : t("notify.off");
  return els.notify;
}

function drawHead() {
  const table = S.table;
  const title = table.name || S.gameTitle || table.game;
  const myTurn = isMyTurn();
  // Visible in the tab strip while the player looks elsewhere.
  document.title = `${myTurn ? `▶ ${t("table.your_turn")} · ` : ""}${title} · ${t("app.name")}`;
  mount(els.head,
    h("div", { class: "table-head-main" },
      h("h1", null, title),
      table.name && S.gameTitle ? h("span", { class: "muted" }, S.gameTitle) : null,
      rulesLink(table.game),
      statusBadge(table, { "data-testid": "table-status" })),
    h("div", { class: "table-head-side" }, chimeSwitch(), notifySwitch(), els.conn),
    S.game && optionsText(S.game, table.options)
      ? h("p", { class: "table-options muted", "data-testid": "table-options" }, optionsText(S.game, table.options)) : null,
    table.time_control ? h("p", { class: "table-clock muted", "data-testid": "time-control" },
      `${t("lobby.time_control")}: ${describeTimeControl(table.time_control)}`) : null);
}

function drawConn() {
  const { status, info } = S.conn;
  let text;
  if (status === "online") text = t("conn.online");
  else if (navigator.onLine === false) text = t("conn.offline");
  else if (status === "reconnecting" && info.delay) text = t("conn.reconnecting", { s: Math.max(1, Math.round(info.delay / 1000)) });
  else if (status === "reconnecting" || status === "connecting") text = t("conn.connecting");
  else text = info.reason ? `${t("conn.closed")}: ${info.reason}` : t("conn.closed");
  els.conn.dataset.state = status;
  mount(els.conn, h("span", { class: "conn-dot", "aria-hidden": "true" }), text,
    status === "closed" ? h("button", { type: "button", class: "ghost small-btn", onclick: () => socket.retry() }, t("conn.retry")) : null);
}

function drawBanner() {
  const table = S.table;
  const show = isSpectator();
  els.banner.hidden = !show;
  if (show) {
    const free = table.seats.some((s) => !s.user && !s.bot);
    let text = t("table.spectator");
    if (table.status === "open" && me()) text = free ? t("table.spectator_open") : t("table.spectator_full");
    // An invite link shows the table first (who hosts, who sits, the options) and seats the person when they say so.
    const join = invite && table.status === "open" && me() && free
      ? h("button", { type: "button", class: "primary small-btn", "data-testid": "join",
        onclick: () => hostCall("join", { invite_code: invite }) }, t("table.join"))
      : null;
    mountIfChanged(els.banner, h("div", { class: "banner-inner" }, h("span", null, text), join));
  }
}

function drawTurn() {
  const table = S.table;
  let node = null;
  if (table.status === "playing") {
    if (standingIn()) {
      node = h("div", { class: "turn-line" }, t("table.standing_in"), " ", reclaimButton());
    } else if (!isSpectator() && S.awaiting.includes(S.seat)) {
      const others = S.awaiting.filter((s) => s !== S.seat);
      node = h("div", { class: "turn-line mine" }, t("table.your_turn"),
        others.length ? h("span", { class: "also" }, " · ",
          tParts(others.length > 1 ? "table.also_waiting_many" : "table.also_waiting", { names: seatLinks(table, others, names()) })) : null);
    } else if (S.awaiting.length) {
      node = h("div", { class: "turn-line" }, tParts("table.turn_of", { names: seatLinks(table, S.awaiting, names()) }));
    }
  } else if (table.status === "finished") {
    node = h("div", { class: "turn-line done" }, t("table.finished"));
  }
  if (node && S.undo && !isSpectator() && table.status === "playing") {
    node.append(h("button", { type: "button", class: "undo-btn", "data-testid": "undo", onclick: undo },
      `↶ ${t("table.undo")}`));
  }
  // The bot's and the other players' moves redraw this line while its buttons may be under the pointer.
  if (node) mountIfChanged(els.turn, node);
  else els.turn.replaceChildren();
  els.turn.hidden = !node;
  const note = table.status === "playing" && !standingIn() ? standInDue() : null;
  if (note) mountIfChanged(els.turnNote, note);
  else els.turnNote.replaceChildren();
  els.turnNote.hidden = !note;
}

/**
 * "Since you last looked": the moves (and seat changes) made at this table since the version this browser last
 * showed, in the log's words, above the game until the person closes it. Nothing on a first visit or when nothing
 * happened; the most recent lines when there are many.
 */
function drawSince(lines) {
  const LIMIT = 30;
  if (!lines.length) {
    els.since.hidden = true;
    return;
  }
  const shown = lines.slice(-LIMIT);
  const close = () => {
    els.since.hidden = true;
    els.since.replaceChildren();
  };
  mount(els.since,
    h("div", { class: "since-head" },
      h("h2", { id: "since-title" }, t("table.since_title")),
      h("button", { type: "button", class: "ghost small-btn", "data-testid": "since-close", onclick: close }, t("table.since_close"))),
    lines.length > LIMIT ? h("p", { class: "muted small" }, t("table.since_more", { n: lines.length - LIMIT })) : null,
    h("ol", { class: "log-list since-list", "data-testid": "since-list" }, shown.map((line) => h("li", null, line))));
  els.since.hidden = false;
}

// ---- takeback requests ------------------------------------------------------------

/** Say "ask", "yes" or "no" about taking back moves; a refusal is toasted as the socket's errors are. */
function sayTakeback(word, proposal) {
  if (!socket) return;
  socket.takeback(word, proposal).catch((error) => {
    if (["offline", "timeout", "closed"].includes(error.code)) toast(localErrorMessage(error), "error");
  });
}

/** The open request under the turn bar, and the button that asks (with the confirm preference) under the seats. */
function drawTakeback() {
  const banner = takebackBanner(S.table, isSpectator() ? null : S.seat, names(), sayTakeback);
  if (banner) mountIfChanged(els.takeback, banner);
  else els.takeback.replaceChildren();
  els.takeback.hidden = !banner;
  const offer = isSpectator() ? null : takebackOffer(S.table, S.seat, standingIn(), sayTakeback);
  if (offer) mountIfChanged(els.takebackAsk, offer);
  else els.takebackAsk.replaceChildren();
  els.takebackOffer.hidden = isSpectator() || S.table.status !== "playing";
}

// ---- abandon by agreement --------------------------------------------------------

/** Whether this person has a say on abandoning the running game: seated, and playing their seat themselves. */
function mayVoteToAbandon() {
  return !isSpectator() && S.table.status === "playing" && !standingIn();
}

/** Say yes or no to abandoning; a "yes" with no proposal open proposes it (after a confirmation). */
async function voteToAbandon(vote) {
  const open = S.table.abandon;
  try {
    // Naming the proposal: a click meant for one that ended meanwhile must not open (or decline) another.
    const table = await api("POST", `${tablePath()}/abandon`, open ? { vote, proposal: open.id } : { vote });
    // No resync, unlike a change of seat: the socket's update brings the vote's log line, which a snapshot would not.
    if (table && table.id && (S.version === null || (table.version ?? 0) >= S.version)) {
      S.table = table;
      noteIdle(table);
    }
    drawAll();
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
  if (sure && S.table.status === "playing") voteToAbandon("yes");
}

/** The open proposal to abandon, shown to everyone at the table, with Yes and No for those whose say it needs. */
function drawAbandon() {
  const table = S.table;
  const open = table.status === "playing" ? table.abandon : null;
  if (!open) {
    els.abandon.replaceChildren();
    els.abandon.hidden = true;
  } else {
    const nameMap = names();
    const who = (seats) => seatLinks(table, seats, nameMap);
    const mine = mayVoteToAbandon();
    const buttons = [];
    if (mine && open.waiting.includes(S.seat)) {
      buttons.push(
        h("button", { type: "button", class: "primary small-btn", "data-testid": "abandon-yes", onclick: () => voteToAbandon("yes") },
          t("table.abandon_yes")),
        h("button", { type: "button", class: "secondary small-btn", "data-testid": "abandon-no", onclick: () => voteToAbandon("no") },
          t("table.abandon_no")));
    } else if (mine && open.yes.includes(S.seat)) {
      buttons.push(h("button", {
        type: "button", class: "ghost small-btn", "data-testid": "abandon-withdraw", onclick: () => voteToAbandon("no"),
        "aria-label": t("table.abandon_withdraw_label"),
      }, t("table.abandon_withdraw")));
    }
    mountIfChanged(els.abandon, h("div", { class: "abandon-inner" },
      h("p", { class: "abandon-title" },
        open.by === S.seat && !isSpectator()
          ? t("table.abandon_open_you") : tParts("table.abandon_open", { name: seatLink(table, open.by, nameMap) })),
      h("p", { class: "abandon-votes small" },
        h("span", { "data-testid": "abandon-agreed" }, tParts("table.abandon_agreed", { names: who(open.yes) })),
        " ",
        open.waiting.length
          ? h("span", { "data-testid": "abandon-waiting" }, tParts("table.abandon_waiting", { names: who(open.waiting) }))
          : null),
      buttons.length ? h("div", { class: "row" }, buttons) : null));
    els.abandon.hidden = false;
  }
  // The quiet way in: under the seats, for those who may propose while none is open.
  const offer = mayVoteToAbandon() && !open;
  els.abandonOffer.hidden = !offer;
  if (offer) {
    mountIfChanged(els.abandonOffer, h("button", {
      type: "button", class: "ghost small-btn", "data-testid": "abandon-propose", onclick: proposeToAbandon,
    }, t("table.abandon_propose")));
  } else {
    els.abandonOffer.replaceChildren();
  }
}

function drawPrestart() {
  const table = S.table;
  if (table.status !== "open") {
    els.prestart.hidden = true;
    return;
  }
  els.prestart.hidden = false;
  const missing = table.seats.filter((s) => !s.user && !s.bot).length;
  let line;
  if (missing === 1) line = t("table.waiting_one");
  else if (missing > 1) line = t("table.waiting_many", { n: missing });
  else line = table.is_host ? t("table.ready_host") : t("table.waiting_host");
  mount(els.prestart,
    h("p", { class: "waiting", "data-testid": "waiting" }, line),
    table.invite_code ? inviteBox(table.id, table.invite_code, () => hostCall("invite")) : null,
    h("div", { class: "row" },
      table.is_host ? h("button", {
        type: "button",
        class: "primary",
        disabled: missing > 0,
        "data-testid": "start",
        onclick: () => hostCall("start"),
      }, t("table.start")) : null,
      !isSpectator() ? h("button", { type: "button", class: "ghost", onclick: () => hostCall("leave") }, t("table.leave")) : null));
}

function placeLabel(index) {
  return `${index + 1}.`;
}

function detailRows(details, seat) {
  const entry = details && details[seat];
  if (!entry || typeof entry !== "object") return null;
  // The game's renderer knows what its details mean, and says it in the player's language.
  const describe = S.renderer?.module?.describeDetails;
  if (typeof describe === "function") {
    const line = describe(entry, ctx());
    return line ? h("div", { class: "muted small" }, line) : null;
  }
  const parts = Object.entries(entry)
    .filter(([, value]) => typeof value === "number" || typeof value === "string" || value === true)
    .map(([key, value]) => (value === true ? key.replace(/[_-]+/g, " ") : `${key.replace(/[_-]+/g, " ")}: ${value}`));
  return parts.length ? h("div", { class: "muted small" }, parts.join(" · ")) : null;
}

function drawResult() {
  const table = S.table;
  const outcome = table.outcome;
  if (table.status === "finished" && table.abandoned) {
    drawAbandoned();
    return;
  }
  if (table.status !== "finished" || !outcome) {
    els.result.hidden = true;
    return;
  }
  els.result.hidden = false;
  const nameMap = names();
  const scores = outcome.scores || {};
  const winners = outcome.winners || [];
  // Each person's rating change beside their result, once the server has rated the game (just after its end).
  const ratings = table.ratings || null;
  const rows = [];
  let place = 0;
  for (const group of outcome.ranking || []) {
    for (const seat of group) {
      const rating = ratings && ratings[seat];
      rows.push(h("tr", { class: winners.includes(seat) ? "winner" : null, "data-seat": seat },
        h("td", null, placeLabel(place)),
        h("td", null, seatLink(table, seat, nameMap),
          winners.includes(seat) ? h("span", { class: "tag win" }, t("table.winner")) : null,
          detailRows(outcome.details, seat)),
        h("td", { class: "num" }, scores[seat] !== undefined ? String(scores[seat]) : ""),
        // Not "num" (what a score cell is found by), though aligned the same.
        ratings ? h("td", { class: "rating-cell", "data-testid": "rating-change" },
          rating ? [ratingBadge(rating), h("span", { class: "rating-after muted small" }, String(rating.after))] : "") : null));
    }
    place += group.length;
  }
  mount(els.result,
    h("h2", null, t("table.result")),
    winners.length ? h("p", { class: "winners" }, `${t(winners.length > 1 ? "table.winners" : "table.winner")}: `,
      h("strong", null, seatLinks(table, winners, nameMap))) : null,
    h("table", { class: "ranking", "data-testid": "ranking" },
      h("thead", null, h("tr", null, h("th", null, t("table.place")), h("th", null, t("table.player")), h("th", { class: "num" }, t("table.score")),
        ratings ? h("th", { class: "rating-cell" }, t("table.rating")) : null)),
      h("tbody", null, rows)),
    ratingNote(table),
    resultActions(table));
}

/**
 * Why a finished game has no rating changes (yet): the server rates it just after the end, or it is not rated (the
 * first reason that applies); or, once rated, why a guest's row has none. Null when there is nothing to explain.
 */
function ratingNote(table) {
  const people = table.seats.filter((s) => s.user);
  let key = null;
  if (table.ratings) {
    if (people.some((s) => s.guest && !table.ratings[s.seat])) key = "table.guests_not_rated";
  } else if (table.rated) {
    key = "table.rating_pending";
  } else if (table.time_control && table.time_control.timeout !== "loss") {
    key = "table.unrated_clock";
  } else if (table.visibility === "private") {
    key = "table.unrated_private";
  } else if (people.length < 2) {
    key = "table.unrated_few";
  } else if (people.filter((s) => !s.guest).length < 2) {
    key = "table.unrated_guests";
  } else {
    key = "table.unrated_old";
  }
  return key ? h("p", { class: "muted small rating-note", "data-testid": "rating-note" }, t(key)) : null;
}

/** The end of a game its players agreed to abandon: no winner, no ranking; they may still play again or watch it. */
function drawAbandoned() {
  els.result.hidden = false;
  els.result.dataset.abandoned = "true";
  mount(els.result,
    h("h2", null, t("table.abandoned")),
    h("p", null, t("table.abandoned_text")),
    resultActions(S.table));
}

function resultActions(table) {
  return h("div", { class: "result-actions" },
    rematchControl(table),
    h("a", {
      class: "button secondary",
      href: `/t/${encodeURIComponent(table.id)}${query({ replay: 0, invite })}`,
      "data-testid": "replay-link",
    }, t("table.replay")));
}

/** Play again: the players open (or join) the rematch; watchers of a public table may follow it. */
function rematchControl(table) {
  if (isSpectator()) {
    if (!table.rematch_id || table.visibility !== "public") return null;
    return h("a", { class: "button", href: `/t/${encodeURIComponent(table.rematch_id)}`, "data-testid": "rematch" },
      t("table.rematch_watch"));
  }
  const go = async (event) => {
    event.currentTarget.disabled = true;
    try {
      const next = await api("POST", `${tablePath()}/rematch`);
      location.assign(`/t/${encodeURIComponent(next.id)}${query({ invite: next.invite_code })}`);
    } catch (error) {
      toast(errorMessage(error), "error");
      drawResult();
    }
  };
  return h("button", { type: "button", class: "primary", onclick: go, "data-testid": "rematch" },
    t(table.rematch_id ? "table.rematch_join" : "table.rematch"));
}

function drawGame() {
  const table = S.table;
  const hide = !table || table.status === "open" || !S.view;
  els.game.hidden = els.gameTitle.hidden = hide;
  els.layout.classList.toggle("no-game", hide);
  const loaded = S.renderer;
  if (hide || !loaded?.module) showPrompt(null);
  if (hide) return;
  if (!loaded) {
    mount(els.game, h("p", { class: "muted" }, t("table.loading")));
    return;
  }
  if (!loaded.module) {
    mount(els.game, h("p", { class: "no-renderer", "data-testid": "no-renderer" },
      loaded.missing ? t("table.no_renderer") : t("table.renderer_failed")));
    return;
  }
  els.game.classList.toggle("spectating", isSpectator());
  try {
    const moved = S.lastMoveEvents !== drawnMove;
    drawnMove = S.lastMoveEvents;
    // A move's cards glide from where they were to where they are now; any other redraw leaves them be.
    glide(moved, () => loaded.module.render(els.game, S.view, ctx()));
  } catch (error) {
    console.error("render failed", error);
    showPrompt(null);
    mount(els.game, h("p", { class: "no-renderer" }, t("table.renderer_failed")));
  }
}

// ---- cards that move -------------------------------------------------------------------------------------------

let drawnMove = null; // the move whose effects the game area shows: a redraw for the same one animates nothing

/**
 * Draw with `render`; when `moved`, each card (`data-card`) drawn both before and after, once each, that changed place
 * slides from its old place to its new one (250 ms, the Web Animations API: no style attribute is written), so a
 * rival's card taken from the market is seen travelling to their board. Nothing moves for someone who prefers reduced
 * motion, nor a card whose id is drawn twice (which of them went where is not known).
 */
function glide(moved, render) {
  if (!moved || matchMedia("(prefers-reduced-motion: reduce)").matches) {
    render();
    return;
  }
  const places = (root) => {
    const found = new Map();
    for (const el of root.querySelectorAll("[data-card]")) {
      const id = el.dataset.card;
      found.set(id, found.has(id) ? null : el);
    }
    return found;
  };
  const before = new Map();
  for (const [id, el] of places(els.game)) before.set(id, el && el.getBoundingClientRect());
  render();
  for (const [id, el] of places(els.game)) {
    const was = before.get(id);
    if (!el || !was || typeof el.animate !== "function") continue;
    const now = el.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 250, easing: "ease-out" });
  }
}

// ---- the instruction and its targets ---------------------------------------------------------------------------

/** The instruction the player last had brought to their eyes: its words and the moves it offered. */
let revealedFor = null;

/** ctx.prompt: the renderer's instruction (or null) into the sticky turn bar, then its targets into sight. */
function showPrompt(node) {
  if (!els.prompt) return;
  if (node) mount(els.prompt, node);
  else els.prompt.replaceChildren();
  els.prompt.hidden = !node;
  // The renderer mounts its area after handing over the instruction: look for the targets once it has.
  queueMicrotask(revealTarget);
}

/** Whether `el` is on screen, below the sticky bar that may cover the top of the page. */
function inSight(el, top) {
  const r = el.getBoundingClientRect();
  return r.top >= top - 1 && r.bottom <= innerHeight + 1 && r.right > 0 && r.left < innerWidth;
}

/**
 * When it becomes the player's turn, and after each step of a decision (a new instruction, or new moves offered),
 * the first target of the instruction is scrolled into sight unless one is in sight already. The targets are the
 * game area's legal pieces, those the renderer marks `data-reveal` first (the ones its instruction names: the hand
 * to lead from, the empty spaces of the section chosen); a piece already chosen (`.selected`) is not one. Nothing
 * moves while the instruction stays the same, so a player who scrolls away to look at a rival is left there.
 */
function revealTarget() {
  if (!isMyTurn() || standingIn() || els.game.hidden) {
    revealedFor = null;
    return;
  }
  const key = `${els.prompt.textContent}|${JSON.stringify(S.actions)}`;
  if (key === revealedFor) return;
  // Someone typing in the chat keeps their place.
  const typing = document.activeElement?.matches?.("input, textarea") && !els.game.contains(document.activeElement);
  if (typing) return;
  const boxed = (el) => el.getClientRects().length > 0;
  const marked = [...els.game.querySelectorAll(".legal[data-reveal], [data-reveal] .legal")].filter(boxed);
  const targets = marked.length ? marked : [...els.game.querySelectorAll(".legal:not(.selected)")].filter(boxed);
  if (!targets.length) return; // the renderer may still be drawing; the next draw looks again
  revealedFor = key;
  // A target still gliding to its place (a card just dealt) is measured where it will be, not where it passes.
  for (const el of targets) for (const animation of el.getAnimations?.() ?? []) animation.finish();
  const top = els.bar.getBoundingClientRect().bottom;
  if (targets.some((el) => inSight(el, top))) return;
  // Under the bar, not behind it: the page scrolls so the target sits in the middle of what is left of the screen.
  const r = targets[0].getBoundingClientRect();
  const middle = top + (innerHeight - top) / 2;
  scrollBy({ top: r.top + r.height / 2 - middle, behavior: "instant" });
}

function drawAll() {
  if (!S.table) return;
  // Before anything is drawn: the names below (and those drawn already) open profiles beside a game the viewer plays.
  openProfilesBeside(playingHere());
  // Exposed for tests and tools that need to know when a move landed.
  els.main.dataset.version = String(S.version ?? S.table.version ?? "");
  els.main.dataset.draft = String(S.draft || 0);
  els.main.dataset.status = S.table.status;
  drawHead();
  drawConn();
  drawBanner();
  drawTurn();
  drawPrestart();
  drawResult();
  drawSeats();
  drawAbandon();
  drawTakeback();
  drawGame();
  drawSignInTitle();
  chatPanel.setHost(S.table.is_host === true);
  chatPanel.setMode(S.table.chat_mode);
  els.seatsTitle.textContent = t("table.seats");
  els.logTitle.textContent = t("table.log");
  els.gameTitle.textContent = t("table.game");
}

// ---- log -------------------------------------------------------------------

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
      // Moves and lobby changes (seats, bots, votes, renames) in the order of the versions they made, so a
      // reloaded log reads as the live one did.
      const lobby = answer.lobby || [];
      const entries = [
        ...lobby.map((entry) => ({ version: entry.version, lines: () => linesForEvents(S.renderer?.module, entry.events, c) })),
        ...(answer.moves || []).map((move) => ({ version: move.version, lines: () => linesForMove(S.renderer?.module, move, c) })),
      ].sort((a, b) => a.version - b.version);
      // Tables older than the lobby log have no stored start or end: say them here.
      const told = (type) => lobby.some((entry) => entry.events.some((event) => event.type === type));
      const started = S.table && S.table.status !== "open" && !told("game_started") ? [t("log.started")] : [];
      const ended = S.table && S.table.abandoned && !told("abandoned") ? [t("log.abandoned")] : [];
      logPanel.reset([...started, ...entries.flatMap((entry) => entry.lines()), ...ended]);
      if (!sinceTold) {
        sinceTold = true;
        const fresh = seenBefore === null ? [] : entries.filter((entry) => entry.version > seenBefore);
        drawSince(fresh.flatMap((entry) => entry.lines()));
      }
      const moves = answer.moves || [];
      const lastEvents = moves.length ? moves[moves.length - 1].events || [] : [];
      if (lastEvents.length && JSON.stringify(lastEvents) !== JSON.stringify(S.lastMoveEvents)) {
        // A finished game's end screen may draw what its last move left (Food Truck's last round).
        S.lastMoveEvents = lastEvents;
        drawGame();
      }
      break;
    }
  } catch (error) {
    console.warn("move log unavailable", error);
  } finally {
    if (epoch === logEpoch) logLoading = false;
  }
}

// ---- socket messages -----------------------------------------------------------

function applyMessage(message) {
  const wasSeated = !isSpectator();
  const seatBefore = S.seat;
  if (message.table) S.table = message.table;
  // An update without its table is a move: the table changed just now.
  if (message.table) noteIdle(message.table);
  else if (message.type === "update") S.idleSince = Date.now();
  if (typeof message.version === "number") S.version = message.version;
  if ("view" in message) {
    S.view = message.view;
    const key = JSON.stringify(message.view);
    // A move changes the view; an update about seats, stand-ins or votes leaves it as it was (and the marks too).
    if (message.type === "update" && S.viewKey !== null && key !== S.viewKey) S.lastMoveEvents = Array.isArray(message.events) ? message.events : [];
    S.viewKey = key;
  }
  if (Array.isArray(message.actions)) S.actions = message.actions;
  if (Array.isArray(message.awaiting)) S.awaiting = message.awaiting;
  else if (S.table && Array.isArray(S.table.awaiting)) S.awaiting = S.table.awaiting;
  if ("seat" in message) S.seat = message.seat;
  else if (S.table && "my_seat" in S.table) S.seat = S.table.my_seat;
  S.events = Array.isArray(message.events) ? message.events : [];
  S.undo = message.undo === true;
  // How many of our own secret steps are drafts (shown to us alone; no version of their own).
  if (message.type !== "presence") S.draft = typeof message.draft === "number" ? message.draft : 0;
  // The host removed this person (one who pressed Leave knows it already).
  const kicked = S.events.some((e) => e.type === "seat_left" && e.kicked && e.seat === seatBefore);
  if (wasSeated && isSpectator() && S.table?.status === "open" && kicked) toast(t("table.kicked"), "info");
}

/** A "no" ended the proposal to abandon: the players who wanted to stop hear it at once, not only from the log. */
function toastDeclined() {
  const declined = S.events.find((event) => event && event.type === "abandon_declined");
  // The one who said no knows it; a spectator had no say and has the log line.
  if (!declined || isSpectator() || String(declined.seat) === String(S.seat)) return;
  const name = declined.name || names()[declined.seat] || declined.seat;
  toast(t(declined.withdrawn ? "table.abandon_withdrawn_toast" : "table.abandon_declined_toast", { name }), "info");
}

function onMessage(message) {
  chatPanel.onMessage(message);
  if (message.type === "snapshot" || message.type === "update") clocks.update(message);
  if (message.type === "snapshot") {
    applyMessage(message);
    drawAll();
    reloadLog();
    noteSeen();
  } else if (message.type === "draft") {
    const draftsBefore = S.draft;
    applyMessage(message);
    // A draft taken back: the log is read again without it (drafts are in it once a move carries them).
    if (S.draft < draftsBefore) reloadLog();
    else if (logLoading) updatesDuringLog += 1;
    else logPanel.append(linesForEvents(S.renderer?.module, S.events, ctx()));
    drawAll();
  } else if (message.type === "update") {
    const myTurnBefore = isMyTurn();
    applyMessage(message);
    if (!myTurnBefore && isMyTurn()) {
      if (lookingElsewhere()) ring();
      notifyTurn(me()?.id, S.table.name || S.gameTitle || S.table.game, `turn:${tableId}`);
    }
    const undone = S.events.find((event) => event && (event.type === "undone" || event.type === "taken_back"));
    if (undone) {
      // The step is gone from the game: the log is read again without it.
      if (undone.type === "undone" && String(undone.seat) !== String(S.seat)) {
        toast(t("log.undone", { name: names()[undone.seat] ?? undone.seat }), "info");
      }
      reloadLog();
    } else if (logLoading) updatesDuringLog += 1;
    else logPanel.append(linesForEvents(S.renderer?.module, S.events, ctx()));
    toastDeclined();
    drawAll();
    noteSeen();
  } else if (message.type === "presence") {
    if (Array.isArray(message.online) && typeof message.watching === "number") {
      const online = message.online.map(String);
      // Watchers coming and going leave the seat rows (and a button under the pointer) as they are.
      const seatsChanged = !S.presence || S.presence.online.join() !== online.join();
      const watchers = Array.isArray(message.watchers) ? message.watchers.filter((w) => w && w.id && w.name) : [];
      S.presence = { online, watching: message.watching, watchers };
      if (S.table && seatsChanged) {
        // Who is connected decides how long a waited-on seat must wait before others may call a bot.
        drawSeats();
        drawTurn();
      } else if (S.table) drawWatching();
    }
  } else if (message.type === "error" && message.code === "access_lost") {
    // Kicked from a private table's seat (or no longer its host): the server closes the socket for good.
    socket.stop();
    showMessage(t("table.access_lost"));
  } else if (message.type === "error") {
    toast(errorText(message.code, message.message) || t("errors.generic"), "error");
    // Redraw from the last known state so nothing the renderer tentatively changed sticks.
    drawGame();
    if (/version|stale|conflict/i.test(String(message.code || ""))) socket.resync();
  }
}

function onStatus(status, info) {
  if (status === "closed" && info.signedOut && signedInHere) {
    showSignedOut(info.refusal);
    return;
  }
  S.conn = { status, info };
  if (els.conn) drawConn();
  if (status !== "online" && S.presence) {
    // Not connected, we do not know who is: the dots say nothing until the server tells us again.
    S.presence = null;
    if (S.table && els.seats) drawSeats();
  }
}

// ---- start ---------------------------------------------------------------------

let rendererReady = Promise.resolve();

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
  els.gameTitle = h("h2", { class: "sr-only", hidden: true }, t("table.game"));
  els.seats = h("ul", { class: "seats", "data-testid": "seats" });
  els.seatsTitle = h("h2", null, t("table.seats"));
  els.watching = h("span", { class: "watching muted small", "data-testid": "watching", hidden: true });
  els.watchers = h("div", { class: "watchers small", "data-testid": "watchers", hidden: true });
  logPanel = new LogPanel();
  els.logTitle = h("h2", null, t("table.log"));
  // A change of the host's muted list redraws the Mute buttons by the watchers.
  chatPanel = new ChatPanel({ tableId, invite, socket: () => socket, signIn: openSignIn,
    onMutes: () => { if (S.table && els.watchers) drawWatchers(); } });
  mount(els.main,
    // The turn line and the chat's "new in chat" button share the bar that stays in sight: the button covers
    // nothing of the game (on a phone a corner button sat on the board until the chat was read).
    // The instruction and its buttons ride in the same bar, under the turn line.
    els.head, els.banner, els.bar = h("div", { class: "table-bar" }, h("div", { class: "table-bar-main" }, els.turn, els.prompt),
      chatPanel.jump), els.turnNote, els.since, els.abandon, els.takeback, els.result,
    els.prestart,
    els.layout = h("div", { class: "table-layout" },
      els.gameTitle,
      els.game,
      h("aside", { class: "sidebar" },
        h("section", { class: "panel" }, h("div", { class: "seats-head" }, els.seatsTitle, els.watching), els.seats,
          els.watchers, els.abandonOffer, els.takebackOffer),
        chatPanel.el,
        h("section", { class: "panel log" }, els.logTitle, logPanel.el))));
}

/** The sign-in fold's title and form, in the page's language. */
function fillSignIn() {
  els.signInTitle = h("summary");
  drawSignInTitle();
  mount(els.signIn, els.signInTitle, signInForm(() => location.reload()));
}

/** "Sign in to play" while seats may be taken, "Sign in to chat" once the game has started. */
function drawSignInTitle() {
  if (els.signInTitle) els.signInTitle.textContent = t(S.table.status === "open" ? "auth.title" : "auth.title_chat");
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
  S.table = table;
  noteIdle(table);
  S.seat = table.my_seat ?? null;
  seenBefore = readSeen();
  document.addEventListener("visibilitychange", noteSeen);
  renderHeader(els.header, { onChange: () => location.reload(), nav: headerNav() }); // Leaderboards: this game's
  S.awaiting = table.awaiting || [];
  rendererReady = loadRenderer(table.game).then((loaded) => {
    S.renderer = loaded;
    drawResult(); // the renderer describes the result's details
    drawGame();
  });
  api("GET", "/api/games").then((games) => {
    const game = (games || []).find((g) => g.id === table.game);
    if (game) {
      S.gameTitle = game.title;
      S.game = game;
      drawHead();
    }
  }).catch(() => {});
  skeleton();
  if (!me()) {
    // A visitor who is not signed in can watch; signing in (one field) lets them take a seat, or once the game
    // has started, chat (the chat panel's "Sign in" opens this).
    els.signIn = h("details", { class: "panel signin-inline", "data-testid": "signin-inline" });
    fillSignIn();
    els.banner.after(els.signIn);
  }
  drawAll();
  socket = new TableSocket({ tableId, invite, onMessage, onStatus, checkSession });
  socket.start();
  // A handle for the console and the browser tests: the same path a renderer's clicks take.
  /** @type {any} */ (window).foodGames = {
    send, state: () => S, pending: () => socket.pending.size, connected: () => socket.ws?.readyState === WebSocket.OPEN,
    chimes: chimesRung, notifications: notificationsShown,
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
    drawAll();
    if (S.table) reloadLog();
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
