// The parts of lib/dom.js that need no document: action matching, word breaking, props for pieces, instructions.
import { test } from "node:test";
import assert from "node:assert/strict";

import { clickable, instruction, matching, named, piece, syllables, uiState } from "../../../frontend/lib/dom.js";

test("matching keeps the actions whose fields equal every given one", () => {
  const actions = [{ type: "buy", slot: 1 }, { type: "buy", slot: 2 }, { type: "skip_buy" }];
  assert.deepEqual(matching(actions, { type: "buy" }), actions.slice(0, 2));
  assert.deepEqual(matching(actions, { type: "buy", slot: 2 }), [actions[1]]);
  assert.deepEqual(matching(actions, { type: "roll" }), []);
});

test("syllables maps each word to itself with soft hyphens where it may break", () => {
  assert.deepEqual(syllables("Ham-bur-guesa Sand-wich"), { Hamburguesa: "Ham\u00adbur\u00adguesa", Sandwich: "Sand\u00adwich" });
});

test("a piece is a named button when it has a handler, else a named picture", () => {
  const onclick = () => {};
  const props = clickable(onclick, "Take it");
  assert.equal(props.role, "button");
  assert.equal(props.tabindex, "0");
  assert.equal(props["aria-label"], "Take it");
  assert.deepEqual(clickable(null, "x"), {});
  assert.deepEqual(named("Deck: 3 cards"), { role: "img", "aria-label": "Deck: 3 cards" });
  assert.deepEqual(named(""), {});
  assert.equal(piece(onclick, "a").role, "button");
  assert.equal(piece(null, "a").role, "img");
});

test("the keyboard presses a clickable piece with Enter and Space, and nothing else", () => {
  let presses = 0;
  const props = clickable(() => { presses += 1; });
  const key = (k) => props.onkeydown({ key: k, preventDefault() {} });
  key("Enter");
  key(" ");
  key("a");
  assert.equal(presses, 2);
});

test("instruction: the viewer's own goes to the page's bar, another's stays in the renderer's area", () => {
  const shown = [];
  const ctx = { prompt: (node) => shown.push(node) };
  const node = { text: "Click a card" };
  assert.equal(instruction(ctx, node, true), null);
  assert.equal(instruction(ctx, node, false), node);
  assert.deepEqual(shown, [node, null]); // the bar is cleared when the instruction is not the viewer's
  // Where no page offers a bar (a replay), the renderer keeps every line.
  assert.equal(instruction({}, node, true), node);
});

test("uiState: one object per game area, the same on every draw, apart from another area's", () => {
  const table = {};
  const replay = {};
  uiState(table).picked = 3;
  assert.equal(uiState(table).picked, 3);
  assert.equal(uiState(table), uiState(table));
  assert.deepEqual(uiState(replay), {});
});
