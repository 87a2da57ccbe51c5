import { test } from "node:test";
import assert from "node:assert/strict";

import { langOf, seatName } from "../../../frontend/lib/text.js";

test("langOf is Spanish only when the context says so", () => {
  assert.equal(langOf({ lang: "es" }), "es");
  assert.equal(langOf({ lang: "en" }), "en");
  assert.equal(langOf({ lang: "fr" }), "en");
  assert.equal(langOf(null), "en");
});

test("seatName is the shell's name, else the seat's number in the viewer's language", () => {
  assert.equal(seatName({ names: { 1: "Bo" } }, "1"), "Bo");
  assert.equal(seatName({ names: {} }, "2"), "Seat 2");
  assert.equal(seatName({ lang: "es", names: {} }, "2"), "Asiento 2");
  assert.equal(seatName(undefined, "0"), "Seat 0");
});
