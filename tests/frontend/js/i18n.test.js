import { test } from "node:test";
import assert from "node:assert/strict";

import "./setup-browser.js";
const { errorText, getLang, setLang, strings, t, tParts } = await import("../../../frontend/app/i18n.js");

test("English and Spanish have the same keys, and each text the same placeholders", () => {
  const { en, es } = strings();
  // A refusal's code has Spanish words only: in English the server's own message is shown (errorText).
  const own = (k) => k.startsWith("errors.code.");
  assert.deepEqual(Object.keys(es).filter((k) => !(k in en) && !own(k)), [], "Spanish texts with no English one");
  assert.deepEqual(Object.keys(en).filter((k) => !(k in es)), [], "English texts not said in Spanish");
  const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const differ = Object.keys(en).filter((k) => k in es && holes(en[k]).join() !== holes(es[k]).join());
  assert.deepEqual(differ, [], "texts whose placeholders differ between the languages");
});

test("t fills the placeholders it is given and leaves the others", () => {
  setLang("en");
  assert.equal(t("lobby.create_title", { game: "Foodies" }), "New table: Foodies");
  assert.equal(t("lobby.create_title"), "New table: {game}");
  assert.equal(t("no.such.key"), "no.such.key");
  setLang("es");
  assert.equal(getLang(), "es");
  assert.equal(t("lobby.create_title", { game: "Foodies" }), "Nueva mesa: Foodies");
  assert.equal(localStorage.getItem("fg.lang"), "es"); // remembered for the next page
  setLang("en");
});

test("tParts keeps a param as it is, so a node can stand in a sentence", () => {
  setLang("en");
  const link = { a: "link" };
  assert.deepEqual(tParts("lobby.create_title", { game: link }), ["New table: ", link]);
});

test("errorText: the shell's words for a refusal in Spanish, the server's own message in English", () => {
  setLang("en");
  assert.equal(errorText("chat_too_long", "Too long."), "Too long.");
  setLang("es");
  assert.equal(errorText("chat_too_long", "Too long."), "Un mensaje del chat tiene como mucho 300 caracteres.");
  assert.equal(errorText("no_such_code", "Server says no."), "Server says no.");
  setLang("en");
});
