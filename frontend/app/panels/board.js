// The game area: the game's renderer draws the viewer's view into it; the instruction it hands over rides in the
// sticky turn bar, and its first legal target is brought into sight when it becomes the player's turn.

import { h, morph, mount } from "../../lib/dom.js";
import { t } from "../i18n.js";
import { panel } from "../store.js";
import { isMyTurn, isSpectator, standingIn } from "../table-state.js";

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{game: HTMLElement, gameTitle: HTMLElement, layout: HTMLElement, prompt: HTMLElement, bar: HTMLElement,
 *   ctx: (prompt: (node: Node|null) => void) => any}} deps
 */
export function boardPanel(store, deps) {
  let drawnMove = null; // the move whose effects the game area shows: a redraw for the same one animates nothing
  let revealedFor = null; // the instruction the player last had brought to their eyes: its words and the moves offered

  /** ctx.prompt: the renderer's instruction (or null) into the sticky turn bar, then its targets into sight. */
  function showPrompt(node) {
    if (node) morph(deps.prompt, node);
    else deps.prompt.replaceChildren();
    deps.prompt.hidden = !node;
    // The renderer mounts its area after handing over the instruction: look for the targets once it has.
    queueMicrotask(revealTarget);
  }

  const board = panel(store,
    (s) => [s.table, s.view, s.actions, s.awaiting, s.seat, s.renderer, s.lastMoveEvents, s.lang],
    () => {
      const s = store.get();
      const table = s.table;
      const hide = !table || table.status === "open" || !s.view;
      deps.game.hidden = deps.gameTitle.hidden = hide;
      deps.layout.classList.toggle("no-game", hide);
      const loaded = s.renderer;
      if (hide || !loaded?.module) showPrompt(null);
      if (hide) return;
      if (!loaded) {
        mount(deps.game, h("p", { class: "muted" }, t("table.loading")));
        return;
      }
      if (!loaded.module) {
        mount(deps.game, h("p", { class: "no-renderer", "data-testid": "no-renderer" },
          loaded.missing ? t("table.no_renderer") : t("table.renderer_failed")));
        return;
      }
      deps.game.classList.toggle("spectating", isSpectator(s));
      try {
        const moved = s.lastMoveEvents !== drawnMove;
        drawnMove = s.lastMoveEvents;
        // A move's cards glide from where they were to where they are now; any other redraw leaves them be.
        glide(deps.game, moved, () => loaded.module.render(deps.game, s.view, deps.ctx(showPrompt)));
      } catch (error) {
        console.error("render failed", error);
        showPrompt(null);
        mount(deps.game, h("p", { class: "no-renderer" }, t("table.renderer_failed")));
      }
    });

  /** Whether `el` is on screen, below the sticky bar that may cover the top of the page. */
  function inSight(el, top) {
    const r = el.getBoundingClientRect();
    return r.top >= top - 1 && r.bottom <= innerHeight + 1 && r.right > 0 && r.left < innerWidth;
  }

  /**
   * When it becomes the player's turn, and after each step of a decision (a new instruction, or new moves offered),
   * the first target of the instruction is scrolled into sight unless one is in sight already. The targets are the
   * game area's legal pieces, those the renderer marks `data-reveal` first (the ones its instruction names: the hand
   * to lead from, the empty spaces of the section chosen); a piece already chosen (`.selected`) is not one. Nothing
   * moves while the instruction stays the same, so a player who scrolls away to look at a rival is left there.
   */
  function revealTarget() {
    const s = store.get();
    if (!isMyTurn(s) || standingIn(s) || deps.game.hidden) {
      revealedFor = null;
      return;
    }
    const key = `${deps.prompt.textContent}|${JSON.stringify(s.actions)}`;
    if (key === revealedFor) return;
    // Someone typing in the chat keeps their place.
    const typing = document.activeElement?.matches?.("input, textarea") && !deps.game.contains(document.activeElement);
    if (typing) return;
    const boxed = (el) => el.getClientRects().length > 0;
    const marked = [...deps.game.querySelectorAll(".legal[data-reveal], [data-reveal] .legal")].filter(boxed);
    const targets = marked.length ? marked : [...deps.game.querySelectorAll(".legal:not(.selected)")].filter(boxed);
    if (!targets.length) return; // the renderer may still be drawing; the next draw looks again
    revealedFor = key;
    // A target still gliding to its place (a card just dealt) is measured where it will be, not where it passes.
    for (const el of targets) for (const animation of el.getAnimations?.() ?? []) animation.finish();
    const top = deps.bar.getBoundingClientRect().bottom;
    if (targets.some((el) => inSight(el, top))) return;
    // Under the bar, not behind it: the page scrolls so the target sits in the middle of what is left of the screen.
    const r = targets[0].getBoundingClientRect();
    const middle = top + (innerHeight - top) / 2;
    scrollBy({ top: r.top + r.height / 2 - middle, behavior: "instant" });
  }

  return { board, showPrompt };
}

/**
 * Draw with `render`; when `moved`, each card (`data-card`) drawn both before and after, once each, that changed place
 * slides from its old place to its new one (250 ms, the Web Animations API: no style attribute is written), so a
 * rival's card taken from the market is seen travelling to their board. Nothing moves for someone who prefers reduced
 * motion, nor a card whose id is drawn twice (which of them went where is not known).
 */
function glide(area, moved, render) {
  if (!moved || matchMedia("(prefers-reduced-motion: reduce)").matches) {
    render();
    return;
  }
  const places = (root) => {
    const found = new Map();
    for (const el of root.querySelectorAll("[data-card]")) {
      const id = el.dataset.card;
      found.set(id, found.has(id) ? null : el);
    }
    return found;
  };
  const before = new Map();
  for (const [id, el] of places(area)) before.set(id, el && el.getBoundingClientRect());
  render();
  // Every place is measured before any card starts to move: a measure after an animation has begun lays the page out
  // again, once per card.
  const moves = [];
  for (const [id, el] of places(area)) {
    const was = before.get(id);
    if (!el || !was || typeof el.animate !== "function") continue;
    const now = el.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (Math.abs(dx) >= 2 || Math.abs(dy) >= 2) moves.push({ el, dx, dy });
  }
  for (const { el, dx, dy } of moves) {
    const animation = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: 250, easing: "ease-out" });
    el.classList.add("gliding");
    const landed = () => el.classList.remove("gliding");
    animation.addEventListener("finish", landed);
    animation.addEventListener("cancel", landed);
  }
}
