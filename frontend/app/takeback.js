// Choices about moves made: asking the other players to take back one's last move (a takeback request, answered
// yes or no by each of them), and the "confirm moves that cannot be undone" preference (off by default, kept in this
// browser). The table page calls these and places what they draw.

import { h } from "../lib/dom.js";
import { t, tParts } from "./i18n.js";
import { confirmDialog, seatLink } from "./ui.js";

const CONFIRM_KEY = "fg.confirmIrreversible";

/** Whether this browser's player asked to confirm the moves that cannot be taken back. */
export function confirmsIrreversible() {
  try {
    return localStorage.getItem(CONFIRM_KEY) === "1";
  } catch {
    return false;
  }
}

function setConfirmsIrreversible(on) {
  try {
    if (on) localStorage.setItem(CONFIRM_KEY, "1");
    else localStorage.removeItem(CONFIRM_KEY);
  } catch {
    // Storage refused: the switch holds for this page only.
  }
}

/** The preference's switch (a checkbox with its words). */
export function confirmSwitch() {
  return h("label", { class: "confirm-switch small" },
    h("input", { type: "checkbox", "data-testid": "confirm-irreversible", checked: confirmsIrreversible() || null,
      onchange: (event) => setConfirmsIrreversible(event.target.checked) }),
    " ", t("takeback.confirm_pref"));
}

/**
 * Whether `action` may go: always without the preference; with it, the server is asked whether the move could be
 * taken back (`socket.preview`), and one that could not is confirmed in a dialog first. A preview that fails (a move
 * refused, the connection lost) lets the move go, so the server gives its own answer.
 */
export async function mayMove(socket, action) {
  if (!confirmsIrreversible()) return true;
  let undoable;
  try {
    undoable = (await socket.preview(action)).undoable !== false;
  } catch {
    return true;
  }
  if (undoable) return true;
  return confirmDialog({
    title: t("takeback.confirm_title"),
    text: t("takeback.confirm_text"),
    confirm: t("takeback.confirm_yes"),
    cancel: t("takeback.confirm_no"),
  });
}

/**
 * The open request to take back moves, for everyone at the table, with Yes and No for the players whose yes it waits
 * for and Withdraw for the asker; null when none is open. `say(word, id)` sends a say.
 */
export function takebackBanner(table, seat, names, say) {
  const open = table.status === "playing" ? table.takeback : null;
  if (!open) return null;
  const mine = seat !== null && seat !== undefined && String(seat) === String(open.by);
  const waiting = seat !== null && seat !== undefined && open.waiting.includes(String(seat));
  const who = (seats) => seats.flatMap((s, i) => [i ? ", " : "", seatLink(table, s, names)]);
  const buttons = [];
  if (waiting) {
    buttons.push(
      h("button", { type: "button", class: "primary small-btn", "data-testid": "takeback-yes", onclick: () => say("yes", open.id) },
        t("takeback.yes")),
      h("button", { type: "button", class: "secondary small-btn", "data-testid": "takeback-no", onclick: () => say("no", open.id) },
        t("takeback.no")));
  } else if (mine) {
    buttons.push(h("button", { type: "button", class: "ghost small-btn", "data-testid": "takeback-withdraw",
      onclick: () => say("no", open.id) }, t("takeback.withdraw")));
  }
  return h("div", { class: "takeback-inner", "data-id": String(open.id) },
    h("p", { class: "takeback-title" }, mine
      ? t("takeback.open_you", { n: open.moves })
      : tParts("takeback.open", { name: seatLink(table, open.by, names), n: open.moves })),
    open.waiting.length
      ? h("p", { class: "small", "data-testid": "takeback-waiting" }, tParts("takeback.waiting", { names: who(open.waiting) }))
      : null,
    buttons.length ? h("div", { class: "row" }, buttons) : null);
}

/** The button that asks to take back one's last move: for a player of the running game who has moved, while no
 * request is open. */
export function takebackOffer(table, seat, standingIn, say) {
  const offered = table.status === "playing" && seat !== null && seat !== undefined && !standingIn
    && !table.takeback && (table.move_count ?? 0) > 0;
  if (!offered) return null;
  return h("button", { type: "button", class: "ghost small-btn", "data-testid": "takeback-ask", onclick: () => say("ask") },
    t("takeback.ask"));
}
