// The game log: plain-word lines from engine events (renderer's describeEvent) with generic fallbacks; the names of
// the people in them link to their profiles.

import { h } from "../lib/dom.js";
import { t, tParts } from "./i18n.js";
import { signedChange, personLink } from "./ui.js";

// Table-level events the server may emit besides the engine's own.
const SHELL_EVENTS = {
  seat_joined: "log.joined",
  player_joined: "log.joined",
  joined: "log.joined",
  seat_left: "log.left",
  player_left: "log.left",
  left: "log.left",
  game_started: "log.started",
  started: "log.started",
  rematch: "log.rematch",
  stand_in: "log.stand_in",
  reclaimed: "log.reclaimed",
  host_changed: "log.host_changed",
  abandon_proposed: "log.abandon_proposed",
  abandon_agreed: "log.abandon_agreed",
  abandon_declined: "log.abandon_declined",
  abandoned: "log.abandoned",
  takeback_asked: "log.takeback_asked",
  takeback_agreed: "log.takeback_agreed",
  takeback_declined: "log.takeback_declined",
  taken_back: "log.taken_back",
  renamed: "log.renamed",
  registered: "log.registered",
  rated: "log.rated",
  not_rated: "log.not_rated",
  invite_changed: "log.invite_changed",
  chat_mode: "log.chat_mode",
  timeout: "log.timeout_bot",
};

function actorOf(event) {
  for (const key of ["seat", "player", "by", "actor"]) {
    const value = event[key];
    if (typeof value === "string" || typeof value === "number") return String(value);
  }
  return null;
}

function humanType(type) {
  return String(type ?? "?").replace(/[_-]+/g, " ");
}

/**
 * `shown`, the name a line gives the person of `seat`, as a link to their profile when it is theirs. `ctx.people` is
 * the table of now ({seat: {id, name}}, persons only): a line of earlier times links only where the seat's person
 * of now bears the name it shows, since before the start a seat may have changed hands (and a bot has no profile).
 */
function nameAt(ctx, seat, shown) {
  const person = seat !== null && seat !== undefined ? ctx.people?.[String(seat)] : null;
  return person && shown === person.name ? personLink(person, shown) : shown;
}

/**
 * A name that comes without its seat or id (who asked for a stand-in, in an event stored before it carried their id),
 * linked when exactly one person at the table bears it.
 */
function nameOnly(ctx, shown) {
  const bearers = Object.values(ctx.people || {}).filter((person) => person.name === shown);
  const host = ctx.host && ctx.host.name === shown && !bearers.some((p) => p.id === ctx.host.id) ? [ctx.host] : [];
  const all = [...bearers, ...host];
  return all.length === 1 ? personLink(all[0], shown) : shown;
}

/** The seats an engine's event speaks of: its fields' values (and a map's keys) that are seats of persons. */
function seatsIn(event, ctx) {
  const people = ctx.people || {};
  const found = new Set();
  const note = (value) => {
    if ((typeof value === "string" || typeof value === "number") && String(value) in people) found.add(String(value));
  };
  for (const [key, value] of Object.entries(event)) {
    if (key === "visible_to" || key === "type") continue;
    if (Array.isArray(value)) value.forEach(note);
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => { note(k); note(v); });
    else note(value);
  }
  return [...found];
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * A renderer's line (text) with the names of the persons its event speaks of linked to their profiles, each at its
 * first place as a whole word: the renderer wrote them from ctx.names, so they read as the seats are named now.
 */
function linkNames(text, event, ctx) {
  const people = seatsIn(event, ctx).map((seat) => ctx.people[seat]).filter((p) => p.name)
    .sort((a, b) => b.name.length - a.name.length); // "Ana María" before "Ana"
  const parts = [];
  let rest = text;
  const linked = new Set();
  for (;;) {
    let best = null;
    for (const person of people) {
      if (linked.has(person.id)) continue;
      let from = 0;
      for (;;) {
        const at = rest.indexOf(person.name, from);
        if (at < 0) break;
        const end = at + person.name.length;
        if (!WORD.test(rest[at - 1] ?? "") && !WORD.test(rest[end] ?? "")) {
          if (!best || at < best.at) best = { at, end, person };
          break;
        }
        from = at + 1;
      }
    }
    if (!best) break;
    if (best.at > 0) parts.push(rest.slice(0, best.at));
    parts.push(personLink(best.person, best.person.name));
    linked.add(best.person.id);
    rest = rest.slice(best.end);
  }
  if (!parts.length) return text;
  if (rest) parts.push(rest);
  return parts;
}

/**
 * One event in words (a string, or an array of strings and name links for h()): the renderer's sentence, null when
 * the renderer hides it, or undefined when nobody knows this event (the caller picks a fallback).
 */
export function describe(renderer, event, ctx) {
  // The table's own events are the platform's: a renderer knows only its game's (and hides the rest).
  if (!SHELL_EVENTS[event.type] && renderer && typeof renderer.describeEvent === "function") {
    try {
      const line = renderer.describeEvent(event, ctx);
      if (line === null) return null;
      if (line !== undefined && line !== "") return linkNames(String(line), event, ctx);
    } catch (error) {
      console.warn("describeEvent failed", error);
    }
  }
  const key = SHELL_EVENTS[event.type];
  if (key) {
    const actor = actorOf(event);
    // A bot reads as the seat list names it ("Bot 2"), not as the server's plain "Bot".
    const bot = event.bot && actor !== null ? t("table.bot_named", { n: Number(actor) + 1 || actor }) : null;
    const name = bot ?? nameAt(ctx, actor, event.name ?? (actor !== null ? ctx.names[actor] : null) ?? "");
    if (event.type === "registered" && event.rated) return tParts("log.registered_rated", { name });
    if (event.type === "renamed") {
      // The host without a seat has none to be found by.
      const renamed = event.seat === null || event.seat === undefined
        ? (ctx.host && ctx.host.name === event.name ? personLink(ctx.host, event.name) : event.name ?? "")
        : nameAt(ctx, event.seat, event.name ?? "");
      return tParts(key, { old: event.old ?? "", name: renamed });
    }
    if (event.type === "rated") {
      // "Ratings: Ana 1516 (+16), Bo 1484 (−16)."
      const changes = (event.changes || []).flatMap((c, index) => [index ? ", " : "",
        nameAt(ctx, c.seat, c.name ?? ctx.names[c.seat] ?? c.seat), ` ${c.after} (${signedChange(c.change)})`]);
      return tParts(key, { changes });
    }
    if (event.type === "chat_mode") return tParts(key, { mode: t(`chat.mode.${event.mode}`) });
    if (event.type === "stand_in" && event.by) {
      // Who asked comes with their id; an event stored before it did has only the name.
      const by = event.by_id ? personLink({ id: event.by_id, name: event.by }) : nameOnly(ctx, event.by);
      return tParts("log.stand_in_by", { name, by });
    }
    if (event.type === "abandon_declined" && event.withdrawn) return tParts("log.abandon_withdrawn", { name });
    if (event.type === "takeback_declined" && event.withdrawn) return tParts("log.takeback_withdrawn", { name });
    if (event.type === "takeback_asked" || event.type === "taken_back") return tParts(key, { name, n: event.moves });
    if (event.type === "timeout" && event.policy === "loss") return tParts("log.timeout_loss", { name });
    return tParts(event.kicked && SHELL_EVENTS[event.type] === "log.left" ? "log.kicked" : key, { name });
  }
  return undefined;
}

function genericEventLine(event, ctx) {
  const actor = actorOf(event);
  const name = actor !== null ? ctx.names[actor] ?? actor : null;
  return name ? [nameAt(ctx, actor, name), `: ${humanType(event.type)}`] : humanType(event.type);
}

/** Lines for a list of events arriving in an update (no action known). */
export function linesForEvents(renderer, events, ctx) {
  const lines = [];
  for (const event of events || []) {
    if (!event || typeof event !== "object") continue;
    const line = describe(renderer, event, ctx);
    if (line === null) continue;
    lines.push(line === undefined ? genericEventLine(event, ctx) : line);
  }
  return lines;
}

/**
 * Lines for one stored move: its events exactly as a live update would show them, so a reloaded
 * log reads like the live one; a move without events reads "Ana: <action type>"; a secret move
 * of someone else (redacted action, no visible events) shows nothing, as it did live.
 */
export function linesForMove(renderer, move, ctx) {
  const events = (move.events || []).filter((event) => event && typeof event === "object");
  if (events.length) return linesForEvents(renderer, events, ctx);
  if (!move.action || !move.action.type) return [];
  const name = move.seat !== null && move.seat !== undefined ? ctx.names[move.seat] ?? move.seat : "";
  return [name ? [nameAt(ctx, move.seat, name), `: ${humanType(move.action.type)}`] : humanType(move.action.type)];
}

/** A scrollable log panel; append() keeps it pinned to the newest line unless the reader scrolled up. */
export class LogPanel {
  constructor() {
    this.list = h("ol", { class: "log-list", "aria-live": "polite", "data-testid": "log" });
    this.empty = h("p", { class: "muted small log-empty" }, t("table.log_empty"));
    this.el = h("div", { class: "log-scroll", tabindex: "0" }, this.empty, this.list);
    // Whether the reader is at the newest line, as of their last scroll: known without measuring the panel on each new
    // line, which would lay the whole page out again in the middle of drawing a move.
    this.pinned = true;
    this.el.addEventListener("scroll", () => {
      this.pinned = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
    }, { passive: true });
    this.scrollQueued = false;
  }

  /** Replace every line. */
  reset(lines) {
    this.list.replaceChildren();
    this.append(lines, true);
  }

  /** Add lines at the bottom (newest last). */
  append(lines, force = false) {
    if (force) this.pinned = true;
    for (const line of lines) this.list.appendChild(h("li", null, line));
    this.empty.hidden = this.list.children.length > 0;
    const empty = t("table.log_empty");
    if (this.empty.textContent !== empty) this.empty.textContent = empty;
    // Scrolled once per frame, when the page is laid out anyway.
    if (!this.pinned || this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      if (this.pinned) this.el.scrollTop = this.el.scrollHeight;
    });
  }
}
