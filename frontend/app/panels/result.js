// The result of a finished game: the ranking with each person's rating change (or why the game is not rated), or the
// end of a game abandoned by agreement; Play again and the replay's link.

import { h, mount } from "../../lib/dom.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { errorMessage, ratingBadge, seatLink, seatLinks, toast } from "../ui.js";
import { panel } from "../store.js";
import { isSpectator, names } from "../table-state.js";

/**
 * Why a finished game has no rating changes (yet): the server rates it just after the end, or it is not rated (the
 * first reason that applies); or, once rated, why a guest's row has none. Null when there is nothing to explain.
 */
export function ratingNote(table) {
  const seated = table.seats.filter((s) => s.user);
  let key = null;
  if (table.ratings) {
    if (seated.some((s) => s.guest && !table.ratings[s.seat])) key = "table.guests_not_rated";
  } else if (table.rated) {
    key = "table.rating_pending";
  } else if (table.time_control && table.time_control.timeout !== "loss") {
    key = "table.unrated_clock";
  } else if (table.visibility === "private") {
    key = "table.unrated_private";
  } else if (seated.length < 2) {
    key = "table.unrated_few";
  } else if (seated.filter((s) => !s.guest).length < 2) {
    key = "table.unrated_guests";
  } else {
    key = "table.unrated_old";
  }
  return key ? h("p", { class: "muted small rating-note", "data-testid": "rating-note" }, t(key)) : null;
}

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{result: HTMLElement, tablePath: () => string, invite: string|null, ctx: () => any}} deps
 */
export function resultPanel(store, deps) {
  function detailRows(s, details, seat) {
    const entry = details && details[seat];
    if (!entry || typeof entry !== "object") return null;
    // The game's renderer knows what its details mean, and says it in the player's language.
    const describe = s.renderer?.module?.describeDetails;
    if (typeof describe === "function") {
      const line = describe(entry, deps.ctx());
      return line ? h("div", { class: "muted small" }, line) : null;
    }
    const parts = Object.entries(entry)
      .filter(([, value]) => typeof value === "number" || typeof value === "string" || value === true)
      .map(([key, value]) => (value === true ? key.replace(/[_-]+/g, " ") : `${key.replace(/[_-]+/g, " ")}: ${value}`));
    return parts.length ? h("div", { class: "muted small" }, parts.join(" · ")) : null;
  }

  /** Play again: the players open (or join) the rematch; watchers of a public table may follow it. */
  function rematchControl(s, table) {
    if (isSpectator(s)) {
      if (!table.rematch_id || table.visibility !== "public") return null;
      return h("a", { class: "button", href: `/t/${encodeURIComponent(table.rematch_id)}`, "data-testid": "rematch" },
        t("table.rematch_watch"));
    }
    const go = async (event) => {
      event.currentTarget.disabled = true;
      try {
        const next = await api("POST", `${deps.tablePath()}/rematch`);
        location.assign(`/t/${encodeURIComponent(next.id)}${query({ invite: next.invite_code })}`);
      } catch (error) {
        toast(errorMessage(error), "error");
        handle.redraw();
      }
    };
    return h("button", { type: "button", class: "primary", onclick: go, "data-testid": "rematch" },
      t(table.rematch_id ? "table.rematch_join" : "table.rematch"));
  }

  function resultActions(s, table) {
    return h("div", { class: "result-actions" },
      rematchControl(s, table),
      h("a", {
        class: "button secondary",
        href: `/t/${encodeURIComponent(table.id)}${query({ replay: 0, invite: deps.invite })}`,
        "data-testid": "replay-link",
      }, t("table.replay")));
  }

  const handle = panel(store, (s) => [s.table, s.seat, s.renderer, s.lang], () => {
    const s = store.get();
    const table = s.table;
    if (!table) return;
    const outcome = table.outcome;
    if (table.status === "finished" && table.abandoned) {
      // The end of a game its players agreed to abandon: no winner, no ranking; they may still play again or watch it.
      deps.result.hidden = false;
      deps.result.dataset.abandoned = "true";
      mount(deps.result, h("h2", null, t("table.abandoned")), h("p", null, t("table.abandoned_text")), resultActions(s, table));
      return;
    }
    if (table.status !== "finished" || !outcome) {
      deps.result.hidden = true;
      return;
    }
    deps.result.hidden = false;
    const nameMap = names(s);
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
          h("td", null, `${place + 1}.`),
          h("td", null, seatLink(table, seat, nameMap),
            winners.includes(seat) ? h("span", { class: "tag win" }, t("table.winner")) : null,
            detailRows(s, outcome.details, seat)),
          h("td", { class: "num" }, scores[seat] !== undefined ? String(scores[seat]) : ""),
          // Not "num" (what a score cell is found by), though aligned the same.
          ratings ? h("td", { class: "rating-cell", "data-testid": "rating-change" },
            rating ? [ratingBadge(rating), h("span", { class: "rating-after muted small" }, String(rating.after))] : "") : null));
      }
      place += group.length;
    }
    mount(deps.result,
      h("h2", null, t("table.result")),
      winners.length ? h("p", { class: "winners" }, `${t(winners.length > 1 ? "table.winners" : "table.winner")}: `,
        h("strong", null, seatLinks(table, winners, nameMap))) : null,
      h("table", { class: "ranking", "data-testid": "ranking" },
        h("thead", null, h("tr", null, h("th", null, t("table.place")), h("th", null, t("table.player")), h("th", { class: "num" }, t("table.score")),
          ratings ? h("th", { class: "rating-cell" }, t("table.rating")) : null)),
        h("tbody", null, rows)),
      ratingNote(table),
      resultActions(s, table));
  });
  return handle;
}
