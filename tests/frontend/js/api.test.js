// app/api.js: a sign-out stops the requests under way and sends no other until its answer is in.
import "./setup-browser.js";
import { test } from "node:test";
import assert from "node:assert/strict";

import { api, endSession } from "../../../frontend/app/api.js";

/** A fetch that answers only when told to, and the paths it was asked for. */
function heldFetch() {
  /** @type {{path: string, answer: (status: number) => void}[]} */
  const asked = [];
  globalThis.fetch = /** @type {any} */ ((path, init) => new Promise((resolve, reject) => {
    init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    asked.push({ path, answer: (status) => resolve(new Response("{}", { status })) });
  }));
  return asked;
}

test("a sign-out stops the requests under way and refuses new ones until it is answered", async () => {
  const asked = heldFetch();
  const before = api("GET", "/api/tables/t/chat/mutes");
  const ending = endSession("/api/auth/logout");
  await assert.rejects(before, { code: "aborted" });
  await assert.rejects(api("GET", "/api/tables/t/chat/mutes"), { code: "aborted" }, "asked for while signing out");
  assert.deepEqual(asked.map((a) => a.path), ["/api/tables/t/chat/mutes", "/api/auth/logout"], "and never sent");

  asked[1].answer(200);
  assert.deepEqual(await ending, {});
  const after = api("GET", "/api/me");
  assert.equal(asked.at(-1)?.path, "/api/me", "sent once the sign-out is done");
  asked[2].answer(200);
  await after;
});

test("a failed sign-out lets requests through again", async () => {
  const asked = heldFetch();
  const ending = endSession("/api/auth/logout");
  asked[0].answer(500);
  await assert.rejects(ending, { status: 500 });
  const after = api("GET", "/api/me");
  assert.equal(asked.length, 2);
  asked[1].answer(200);
  await after;
});
