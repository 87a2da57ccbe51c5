// The table's chat panel: history from GET /api/tables/{id}/chat, live lines from the socket, posting over it.

import { h, mount } from "../lib/dom.js";
import { api, query } from "./api.js";
import { t, getLang, onLangChange, errorText } from "./i18n.js";
import { me } from "./session.js";
import { personLink } from "./ui.js";

const MAX_CHARS = 300; // the server's limit, in code points after trimming
const COUNT_FROM = 250; // the counter shows from here on
const KEEP = 200; // lines kept on the page
const OPEN_KEY = "fg.chat.open";
const NEAR_BOTTOM_PX = 40;

function chars(text) {
  return [...text.trim()].length;
}

function remembered() {
  try {
    return localStorage.getItem(OPEN_KEY) !== "0";
  } catch {
    return true;
  }
}

function remember(open) {
  try {
    localStorage.setItem(OPEN_KEY, open ? "1" : "0");
  } catch {
    // Not remembered; the panel still folds.
  }
}

function timeOf(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const today = new Date().toDateString() === at.toDateString();
  /** @type {Intl.DateTimeFormatOptions} */
  const options = today ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  return at.toLocaleString(getLang(), options);
}

/**
 * The chat panel of one table. `socket()` gives the table's TableSocket (it is made after the panel).
 * The table page calls onMessage(message) with every socket message; the panel keeps what concerns it, and
 * setHost(bool) whenever the table says whether this person hosts it (the host may remove lines and mute people).
 * `jump` is the "new in chat" button: the page puts it where it covers nothing (its turn bar).
 */
export class ChatPanel {
  constructor({ tableId, invite, socket, signIn = null, onMutes = null }) {
    this.tableId = tableId;
    this.invite = invite;
    this.socket = socket;
    this.signIn = signIn; // opens the page's sign-in form
    this.onMutes = onMutes; // told whenever the host's list of the muted may have changed (the page's watchers)
    this.isHost = false;
    this.muted = false; // the host muted this person
    this.mutes = new Map(); // for the host: user id -> name of the people muted here
    this.lines = new Map(); // id -> line
    this.unread = 0;
    this.listInSight = false; // the lines are on screen
    this.panelInSight = false; // some of the panel is (its title and count, when folded)
    this.loadEpoch = 0;
    this.loaded = false;
    this.sending = false;

    this.title = h("h2", { class: "chat-title" });
    this.badge = h("span", { class: "chat-unread", "data-testid": "chat-unread", hidden: true });
    this.summary = h("summary", { class: "chat-summary" }, this.title, this.badge);
    this.list = h("ol", { class: "chat-list", "data-testid": "chat-list" });
    this.empty = h("p", { class: "muted small chat-empty" });
    // Scrolled back down to the newest lines, what was unread has been seen.
    this.scroller = h("div", { class: "chat-scroll", tabindex: "0", onscroll: () => { if (this.unread) this.seen(); } },
      this.empty, this.list);
    // New lines are read out from here, not from the list: reloading the history must not read it all again.
    this.announcer = h("div", { class: "sr-only", "aria-live": "polite", "data-testid": "chat-announcer" });
    this.input = h("textarea", {
      class: "chat-input", rows: "1", "data-testid": "chat-input", enterkeyhint: "send",
      oninput: () => { this.showError(""); this.drawCounter(); },
      onkeydown: (event) => this.onKey(event),
    });
    this.counter = h("span", { class: "chat-counter small", id: `chat-counter-${tableId}`, "aria-live": "off" });
    this.hint = h("span", { class: "chat-hint small muted", id: `chat-hint-${tableId}` });
    this.sendButton = h("button", { type: "submit", class: "primary small-btn", "data-testid": "chat-send" });
    this.errorLine = h("p", { class: "form-error small", role: "alert", "data-testid": "chat-error" });
    // Said in the footer, and tied to the box, so a muted person knows why it takes nothing.
    this.mutedLine = h("p", { class: "chat-muted small", id: `chat-muted-${tableId}`, role: "status", "data-testid": "chat-muted", hidden: true });
    // For the host: who is muted, each with a button to let them talk again.
    this.mutedList = h("div", { class: "chat-mutes small", "data-testid": "chat-mutes", hidden: true });
    // Who may chat, as the table says; the host chooses it here.
    this.mode = "everyone";
    this.modeSelect = h("select", { class: "chat-mode-select", "data-testid": "chat-mode",
      onchange: () => this.chooseMode(this.modeSelect.value) });
    this.modeLabel = h("span");
    this.modeRow = h("label", { class: "chat-mode small", hidden: true }, this.modeLabel, " ", this.modeSelect);
    this.form = h("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); this.send(); } },
      this.mutedLine,
      h("div", { class: "chat-row" }, this.input, this.sendButton),
      h("div", { class: "chat-meta" }, this.hint, this.counter),
      this.errorLine);
    this.signedOutText = h("span");
    this.signInButton = signIn ? h("button", { type: "button", class: "ghost small-btn", "data-testid": "chat-sign-in", onclick: () => this.signIn() }) : null;
    this.signedOut = h("p", { class: "muted small chat-signed-out", "data-testid": "chat-signed-out" },
      this.signedOutText, this.signInButton ? " " : null, this.signInButton);
    // The form, or for someone signed out a line saying why there is none (not a hidden form: the page's
    // sign-in form must stay the only one there).
    this.footer = h("div", { class: "chat-footer" });
    this.details = h("details", { class: "chat-fold", open: remembered() ? true : null,
      ontoggle: () => this.toggled() },
    this.summary, this.scroller, this.mutedList, this.modeRow, this.footer);
    this.el = h("section", { class: "panel chat", "data-testid": "chat" }, this.details, this.announcer);
    this.jump = h("button", { type: "button", class: "chat-jump", "data-testid": "chat-jump", hidden: true,
      onclick: () => this.show() });

    this.watchSight();
    document.addEventListener("visibilitychange", () => this.seen());
    onLangChange(() => this.drawAll());
    this.drawAll();
  }

  // ---- the socket's messages ----

  onMessage(message) {
    if (message.type === "snapshot") this.reload(); // a (re)connect: lines posted while away are fetched
    else if (message.type === "chat" && message.message) this.add([message.message], true);
    else if (message.type === "chat_removed" && typeof message.id === "number") this.removed(message.id);
    else if (message.type === "chat_mute" && message.user) this.muteChanged(message.user, message.muted === true);
  }

  /** Who may chat now, as the table says ("everyone", "accounts" or "players"). */
  setMode(mode) {
    if (!mode || mode === this.mode) return;
    this.mode = mode;
    this.drawMode();
  }

  /** The host keeps the chat to accounts or players, or opens it to everyone. */
  async chooseMode(mode) {
    try {
      await api("PUT", `/api/tables/${encodeURIComponent(this.tableId)}/chat/mode`, { mode });
    } catch (error) {
      this.showError(errorText(error.code, error.message) || t("errors.generic"));
      this.drawMode(); // back to what the table says
    }
  }

  drawMode() {
    this.modeRow.hidden = !this.isHost;
    this.modeLabel.textContent = t("chat.mode_label");
    mount(this.modeSelect, ["everyone", "accounts", "players"].map((mode) =>
      h("option", { value: mode, selected: mode === this.mode ? true : null }, t(`chat.mode.${mode}`))));
    this.modeSelect.value = this.mode;
  }

  /** The host says whether this person hosts the table: the moderation buttons come and go with it. */
  setHost(isHost) {
    if (this.isHost === Boolean(isHost)) return;
    this.isHost = Boolean(isHost);
    if (this.isHost) this.loadMutes();
    else this.mutes.clear();
    this.drawLines();
    this.drawMutes();
    this.drawMode();
  }

  async loadMutes() {
    try {
      const answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/chat/mutes`);
      this.mutes = new Map((answer.mutes || []).map((m) => [m.user.id, m.user.name]));
      this.drawLines();
      this.drawMutes();
    } catch (error) {
      console.warn("chat mutes unavailable", error);
    }
  }

  removed(id) {
    if (!this.lines.delete(id)) return;
    this.list.querySelector(`[data-id="${id}"]`)?.remove();
    this.drawEmpty();
  }

  muteChanged(user, muted) {
    if (this.isHost) {
      if (muted) this.mutes.set(user.id, user.name);
      else this.mutes.delete(user.id);
      this.drawLines();
      this.drawMutes();
    }
    const mine = me();
    if (mine && user.id === mine.id && this.muted !== muted) {
      this.muted = muted;
      this.drawMuted();
    }
  }

  /**
   * A host's call on a line or a person; whether it was done. A refusal is shown where a send's would be, or told
   * to `report` (a call made from elsewhere on the page, where the chat's error line may be out of sight).
   */
  async moderate(method, path, doneText, report = null) {
    try {
      await api(method, `/api/tables/${encodeURIComponent(this.tableId)}/chat/${path}`);
      if (doneText) this.announcer.append(h("p", null, doneText));
      return true;
    } catch (error) {
      (report ?? ((text) => this.showError(text)))(errorText(error.code, error.message) || t("errors.generic"));
      return false;
    }
  }

  removeLine(line) {
    // The socket's chat_removed takes it off the list. The focus was on the line's button, which goes with the
    // line: the list keeps it.
    this.scroller.focus({ preventScroll: true });
    this.moderate("DELETE", String(line.id), t("chat.removed_done"));
  }

  /** Whether the host muted this person here (known to the host only). */
  isMuted(userId) {
    return this.mutes.has(userId);
  }

  /** Mute or unmute a person ({id, name}): from their line, the list of the muted, or the page's watchers. */
  async toggleMute(user, report = null) {
    const muted = this.mutes.has(user.id);
    const done = await this.moderate(muted ? "DELETE" : "PUT", `mutes/${encodeURIComponent(user.id)}`,
      t(muted ? "chat.unmuted_done" : "chat.muted_done", { name: user.name }), report);
    // The socket's chat_mute says it too, but not while it reconnects: the buttons change now.
    if (done) this.muteChanged(user, !muted);
  }

  async reload() {
    const epoch = ++this.loadEpoch;
    const before = [...this.lines.keys()]; // lines that arrive during the read may be missing from its answer
    try {
      const answer = await api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/chat${query({ invite: this.invite })}`);
      if (epoch !== this.loadEpoch) return;
      // A line shown before the read, within what the answer covers but not in it, was removed meanwhile.
      const ids = new Set((answer.messages || []).map((line) => line.id));
      const oldest = ids.size ? Math.min(...ids) : -Infinity;
      for (const id of before) if (id >= oldest && !ids.has(id)) this.removed(id);
      this.add(answer.messages || [], false);
      if (this.muted !== (answer.muted === true)) {
        this.muted = answer.muted === true;
        this.drawMuted();
      }
      if (this.isHost) this.loadMutes();
      this.loaded = true;
      this.drawEmpty();
    } catch (error) {
      console.warn("chat history unavailable", error);
    }
  }

  /** Keep these lines (by id, each once); `live` ones count as unread and are read out. */
  add(lines, live) {
    const stick = !this.loaded || this.nearBottom();
    const fresh = lines.filter((line) => line && typeof line.id === "number" && !this.lines.has(line.id));
    if (!fresh.length) return;
    for (const line of fresh) this.lines.set(line.id, line);
    const ids = [...this.lines.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) this.lines.delete(id);
    const last = this.list.lastElementChild ? Number(this.list.lastElementChild.dataset.id) : -Infinity;
    if (fresh.every((line) => line.id > last) && this.list.children.length + fresh.length <= KEEP) {
      for (const line of fresh.sort((a, b) => a.id - b.id)) this.list.append(this.lineNode(line));
    } else {
      this.drawLines(); // an older line from another server arrived late, or the oldest must go
    }
    this.drawEmpty();
    const mine = fresh.some((line) => this.isMine(line));
    if (stick || mine) this.scroller.scrollTop = this.scroller.scrollHeight;
    if (live) {
      const others = fresh.filter((line) => !this.isMine(line));
      for (const line of others) this.announce(line);
      if (others.length && !this.looking()) {
        this.unread += others.length;
        this.drawUnread();
      }
    }
  }

  isMine(line) {
    const user = me();
    return Boolean(user && line.user && line.user.id === user.id);
  }

  announce(line) {
    const key = line.seat === null || line.seat === undefined ? "chat.said_spectator" : "chat.said";
    this.announcer.append(h("p", null, t(key, { name: line.user?.name ?? "?", text: line.text })));
    while (this.announcer.children.length > 3) this.announcer.firstElementChild.remove();
  }

  // ---- sending ----

  onKey(event) {
    // Enter sends; Shift+Enter is a new line; nothing while an input method composes a word.
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      this.send();
    }
  }

  async send() {
    const text = this.input.value;
    const count = chars(text);
    if (this.sending || !count) return;
    if (count > MAX_CHARS) {
      this.showError(errorText("chat_too_long", t("chat.too_long", { n: MAX_CHARS })));
      return;
    }
    const socket = this.socket();
    if (!socket || this.muted) return;
    // The button is disabled while the line is on its way, which takes the focus from it.
    const fromButton = document.activeElement === this.sendButton;
    this.sending = true;
    this.drawSendable();
    this.showError("");
    try {
      const ack = await socket.chat(text);
      // Sent: the box empties only now, so a refused or lost line is still there to send again.
      if (this.input.value === text) this.input.value = "";
      if (fromButton) this.input.focus(); // ready for the next line
      if (ack && ack.message) this.add([ack.message], false);
    } catch (error) {
      if (error.code === "muted" && !this.muted) {
        this.muted = true;
        this.drawMuted();
      }
      this.showError(this.refusal(error));
    } finally {
      this.sending = false;
      this.drawCounter();
    }
  }

  refusal(error) {
    if (error.code === "offline" || error.code === "closed") return t("chat.offline");
    if (error.code === "timeout") return t("errors.timeout");
    return errorText(error.code, error.message) || t("errors.generic");
  }

  showError(text) {
    this.errorLine.textContent = text;
  }

  // ---- being seen ----

  /** Whether the person can see the newest lines now (not while scrolled up to older ones). */
  looking() {
    return this.details.open && this.listInSight && !document.hidden && this.nearBottom();
  }

  seen() {
    if (this.unread && this.looking()) {
      this.unread = 0;
    }
    this.drawUnread();
  }

  watchSight() {
    if (typeof IntersectionObserver !== "function") {
      this.listInSight = this.panelInSight = true;
      return;
    }
    new IntersectionObserver((entries) => {
      for (const entry of entries) this.listInSight = entry.isIntersecting;
      this.seen();
    }, { threshold: 0.3 }).observe(this.scroller);
    new IntersectionObserver((entries) => {
      for (const entry of entries) this.panelInSight = entry.isIntersecting;
      this.drawUnread();
    }, { threshold: 0.1 }).observe(this.el);
  }

  toggled() {
    remember(this.details.open);
    // Folded, the list had no height to scroll: open, it shows the newest lines.
    if (this.details.open) this.scroller.scrollTop = this.scroller.scrollHeight;
    this.seen();
  }

  /** Bring the chat into view, open, with the cursor in the box. */
  show() {
    this.details.open = true;
    remember(true);
    this.el.scrollIntoView({ block: "nearest", behavior: "smooth" });
    this.scroller.scrollTop = this.scroller.scrollHeight;
    (me() ? this.input : this.scroller).focus({ preventScroll: true });
  }

  nearBottom() {
    return this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < NEAR_BOTTOM_PX;
  }

  // ---- drawing ----

  lineNode(line) {
    const spectator = line.seat === null || line.seat === undefined;
    const mine = this.isMine(line);
    const name = line.user?.name ?? "?";
    const muted = Boolean(line.user && this.mutes.has(line.user.id));
    // The host's tools, on everyone's lines but their own (nobody can mute the host).
    const tools = this.isHost && !mine && line.user ? h("span", { class: "chat-tools" },
      h("button", { type: "button", class: "ghost chat-tool", "data-testid": "chat-mute",
        "aria-label": t(muted ? "chat.unmute_label" : "chat.mute_label", { name }),
        onclick: () => this.toggleMute(line.user) }, t(muted ? "chat.unmute" : "chat.mute")),
      h("button", { type: "button", class: "ghost chat-tool", "data-testid": "chat-remove",
        "aria-label": t("chat.remove_label", { name }), onclick: () => this.removeLine(line) }, t("chat.remove"))) : null;
    return h("li", { class: ["chat-line", mine && "mine"], "data-id": String(line.id), "data-testid": "chat-line" },
      h("div", { class: "chat-by" },
        // The author's name leads to their profile (beside a game the reader plays: ui.openProfilesBeside).
        h("span", { class: "chat-name" }, line.user ? personLink(line.user, name) : name),
        spectator ? h("span", { class: "tag chat-spectator" }, t("chat.spectator")) : null,
        mine ? h("span", { class: "tag you" }, t("chat.you")) : null,
        muted ? h("span", { class: "tag chat-muted-tag" }, t("chat.muted_tag")) : null,
        h("time", { class: "chat-time muted", datetime: line.created_at }, timeOf(line.created_at)),
        tools),
      // Text, never markup: h() makes a text node, and CSS keeps its line breaks.
      h("div", { class: "chat-text" }, line.text));
  }

  drawLines() {
    const ids = [...this.lines.keys()].sort((a, b) => a - b);
    mount(this.list, ids.map((id) => this.lineNode(this.lines.get(id))));
  }

  drawEmpty() {
    this.empty.hidden = !this.loaded || this.lines.size > 0;
  }

  drawUnread() {
    const n = this.unread;
    this.badge.hidden = !n;
    mount(this.badge, h("span", { "aria-hidden": "true" }, String(n)), h("span", { class: "sr-only" }, t("chat.unread_label", { n })));
    // Out of sight (further down the page, or scrolled away): a button in the corner says so and leads there.
    this.jump.hidden = !n || (this.details.open ? this.listInSight : this.panelInSight);
    const long = t(n === 1 ? "chat.jump_one" : "chat.jump", { n });
    // On a phone the turn bar it sits in is narrow: a short text shows, and the button is still named in full.
    this.jump.setAttribute("aria-label", long);
    mount(this.jump, h("span", { class: "chat-jump-icon", "aria-hidden": "true" }, "↓"),
      h("span", { class: "chat-jump-long" }, long), h("span", { class: "chat-jump-short" }, t("chat.jump_short", { n })));
  }

  /** The box of a muted person takes nothing, and says why. */
  drawMuted() {
    this.mutedLine.hidden = !this.muted;
    this.mutedLine.textContent = this.muted ? t("chat.muted_you") : "";
    this.input.disabled = this.muted;
    this.input.setAttribute("aria-describedby",
      `${this.muted ? `${this.mutedLine.id} ` : ""}${this.hint.id} ${this.counter.id}`);
    this.input.placeholder = t(this.muted ? "chat.placeholder_muted" : "chat.placeholder");
    this.drawSendable();
  }

  /**
   * For the host: the people muted here, each with Unmute (one muted before posting here shows here only); the page
   * is told, for the Mute buttons beside its watchers.
   */
  drawMutes() {
    const people = this.isHost ? [...this.mutes.entries()] : [];
    this.mutedList.hidden = !people.length;
    mount(this.mutedList, people.length ? [h("span", { class: "muted" }, t("chat.muted_list")), " ",
      people.map(([id, name]) => h("span", { class: "chat-mutes-person" }, personLink({ id, name }, name), " ",
        h("button", { type: "button", class: "ghost chat-tool", "data-testid": "chat-unmute",
          "aria-label": t("chat.unmute_label", { name }), onclick: () => this.toggleMute({ id, name }) },
        t("chat.unmute"))))] : []);
    if (this.onMutes) this.onMutes();
  }

  drawCounter() {
    const count = chars(this.input.value);
    const left = MAX_CHARS - count;
    this.counter.hidden = count < COUNT_FROM;
    const key = left >= 0 ? "chat.left" : "chat.over";
    this.counter.textContent = t(Math.abs(left) === 1 ? `${key}_one` : key, { n: Math.abs(left) });
    this.counter.classList.toggle("over", left < 0);
    this.drawSendable();
    // Grow with the text, up to the CSS max-height.
    this.input.style.height = "auto";
    if (this.input.value) this.input.style.height = `${this.input.scrollHeight + 2}px`;
  }

  drawSendable() {
    const count = chars(this.input.value);
    this.sendButton.disabled = this.muted || this.sending || !count || count > MAX_CHARS;
  }

  drawAll() {
    const signedIn = Boolean(me());
    this.title.textContent = t("chat.title");
    this.list.setAttribute("aria-label", t("chat.messages"));
    this.scroller.setAttribute("aria-label", t("chat.messages"));
    this.empty.textContent = t("chat.empty");
    this.input.setAttribute("aria-label", t("chat.label"));
    this.hint.textContent = t("chat.hint");
    this.sendButton.textContent = t("chat.send");
    this.signedOutText.textContent = t("chat.sign_in");
    if (this.signInButton) this.signInButton.textContent = t("chat.sign_in_button");
    if (this.footer.firstChild !== (signedIn ? this.form : this.signedOut)) mount(this.footer, signedIn ? this.form : this.signedOut);
    if (this.lines.size) this.drawLines(); // the tags and times in the new language
    this.drawEmpty();
    this.drawUnread();
    this.drawMode();
    this.drawMuted();
    this.drawMutes();
    this.drawCounter();
  }
}
