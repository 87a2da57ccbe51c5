// The replay view: step through a table's moves with the game's renderer: the spectator's view, or once the game is
// over any player's (one's own by default: one's hand as it was).

import { h, mount } from "../lib/dom.js";
import { api, query } from "./api.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { errorMessage, seatNames } from "./ui.js";
import { me } from "./session.js";
import { loadRenderer } from "./renderer.js";
import { Store, panel } from "./store.js";
import { replayPanels } from "./panels/replay.js";

/** Draw the replay of table `tableId` into `main`, starting at `step`: a store holds the step shown, the moves and whose
 * view; the panels (panels/replay.js) draw from it. */
export async function runReplay(main, { tableId, invite, step }) {
  const base = `/api/tables/${encodeURIComponent(tableId)}`;
  let table;
  try {
    table = await api("GET", `${base}${query({ invite })}`);
  } catch (error) {
    mount(main, h("section", { class: "panel" }, h("p", null, errorMessage(error)),
      h("a", { class: "button secondary", href: "/" }, t("table.back"))));
    return;
  }
  const renderer = await loadRenderer(table.game);
  const names = seatNames(table);
  let busy = false;
  // Whose view: a running game's replay is the spectator's for everyone (the server shows nothing more); a finished
  // one opens as its player saw it (their own hand), and any seat's may be chosen.
  const finished = table.status === "finished";
  const user = me();
  const mine = user ? table.seats.find((s) => s.user && s.user.id === user.id) : null;
  /** @type {Store<import("./panels/replay.js").ReplayState>} */
  const store = new Store({ table, renderer, current: null, moves: [], seenBy: finished && mine ? mine.seat : null,
    error: null, lang: getLang() });
  const seenByBox = h("select", { class: "replay-seen-by", "data-testid": "replay-seen-by",
    onchange: (event) => {
      store.set({ seenBy: event.target.value || null });
      go(store.get().current?.step ?? 0);
    } });
  const seenByLabel = h("label", { class: "replay-seen-by-label", hidden: !finished }, h("span"), " ", seenByBox);

  const area = h("div", { class: "game-area spectating", "data-testid": "replay-area" });
  const counter = h("span", { class: "replay-counter", "data-testid": "replay-step", "aria-live": "polite" });
  const eventsBox = h("ol", { class: "log-list", "data-testid": "replay-events" });
  const by = (delta) => () => go((store.get().current?.step ?? 0) + delta);
  const buttons = {
    first: h("button", { type: "button", class: "secondary", onclick: () => go(0) }),
    prev: h("button", { type: "button", class: "secondary", "data-testid": "replay-prev", onclick: by(-1) }),
    next: h("button", { type: "button", class: "primary", "data-testid": "replay-next", onclick: by(1) }),
    last: h("button", { type: "button", class: "secondary", onclick: () => go(store.get().current?.total ?? 0) }),
  };
  // Walking it: a slider over every step, the moves in words (each a link to the position after it), and a jump to
  // the start of each round the game's events announce.
  const slider = /** @type {HTMLInputElement} */ (h("input", { type: "range", min: "0", max: "0", value: "0",
    class: "replay-slider", "data-testid": "replay-slider", onchange: (event) => go(Number(event.target.value)) }));
  const movesTitle = h("h2");
  const movesBox = h("ol", { class: "log-list replay-moves", "data-testid": "replay-moves" });
  const roundsBox = h("div", { class: "row replay-rounds", "data-testid": "replay-rounds" });
  const title = h("h1");
  const back = h("a", { class: "button ghost", href: `/t/${encodeURIComponent(tableId)}${query({ invite })}` });
  const eventsTitle = h("h2");
  // As on the table page: the renderers' h3s need an h2 above them (see table.js).
  const gameTitle = h("h2", { class: "sr-only" });

  function ctx() {
    const current = store.get().current;
    return {
      seat: (current && current.seat) ?? null,
      actions: [],
      awaiting: (current && current.view && current.view.awaiting) || [],
      send: () => Promise.reject({ code: "replay", message: t("replay.title") }),
      names,
      // The log links the people's names to their profiles (in this tab: a replay is no live game).
      people: Object.fromEntries(table.seats.filter((s) => s.user).map((s) => [s.seat, s.user])),
      host: table.host ?? null,
      lang: getLang(),
      events: (current && current.events) || [],
    };
  }

  // The labels, in the page's language.
  panel(store, (s) => [s.lang, s.seenBy], (lang, seenBy) => {
    title.textContent = `${t("replay.title")} · ${table.name || table.game}`;
    back.textContent = t("replay.back_to_table");
    eventsTitle.textContent = t("replay.events");
    movesTitle.textContent = t("replay.moves");
    slider.setAttribute("aria-label", t("replay.slider"));
    gameTitle.textContent = t("table.game");
    buttons.first.textContent = `« ${t("replay.first")}`;
    buttons.prev.textContent = `◀ ${t("replay.prev")}`;
    buttons.next.textContent = `${t("replay.next")} ▶`;
    buttons.last.textContent = `${t("replay.last")} »`;
    seenByLabel.firstChild.textContent = t("replay.seen_by");
    const choices = [["", t("replay.seen_by_all")], ...table.seats.map((s) => [s.seat, names[s.seat]])];
    seenByBox.replaceChildren(...choices.map(([value, text]) => h("option", { value }, text)));
    /** @type {HTMLSelectElement} */ (seenByBox).value = seenBy ?? "";
  });
  replayPanels(store, { area, counter, slider, eventsBox, movesBox, roundsBox, buttons, ctx, go, errorText: errorMessage });

  async function loadMoves() {
    try {
      const answer = await api("GET", `${base}/moves${query({ invite })}`);
      store.set({ moves: answer.moves || [] });
    } catch (error) {
      console.warn("move list unavailable", error);
    }
  }

  async function go(target) {
    if (busy) return;
    const current = store.get().current;
    const total = current ? current.total : Infinity;
    busy = true;
    try {
      const seat = store.get().seenBy ?? undefined;
      const next = await api("GET", `${base}/replay${query({ step: Math.max(0, Math.min(target, total)), seat, invite })}`);
      const url = new URL(location.href);
      url.searchParams.set("replay", String(next.step));
      history.replaceState(null, "", url);
      store.set({ current: next, error: null });
    } catch (error) {
      store.set({ error });
    } finally {
      busy = false;
    }
  }

  document.addEventListener("keydown", (event) => {
    const current = store.get().current;
    if (!current || (event.target instanceof Element && event.target.closest("input, select, textarea"))) return;
    if (event.key === "ArrowRight") go(current.step + 1);
    else if (event.key === "ArrowLeft") go(current.step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(current.total);
  });
  onLangChange(() => store.set({ lang: getLang() }));

  mount(main,
    h("div", { class: "table-head" }, h("div", { class: "table-head-main" }, title), back),
    h("div", { class: "replay-controls panel" }, buttons.first, buttons.prev, counter, buttons.next, buttons.last, slider,
      roundsBox, seenByLabel),
    h("div", { class: "table-layout" }, gameTitle, area,
      h("aside", { class: "sidebar" }, h("section", { class: "panel log" }, eventsTitle, eventsBox),
        h("section", { class: "panel log" }, movesTitle, h("div", { class: "log-scroll replay-moves-scroll", tabindex: "0" }, movesBox)))));
  document.title = `${t("replay.title")} · ${t("app.name")}`;
  await go(step);
  await loadMoves();
}
