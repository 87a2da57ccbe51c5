import { test } from "node:test";
import assert from "node:assert/strict";

import { loadRenderer } from "../../../frontend/app/renderer.js";

test("a game id that is no file name loads nothing: no request is made for it", async () => {
  for (const id of ["../secrets", "a/b", "", "-x", "foo.js"]) {
    assert.deepEqual(await loadRenderer(id), { module: null, missing: true });
  }
});
