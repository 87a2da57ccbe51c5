// The password reset page (/reset.html): without a token, ask for a link by username or confirmed address; with the
// token of a mailed link (in the fragment, `#token=…`, which the browser never sends to the server), set a new
// password. Either way the server's answer says nothing of whether an account exists.

import { h, mount } from "../lib/dom.js";
import { api, ApiError } from "./api.js";
import { t, onLangChange } from "./i18n.js";
import { loadMe } from "./session.js";
import { errorMessage, renderHeader } from "./ui.js";

const els = {};
let done = null; // the text shown once the form has done its work

function token() {
  return new URLSearchParams(location.hash.slice(1)).get("token") || "";
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", null, label), input);
}

function submitter(run) {
  return async (event) => {
    event.preventDefault();
    const button = event.target.querySelector("button[type=submit]");
    button.disabled = true;
    els.error.textContent = "";
    try {
      done = await run(new FormData(event.target));
      draw();
    } catch (error) {
      els.error.textContent = errorMessage(error);
    } finally {
      button.disabled = false;
    }
  };
}

function askForm() {
  return h("form", { class: "stack", "data-testid": "reset-ask",
    onsubmit: submitter(async (d) => {
      await api("POST", "/api/auth/forgot", { who: String(d.get("who")).trim() });
      return t("reset.asked");
    }) },
  h("p", { class: "muted" }, t("reset.ask_hint")),
  field(t("reset.who"), h("input", { name: "who", required: true, autocomplete: "username", maxlength: "254" })),
  h("button", { type: "submit", class: "primary" }, t("reset.ask_submit")));
}

function newPasswordForm() {
  return h("form", { class: "stack", "data-testid": "reset-set",
    onsubmit: submitter(async (d) => {
      if (d.get("password") !== d.get("again")) throw new ApiError(0, "reset_mismatch", t("reset.mismatch"));
      await api("POST", "/api/auth/reset", { token: token(), password: String(d.get("password")) },
        { sessionCheck: false });
      history.replaceState(null, "", location.pathname); // the used link's token leaves the address bar
      return t("reset.done");
    }) },
  field(t("account.new"), h("input", { name: "password", type: "password", required: true, minlength: "8",
    autocomplete: "new-password" })),
  field(t("reset.again"), h("input", { name: "again", type: "password", required: true, minlength: "8",
    autocomplete: "new-password" })),
  h("button", { type: "submit", class: "primary" }, t("reset.set_submit")));
}

function draw() {
  renderHeader(els.header, { onChange: draw, nav: true });
  els.error = h("p", { class: "form-error", role: "alert" });
  const body = done
    ? [h("p", { role: "status", "data-testid": "reset-done" }, done), h("p", null, h("a", { href: "/" }, t("reset.home")))]
    : [token() ? newPasswordForm() : askForm(), els.error];
  mount(els.main, h("section", { class: "panel" }, h("h1", null, t("reset.title")), ...body));
}

async function start() {
  els.header = document.getElementById("header");
  els.main = document.getElementById("main");
  await loadMe();
  draw();
  onLangChange(draw);
  window.addEventListener("hashchange", () => {
    done = null;
    draw();
  });
}

start();
