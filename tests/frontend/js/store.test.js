// The store (frontend/app/store.js): slices replaced, listeners told once per change, panels drawn only when their
// inputs changed.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Store, panel, sameInputs } from "../../../frontend/app/store.js";

test("set replaces the slices it names and tells every listener once", () => {
  const store = new Store({ a: 1, b: [1] });
  const heard = [];
  store.subscribe((state) => heard.push(state));
  const b = store.get().b;
  store.set({ a: 2 });
  assert.equal(heard.length, 1);
  assert.equal(store.get().a, 2);
  assert.equal(store.get().b, b); // untouched slices are the same values
  assert.notEqual(heard[0], null);
});

test("a set that changes nothing tells nobody", () => {
  const list = [1, 2];
  const store = new Store({ a: 1, list });
  let heard = 0;
  store.subscribe(() => { heard += 1; });
  store.set({ a: 1, list });
  store.set({});
  assert.equal(heard, 0);
  store.set({ list: [1, 2] }); // an equal array is still another value: the store compares by identity
  assert.equal(heard, 1);
});

test("batch tells the listeners once, after the last change", () => {
  const store = new Store({ a: 0, b: 0 });
  const seen = [];
  store.subscribe((s) => seen.push([s.a, s.b]));
  store.batch(() => {
    store.set({ a: 1 });
    store.set({ b: 2 });
    store.batch(() => store.set({ a: 3 }));
    assert.equal(seen.length, 0);
  });
  assert.deepEqual(seen, [[3, 2]]);
  store.batch(() => {});
  assert.equal(seen.length, 1); // a batch that changed nothing tells nobody
});

test("holds nest: the store is told when the last is released, and a release counts once", () => {
  const store = new Store({ a: 0 });
  let heard = 0;
  store.subscribe(() => { heard += 1; });
  const outer = store.hold();
  const inner = store.hold();
  store.set({ a: 1 });
  inner();
  inner();
  assert.equal(heard, 0);
  outer();
  assert.equal(heard, 1);
});

test("subscribe returns the function that stops the listening", () => {
  const store = new Store({ a: 0 });
  let heard = 0;
  const stop = store.subscribe(() => { heard += 1; });
  store.set({ a: 1 });
  stop();
  store.set({ a: 2 });
  assert.equal(heard, 1);
});

test("a panel draws at once, then only when one of its inputs is another value", () => {
  const table = { id: "t1" };
  const store = new Store({ table, log: [], lang: "en" });
  const draws = [];
  const p = panel(store, (s) => [s.table, s.lang], (t, lang) => draws.push([t, lang]));
  assert.deepEqual(draws, [[table, "en"]]);
  store.set({ log: ["Ana: card placed"] }); // not an input of this panel
  store.set({ table }); // the same table
  assert.equal(draws.length, 1);
  assert.equal(p.draws(), 1);
  const next = { id: "t1", version: 2 };
  store.set({ table: next });
  assert.deepEqual(draws[1], [next, "en"]);
  store.set({ lang: "es" });
  assert.deepEqual(draws[2], [next, "es"]);
  p.redraw(); // forced: the panel's own state changed
  assert.equal(draws.length, 4);
  p.stop();
  store.set({ lang: "en" });
  assert.equal(draws.length, 4);
});

test("sameInputs compares value by value, NaN with itself", () => {
  const o = {};
  assert.ok(sameInputs([o, 1, "a", NaN], [o, 1, "a", NaN]));
  assert.ok(!sameInputs([o], [{}]));
  assert.ok(!sameInputs([1], [1, 2]));
});
