// A click is a press and a release on the same element. A redraw between the two replaces the element, and the
// browser then sends the click to what the two have in common (the list, the page) instead of the button: the click
// is lost. So what arrives while a pointer is down (another player's move, a bot's, a list polled again) is drawn
// once it is up, after its click has been handled.

/** The longest a press holds redraws back: a pointer whose release never comes (the window lost it) frees them. */
const LONGEST_PRESS_MS = 3000;
/** How long after the release its click may come (a touch's comes a moment later); none by then, none at all. */
const CLICK_AFTER_RELEASE_MS = 400;

/** @type {Set<{start: () => void, end: () => void}>} */
const watchers = new Set();
/** @type {Set<() => void>} */
const waiting = new Set();
let down = false;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let safety;

function start() {
  if (down) return;
  down = true;
  safety = setTimeout(end, LONGEST_PRESS_MS);
  for (const watcher of [...watchers]) watcher.start();
}

/** The pointer is up: the click it makes comes next (at once for a mouse, a moment later after a touch). */
function released() {
  if (!down) return;
  clearTimeout(safety);
  safety = setTimeout(end, CLICK_AFTER_RELEASE_MS);
}

/** The release's click: its handlers run on what was pressed, and the redraws follow. */
function clicked() {
  if (down) setTimeout(end, 0);
}

function end() {
  if (!down) return;
  down = false;
  clearTimeout(safety);
  for (const watcher of [...watchers]) watcher.end();
  const draws = [...waiting];
  waiting.clear();
  for (const draw of draws) draw();
}

let listening = false;

function listen() {
  if (listening || typeof addEventListener !== "function") return;
  listening = true;
  // Capture: a handler that stops the event must not hide the press. The press ends a task after the release's
  // click, once that click's handlers have run; or, when no click follows the release, shortly after it.
  addEventListener("pointerdown", start, true);
  addEventListener("pointerup", released, true);
  addEventListener("click", clicked, true);
  addEventListener("pointercancel", end, true);
  addEventListener("blur", end);
}

// From the page's start, not from its first redraw: a press begun before the first `afterPress` (a tab clicked while
// the page's first list is on its way) would otherwise be unknown when that list arrives, and its redraw would swap
// the pressed element out from under the click.
listen();

/** Whether a pointer is down now. */
export function pressed() {
  return down;
}

/**
 * Run `draw` now, or when the press under way ends (once, however often it was asked for meanwhile).
 * @param {() => void} draw
 */
export function afterPress(draw) {
  listen();
  if (down) waiting.add(draw);
  else draw();
}

/**
 * Hold `target` (a store: its listeners hear of changes only once released) for as long as each press lasts.
 * @param {{hold: () => () => void}} target
 * @returns {() => void} the function that stops it
 */
export function holdWhilePressed(target) {
  listen();
  /** @type {(() => void) | null} */
  let release = null;
  const watcher = {
    start() { release = target.hold(); },
    end() {
      const free = release;
      release = null;
      free?.();
    },
  };
  if (down) watcher.start();
  watchers.add(watcher);
  return () => {
    watchers.delete(watcher);
    watcher.end();
  };
}
