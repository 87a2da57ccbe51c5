// The table's head (title, game, rules, status, options, time control, the sound and notification switches), the
// socket's status, and the spectator's banner (with an invite link's Join button).

import { h, mount, mountIfChanged } from "../../lib/dom.js";
import { t } from "../i18n.js";
import { me } from "../session.js";
import { optionsText, rulesLink, statusBadge, toast } from "../ui.js";
import { describeTimeControl } from "../clock.js";
import { chimeOn, setChimeOn } from "../chime.js";
import { notificationsSupported, setTurnNotifications, turnNotificationsOn } from "../notifications.js";
import { panel } from "../store.js";
import { isMyTurn, isSpectator } from "../table-state.js";

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{head: HTMLElement, conn: HTMLElement, banner: HTMLElement, invite: string|null, retry: () => void,
 *   hostCall: (path: string, body?: any) => any}} deps
 */
export function headPanel(store, deps) {
  // The switches are made once and kept across redraws, so a click never lands between two copies.
  const chime = h("button", {
    type: "button", class: "ghost small-btn chime-switch", "data-testid": "chime-switch",
    onclick: () => {
      setChimeOn(!chimeOn());
      store.set({ chime: chimeOn() });
    },
  });
  const notify = h("button", {
    type: "button", class: "ghost small-btn notify-switch", "data-testid": "notify-switch",
    onclick: async () => {
      const user = me();
      if (!user) return;
      const on = await setTurnNotifications(user.id, !turnNotificationsOn(user.id));
      if (!on && Notification.permission === "denied") toast(t("notify.denied"), "error");
      store.set({ notify: on });
    },
  });

  /** The sound switch: only someone seated at a running game has turns to hear of. */
  function chimeSwitch(s) {
    if (isSpectator(s) || s.table.status !== "playing") return null;
    chime.setAttribute("aria-pressed", String(s.chime));
    chime.title = t("table.chime_hint");
    chime.textContent = s.chime ? t("table.chime_on") : t("table.chime_off");
    return chime;
  }

  /** "Notify me": a notification when it becomes my turn while this tab is hidden; the browser's permission is asked
   * on this click, never on load. */
  function notifySwitch(s) {
    if (!me() || !notificationsSupported() || isSpectator(s) || s.table.status !== "playing") return null;
    notify.setAttribute("aria-pressed", String(s.notify));
    notify.title = t("notify.hint");
    notify.textContent = s.notify ? t("notify.on") : t("notify.off");
    return notify;
  }

  // The tab's title: visible in the tab strip while the player looks elsewhere.
  const title = panel(store, (s) => [s.table?.name, s.game?.title, s.table?.game, isMyTurn(s), s.lang], (name, gameTitle, game, mine) => {
    if (!game) return;
    document.title = `${mine ? `▶ ${t("table.your_turn")} · ` : ""}${name || gameTitle || game} · ${t("app.name")}`;
  });

  const head = panel(store, (s) => [s.table, s.game, s.seat, s.chime, s.notify, s.lang], () => {
    const s = store.get();
    const table = s.table;
    if (!table) return;
    const gameTitle = s.game?.title ?? null;
    const title = table.name || gameTitle || table.game;
    const options = s.game ? optionsText(s.game, table.options) : "";
    mount(deps.head,
      h("div", { class: "table-head-main" },
        h("h1", null, title),
        table.name && gameTitle ? h("span", { class: "muted" }, gameTitle) : null,
        rulesLink(table.game),
        statusBadge(table, { "data-testid": "table-status" })),
      h("div", { class: "table-head-side" }, chimeSwitch(s), notifySwitch(s), deps.conn),
      options ? h("p", { class: "table-options muted", "data-testid": "table-options" }, options) : null,
      table.time_control ? h("p", { class: "table-clock muted", "data-testid": "time-control" },
        `${t("lobby.time_control")}: ${describeTimeControl(table.time_control)}`) : null);
  });

  const conn = panel(store, (s) => [s.conn, s.lang], ({ status, info }) => {
    let text;
    if (status === "online") text = t("conn.online");
    else if (navigator.onLine === false) text = t("conn.offline");
    else if (status === "reconnecting" && info.delay) text = t("conn.reconnecting", { s: Math.max(1, Math.round(info.delay / 1000)) });
    else if (status === "reconnecting" || status === "connecting") text = t("conn.connecting");
    else text = info.reason ? `${t("conn.closed")}: ${info.reason}` : t("conn.closed");
    deps.conn.dataset.state = status;
    mount(deps.conn, h("span", { class: "conn-dot", "aria-hidden": "true" }), text,
      status === "closed" ? h("button", { type: "button", class: "ghost small-btn", onclick: deps.retry }, t("conn.retry")) : null);
  });

  const banner = panel(store, (s) => [s.table, s.seat, s.lang], (table) => {
    if (!table) return;
    const show = isSpectator(store.get());
    deps.banner.hidden = !show;
    if (!show) return;
    const free = table.seats.some((entry) => !entry.user && !entry.bot);
    let text = t("table.spectator");
    if (table.status === "open" && me()) text = free ? t("table.spectator_open") : t("table.spectator_full");
    // An invite link shows the table first (who hosts, who sits, the options) and seats the person when they say so.
    const join = deps.invite && table.status === "open" && me() && free
      ? h("button", { type: "button", class: "primary small-btn", "data-testid": "join",
        onclick: () => deps.hostCall("join", { invite_code: deps.invite }) }, t("table.join"))
      : null;
    mountIfChanged(deps.banner, h("div", { class: "banner-inner" }, h("span", null, text), join));
  });

  return { title, head, conn, banner };
}
