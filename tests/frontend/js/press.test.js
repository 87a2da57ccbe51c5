// lib/press.js: what arrives while a pointer is down is drawn once it is up, after the click the release makes.
import { test, mock } from "node:test";
import assert from "node:assert/strict";

import { Store } from "../../../frontend/app/store.js";

/** @type {Record<string, ((event?: any) => void)[]>} */
const handlers = {};
globalThis.addEventListener = /** @type {any} */ ((type, handler) => { (handlers[type] ??= []).push(handler); });
const fire = (type) => { for (const handler of handlers[type] ?? []) handler({ type }); };
const { afterPress, holdWhilePressed, pressed } = await import("../../../frontend/lib/press.js");
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A store held while pressed, and the versions its listener heard. */
function heldStore() {
  const store = new Store({ version: 1 });
  /** @type {number[]} */
  const heard = [];
  store.subscribe((s) => heard.push(s.version));
  return { store, heard, stop: holdWhilePressed(store) };
}

test("a store held while pressed tells its listeners once the release's click is handled", async () => {
  const { store, heard, stop } = heldStore();
  fire("pointerdown");
  assert.ok(pressed());
  store.set({ version: 2 });
  store.set({ version: 3 });
  fire("pointerup");
  await nextTask();
  assert.deepEqual(heard, [], "the click the release makes comes first, on what was pressed (a touch's a moment later)");
  fire("click");
  assert.deepEqual(heard, []);
  await nextTask();
  assert.ok(!pressed());
  assert.deepEqual(heard, [3], "then once, with the latest state");
  store.set({ version: 4 });
  assert.deepEqual(heard, [3, 4], "and at once again while nothing is pressed");
  stop();
});

test("a cancelled press frees at once; a store no longer held is told at once", () => {
  const { store, heard, stop } = heldStore();
  fire("pointerdown");
  store.set({ version: 2 });
  fire("pointercancel");
  assert.deepEqual(heard, [2]);
  fire("pointerdown");
  stop(); // stopped under a press: what it held is told now, and nothing is held after
  store.set({ version: 3 });
  assert.deepEqual(heard, [2, 3]);
  fire("pointercancel");
});

test("afterPress draws now, or once when the press ends however often it was asked", async () => {
  let draws = 0;
  const draw = () => { draws += 1; };
  afterPress(draw);
  assert.equal(draws, 1);
  fire("pointerdown");
  afterPress(draw);
  afterPress(draw);
  assert.equal(draws, 1);
  fire("pointerup");
  fire("click");
  await nextTask();
  assert.equal(draws, 2);
});

test("a release that makes no click frees the redraws shortly after", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let draws = 0;
    fire("pointerdown");
    afterPress(() => { draws += 1; });
    fire("pointerup"); // released off the element pressed, or a drag: no click comes
    mock.timers.tick(399);
    assert.equal(draws, 0);
    mock.timers.tick(1);
    assert.equal(draws, 1);
    assert.ok(!pressed());
  } finally {
    mock.timers.reset();
  }
});

test("a release that never comes frees the redraws after a while", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { store, heard, stop } = heldStore();
    fire("pointerdown");
    store.set({ version: 2 });
    mock.timers.tick(2999);
    assert.deepEqual(heard, []);
    mock.timers.tick(1);
    assert.deepEqual(heard, [2]);
    assert.ok(!pressed());
    stop();
  } finally {
    mock.timers.reset();
  }
});
