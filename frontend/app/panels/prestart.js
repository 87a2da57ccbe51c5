// Before the start: who is awaited, the invite link, the host's invitation by email, Start and Leave.

import { h, mount } from "../../lib/dom.js";
import { api } from "../api.js";
import { t } from "../i18n.js";
import { errorMessage, inviteBox } from "../ui.js";
import { panel } from "../store.js";
import { isSpectator } from "../table-state.js";

/**
 * The host's "Invite by email": a registered person's username and a button. The server mails them a link to the table
 * if they take invitations by email, and answers the same either way (it tells nobody who has an address), so the
 * confirmation says just that. A refusal (not the host, the game started, too many requests) is said under the field,
 * which keeps what was typed. Built once per language: a redraw of the seats or the link keeps the text being typed.
 * @param {() => string} path the table's API path
 */
export function inviteEmailForm(path) {
  const input = h("input", { type: "text", id: "invite-email-name", name: "invite-username", class: "invite-email-name",
    autocomplete: "off", autocapitalize: "none", spellcheck: "false", maxlength: "64", "data-testid": "invite-email-name" });
  const button = h("button", { type: "submit", class: "secondary", "data-testid": "invite-email-send" }, t("invite.email_send"));
  const status = h("p", { class: "small invite-email-status", "data-testid": "invite-email-status", role: "status", hidden: true });
  const say = (text, state) => {
    status.textContent = text;
    status.dataset.state = state;
    status.classList.toggle("form-error", state === "error");
    status.hidden = !text;
  };
  const submit = async (event) => {
    event.preventDefault();
    const username = input.value.trim();
    if (!username) {
      say(t("invite.email_empty"), "error");
      input.focus();
      return;
    }
    button.disabled = true;
    say("", "");
    try {
      await api("POST", `${path()}/invite_email`, { username });
      say(t("invite.email_sent", { name: username }), "sent");
      input.value = "";
    } catch (error) {
      say(errorMessage(error), "error");
    } finally {
      button.disabled = false;
    }
  };
  return h("form", { class: "invite invite-email", "data-testid": "invite-email", onsubmit: submit, novalidate: true },
    h("label", { class: "invite-label", for: "invite-email-name" }, t("invite.email_label")),
    h("div", { class: "invite-row" }, input, button),
    status);
}

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{prestart: HTMLElement, tablePath: () => string, hostCall: (path: string, body?: any) => any}} deps
 */
export function prestartPanel(store, deps) {
  /** @type {{lang: string, form: HTMLElement}|null} */
  let invite = null;
  return panel(store, (s) => [s.table, s.seat, s.lang], (table, seat, lang) => {
    if (!table || table.status !== "open") {
      deps.prestart.hidden = true;
      deps.prestart.replaceChildren();
      return;
    }
    deps.prestart.hidden = false;
    const missing = table.seats.filter((entry) => !entry.user && !entry.bot).length;
    let line;
    if (missing === 1) line = t("table.waiting_one");
    else if (missing > 1) line = t("table.waiting_many", { n: missing });
    else line = table.is_host ? t("table.ready_host") : t("table.waiting_host");
    if (table.is_host && invite?.lang !== lang) invite = { lang, form: inviteEmailForm(deps.tablePath) };
    mount(deps.prestart,
      h("p", { class: "waiting", "data-testid": "waiting" }, line),
      table.invite_code ? inviteBox(table.id, table.invite_code, () => deps.hostCall("invite")) : null,
      table.is_host ? invite.form : null,
      h("div", { class: "row" },
        table.is_host ? h("button", {
          type: "button",
          class: "primary",
          disabled: missing > 0,
          "data-testid": "start",
          onclick: () => deps.hostCall("start"),
        }, t("table.start")) : null,
        !isSpectator(store.get()) ? h("button", { type: "button", class: "ghost", onclick: () => deps.hostCall("leave") }, t("table.leave")) : null));
  });
}
