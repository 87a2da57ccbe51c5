// The table's log: the store's `log` slice (its lines, oldest first) drawn into a LogPanel. Lines added at the end
// (a new array that starts with the old one's lines) are appended; any other change (the log read again) redraws all.

import { LogPanel } from "../log.js";
import { panel } from "../store.js";

/** Whether `next` starts with every line of `previous`, the same ones. */
export function extendsLog(previous, next) {
  return next.length >= previous.length && previous.every((line, i) => line === next[i]);
}

/** @param {import("../store.js").Store<import("../table-state.js").TableState>} store */
export function logPanel(store) {
  const view = new LogPanel();
  /** @type {any[]} */
  let drawn = [];
  const handle = panel(store, (s) => [s.log], (lines) => {
    if (extendsLog(drawn, lines)) view.append(lines.slice(drawn.length));
    else view.reset(lines);
    drawn = lines;
  });
  return { el: view.el, handle };
}
