// A player's page (/p/{id}): who they are, their finished games per game, and their recent games.

import { h, mount } from "../lib/dom.js";
import { afterPress } from "../lib/press.js";
import { api, query, ApiError } from "./api.js";
import { t, getLang, onLangChange } from "./i18n.js";
import { me, loadMe, rename, changePassword, signOutEverywhere, onSignedOut } from "./session.js";
import { disablePush, enablePush, pushSubscription, pushSupported } from "./notifications.js";
import {
  errorMessage, renderHeader, personLink, listParts, toast, openAccountDialog, confirmDialog, signedOutText, ratingBadge, ratingValue,
  signedChange, leadersUrl,
} from "./ui.js";

const userId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

const S = {
  profile: null, // the first answer of GET /api/players/{id}: the person and the counts
  recent: [], // every page of recent games fetched so far, newest first
  next: null, // the cursor of the next page of finished games (docs/api/pagination.md)
  loadingMore: false,
  error: null, // {notFound} or {message} when the profile could not be loaded
  nameDraft: null, // what I typed in the account's name field, kept across redraws (a language switch)
  notify: null, // my email notifications (GET /api/me/notifications), on my own page with an account
  push: false, // whether this browser gets my Web Push notifications (it holds a subscription)
};

const els = {};

function playerPath(params = {}) {
  return `/api/players/${encodeURIComponent(userId)}${query(params)}`;
}

function formatDate(iso, withTime) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  /** @type {Intl.DateTimeFormatOptions} */
  const options = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "long" };
  return new Intl.DateTimeFormat(getLang(), options).format(date);
}

function isMe() {
  return Boolean(me() && me().id === userId);
}

// ---- drawing -------------------------------------------------------------------

function drawHead() {
  const { user } = S.profile;
  document.title = `${t("profile.page_title", { name: user.name })} · ${t("app.name")}`;
  return h("div", { class: "profile-head" },
    h("h1", { "data-testid": "profile-name" }, user.name, isMe() ? h("span", { class: "tag you" }, t("table.you")) : null),
    h("p", { class: "muted" },
      h("span", { class: "badge", "data-testid": "profile-kind" }, t(user.registered ? "profile.registered" : "profile.guest")),
      " ",
      h("span", null, t("profile.member_since", { date: formatDate(user.member_since, false) }))));
}

function drawSummary() {
  const { games, totals } = S.profile;
  const body = games.length
    // Its own scroll box: a narrow phone with long headers never makes the whole page scroll sideways.
    ? h("div", { class: "profile-summary-wrap" }, h("table", { class: "ranking profile-summary", "data-testid": "profile-summary" },
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, t("profile.game")),
        h("th", { scope: "col", class: "num" }, t("profile.played")),
        h("th", { scope: "col", class: "num" }, t("profile.won")),
        h("th", { scope: "col", class: "num" }, h("abbr", { title: t("profile.shared_hint") }, t("profile.shared"))))),
      h("tbody", null, games.map((g) => h("tr", { "data-game": g.game },
        h("th", { scope: "row" }, g.title),
        h("td", { class: "num" }, String(g.played)),
        h("td", { class: "num" }, String(g.won)),
        h("td", { class: "num" }, String(g.shared))))),
      games.length > 1 ? h("tfoot", null, h("tr", null,
        h("th", { scope: "row" }, t("profile.total")),
        h("td", { class: "num" }, String(totals.played)),
        h("td", { class: "num" }, String(totals.won)),
        h("td", { class: "num" }, String(totals.shared)))) : null))
    // Only abandoned games listed: "no finished games" beside a list of finished ones would read as a mistake.
    : h("p", { class: "muted", "data-testid": "profile-none" }, t(S.recent.length ? "profile.none_counted" : "profile.none"));
  return h("section", { class: "panel", "aria-labelledby": "profile-summary-title" },
    h("h2", { id: "profile-summary-title" }, t("profile.summary")),
    body,
    // Said where the counts are, so a game in the list missing from them is not taken for a miscount.
    S.recent.some((entry) => entry.abandoned)
      ? h("p", { class: "muted small", "data-testid": "profile-abandoned-note" }, t("profile.abandoned_note")) : null,
    // Someone else's page may leave out games at private tables: say so, so a short record is not misread.
    isMe() ? null : h("p", { class: "muted small" }, t("profile.privacy")));
}

/** Each game's rating, rated games and last change (every game: one not played yet shows the starting 1500); a guest
 * has none, and the page says why rather than show a 1500 that would read as a rating. */
function drawRatings() {
  const ratings = S.profile.ratings || [];
  if (!S.profile.user.registered) {
    return h("section", { class: "panel", "aria-labelledby": "profile-ratings-title" },
      h("h2", { id: "profile-ratings-title" }, t("profile.ratings")),
      h("p", { class: "muted", "data-testid": "profile-guest-unrated" },
        t(isMe() ? "profile.guest_unrated_mine" : "profile.guest_unrated")));
  }
  return h("section", { class: "panel", "aria-labelledby": "profile-ratings-title" },
    h("h2", { id: "profile-ratings-title" }, t("profile.ratings")),
    h("div", { class: "profile-summary-wrap" }, h("table", { class: "ranking profile-summary profile-ratings", "data-testid": "profile-ratings" },
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, t("profile.game")),
        h("th", { scope: "col", class: "num" }, t("profile.rating")),
        h("th", { scope: "col", class: "num" }, t("profile.rated_games")),
        h("th", { scope: "col", class: "num" }, t("profile.last_change")))),
      h("tbody", null, ratings.map((r) => h("tr", { "data-game": r.game, class: r.games ? null : "unrated" },
        // The game's name leads to its leaderboard, where this rating stands among everyone's.
        h("th", { scope: "row" }, h("a", {
          class: "leaders-link", href: leadersUrl(r.game), "data-testid": "profile-leaders-link",
          "aria-label": t("profile.leaders_link", { game: r.title }), title: t("profile.leaders_link", { game: r.title }),
        }, r.title)),
        h("td", { class: "num rating-value", "data-testid": "profile-rating" }, ratingValue(r)),
        h("td", { class: "num" }, String(r.games)),
        h("td", { class: "num" }, r.last_change === null || r.last_change === undefined ? "—"
          : h("span", { class: ["rating-change", r.last_change > 0 ? "up" : r.last_change < 0 ? "down" : "same"] },
            signedChange(r.last_change)))))))),
    h("p", { class: "muted small" }, t("profile.ratings_note")));
}

function resultBadge(entry) {
  if (entry.abandoned) return h("span", { class: "tag" }, t("status.abandoned"));
  if (entry.shared) return h("span", { class: "tag win" }, t("profile.result_shared"));
  if (entry.won) return h("span", { class: "tag win" }, t("profile.result_won"));
  if (entry.place) return h("span", { class: "tag" }, t("profile.result_place", { place: entry.place, n: entry.seats.length }));
  return h("span", { class: "tag" }, t("profile.result_lost"));
}

/** Everyone at the table with their score, best place first; people link to their profiles, bots do not. */
function seatsLine(entry) {
  const seats = [...entry.seats].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || Number(a.seat) - Number(b.seat));
  const parts = seats.map((s) => {
    const name = s.user ? s.user.name : t("table.bot_named", { n: Number(s.seat) + 1 });
    // The page's own person stands out and is not a link to the page itself; a bot has no page.
    let who = name;
    if (s.user && s.user.id === userId) who = h("strong", null, name);
    else if (s.user) who = personLink(s.user, name);
    return h("span", { class: ["profile-seat", s.won && "won"] }, who,
      s.score !== null && s.score !== undefined ? h("span", { class: "seat-score" }, ` (${s.score})`) : null);
  });
  return h("p", { class: "profile-seats small" }, h("span", { class: "muted" }, `${t("profile.players")}: `), listParts(parts));
}

function entryItem(entry) {
  const tableUrl = `/t/${encodeURIComponent(entry.table_id)}`;
  return h("li", { class: ["table-row", "profile-game"], "data-testid": "profile-game", "data-table-id": entry.table_id },
    h("div", { class: "table-main" },
      h("div", { class: "table-title" },
        h("a", { href: tableUrl, "data-testid": "profile-table-link" }, h("strong", null, entry.name)),
        h("span", { class: "muted small" }, ` · ${entry.title}`),
        entry.visibility === "private" ? h("span", { class: "tag" }, t("profile.private")) : null),
      h("div", { class: "table-meta small" },
        resultBadge(entry),
        entry.rating ? ratingBadge(entry.rating, { "data-testid": "profile-rating-change" }) : null,
        entry.score !== null && entry.score !== undefined ? h("span", null, t("profile.score", { score: entry.score })) : null,
        h("span", { class: "muted" }, t("profile.finished_at", { date: formatDate(entry.finished_at, true) }))),
      seatsLine(entry)),
    h("div", { class: "table-actions" },
      h("a", { class: "button secondary", href: tableUrl, "aria-label": `${t("profile.open_table")}: ${entry.name}` },
        t("profile.open_table")),
      h("a", { class: "button secondary", href: `${tableUrl}?replay=0`, "aria-label": `${t("lobby.replay")}: ${entry.name}` },
        t("lobby.replay"))));
}

function drawRecent() {
  let body;
  if (!S.recent.length) body = h("p", { class: "muted" }, t("profile.none"));
  else body = h("ol", { class: "table-list profile-games", "data-testid": "profile-games" }, S.recent.map(entryItem));
  return h("section", { class: "panel", "aria-labelledby": "profile-recent-title" },
    h("h2", { id: "profile-recent-title" }, t("profile.recent")),
    body,
    S.next ? h("button", {
      type: "button", class: "secondary profile-more", "data-testid": "profile-more", disabled: S.loadingMore, onclick: loadMore,
    }, t("profile.more")) : null);
}

// ---- my account (my own page only) ------------------------------------------------

/** A form whose submit runs `run(formData)` with its button disabled and its error said in its own alert line. */
function accountForm(testid, run, ...fields) {
  const errorLine = h("p", { class: "form-error", role: "alert", "data-testid": `${testid}-error` });
  const onsubmit = async (event) => {
    event.preventDefault();
    const form = event.target;
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    errorLine.textContent = "";
    try {
      await run(new FormData(form), form);
    } catch (error) {
      errorLine.textContent = errorMessage(error);
    } finally {
      button.disabled = false;
    }
  };
  return h("form", { class: "stack account-form", "data-testid": testid, onsubmit }, ...fields, errorLine);
}

async function submitName(data) {
  const user = await rename(String(data.get("name")).trim());
  S.nameDraft = null;
  S.profile = { ...S.profile, user: { ...S.profile.user, name: user.name } };
  drawPage(); // the header and the page's title name me anew at once
  toast(t("account.name_done", { name: user.name }));
}

async function submitPassword(data, form) {
  await changePassword(String(data.get("current")), String(data.get("new")));
  form.reset();
  toast(t("account.password_done"));
}

async function submitNotify(data) {
  const email = String(data.get("email") || "").trim();
  const before = S.notify.email;
  S.notify = await api("PUT", "/api/me/notifications", {
    email: email || null, turn: data.get("turn") === "on", finished: data.get("finished") === "on",
    invite: data.get("invite") === "on",
  });
  drawPage();
  toast(email && email !== before ? t("account.notify_confirm_sent", { email }) : t("account.notify_done"));
}

/** Email notifications: the address (confirmed by a mailed link before anything goes there) and which mails. */
function notifyBox() {
  const n = S.notify;
  if (!n || !n.enabled) return null;
  const check = (name) => h("label", { class: "check" },
    h("input", { type: "checkbox", name, checked: Boolean(n[name]) }), h("span", null, t(`account.notify_${name}`)));
  const status = !n.email ? null : n.email_verified ? t("account.notify_confirmed") : t("account.notify_waiting");
  return h("div", { class: "account-notify", "data-testid": "account-notify" },
    h("h3", null, t("account.notify_title")),
    accountForm("account-notify-form", submitNotify,
      h("label", { class: "field" }, h("span", null, t("account.notify_email")),
        h("input", { name: "email", type: "email", value: n.email ?? "", autocomplete: "email", maxlength: "254" })),
      status ? h("p", { class: "muted small", "data-testid": "account-notify-status" }, status) : null,
      check("turn"), check("finished"), check("invite"),
      h("button", { type: "submit", class: "primary" }, t("account.notify_submit"))));
}

/** Web Push on this browser: subscribing asks the browser's permission, on the click. */
function pushBox() {
  const errorLine = h("p", { class: "form-error", role: "alert", "data-testid": "account-push-error" });
  const supported = pushSupported();
  const button = supported ? h("button", {
    type: "button", class: "secondary", "data-testid": "account-push-switch",
    onclick: async () => {
      button.disabled = true;
      errorLine.textContent = "";
      try {
        if (S.push) await disablePush();
        else if (!(await enablePush())) throw new ApiError(0, "push_denied", t("notify.denied"));
        S.push = Boolean(await pushSubscription());
        drawPage();
      } catch (error) {
        errorLine.textContent = errorMessage(error);
        button.disabled = false;
      }
    },
  }, S.push ? t("push.disable") : t("push.enable")) : null;
  return h("div", { class: "account-push", "data-testid": "account-push" },
    h("h3", null, t("push.title")),
    h("p", { class: "muted small" }, t("push.hint")),
    h("p", { class: "small", "data-testid": "account-push-status" },
      !supported ? t("push.unsupported") : S.push ? t("push.on") : t("push.off")),
    button,
    errorLine);
}

/** "Sign out everywhere", after a confirmation: every session of the account ends, this one too (docs/api/identity.md says
 * why), so the page is then drawn as a visitor sees it. */
function everywhereBox() {
  const errorLine = h("p", { class: "form-error", role: "alert", "data-testid": "account-everywhere-error" });
  const button = h("button", {
    type: "button", class: "secondary", "data-testid": "account-everywhere-submit",
    onclick: async () => {
      errorLine.textContent = "";
      const sure = await confirmDialog({
        title: t("account.everywhere_confirm_title"),
        text: t("account.everywhere_confirm_text"),
        confirm: t("account.everywhere_submit"),
        cancel: t("lobby.cancel"),
      });
      if (!sure) return;
      button.disabled = true;
      try {
        await signOutEverywhere();
      } catch (error) {
        errorLine.textContent = errorMessage(error);
        button.disabled = false;
        return;
      }
      toast(t("account.everywhere_done"));
      start();
    },
  }, t("account.everywhere_submit"));
  return h("div", { class: "account-everywhere", "data-testid": "account-everywhere" },
    h("h3", null, t("account.everywhere_title")),
    h("p", { class: "muted small" }, t("account.everywhere_hint")),
    button,
    errorLine);
}

function drawAccount() {
  const user = me();
  const nameForm = accountForm("account-name", submitName,
    h("label", { class: "field" }, h("span", null, t("account.name")),
      h("input", {
        name: "name", required: true, maxlength: "40", autocomplete: "nickname", "aria-describedby": "account-name-hint",
        value: S.nameDraft ?? user.name, oninput: (event) => { S.nameDraft = event.target.value; },
      })),
    h("p", { class: "muted small", id: "account-name-hint" }, t("account.name_hint")),
    h("button", { type: "submit", class: "primary" }, t("account.name_submit")));
  let second;
  if (user.username) {
    second = h("div", { class: "account-password" },
      h("h3", null, t("account.password_title")),
      // The username rides along, hidden, so a password manager knows which login the new password is for.
      accountForm("account-password", submitPassword,
        h("input", { type: "text", name: "username", value: user.username, autocomplete: "username", hidden: true, readonly: true }),
        h("label", { class: "field" }, h("span", null, t("account.current")),
          h("input", { name: "current", type: "password", required: true, autocomplete: "current-password" })),
        h("label", { class: "field" }, h("span", null, t("account.new")),
          h("input", { name: "new", type: "password", required: true, minlength: "8", autocomplete: "new-password",
            "aria-describedby": "account-new-hint" })),
        h("p", { class: "muted small", id: "account-new-hint" }, t("account.new_hint")),
        h("button", { type: "submit", class: "primary" }, t("account.password_submit"))));
  } else {
    second = h("div", { class: "account-guest", "data-testid": "account-guest" },
      h("p", { class: "muted" }, t("account.guest_text")),
      h("button", { type: "button", class: "secondary", "data-testid": "account-register", onclick: () => openAccountDialog(() => start()) },
        t("auth.register")));
  }
  return h("section", { class: "panel account", "aria-labelledby": "account-title", "data-testid": "account" },
    h("h2", { id: "account-title" }, t("account.title")),
    user.username ? h("p", { class: "muted small" }, t("account.username", { username: user.username })) : null,
    nameForm,
    second,
    user.username ? notifyBox() : null,
    user.username && S.notify?.push ? pushBox() : null,
    user.username ? everywhereBox() : null);
}

function drawPage() {
  renderHeader(els.header, { onChange: () => start(), nav: true });
  if (S.error) {
    document.title = t("app.name");
    mount(els.main, h("section", { class: "panel" },
      h("p", { "data-testid": "profile-error" }, S.error.notFound ? t("profile.not_found") : S.error.message),
      h("a", { class: "button secondary", href: "/" }, t("table.back"))));
    return;
  }
  if (!S.profile) {
    mount(els.main, h("p", { class: "muted" }, t("profile.loading")));
    return;
  }
  mount(els.main, drawHead(), isMe() ? drawAccount() : null,
    h("div", { class: "profile-layout" }, h("div", { class: "profile-side" }, drawRatings(), drawSummary()), drawRecent()));
}

// ---- loading -------------------------------------------------------------------

async function loadMore() {
  if (S.loadingMore || !S.next) return;
  S.loadingMore = true;
  const first = S.recent.length;
  drawPage();
  try {
    const page = await api("GET", playerPath({ cursor: S.next }));
    S.recent = [...S.recent, ...page.recent];
    S.next = page.next;
  } catch (error) {
    toast(`${t("profile.more_failed")} ${errorMessage(error)}`, "error");
  } finally {
    S.loadingMore = false;
  }
  // Not under a press (its click would be lost with the element it pressed); then the button is gone or moved, and
  // keyboard focus goes to the first of the games just shown.
  afterPress(() => {
    drawPage();
    els.main.querySelectorAll("[data-testid=profile-table-link]")[first]?.focus();
  });
}

async function start() {
  try {
    await loadMe();
  } catch (error) {
    toast(errorMessage(error), "error");
  }
  S.profile = null;
  S.error = null;
  drawPage();
  try {
    const profile = await api("GET", playerPath());
    S.profile = profile;
    S.recent = profile.recent;
    S.next = profile.next;
    S.notify = isMe() && me()?.username ? await api("GET", "/api/me/notifications").catch(() => null) : null;
    S.push = isMe() && me()?.username ? Boolean(await pushSubscription().catch(() => null)) : false;
  } catch (error) {
    S.error = error instanceof ApiError && error.status === 404 ? { notFound: true } : { message: errorMessage(error) };
  }
  afterPress(drawPage); // a click under way keeps the element it pressed
}

function init() {
  els.header = document.getElementById("header");
  els.main = document.getElementById("main");
  if (!userId) {
    S.error = { notFound: true };
    drawPage();
    return;
  }
  onLangChange(drawPage);
  // The session ended elsewhere (found by a refused call): say so, and draw the page as a visitor sees it.
  onSignedOut((refusal) => {
    toast(signedOutText(refusal), "error");
    start();
  });
  start();
}

init();
