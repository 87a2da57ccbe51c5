// The replay's panels over its store: the step controls (counter, buttons, slider), the events of the step shown, the
// board as it was, and the move list with its jumps to each round.

import { h, mount } from "../../lib/dom.js";
import { t } from "../i18n.js";
import { linesForEvents, linesForMove } from "../log.js";
import { panel } from "../store.js";

/**
 * @typedef {object} ReplayState
 * @property {any} table the table JSON
 * @property {{module: any}} renderer the game's renderer
 * @property {{step: number, total: number, seat: string|null, view: any, events: any[]}|null} current the step shown
 * @property {any[]} moves the stored moves, in order: move i (from 1) leads to step i
 * @property {string|null} seenBy whose view (null: the spectator's)
 * @property {any} error why the step asked for could not be shown
 * @property {string} lang the page's language
 */

/**
 * @param {import("../store.js").Store<ReplayState>} store
 * @param {{area: HTMLElement, counter: HTMLElement, slider: HTMLInputElement, eventsBox: HTMLElement,
 *   movesBox: HTMLElement, roundsBox: HTMLElement, buttons: Record<string, HTMLButtonElement>,
 *   ctx: () => any, go: (step: number) => void, errorText: (error: any) => string}} deps
 */
export function replayPanels(store, deps) {
  const controls = panel(store, (s) => [s.current, s.lang], (current) => {
    if (!current) return;
    deps.counter.textContent = t("replay.step", { step: current.step, total: current.total });
    deps.slider.max = String(current.total);
    deps.slider.value = String(current.step);
    deps.buttons.first.disabled = deps.buttons.prev.disabled = current.step <= 0;
    deps.buttons.next.disabled = deps.buttons.last.disabled = current.step >= current.total;
  });

  const events = panel(store, (s) => [s.current, s.renderer, s.lang], (current, renderer) => {
    if (!current) return;
    const lines = current.step === 0 ? [t("replay.start")] : linesForEvents(renderer.module, current.events, deps.ctx());
    deps.eventsBox.replaceChildren(...lines.map((line) => h("li", null, line)));
  });

  const board = panel(store, (s) => [s.current, s.error, s.renderer, s.lang], (current, error, renderer) => {
    if (error) {
      mount(deps.area, h("p", { class: "form-error" }, deps.errorText(error)));
      return;
    }
    if (!current) return;
    if (!renderer.module) {
      mount(deps.area, h("p", { class: "no-renderer" }, t("table.no_renderer")));
      return;
    }
    try {
      renderer.module.render(deps.area, current.view, deps.ctx());
    } catch (failure) {
      console.error("render failed", failure);
      mount(deps.area, h("p", { class: "no-renderer" }, t("table.renderer_failed")));
    }
  });

  /** The move list and the round jumps, the current step marked; built from the stored moves once they are read. */
  const moves = panel(store, (s) => [s.moves, s.current?.step, s.renderer, s.lang], (list, currentStep, renderer) => {
    const c = deps.ctx();
    const rounds = [];
    deps.movesBox.replaceChildren(...list.map((move, i) => {
      const step = i + 1;
      const lines = linesForMove(renderer.module, move, c);
      const started = (move.events || []).find((e) => e && e.type === "round_started" && typeof e.round === "number");
      if (started) rounds.push({ round: started.round, step });
      const here = currentStep === step;
      // The number is the button (a line may hold links to people's profiles, which a button must not contain).
      return h("li", { class: here ? "current" : null, "aria-current": here ? "step" : null },
        h("button", { type: "button", class: "ghost replay-move", "data-step": String(step), "data-focus-id": `step-${step}`,
          onclick: () => deps.go(step), "aria-label": t("replay.go", { n: step }) }, `${step}.`),
        " ", lines.length ? lines[0] : t("replay.move_n", { n: step }),
        lines.slice(1).map((line) => h("div", { class: "muted small" }, line)));
    }));
    // A round begins with the move that announced it: its jump is the position after that move.
    deps.roundsBox.replaceChildren(...(rounds.length ? [h("span", { class: "muted small" }, t("replay.rounds"))] : []),
      ...rounds.map(({ round, step }) => h("button", { type: "button", class: "ghost small-btn", "data-round": String(round),
        onclick: () => deps.go(step) }, String(round))));
    deps.roundsBox.hidden = !rounds.length;
    deps.movesBox.querySelector("li.current")?.scrollIntoView?.({ block: "nearest" });
  });

  return { controls, events, board, moves };
}
