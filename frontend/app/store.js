// One store for what a page knows (its state and who listens), and the panels that draw a part of it.
//
// The state is a plain object of slices (the table JSON, the viewer's seat, the socket's status, the log…). A slice
// is replaced, never changed in place: `set` gives it a new value and every listener hears of it once. A panel names
// the inputs it draws from (`select`, an array of values) and draws again only when one of them is not the same value
// as at its last draw (`Object.is`): a new table object, a new log array, another language. Nothing is compared by
// the text it would draw.

/**
 * @template {Record<string, any>} T
 */
export class Store {
  /** @param {T} initial */
  constructor(initial) {
    /** @type {T} */
    this.state = { ...initial };
    /** @type {Set<(state: T) => void>} */
    this.listeners = new Set();
    this.holding = 0; // inside batch() or a hold(): listeners hear once at its end
    this.pending = false;
  }

  /** The state now (a new object after each change; its slices are shared with the previous one when unchanged). */
  get() {
    return this.state;
  }

  /**
   * Replace the slices `patch` names. Slices given the value they hold change nothing, and when none changes nobody
   * is told.
   * @param {Partial<T>} patch
   */
  set(patch) {
    const changed = Object.keys(patch).some((key) => !Object.is(this.state[key], patch[key]));
    if (!changed) return;
    this.state = { ...this.state, ...patch };
    this.notify();
  }

  /**
   * Make several changes and tell the listeners once, after the last (a socket message changes many slices).
   * @param {() => void} changes
   */
  batch(changes) {
    const release = this.hold();
    try {
      changes();
    } finally {
      release();
    }
  }

  /**
   * Keep the listeners from hearing of changes until the returned function is called (once; a second call does
   * nothing); then they hear once, if anything changed meanwhile. Holds nest.
   * @returns {() => void}
   */
  hold() {
    this.holding += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holding -= 1;
      if (!this.holding && this.pending) this.notify();
    };
  }

  notify() {
    if (this.holding) {
      this.pending = true;
      return;
    }
    this.pending = false;
    for (const listener of [...this.listeners]) listener(this.state);
  }

  /**
   * Hear of every change; returns the function that stops it.
   * @param {(state: T) => void} listener
   */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** Whether two input lists hold the same values, one by one (`Object.is`). */
export function sameInputs(a, b) {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

/**
 * A panel: `draw(...inputs)` runs now and again whenever `select(state)` gives inputs that differ from those of the
 * last draw. `select` must return the slices themselves (or other values that stay the same while nothing changed:
 * strings, numbers, booleans), not objects built anew on each call, which would always differ.
 * `redraw()` draws again whatever the inputs (a clock that passed a due time; the panel's own UI state changed).
 * @template {Record<string, any>} T
 * @param {Store<T>} store
 * @param {(state: T) => any[]} select
 * @param {(...inputs: any[]) => void} draw
 * @returns {{redraw: () => void, stop: () => void, draws: () => number}}
 */
export function panel(store, select, draw) {
  /** @type {any[] | null} */
  let last = null;
  let count = 0;
  const run = (force = false) => {
    const inputs = select(store.get());
    if (!force && last && sameInputs(inputs, last)) return;
    last = inputs;
    count += 1;
    draw(...inputs);
  };
  const stop = store.subscribe(() => run());
  run();
  return { redraw: () => run(true), stop, draws: () => count };
}
