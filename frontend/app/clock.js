// Game clocks in the browser. The server keeps the clocks and decides timeouts; each table answer, snapshot and update
// carries each seat's milliseconds left as of the server's `now` (epoch ms). The browser counts down from those
// figures on the server's time, which it estimates as its own clock plus an offset: the largest of `now - received at`
// over the recent messages (a message late in transit gives a smaller one), so a browser whose clock is minutes off
// still shows what the server will decide. Every figure shown is computed afresh from `Date.now()`, never by adding
// up ticks, so a clock does not drift however long the page stays open.

import { h } from "../lib/dom.js";
import { t } from "./i18n.js";

const SAMPLES = 20; // offsets kept (one per message)
const TICK_MS = 250;

/**
 * The server's time minus this browser's, estimated from `(server now, received at)` samples: the largest, since
 * every sample falls short of the true offset by its message's time in transit.
 * @param {Array<[number, number]>} samples
 */
export function estimateOffset(samples) {
  let best = -Infinity;
  for (const [serverNow, receivedAt] of samples) best = Math.max(best, serverNow - receivedAt);
  return Number.isFinite(best) ? best : 0;
}

/**
 * A seat's milliseconds left at local time `at`: its figure as of the server's `serverNow`, less the server time
 * passed since (local time plus `offset`) while its clock runs.
 * @param {{left: number, running: boolean}} seatClock
 * @param {number} serverNow
 * @param {number} offset
 * @param {number} at
 */
export function leftAt(seatClock, serverNow, offset, at) {
  if (!seatClock.running) return Math.max(0, seatClock.left);
  return Math.max(0, seatClock.left - Math.max(0, at + offset - serverNow));
}

/** "4:07" under an hour, "2:04:07" under a day, "3d 4h" beyond. @param {number} ms */
export function formatLeft(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days) return `${days}d ${hours}h`;
  if (hours) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/** A duration in seconds in short words: "10 s", "5 min", "1 h 30 min", "3 d". @param {number} seconds */
export function shortDuration(seconds) {
  const parts = [];
  let rest = Math.max(0, Math.round(seconds));
  /** @type {Array<[string, number]>} */
  const units = [["d", 86400], ["h", 3600], ["min", 60], ["s", 1]];
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n} ${unit}`);
    rest -= n * size;
  }
  return parts.join(" ") || "0 s";
}

/**
 * The time control in words for the lobby and the table: "10 min + 10 s a turn", "1 d a turn, 2 h bank", and what a
 * timeout does unless `short`.
 */
export function describeTimeControl(tc, { short = false } = {}) {
  if (!tc) return t("clock.none");
  const what = tc.kind === "realtime"
    ? t("clock.realtime_is", { base: shortDuration(tc.base), increment: shortDuration(tc.increment) })
    : t("clock.turn_is", { per_move: shortDuration(tc.per_move), bank: shortDuration(tc.bank) });
  return short ? `⏱ ${what}` : `${what} · ${t(tc.timeout === "loss" ? "clock.on_timeout_loss" : "clock.on_timeout_bot")}`;
}

/**
 * The person's own time left at a clocked table of a list (ms at local time `at`), null without a running clock of
 * theirs. `receivedAt`: when the list arrived.
 */
export function myTimeLeft(table, receivedAt, at) {
  const seat = table.my_seat;
  const mine = table.clock && seat !== null && seat !== undefined ? table.clock.seats[seat] : null;
  if (!mine || !mine.running || typeof table.now !== "number") return null;
  return leftAt(mine, table.now, table.now - receivedAt, at);
}

/**
 * The clocks of one table page: a node per seat (kept across redraws of the seat list) showing its time, ticking
 * while it runs, marked low under the server's threshold and "out of time" for a seat that timed out.
 */
export class ClockBoard {
  /**
   * @param {{mine?: () => string | null, onLow?: () => void}} [hooks] `mine`: the viewer's seat, whose clock going low
   *   calls `onLow` once per turn
   */
  constructor(hooks = {}) {
    this.hooks = hooks;
    this.warned = false; // onLow was called for the viewer's running turn
    /** @type {Map<string, HTMLElement>} */
    this.nodes = new Map();
    /** @type {Array<[number, number]>} */
    this.samples = [];
    /** @type {any} */
    this.clock = null;
    this.serverNow = 0;
    /** @type {any} */
    this.timer = null;
  }

  /** Take the clocks of a snapshot, update or table answer (a message without them leaves the last ones). */
  update(message) {
    const table = message.table;
    if (table && !table.time_control) this.clock = null;
    const clock = message.clock ?? table?.clock;
    const now = message.now ?? table?.now;
    if (clock && typeof now === "number") {
      this.samples.push([now, Date.now()]);
      if (this.samples.length > SAMPLES) this.samples.shift();
      this.clock = clock;
      this.serverNow = now;
    }
    this.tick();
  }

  offset() {
    return estimateOffset(this.samples);
  }

  /** The seat's clock node, to place in its row (the same node every time). @param {string} seat */
  seatNode(seat) {
    let node = this.nodes.get(seat);
    if (!node) {
      node = h("span", { class: "seat-clock", "data-testid": "seat-clock", "data-seat": seat, hidden: true });
      this.nodes.set(seat, node);
    }
    return node;
  }

  /** Redraw every seat's time; keep ticking while one runs. */
  tick() {
    const clock = this.clock;
    const at = Date.now();
    let running = false;
    for (const [seat, node] of this.nodes) {
      const mine = clock ? clock.seats[seat] : null;
      const out = Boolean(clock && clock.timed_out.includes(seat));
      node.hidden = !mine && !out;
      if (node.hidden) continue;
      const left = mine ? leftAt(mine, this.serverNow, this.offset(), at) : 0;
      const text = out ? t("clock.timed_out") : formatLeft(left);
      if (node.textContent !== text) node.textContent = text;
      const low = Boolean(mine && mine.running && left < clock.low);
      node.classList.toggle("running", Boolean(mine && mine.running));
      node.classList.toggle("low", low || out);
      const title = mine && mine.bank !== undefined ? t("clock.bank_left", { bank: formatLeft(mine.bank) }) : "";
      if (node.title !== title) node.title = title;
      node.dataset.left = String(Math.round(left));
      running = running || Boolean(mine && mine.running);
      if (this.hooks.mine && seat === this.hooks.mine()) {
        if (low && !this.warned) this.hooks.onLow?.();
        this.warned = Boolean(mine && mine.running) && (this.warned || low);
      }
    }
    if (running && this.timer === null) this.timer = setInterval(() => this.tick(), TICK_MS);
    else if (!running && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
