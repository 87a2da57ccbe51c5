// lib/press.js knows of a press from the moment the page loads it, before anything has asked it to wait for one.
import { test } from "node:test";
import assert from "node:assert/strict";

/** @type {Record<string, ((event?: any) => void)[]>} */
const handlers = {};
globalThis.addEventListener = /** @type {any} */ ((type, handler) => { (handlers[type] ??= []).push(handler); });
const fire = (type) => { for (const handler of handlers[type] ?? []) handler({ type }); };
const { afterPress, pressed } = await import("../../../frontend/lib/press.js");
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

test("the first redraw asked for under a press begun before it waits for the press's click", async () => {
  fire("pointerdown"); // a tab pressed while the page's first list is still on its way
  assert.ok(pressed());
  let draws = 0;
  afterPress(() => { draws += 1; }); // the list arrives
  assert.equal(draws, 0, "drawn now, it would swap the pressed tab out before its click");
  fire("pointerup");
  fire("click");
  await nextTask();
  assert.equal(draws, 1);
  assert.ok(!pressed());
});
