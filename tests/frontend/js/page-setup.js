// The table page's surroundings for the node page tests: the observers, the header and main it draws into, a
// silenced console.error (`quiet` restores it), timers that do not keep node running, and `until`.
import assert from "node:assert/strict";

globalThis.ResizeObserver = /** @type {any} */ (class { observe() {} });
globalThis.IntersectionObserver = /** @type {any} */ (class { observe() {} disconnect() {} });
const header = document.createElement("header");
header.setAttribute("id", "header");
export const main = document.createElement("main");
main.setAttribute("id", "main");
document.body.append(header, main);
export const quiet = console.error;
console.error = () => {}; // the renderer of a game with no module fails to load, as it should here

// The page's own timers (the socket's heartbeat, toasts) must not keep node running once the tests are done.
const realSetTimeout = globalThis.setTimeout;
for (const name of ["setTimeout", "setInterval"]) {
  const real = globalThis[name];
  globalThis[name] = /** @type {any} */ ((...args) => {
    const timer = real(...args);
    timer.unref?.();
    return timer;
  });
}
const tick = () => new Promise((resolve) => realSetTimeout(resolve, 5));
export async function until(check) {
  for (let i = 0; i < 200 && !check(); i += 1) await tick();
  assert.ok(check());
}
