// The replay view: step through a table's moves with the game's renderer (spectator view).

import { h, mount } from "../lib/dom.js";
import { api, query } from "./api.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { errorMessage, seatNames } from "./ui.js";
import { linesForEvents } from "./log.js";
import { loadRenderer } from "./renderer.js";

/** Draw the replay of table `tableId` into `main`, starting at `step`. */
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
  const loaded = await loadRenderer(table.game);
  const names = seatNames(table);
  let current = null; // {step, total, view, events}
  let busy = false;

  const area = h("div", { class: "game-area spectating", "data-testid": "replay-area" });
  const counter = h("span", { class: "replay-counter", "data-testid": "replay-step", "aria-live": "polite" });
  const eventsBox = h("ol", { class: "log-list", "data-testid": "replay-events" });
  const buttons = {
    first: h("button", { type: "button", class: "secondary", onclick: () => go(0) }),
    prev: h("button", { type: "button", class: "secondary", "data-testid": "replay-prev", onclick: () => go(current.step - 1) }),
    next: h("button", { type: "button", class: "primary", "data-testid": "replay-next", onclick: () => go(current.step + 1) }),
    last: h("button", { type: "button", class: "secondary", onclick: () => go(current.total) }),
  };
  const title = h("h1");
  const back = h("a", { class: "button ghost", href: `/t/${encodeURIComponent(tableId)}${query({ invite })}` });
  const eventsTitle = h("h2");
  // As on the table page: the renderers' h3s need an h2 above them (see table.js).
  const gameTitle = h("h2", { class: "sr-only" });

  function ctx() {
    return {
      seat: null,
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

  function labels() {
    title.textContent = `${t("replay.title")} · ${table.name || table.game}`;
    back.textContent = t("replay.back_to_table");
    eventsTitle.textContent = t("replay.events");
    gameTitle.textContent = t("table.game");
    buttons.first.textContent = `« ${t("replay.first")}`;
    buttons.prev.textContent = `◀ ${t("replay.prev")}`;
    buttons.next.textContent = `${t("replay.next")} ▶`;
    buttons.last.textContent = `${t("replay.last")} »`;
  }

  function draw() {
    labels();
    if (!current) return;
    counter.textContent = t("replay.step", { step: current.step, total: current.total });
    buttons.first.disabled = buttons.prev.disabled = current.step <= 0;
    buttons.next.disabled = buttons.last.disabled = current.step >= current.total;
    const lines = current.step === 0 ? [t("replay.start")] : linesForEvents(loaded.module, current.events, ctx());
    eventsBox.replaceChildren(...lines.map((line) => h("li", null, line)));
    if (!loaded.module) {
      mount(area, h("p", { class: "no-renderer" }, t("table.no_renderer")));
      return;
    }
    try {
      loaded.module.render(area, current.view, ctx());
    } catch (error) {
      console.error("render failed", error);
      mount(area, h("p", { class: "no-renderer" }, t("table.renderer_failed")));
    }
  }

  async function go(step) {
    if (busy) return;
    const total = current ? current.total : Infinity;
    const target = Math.max(0, Math.min(step, total));
    busy = true;
    try {
      current = await api("GET", `${base}/replay${query({ step: target, invite })}`);
      const url = new URL(location.href);
      url.searchParams.set("replay", String(current.step));
      history.replaceState(null, "", url);
      draw();
    } catch (error) {
      mount(area, h("p", { class: "form-error" }, errorMessage(error)));
    } finally {
      busy = false;
    }
  }

  document.addEventListener("keydown", (event) => {
    if (!current || (event.target instanceof Element && event.target.closest("input, select, textarea"))) return;
    if (event.key === "ArrowRight") go(current.step + 1);
    else if (event.key === "ArrowLeft") go(current.step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(current.total);
  });
  onLangChange(draw);

  labels();
  mount(main,
    h("div", { class: "table-head" }, h("div", { class: "table-head-main" }, title), back),
    h("div", { class: "replay-controls panel" }, buttons.first, buttons.prev, counter, buttons.next, buttons.last),
    h("div", { class: "table-layout" }, gameTitle, area,
      h("aside", { class: "sidebar" }, h("section", { class: "panel log" }, eventsTitle, eventsBox))));
  document.title = `${t("replay.title")} · ${t("app.name")}`;
  await go(step);
}
