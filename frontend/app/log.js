// The game log: plain-word lines from engine events (renderer's describeEvent) with generic fallbacks.

import { h } from "../lib/dom.js";
import { t } from "./i18n.js";
import { signedChange } from "./ui.js";

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
  renamed: "log.renamed",
  registered: "log.registered",
  rated: "log.rated",
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
 * One event in words: the renderer's sentence, null when the renderer hides it,
 * or undefined when nobody knows this event (the caller picks a fallback).
 */
export function describe(renderer, event, ctx) {
  // The table's own events are the platform's: a renderer knows only its game's (and hides the rest).
  if (!SHELL_EVENTS[event.type] && renderer && typeof renderer.describeEvent === "function") {
    try {
      const line = renderer.describeEvent(event, ctx);
      if (line === null) return null;
      if (line !== undefined && line !== "") return String(line);
    } catch (error) {
      console.warn("describeEvent failed", error);
    }
  }
  const key = SHELL_EVENTS[event.type];
  if (key) {
    const actor = actorOf(event);
    // A bot reads as the seat list names it ("Bot 2"), not as the server's plain "Bot".
    const bot = event.bot && actor !== null ? t("table.bot_named", { n: Number(actor) + 1 || actor }) : null;
    const name = bot ?? event.name ?? (actor !== null ? ctx.names[actor] : null) ?? "";
    if (event.type === "renamed") return t(key, { old: event.old ?? "", name: event.name ?? "" });
    if (event.type === "registered" && event.rated) return t("log.registered_rated", { name });
    if (event.type === "rated") {
      // "Ratings: Ana 1516 (+16), Bo 1484 (−16)."
      const changes = (event.changes || []).map((c) => `${c.name ?? ctx.names[c.seat] ?? c.seat} ${c.after} (${signedChange(c.change)})`);
      return t(key, { changes: changes.join(", ") });
    }
    if (event.type === "stand_in" && event.by) return t("log.stand_in_by", { name, by: event.by });
    if (event.type === "abandon_declined" && event.withdrawn) return t("log.abandon_withdrawn", { name });
    return t(event.kicked && SHELL_EVENTS[event.type] === "log.left" ? "log.kicked" : key, { name });
  }
  return undefined;
}

function genericEventLine(event, ctx) {
  const actor = actorOf(event);
  const name = actor !== null ? ctx.names[actor] ?? actor : null;
  return name ? `${name}: ${humanType(event.type)}` : humanType(event.type);
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
  return [name ? `${name}: ${humanType(move.action.type)}` : humanType(move.action.type)];
}

/** A scrollable log panel; append() keeps it pinned to the newest line unless the reader scrolled up. */
export class LogPanel {
  constructor() {
    this.list = h("ol", { class: "log-list", "aria-live": "polite", "data-testid": "log" });
    this.empty = h("p", { class: "muted small log-empty" }, t("table.log_empty"));
    this.el = h("div", { class: "log-scroll", tabindex: "0" }, this.empty, this.list);
  }

  /** Replace every line. */
  reset(lines) {
    this.list.replaceChildren();
    this.append(lines, true);
  }

  /** Add lines at the bottom (newest last). */
  append(lines, force = false) {
    const atBottom = force || this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
    for (const line of lines) this.list.appendChild(h("li", null, line));
    this.empty.hidden = this.list.children.length > 0;
    this.empty.textContent = t("table.log_empty");
    if (atBottom) this.el.scrollTop = this.el.scrollHeight;
  }
}
