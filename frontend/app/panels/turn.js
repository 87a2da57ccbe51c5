// The sticky turn bar's line (whose turn, the undo button), the note that a waited-on seat may be handed to a bot,
// the timer that says when that falls due, and "since you last looked".

import { h, mount, mountIfChanged } from "../../lib/dom.js";
import { t, tParts } from "../i18n.js";
import { listNames, seatLinks } from "../ui.js";
import { panel } from "../store.js";
import { isSpectator, mayCallBotFor, names, standInAfter, standingIn } from "../table-state.js";

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{turn: HTMLElement, turnNote: HTMLElement, since: HTMLElement, undo: () => void, reclaimButton: () => Node}} deps
 */
export function turnPanel(store, deps) {
  /**
   * Why a "Let a bot play" button has appeared on someone else's seat: the game has waited long on them. Said right
   * under the turn bar to the players who may now press it, and only to them: not in the sticky bar, where on a phone
   * its five wrapped lines beside the chat button covered a fifth of the screen for as long as the wait lasted.
   */
  function standInDue(s) {
    const nameMap = names(s);
    const dueSeats = s.table.seats.filter((entry) => mayCallBotFor(s, entry, 0));
    const due = dueSeats.map((entry) => nameMap[entry.seat] ?? entry.seat);
    if (!due.length) return null;
    const after = Math.min(...dueSeats.map((entry) => standInAfter(s, entry)));
    const time = after < 90 ? `${Math.round(after)} s` : `${Math.round(after / 60)} min`;
    return h("p", { class: "turn-note", "data-testid": "stand-in-due" },
      t(due.length > 1 ? "table.stand_in_due_many" : "table.stand_in_due", { names: listNames(due), time, button: t("table.stand_in") }));
  }

  const turn = panel(store,
    (s) => [s.table, s.seat, s.awaiting, s.undo, s.presence?.online, s.idleSince, s.idleTick, s.lang],
    () => {
      const s = store.get();
      const table = s.table;
      if (!table) return;
      let node = null;
      if (table.status === "playing") {
        if (standingIn(s)) {
          node = h("div", { class: "turn-line" }, t("table.standing_in"), " ", deps.reclaimButton());
        } else if (!isSpectator(s) && s.awaiting.includes(s.seat)) {
          const others = s.awaiting.filter((seat) => seat !== s.seat);
          node = h("div", { class: "turn-line mine" }, t("table.your_turn"),
            others.length ? h("span", { class: "also" }, " · ",
              tParts(others.length > 1 ? "table.also_waiting_many" : "table.also_waiting", { names: seatLinks(table, others, names(s)) })) : null);
        } else if (s.awaiting.length) {
          node = h("div", { class: "turn-line" }, tParts("table.turn_of", { names: seatLinks(table, s.awaiting, names(s)) }));
        }
      } else if (table.status === "finished") {
        node = h("div", { class: "turn-line done" }, t("table.finished"));
      }
      if (node && s.undo && !isSpectator(s) && table.status === "playing") {
        node.append(h("button", { type: "button", class: "undo-btn", "data-testid": "undo", onclick: deps.undo },
          `↶ ${t("table.undo")}`));
      }
      // The bot's and the other players' moves redraw this line while its buttons may be under the pointer.
      if (node) mountIfChanged(deps.turn, node);
      else deps.turn.replaceChildren();
      deps.turn.hidden = !node;
      const note = table.status === "playing" && !standingIn(s) ? standInDue(s) : null;
      if (note) mountIfChanged(deps.turnNote, note);
      else deps.turnNote.replaceChildren();
      deps.turnNote.hidden = !note;
    });

  // When a waited-on seat's "Let a bot play" falls due, the seats and this bar are drawn again (idleTick).
  let idleTimer = null;
  const idle = panel(store, (s) => [s.table, s.seat, s.awaiting, s.presence?.online, s.idleSince, s.idleTick], () => {
    clearTimeout(idleTimer);
    const s = store.get();
    const table = s.table;
    if (!table || isSpectator(s) || table.status !== "playing" || typeof table.stand_in_after !== "number") return;
    const dues = table.seats.map((entry) => s.idleSince + standInAfter(s, entry) * 1000 - Date.now())
      .filter((due, i) => due > 0 && mayCallBotFor(s, table.seats[i], due));
    if (dues.length) {
      idleTimer = setTimeout(() => store.set({ idleTick: store.get().idleTick + 1 }), Math.min(...dues) + 250);
    }
  });

  /**
   * "Since you last looked": the moves (and seat changes) made at this table since the version this browser last
   * showed, in the log's words, above the game until the person closes it. Nothing on a first visit or when nothing
   * happened; the most recent lines when there are many.
   */
  const since = panel(store, (s) => [s.since, s.lang], (lines) => {
    const LIMIT = 30;
    if (!lines || !lines.length) {
      deps.since.hidden = true;
      deps.since.replaceChildren();
      return;
    }
    const shown = lines.slice(-LIMIT);
    mount(deps.since,
      h("div", { class: "since-head" },
        h("h2", { id: "since-title" }, t("table.since_title")),
        h("button", { type: "button", class: "ghost small-btn", "data-testid": "since-close",
          onclick: () => store.set({ since: null }) }, t("table.since_close"))),
      lines.length > LIMIT ? h("p", { class: "muted small" }, t("table.since_more", { n: lines.length - LIMIT })) : null,
      h("ol", { class: "log-list since-list", "data-testid": "since-list" }, shown.map((line) => h("li", null, line))));
    deps.since.hidden = false;
  });

  return { turn, idle, since };
}
