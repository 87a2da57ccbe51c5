// What the players decide together: the open proposal to abandon the game (under the turn bar, with Yes/No for those
// whose say it needs) and its quiet way in under the seats; the open takeback request and the button that asks.

import { h, mountIfChanged } from "../../lib/dom.js";
import { t, tParts } from "../i18n.js";
import { seatLink, seatLinks } from "../ui.js";
import { takebackBanner, takebackOffer } from "../takeback.js";
import { panel } from "../store.js";
import { isSpectator, mayVoteToAbandon, names, standingIn } from "../table-state.js";

/** Show `node` in `el` (hidden when there is none). */
function show(el, node) {
  if (node) mountIfChanged(el, node);
  else el.replaceChildren();
  el.hidden = !node;
}

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{abandon: HTMLElement, abandonOffer: HTMLElement, takeback: HTMLElement, takebackAsk: HTMLElement,
 *   takebackOffer: HTMLElement, vote: (vote: string) => void, propose: () => void,
 *   sayTakeback: (word: string, proposal?: any) => void}} deps
 */
export function votesPanel(store, deps) {
  const abandon = panel(store, (s) => [s.table, s.seat, s.lang], () => {
    const s = store.get();
    const table = s.table;
    if (!table) return;
    const open = table.status === "playing" ? table.abandon : null;
    let node = null;
    if (open) {
      const nameMap = names(s);
      const who = (seats) => seatLinks(table, seats, nameMap);
      const mine = mayVoteToAbandon(s);
      const buttons = [];
      if (mine && open.waiting.includes(s.seat)) {
        buttons.push(
          h("button", { type: "button", class: "primary small-btn", "data-testid": "abandon-yes", onclick: () => deps.vote("yes") },
            t("table.abandon_yes")),
          h("button", { type: "button", class: "secondary small-btn", "data-testid": "abandon-no", onclick: () => deps.vote("no") },
            t("table.abandon_no")));
      } else if (mine && open.yes.includes(s.seat)) {
        buttons.push(h("button", {
          type: "button", class: "ghost small-btn", "data-testid": "abandon-withdraw", onclick: () => deps.vote("no"),
          "aria-label": t("table.abandon_withdraw_label"),
        }, t("table.abandon_withdraw")));
      }
      node = h("div", { class: "abandon-inner" },
        h("p", { class: "abandon-title" },
          open.by === s.seat && !isSpectator(s)
            ? t("table.abandon_open_you") : tParts("table.abandon_open", { name: seatLink(table, open.by, nameMap) })),
        h("p", { class: "abandon-votes small" },
          h("span", { "data-testid": "abandon-agreed" }, tParts("table.abandon_agreed", { names: who(open.yes) })),
          " ",
          open.waiting.length
            ? h("span", { "data-testid": "abandon-waiting" }, tParts("table.abandon_waiting", { names: who(open.waiting) }))
            : null),
        buttons.length ? h("div", { class: "row" }, buttons) : null);
    }
    show(deps.abandon, node);
    // The quiet way in: under the seats, for those who may propose while none is open.
    show(deps.abandonOffer, mayVoteToAbandon(s) && !open ? h("button", {
      type: "button", class: "ghost small-btn", "data-testid": "abandon-propose", onclick: deps.propose,
    }, t("table.abandon_propose")) : null);
  });

  const takeback = panel(store, (s) => [s.table, s.seat, s.lang], () => {
    const s = store.get();
    if (!s.table) return;
    const spectator = isSpectator(s);
    show(deps.takeback, takebackBanner(s.table, spectator ? null : s.seat, names(s), deps.sayTakeback));
    const offer = spectator ? null : takebackOffer(s.table, s.seat, standingIn(s), deps.sayTakeback);
    if (offer) mountIfChanged(deps.takebackAsk, offer);
    else deps.takebackAsk.replaceChildren();
    deps.takebackOffer.hidden = spectator || s.table.status !== "playing";
  });

  return { abandon, takeback };
}
