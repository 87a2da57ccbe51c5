// The seats (who sits where, their clocks, presence dots and the host's controls) and the watchers under them.

import { h, mount, mountIfChanged, named } from "../../lib/dom.js";
import { t } from "../i18n.js";
import { me } from "../session.js";
import { personLink, toast } from "../ui.js";
import { panel } from "../store.js";
import { isSpectator, mayCallBotFor, names, presenceOf } from "../table-state.js";

/**
 * @param {import("../store.js").Store<import("../table-state.js").TableState>} store
 * @param {{seats: HTMLElement, watching: HTMLElement, watchers: HTMLElement, hostCall: (path: string, body?: any) => any,
 *   invite: string|null, seatNode: (seat: string) => Node, chat: () => any}} deps
 */
export function seatsPanel(store, deps) {
  // The bot level the host has picked so far for each empty seat: kept here, not in the element a redraw replaces.
  const botLevels = {};

  function reclaimButton() {
    return h("button", { type: "button", class: "primary small-btn", "data-testid": "reclaim", onclick: () => deps.hostCall("reclaim") },
      t("table.reclaim"));
  }

  function seatEntry(s, entry) {
    const table = s.table;
    const nameMap = names(s);
    const taken = Boolean(entry.user || entry.bot);
    const mine = !isSpectator(s) && entry.seat === s.seat;
    const turn = table.status === "playing" && s.awaiting.includes(entry.seat);
    const isHostSeat = taken && entry.user && table.host && entry.user.id === table.host.id;
    const controls = [];
    if (table.status === "open") {
      if (!taken && isSpectator(s) && me()) {
        controls.push(h("button", {
          type: "button",
          class: "primary small-btn",
          onclick: () => deps.hostCall("join", deps.invite ? { seat: entry.seat, invite_code: deps.invite } : { seat: entry.seat }),
        }, t("table.join_seat")));
      }
      if (table.is_host && !taken) {
        const level = h("select", { class: "small-select", "aria-label": t("table.bot_level"), title: t("table.bot_level"),
          "data-focus-id": `bot-level-${entry.seat}`,
          onchange: (event) => { botLevels[entry.seat] = event.target.value; } },
          ["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === (botLevels[entry.seat] || "normal") }, t(`bot.${l}`))));
        controls.push(level, h("button", { type: "button", class: "secondary small-btn", "data-focus-id": `add-bot-${entry.seat}`,
          onclick: () => deps.hostCall("bots", { seat: entry.seat, level: level.value }) }, t("table.add_bot")));
      }
      if (table.is_host && taken && !mine) {
        controls.push(h("button", { type: "button", class: "ghost small-btn danger", "data-focus-id": `kick-${entry.seat}`,
          onclick: () => deps.hostCall("kick", { seat: entry.seat }) }, t("table.kick")));
      }
    } else if (table.status === "playing" && entry.user) {
      // A player away for a while: a bot plays their seat until they take it back.
      if (entry.bot && mine) controls.push(reclaimButton());
      else if (!entry.bot && (mine || (table.is_host && !table.rated) || mayCallBotFor(s, entry, 0))) {
        // At a rated table the host waits like everyone (a bot's place is rated as its player's).
        controls.push(h("button", {
          type: "button", class: "ghost small-btn", "data-testid": "stand-in", "data-focus-id": `stand-in-${entry.seat}`,
          onclick: () => deps.hostCall("stand_in", { seat: entry.seat }),
          // Every seat may have one: the name says whose.
          "aria-label": mine ? null : t("table.stand_in_for", { name: nameMap[entry.seat] }),
        }, t("table.stand_in")));
      }
    }
    const score = table.outcome && table.outcome.scores ? table.outcome.scores[entry.seat] : undefined;
    const here = presenceOf(s, entry);
    return h("li", {
      class: ["seat", turn && "turn", mine && "mine", !taken && "empty"],
      "data-seat": entry.seat,
      "aria-current": turn ? "true" : null,
    },
      // Whether the seat's person has the table open now: a filled or a hollow dot, named in words.
      here ? h("span", { class: ["seat-dot", here], title: t(`table.${here}`), ...named(t(`table.${here}`)) })
        : h("span", { class: "seat-dot", "aria-hidden": "true" }),
      h("span", { class: "seat-name" },
        // A person's name leads to their profile; a bot has none.
        entry.user ? personLink(entry.user, nameMap[entry.seat])
          : taken ? nameMap[entry.seat] : h("span", { class: "muted" }, t("table.seat_empty")),
        // A player's seat a bot stood in for is theirs again once the game is over.
        entry.bot && (!entry.user || table.status === "playing") ? h("span", { class: "tag" }, t("table.bot")) : null,
        mine ? h("span", { class: "tag you" }, t("table.you")) : null,
        isHostSeat ? h("span", { class: "tag" }, t("table.host")) : null),
      score !== undefined ? h("span", { class: "seat-score" }, String(score)) : null,
      deps.seatNode(entry.seat),
      turn ? h("span", { class: "turn-mark" }, "◀") : null,
      controls.length ? h("span", { class: "seat-controls" }, controls) : null);
  }

  const seats = panel(store,
    (s) => [s.table, s.seat, s.awaiting, s.presence?.online, s.idleSince, s.idleTick, s.lang],
    () => {
      const s = store.get();
      if (!s.table) return;
      mount(deps.seats, s.table.seats.map((entry) => seatEntry(s, entry)));
    });

  // "N watching" by the Seats heading, and under the seats "Watching: Cy, Dee and 2 more": the signed-in watchers the
  // server names, each leading to their profile, and for the host a Mute (or Unmute) beside each, the way to silence
  // someone who has not written. In every status, as the chat is open in every one.
  const watchers = panel(store, (s) => [s.presence, s.table?.is_host === true, s.mutes, s.lang], (presence, host) => {
    const watching = presence ? presence.watching : 0;
    deps.watching.hidden = !watching;
    deps.watching.textContent = watching ? t("table.watching", { n: watching }) : "";
    const list = presence ? presence.watchers : [];
    if (!list.length) {
      deps.watchers.replaceChildren();
      deps.watchers.hidden = true;
      return;
    }
    const chat = deps.chat();
    const more = Math.max(0, presence.watching - list.length); // signed out, or past the names sent
    mountIfChanged(deps.watchers, h("div", { class: "watchers-inner" },
      h("span", { class: "watchers-label muted", id: "watchers-label" }, t("table.watchers")),
      h("ul", { class: "watchers-list", "aria-labelledby": "watchers-label" }, list.map((person) => {
        // Only the host knows who is muted (the others are never told).
        const muted = host && Boolean(chat?.isMuted(person.id));
        const mine = person.id === me()?.id;
        return h("li", { class: "watcher", "data-user-id": person.id },
          personLink(person, person.name),
          mine ? h("span", { class: "tag you" }, t("table.you")) : null,
          muted ? h("span", { class: "tag chat-muted-tag" }, t("chat.muted_tag")) : null,
          host && !mine ? h("button", {
            type: "button", class: "ghost chat-tool", "data-testid": "watcher-mute", "data-focus-id": `watcher-mute-${person.id}`,
            "aria-label": t(muted ? "chat.unmute_label" : "chat.mute_label", { name: person.name }),
            onclick: () => chat.toggleMute(person, (text) => toast(text, "error")),
          }, t(muted ? "chat.unmute" : "chat.mute")) : null);
      })),
      more ? h("span", { class: "muted" }, t(more === 1 ? "table.watchers_more_one" : "table.watchers_more", { n: more })) : null));
    deps.watchers.hidden = false;
  });

  return { seats, watchers, reclaimButton };
}
