// Small shared pieces of the shell: toasts, the header, the sign-in form, invite links.

import { h, mount } from "../lib/dom.js";
import { t, getLang, setLang, errorText } from "./i18n.js";
import { me, signInGuest, logIn, register, signOut } from "./session.js";

/** Show a short message in the toast region; kind is "error" or "info". */
export function toast(message, kind = "info") {
  let region = document.getElementById("toasts");
  if (!region) {
    region = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.appendChild(region);
  }
  const item = h("div", { class: ["toast", `toast-${kind}`] }, message);
  region.appendChild(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

/** A readable message for an error thrown by api() or sent by the socket. */
export function errorMessage(error) {
  if (!error) return t("errors.generic");
  if (error.code === "network") return t("errors.network");
  return errorText(error.code, error.message) || t("errors.generic");
}

/** Why this page was signed out: the server's refusal ({code, message}; null: another tab found the session ended). */
export function signedOutText(refusal) {
  if (!refusal || refusal.code === "session_revoked") return t("session.ended_text");
  return errorText(refusal.code, refusal.message) || t("session.ended_text");
}

/**
 * Draw the page header: brand, the site's links (with `nav`: true, or a game's id for the Leaderboards link to open
 * that game's board), signed-in name, account buttons, language switch.
 */
export function renderHeader(container, { onChange, nav = false }) {
  const user = me();
  const langButton = h(
    "button",
    {
      type: "button",
      class: "ghost",
      "aria-label": t("lang.switch_label"),
      onclick: () => setLang(getLang() === "en" ? "es" : "en"),
    },
    t("lang.switch"),
  );
  const right = [];
  if (user) {
    // The name leads to the person's own profile; its accessible name starts with the name it shows.
    const mine = h("a", { class: "my-profile", href: profileUrl(user.id), "data-testid": "my-profile",
      "aria-label": t("profile.mine_named", { name: user.name }), title: t("profile.mine") },
    h("strong", { class: "user-name", "data-testid": "user-name" }, user.name));
    aimLink(mine, profilesBeside); // like every name: a game one plays stays open
    right.push(h("span", { class: "who" }, h("span", { class: "muted" }, `${t("auth.signed_in_as")} `), mine));
    if (!user.username) {
      right.push(h("button", { type: "button", class: "ghost", onclick: () => openAccountDialog(onChange) },
        t("auth.save_account")));
    }
    right.push(
      h("button", {
        type: "button",
        class: "ghost",
        onclick: async () => {
          await signOut().catch(() => {});
          onChange();
        },
      }, t("auth.sign_out")),
    );
  }
  right.push(langButton);
  const here = location.pathname === "/leaders" || location.pathname.startsWith("/leaders/");
  mount(
    container,
    h("div", { class: "header-left" },
      h("a", { class: "brand", href: "/" }, h("span", { class: "brand-mark", "aria-hidden": "true" }), t("app.name")),
      nav ? h("nav", { class: "site-nav", "aria-label": t("nav.label") },
        h("a", { href: leadersUrl(typeof nav === "string" ? nav : undefined), "data-testid": "nav-leaders", "aria-current": here ? "page" : null }, t("nav.leaders")))
        : null),
    h("div", { class: "header-right" }, right),
  );
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", null, label), input);
}

/** The sign-in panel: guest, log in, or create an account. `onDone` runs after success. */
export function signInForm(onDone, { upgrade = false } = {}) {
  const tabs = upgrade ? ["register"] : ["guest", "login", "register"];
  let active = tabs[0];
  const box = h("div", { class: "signin" });
  const errorLine = h("p", { class: "form-error", role: "alert" });

  function submitter(run) {
    return async (event) => {
      event.preventDefault();
      const button = event.target.querySelector("button[type=submit]");
      button.disabled = true;
      errorLine.textContent = "";
      try {
        await run(new FormData(event.target));
        onDone();
      } catch (error) {
        errorLine.textContent = errorMessage(error);
      } finally {
        button.disabled = false;
      }
    };
  }

  function form() {
    if (active === "guest") {
      return h("form", { class: "stack", onsubmit: submitter((d) => signInGuest(String(d.get("name")).trim())) },
        field(t("auth.name"), h("input", { name: "name", required: true, maxlength: "40", autocomplete: "nickname" })),
        h("p", { class: "muted small" }, t("auth.guest_hint")),
        h("button", { type: "submit", class: "primary" }, t("auth.guest_submit")));
    }
    if (active === "login") {
      return h("form", { class: "stack", onsubmit: submitter((d) => logIn(String(d.get("username")).trim(), String(d.get("password")))) },
        field(t("auth.username"), h("input", { name: "username", required: true, autocomplete: "username" })),
        field(t("auth.password"), h("input", { name: "password", type: "password", required: true, autocomplete: "current-password" })),
        h("button", { type: "submit", class: "primary" }, t("auth.login_submit")),
        h("a", { href: "/reset.html", class: "small", "data-testid": "forgot-password" }, t("auth.forgot")));
    }
    return h("form", {
      class: "stack",
      onsubmit: submitter((d) => register(String(d.get("username")).trim(), String(d.get("password")), String(d.get("name") || "").trim())),
    },
      upgrade ? h("p", { class: "muted small" }, t("auth.upgrade_hint")) : null,
      field(t("auth.username"), h("input", { name: "username", required: true, autocomplete: "username" })),
      field(t("auth.password"), h("input", { name: "password", type: "password", required: true, minlength: "8", autocomplete: "new-password" })),
      upgrade ? null : field(t("auth.display_name"), h("input", { name: "name", maxlength: "40", autocomplete: "nickname" })),
      h("button", { type: "submit", class: "primary" }, t("auth.register_submit")));
  }

  function draw() {
    const tabRow = tabs.length > 1
      ? h("div", { class: "tabs", role: "tablist" }, tabs.map((tab) =>
        h("button", {
          type: "button",
          role: "tab",
          "aria-selected": tab === active ? "true" : "false",
          class: ["tab", tab === active && "active"],
          onclick: () => {
            active = tab;
            errorLine.textContent = "";
            draw();
          },
        }, t(`auth.${tab}`))))
      : null;
    mount(box, tabRow, form(), errorLine);
  }
  draw();
  return box;
}

/** The dialog in which a guest creates an account (keeping their id and tables); `onChange` runs after it. */
export function openAccountDialog(onChange) {
  const dialog = h("dialog", { class: "dialog" });
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  mount(dialog,
    h("div", { class: "dialog-head" }, h("h2", null, t("auth.register")),
      h("button", { type: "button", class: "ghost", onclick: close, "aria-label": t("auth.close") }, "×")),
    signInForm(() => {
      close();
      onChange();
    }, { upgrade: true }));
  document.body.appendChild(dialog);
  dialog.showModal();
}

/** A game's own lobby text (a description, an option's label or choice) in the page's language. */
export function gameText(game, text) {
  const own = game.i18n && game.i18n[getLang()];
  return (own && own[text]) || text;
}

/** The options a table was made with, in words ("First player: Seat 2 · Trucks: Dealt at random"); "" if none. */
export function optionsText(game, options) {
  const parts = [];
  for (const option of game.options || []) {
    const value = (options || {})[option.id];
    if (value === undefined || value === null) continue;
    const label = gameText(game, option.label || option.id);
    if (option.type === "bool") {
      if (value) parts.push(label);
      continue;
    }
    const named = (option.choice_labels && option.choice_labels[value]) ?? value;
    parts.push(`${label}: ${gameText(game, String(named))}`);
  }
  return parts.join(" · ");
}

/** The "How to play" page of a game, in the page's language. */
export function rulesUrl(gameId) {
  return `/rules/${encodeURIComponent(gameId)}${getLang() === "es" ? ".es" : ""}.html`;
}

/** A link to a game's "How to play" page, opened beside the page it is on (a game in progress stays open). */
export function rulesLink(gameId) {
  return h("a", { class: "rules-link", href: rulesUrl(gameId), target: "_blank", rel: "noopener", "data-testid": "rules-link" },
    t("rules.how_to_play"));
}

/** The full invite URL of a private table. */
export function inviteUrl(tableId, code) {
  return `${location.origin}/t/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(code)}`;
}

/** A read-only invite link field with a copy button. */
export function inviteBox(tableId, code, renew = null) {
  const url = inviteUrl(tableId, code);
  const input = h("input", { class: "invite-url", readonly: true, value: url, "aria-label": t("invite.label"),
    onfocus: (event) => event.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast(t("invite.copied"));
    } catch {
      input.focus();
      input.select();
      // execCommand still works where the async clipboard is blocked (plain http).
      const ok = document.execCommand && document.execCommand("copy");
      toast(ok ? t("invite.copied") : t("invite.copy_failed"), ok ? "info" : "error");
    }
  };
  return h("div", { class: "invite" },
    h("span", { class: "invite-label" }, t("invite.label")),
    h("div", { class: "invite-row" }, input, h("button", { type: "button", class: "secondary", onclick: copy }, t("invite.copy")),
      // A leaked link is withdrawn by making a new one: the old one lets nobody in any more.
      renew ? h("button", { type: "button", class: "ghost", "data-testid": "invite-renew", title: t("invite.renew_hint"),
        onclick: renew }, t("invite.renew")) : null));
}

/** The leaderboard page, of one game or (no game) of the first one. */
export function leadersUrl(gameId) {
  return gameId ? `/leaders/${encodeURIComponent(gameId)}` : "/leaders";
}

/** The profile page of a person. */
export function profileUrl(userId) {
  return `/p/${encodeURIComponent(userId)}`;
}

// Whether this page is a live game its viewer plays, which following a profile link would leave (openProfilesBeside).
let profilesBeside = false;

function aimLink(link, beside) {
  if (beside) {
    link.target = "_blank";
    link.rel = "noopener";
  } else {
    link.removeAttribute("target");
    link.removeAttribute("rel");
  }
}

/**
 * Whether people's profiles open beside this page (in a new tab) rather than in its place: on the table page of a
 * player whose game is open or running. The names already drawn follow (the header's own name too), so a link never
 * keeps a choice made for a game since finished.
 */
export function openProfilesBeside(beside) {
  if (profilesBeside === beside) return;
  profilesBeside = beside;
  for (const link of document.querySelectorAll("a.person-link, a.my-profile")) aimLink(link, beside);
}

/**
 * A person's name as a link to their profile ({id, name}); `text` replaces the name shown. It opens in the same tab,
 * or beside the page while the page asks for it (openProfilesBeside: a game the viewer plays stays open).
 */
export function personLink(user, text) {
  const link = h("a", { class: "person-link", href: profileUrl(user.id), "data-testid": "person-link" }, text ?? user.name);
  aimLink(link, profilesBeside);
  return link;
}

/** The person ({id, name}) of a Table's seat, or null for a bot's own seat, an empty one or an unknown one. */
export function seatPerson(table, seat) {
  return table.seats.find((s) => s.seat === String(seat))?.user ?? null;
}

/** A seat's name as seatNames gives it (`names`), linked to its person's profile; a bot's stays plain text. */
export function seatLink(table, seat, names) {
  const person = seatPerson(table, seat);
  const name = names[seat] ?? String(seat);
  return person ? personLink(person, name) : name;
}

/** The names of these seats as words, each person's linked to their profile ("Ana and Bot 2"), for h(). */
export function seatLinks(table, seats, names) {
  return listParts(seats.map((seat) => seatLink(table, seat, names)));
}

/**
 * The taken seats of a Table as words, the people's names linked to their profiles ("Ana, Bo and Bot 3"); a bot
 * has no profile and stays plain text. An array of nodes and strings for h().
 */
export function seatPeople(table) {
  const names = seatNames(table);
  const parts = table.seats.filter((s) => s.user || s.bot)
    .map((s) => (s.user ? personLink(s.user, names[s.seat]) : names[s.seat]));
  return listParts(parts);
}

/** listNames for nodes: the same words between them, as an array of nodes and strings. */
export function listParts(parts) {
  const and = getLang() === "es" ? " y " : " and ";
  const out = [];
  parts.forEach((part, index) => {
    if (index > 0) out.push(index === parts.length - 1 ? and : ", ");
    out.push(part);
  });
  return out;
}

/** Display name of a seat of a Table. */
export function seatName(table, seat) {
  const entry = table.seats.find((s) => s.seat === seat);
  if (!entry) return seat;
  if (entry.user && entry.user.name) return entry.user.name;
  // A bot's name says how strongly it plays; a bot standing in for a person has that person's name.
  if (entry.bot && entry.bot_level) return t("table.bot_named_level", { n: Number(seat) + 1 || seat, level: t(`bot.${entry.bot_level}`) });
  if (entry.bot) return t("table.bot_named", { n: Number(seat) + 1 || seat });
  return t("table.seat_empty");
}

/** {seat: display name} for every seat of a Table. */
export function seatNames(table) {
  const names = {};
  for (const entry of table.seats) names[entry.seat] = seatName(table, entry.seat);
  return names;
}

/** Join a list of names into plain words: "Ana", "Ana and Bo", "Ana, Bo and Cy". */
export function listNames(names) {
  const and = getLang() === "es" ? " y " : " and ";
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")}${and}${names[names.length - 1]}`;
}

/** A rating change as players read it: "+16", "−8" (a true minus sign), "±0". */
export function signedChange(change) {
  if (change > 0) return `+${change}`;
  if (change < 0) return `\u2212${-change}`;
  return "\u00b10";
}

/**
 * A rating change ({before, after, change}) as a small badge, green up and red down, that says the whole of it in
 * words to assistive technology and on hover ("Rating 1500 → 1516 (+16)").
 */
export function ratingBadge(rating, props = {}) {
  const signed = signedChange(rating.change);
  const words = t("rating.change_words", { before: rating.before, after: rating.after, change: signed });
  const direction = rating.change > 0 ? "up" : rating.change < 0 ? "down" : "same";
  return h("span", { class: ["rating-change", direction], title: words, "aria-label": words, ...props }, signed);
}

/**
 * A rating's value, followed by a "?" when it is provisional (Glicko-2: its deviation is still large), which says
 * why on hover and to assistive technology.
 * @param {{rating: number, provisional?: boolean}} row
 */
export function ratingValue(row) {
  if (!row.provisional) return String(row.rating);
  const words = t("rating.provisional");
  return [String(row.rating), h("abbr", { class: "provisional", title: words, "aria-label": words }, "?")];
}

/** Human status label of a table. */
export function statusLabel(status) {
  return t(`status.${status}`);
}

/** A table's status badge: "Abandoned" for a game its players agreed to end, else its status. */
export function statusBadge(table, props = {}) {
  // A private table waiting for players is not "Open" to anyone: only its invite link seats people.
  const status = table.abandoned ? "abandoned" : table.status === "open" && table.visibility === "private" ? "private" : table.status;
  return h("span", { class: ["badge", `status-${status}`], "data-status": status, ...props }, statusLabel(status));
}

/**
 * Ask before something that cannot be taken back: a modal dialog (focus kept inside, Escape cancels) that
 * resolves true for `confirm`, false otherwise; focus returns where it was.
 */
export function confirmDialog({ title, text, confirm, cancel }) {
  const back = document.activeElement;
  return new Promise((resolve) => {
    const titleId = `dialog-title-${Date.now()}`;
    const dialog = h("dialog", { class: "dialog confirm-dialog", "aria-labelledby": titleId, "data-testid": "confirm-dialog" });
    const done = (answer) => {
      dialog.close();
      dialog.remove();
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      resolve(answer);
    };
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      done(false);
    });
    const no = h("button", { type: "button", class: "secondary", onclick: () => done(false) }, cancel);
    mount(dialog,
      h("h2", { id: titleId }, title),
      h("p", null, text),
      h("div", { class: "row dialog-actions" },
        h("button", { type: "button", class: "primary danger-btn", onclick: () => done(true), "data-testid": "confirm" }, confirm),
        no));
    document.body.appendChild(dialog);
    dialog.showModal();
    no.focus(); // the safe answer first: Enter right away does not abandon a game
  });
}
