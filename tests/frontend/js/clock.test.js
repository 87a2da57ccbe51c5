import { test } from "node:test";
import assert from "node:assert/strict";

import "./setup-browser.js";
const { estimateOffset, leftAt, formatLeft, shortDuration, describeTimeControl, myTimeLeft } = await import("../../../frontend/app/clock.js");
const { setLang } = await import("../../../frontend/app/i18n.js");

const HOUR = 3_600_000;

test("the offset is the largest sample: a message late in transit falls short of the true offset", () => {
  const trueOffset = 5 * 60_000; // the server's clock 5 minutes ahead of the browser's
  const sent = [1_000_000, 1_003_000, 1_006_000];
  const delays = [180, 12, 400];
  const samples = sent.map((serverNow, i) => [serverNow, serverNow - trueOffset + delays[i]]);
  assert.equal(estimateOffset(samples), trueOffset - 12);
  assert.equal(estimateOffset([]), 0);
});

test("a running clock counts down on the server's time, without drift over an hour", () => {
  const trueOffset = -7 * 60_000; // the browser 7 minutes ahead of the server
  const serverNow = 50 * HOUR;
  const receivedAt = serverNow - trueOffset + 40; // 40 ms in transit
  const offset = estimateOffset([[serverNow, receivedAt]]);
  const seat = { left: 2 * HOUR, running: true };
  // Every second for an hour, as the page's timer would read it: each figure is exact, whatever the browser's clock.
  for (let s = 0; s <= 3600; s += 1) {
    const at = receivedAt + s * 1000;
    const serverAt = at + trueOffset;
    const truth = 2 * HOUR - (serverAt - serverNow);
    assert.ok(Math.abs(leftAt(seat, serverNow, offset, at) - truth) <= 1000, `drifted at ${s} s`);
  }
  assert.equal(leftAt(seat, serverNow, offset, receivedAt + 3 * HOUR), 0); // never below zero
  assert.equal(leftAt({ left: 90_000, running: false }, serverNow, offset, receivedAt + HOUR), 90_000); // stopped
});

test("times read short and whole", () => {
  assert.equal(formatLeft(0), "0:00");
  assert.equal(formatLeft(61_001), "1:02");
  assert.equal(formatLeft(HOUR + 5_000), "1:00:05");
  assert.equal(formatLeft(3 * 24 * HOUR + 4 * HOUR), "3d 4h");
  assert.equal(formatLeft(-5), "0:00");
  assert.equal(shortDuration(600), "10 min");
  assert.equal(shortDuration(5400), "1 h 30 min");
  assert.equal(shortDuration(0), "0 s");
});

test("the time control in words, and my time left at a table of a list", () => {
  setLang("en");
  assert.equal(describeTimeControl({ kind: "realtime", base: 600, increment: 10, timeout: "bot_move" }),
    "10 min + 10 s a turn · out of time: a bot plays the turn");
  assert.equal(describeTimeControl({ kind: "turn", per_move: 86400, bank: 7200, timeout: "loss" }, { short: true }),
    "⏱ 1 d a turn, 2 h bank");
  assert.equal(describeTimeControl(null), "No clock");
  const table = { my_seat: "1", now: 10_000, clock: { seats: { 1: { left: 30_000, running: true } } } };
  assert.equal(myTimeLeft(table, 500, 500 + 4_000), 26_000);
  assert.equal(myTimeLeft({ ...table, my_seat: "0" }, 500, 600), null);
  assert.equal(myTimeLeft({ ...table, clock: null }, 500, 600), null);
});
