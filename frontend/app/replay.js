// The replay view: step through a table's moves with the game's renderer: the spectator's view, or once the game is
// over any player's (one's own by default: one's hand as it was).

import { h, mount } from "../lib/dom.js";
import { api, query } from "./api.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { errorMessage, seatNames } from "./ui.js";
import { me } from "./session.js";
import { linesForEvents, linesForMove } from "./log.js";
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
  let current = null; // {step, total, seat, view, events}
  let busy = false;
  // Whose view: a running game's replay is the spectator's for everyone (the server shows nothing more); a finished
  // one opens as its player saw it (their own hand), and any seat's may be chosen.
  const finished = table.status === "finished";
  const user = me();
  const mine = user ? table.seats.find((s) => s.user && s.user.id === user.id) : null;
  let seenBy = finished && mine ? mine.seat : null;
  const seenByBox = h("select", { class: "replay-seen-by", "data-testid": "replay-seen-by",
    onchange: (event) => {
      seenBy = event.target.value || null;
      go(current ? current.step : 0);
    } });
  const seenByLabel = h("label", { class: "replay-seen-by-label", hidden: !finished }, h("span"), " ", seenByBox);

  const area = h("div", { class: "game-area spectating", "data-testid": "replay-area" });
  const counter = h("span", { class: "replay-counter", "data-testid": "replay-step", "aria-live": "polite" });
  const eventsBox = h("ol", { class: "log-list", "data-testid": "replay-events" });
  const buttons = {
    first: h("button", { type: "button", class: "secondary", onclick: () => go(0) }),
    prev: h("button", { type: "button", class: "secondary", "data-testid": "replay-prev", onclick: () => go(current.step - 1) }),
    next: h("button", { type: "button", class: "primary", "data-testid": "replay-next", onclick: () => go(current.step + 1) }),
    last: h("button", { type: "button", class: "secondary", onclick: () => go(current.total) }),
  };
  // Walking it: a slider over every step, the moves in words (each a link to the position after it), and a jump to
  // the start of each round the game's events announce.
  const slider = h("input", { type: "range", min: "0", max: "0", value: "0", class: "replay-slider", "data-testid": "replay-slider",
    onchange: (event) => go(Number(event.target.value)) });
  const movesTitle = h("h2");
  const movesBox = h("ol", { class: "log-list replay-moves", "data-testid": "replay-moves" });
  const roundsBox = h("div", { class: "row replay-rounds", "data-testid": "replay-rounds" });
  let moves = []; // the stored moves, in order: move i (from 1) leads to step i
  const title = h("h1");
  const back = h("a", { class: "button ghost", href: `/t/${encodeURIComponent(tableId)}${query({ invite })}` });
  const eventsTitle = h("h2");
  // As on the table page: the renderers' h3s need an h2 above them (see table.js).
  const gameTitle = h("h2", { class: "sr-only" });

  function ctx() {
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

  function labels() {
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
    seenByBox.value = seenBy ?? "";
  }

  function draw() {
    labels();
    if (!current) return;
    counter.textContent = t("replay.step", { step: current.step, total: current.total });
    slider.max = String(current.total);
    slider.value = String(current.step);
    drawMoves();
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

  /** The move list and the round jumps, the current step marked; built from the stored moves once they are read. */
  function drawMoves() {
    const c = ctx();
    const rounds = [];
    movesBox.replaceChildren(...moves.map((move, i) => {
      const step = i + 1;
      const lines = linesForMove(loaded.module, move, c);
      const started = (move.events || []).find((e) => e && e.type === "round_started" && typeof e.round === "number");
      if (started) rounds.push({ round: started.round, step });
      const here = current && current.step === step;
      // The number is the button (a line may hold links to people's profiles, which a button must not contain).
      return h("li", { class: here ? "current" : null, "aria-current": here ? "step" : null },
        h("button", { type: "button", class: "ghost replay-move", "data-step": String(step), onclick: () => go(step),
          "aria-label": t("replay.go", { n: step }) }, `${step}.`),
        " ", lines.length ? lines[0] : t("replay.move_n", { n: step }),
        lines.slice(1).map((line) => h("div", { class: "muted small" }, line)));
    }));
    // A round begins with the move that announced it: its jump is the position after that move.
    roundsBox.replaceChildren(...(rounds.length ? [h("span", { class: "muted small" }, t("replay.rounds"))] : []),
      ...rounds.map(({ round, step }) => h("button", { type: "button", class: "ghost small-btn", "data-round": String(round),
        onclick: () => go(step) }, String(round))));
    roundsBox.hidden = !rounds.length;
    movesBox.querySelector("li.current")?.scrollIntoView?.({ block: "nearest" });
  }

  async function loadMoves() {
    try {
      const answer = await api("GET", `${base}/moves${query({ invite })}`);
      moves = answer.moves || [];
      drawMoves();
    } catch (error) {
      console.warn("move list unavailable", error);
    }
  }

  async function go(step) {
    if (busy) return;
    const total = current ? current.total : Infinity;
    const target = Math.max(0, Math.min(step, total));
    busy = true;
    try {
      current = await api("GET", `${base}/replay${query({ step: target, seat: seenBy ?? undefined, invite })}`);
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
    h("div", { class: "replay-controls panel" }, buttons.first, buttons.prev, counter, buttons.next, buttons.last, slider,
      roundsBox, seenByLabel),
    h("div", { class: "table-layout" }, gameTitle, area,
      h("aside", { class: "sidebar" }, h("section", { class: "panel log" }, eventsTitle, eventsBox),
        h("section", { class: "panel log" }, movesTitle, h("div", { class: "log-scroll replay-moves-scroll", tabindex: "0" }, movesBox)))));
  document.title = `${t("replay.title")} · ${t("app.name")}`;
  await go(step);
  await loadMoves();
}
