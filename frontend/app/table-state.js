// What the table page knows, as one store's state, and the questions the panels ask of it. Every function here reads
// the state it is given (never a module's variable), so a panel's answer depends only on its inputs.

import { Store } from "./store.js";
import { seatNames } from "./ui.js";

/**
 * @typedef {object} TableState
 * @property {any} table the table JSON (GET /api/tables/{id}, or the socket's snapshot): replaced, never changed
 * @property {string|null} seat the viewer's seat, null for a spectator
 * @property {any} view the game's view for this viewer
 * @property {any[]} actions the viewer's legal actions
 * @property {string[]} awaiting the seats whose input is awaited
 * @property {any[]} events the events of the last message
 * @property {any[]} lastMoveEvents the events of the game's last move (what renderers mark on the board)
 * @property {boolean} undo the server lets this seat take back its last step
 * @property {number|null} version the table's version
 * @property {number} draft how many of this seat's secret steps are drafts
 * @property {any} game the game's lobby entry (its title and options' names)
 * @property {{module: any, missing?: boolean, error?: any}|null} renderer the game's renderer once loaded
 * @property {{status: string, info: any}} conn the socket's status
 * @property {number} idleSince when the running table last changed, by this browser's clock
 * @property {number} idleTick a count raised when a waited-on seat's "Let a bot play" falls due
 * @property {{online: string[], watching: number, watchers: {id: string, name: string}[]}|null} presence who is here
 * @property {any[]} log the log's lines, oldest first: a new array when lines are added (the old ones kept) or all
 *   are read again
 * @property {any[]|null} since "since you last looked": the lines to tell, null when there is nothing (or it closed)
 * @property {number} mutes a count raised when the host's list of muted people changed
 * @property {boolean} chime the turn chime is on
 * @property {boolean} notify turn notifications are on
 * @property {string} lang the page's language
 */

/**
 * A fresh store for a table page.
 * @param {string} lang
 * @returns {Store<TableState>}
 */
export function tableStore(lang) {
  return new Store(/** @type {TableState} */ ({
    table: null, seat: null, view: null, actions: [], awaiting: [], events: [], lastMoveEvents: [], undo: false,
    version: null, draft: 0, game: null, renderer: null, conn: { status: "connecting", info: {} },
    idleSince: Date.now(), idleTick: 0, presence: null, log: [], since: null, mutes: 0, chime: true, notify: false, lang,
  }));
}

/** @param {TableState} s */
export function isSpectator(s) {
  return s.seat === null || s.seat === undefined;
}

/** @param {TableState} s */
export function names(s) {
  return s.table ? seatNames(s.table) : {};
}

/** {seat: {id, name}} for every seat a person holds (a bot's own seat has none): the log links their names. */
export function people(s) {
  const out = {};
  for (const entry of s.table ? s.table.seats : []) if (entry.user) out[entry.seat] = entry.user;
  return out;
}

/** Whether this page is a game its viewer plays (open or running): following a name must not leave it. */
export function playingHere(s) {
  return !isSpectator(s) && ["open", "playing"].includes(s.table?.status);
}

export function isMyTurn(s) {
  return s.table?.status === "playing" && !isSpectator(s) && s.awaiting.includes(s.seat);
}

/** A bot plays the viewer's seat while they are away. */
export function standingIn(s) {
  const entry = !isSpectator(s) && s.table?.seats.find((e) => e.seat === s.seat);
  return Boolean(entry && entry.bot && entry.user);
}

/** "online" or "away" for a person's seat in an open or running game (a bot playing for them shows them too). */
export function presenceOf(s, entry) {
  if (!s.presence || !entry.user || !["open", "playing"].includes(s.table.status)) return null;
  return s.presence.online.includes(entry.seat) ? "online" : "away";
}

/**
 * Seconds the game must wait on `entry`'s seat before any other player may hand it to a bot: longer while its
 * player is connected (thinking, perhaps). Unknown presence counts as away; the server has the last word.
 */
export function standInAfter(s, entry) {
  const table = s.table;
  const online = typeof table.stand_in_after_online === "number" && presenceOf(s, entry) === "online";
  return online ? table.stand_in_after_online : table.stand_in_after;
}

/**
 * Whether this player may hand `entry`'s seat to a bot in `ms` milliseconds, though neither the seat's player
 * nor the host: the game has waited on that seat alone, with no change, for the server's `stand_in_after`.
 */
export function mayCallBotFor(s, entry, ms) {
  const table = s.table;
  if (isSpectator(s) || table.status !== "playing" || typeof table.stand_in_after !== "number") return false;
  if (!entry.user || entry.bot || entry.seat === s.seat || !s.awaiting.includes(entry.seat)) return false;
  return Date.now() + ms - s.idleSince >= standInAfter(s, entry) * 1000;
}

/** Whether this person has a say on abandoning the running game: seated, and playing their seat themselves. */
export function mayVoteToAbandon(s) {
  return !isSpectator(s) && s.table.status === "playing" && !standingIn(s);
}

/**
 * `previous` when `next` holds the same (compared as JSON), else `next`: a message that repeats a slice keeps the
 * value the panels already drew, so they see no change.
 */
export function keepSame(previous, next) {
  if (previous === next || previous === null || previous === undefined) return next;
  return JSON.stringify(previous) === JSON.stringify(next) ? previous : next;
}
