// The live connection to one table: reconnects with exponential back-off, resyncs, heartbeats.

import { getSessionId, SESSION_REFUSALS } from "./api.js";

const PING_MS = 20000;
const PONG_WAIT_MS = 15000; // a ping unanswered for this long: the link is dead
const ACT_TIMEOUT_MS = 15000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 5000;

// Close codes with which the server refuses us for good (auth, not found, forbidden).
function isFatal(code) {
  return code >= 4000 && code < 4500 && code !== 4408;
}

// The session the socket was opened with ended (a password change, a sign-out everywhere) or its token was refused.
const SESSION_ENDED = 4401;

let clientSeq = 0;

function newClientId() {
  clientSeq += 1;
  const random = Math.random().toString(36).slice(2, 10);
  return `c${Date.now().toString(36)}-${random}-${clientSeq}`;
}

/**
 * A table's websocket.
 * onMessage(msg) gets every message but the answers to chat() and the refusal of an ended session (its close says
 * it); a type it does not know it should ignore.
 * onStatus(status, info) gets
 * "connecting" | "online" | "reconnecting" (info.delay ms) | "closed" (info.code, info.reason, info.signedOut).
 * checkSession(session, refusal) resolves whether this browser holds a newer session than `session`, which ended
 * (`refusal`: the server's {code, message}, or null): then the socket reconnects with it; otherwise it closes with
 * `signedOut` true and `refusal`.
 */
export class TableSocket {
  /**
   * @param {{tableId: string, invite: string | null, onMessage: (message: any) => void,
   *   onStatus: (status: string, info?: any) => void,
   *   checkSession?: (session: string | null, refusal: {code: string, message: string} | null) => Promise<boolean>}} options
   */
  constructor({ tableId, invite, onMessage, onStatus, checkSession = async () => false }) {
    this.tableId = tableId;
    this.invite = invite;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.checkSession = checkSession;
    this.checking = false; // finding out whether an ended session has a newer one here
    this.refusal = null; // what the server said of the session it ended, just before closing the socket
    this.version = null; // last version seen, for resync
    this.ws = null;
    this.attempts = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = 0;
    this.lastPingAt = 0;
    this.pending = new Map(); // client_id -> {message, resolve, reject, timer}
    this.stopped = false;
    this.status = "connecting";
  }

  /** Open the connection (and keep it open until stop()). */
  start() {
    this.stopped = false;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.reconnectNow();
    });
    this.connect();
  }

  /** Close for good. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }

  url() {
    // The session rides in the HttpOnly cookie the browser sends with the handshake, never in the address.
    const params = new URLSearchParams();
    if (this.invite) params.set("invite", this.invite);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const search = params.toString();
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${search ? `?${search}` : ""}`;
  }

  setStatus(status, info = {}) {
    this.status = status;
    this.onStatus(status, info);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempts ? "reconnecting" : "connecting", { delay: 0 });
    let ws;
    const session = getSessionId(); // kept: a session that ends is told apart from a newer one by it
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempts = 0;
      this.lastHeard = Date.now();
      this.lastPingAt = 0;
      this.setStatus("online");
      if (this.version !== null) this.send({ type: "resync", version: this.version });
      // Moves sent just before a drop: the server answers a repeated client_id without re-applying it.
      for (const [, entry] of this.pending) this.send(entry.message);
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(), PING_MS);
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      if (this.stopped) return;
      if (event.code === SESSION_ENDED) {
        this.sessionEnded(session, event);
        return;
      }
      if (isFatal(event.code)) {
        this.failPending({ code: "closed", message: event.reason || "" });
        this.setStatus("closed", { code: event.code, reason: event.reason });
        return;
      }
      this.scheduleReconnect();
    };
  }

  /** The session this socket was opened with (`session`) ended: carry on with a newer one if this browser holds one
   * (the password was changed here), else stay closed, signed out. Moves waiting for an answer wait for the check. */
  async sessionEnded(session, event) {
    this.checking = true;
    this.setStatus("connecting", { delay: 0 });
    const refusal = this.refusal;
    this.refusal = null;
    let renewed;
    try {
      renewed = await this.checkSession(session, refusal);
    } finally {
      this.checking = false;
    }
    if (this.stopped) return;
    if (renewed) {
      this.attempts = 0;
      this.connect();
      return;
    }
    this.failPending({ code: "closed", message: "" });
    this.setStatus("closed", { code: event.code, reason: event.reason, signedOut: true, refusal });
  }

  receive(message) {
    if (message.type === "error" && !message.client_id && SESSION_REFUSALS.has(message.code)) {
      // The close that follows says it, and decides whether we carry on with a newer session.
      this.refusal = { code: message.code, message: message.message };
      return;
    }
    if (message.type === "pong") {
      // The server knows a newer version than we have seen: an update went missing; fetch the picture again.
      if (typeof message.version === "number" && this.version !== null && message.version > this.version) this.resync();
      return;
    }
    if (typeof message.version === "number" && (message.type === "snapshot" || message.type === "update")) {
      // Versions only grow: an update we have, or a snapshot older than what we have seen, is stale.
      if (this.version !== null && (message.version < this.version || (message.type === "update" && message.version === this.version))) return;
      this.version = message.version;
    }
    if (message.type === "draft" && typeof message.version === "number") {
      // Our own secret step, kept as a draft: it comes at the table's version, which it leaves as it was.
      if (this.version !== null && message.version < this.version) return;
      this.version = message.version;
    }
    if ((message.type === "ack" || message.type === "error" || message.type === "preview") && message.client_id) {
      const entry = this.pending.get(message.client_id);
      if (entry) {
        this.pending.delete(message.client_id);
        clearTimeout(entry.timer);
        if (message.type !== "error") entry.resolve(message);
        else entry.reject({ code: message.code, message: message.message });
        if (entry.quiet) return; // its caller alone shows the answer
      }
    }
    this.onMessage(message);
  }

  scheduleReconnect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempts);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4)); // jitter: not everyone at once after a restart
    this.attempts += 1;
    this.setStatus("reconnecting", { delay });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Skip the back-off wait (the browser came back online or the tab became visible). */
  reconnectNow() {
    if (this.stopped || this.ws || this.checking || this.status === "closed") return;
    this.connect();
  }

  /** Try again after the server refused us for good (e.g. after signing in elsewhere). */
  retry() {
    if (this.stopped || this.ws || this.checking) return;
    this.attempts = 0;
    this.connect();
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    // Dead when our last ping went unanswered for a while; measured from the ping, not from the
    // last message, because background tabs run timers late and a quiet table is not a dead one.
    const unanswered = this.lastPingAt > this.lastHeard && Date.now() - this.lastPingAt > PONG_WAIT_MS;
    if (unanswered) {
      // Half-open connection: a close handshake may never finish, so forget it and reconnect now.
      const dead = this.ws;
      this.ws = null;
      clearInterval(this.pingTimer);
      try {
        dead.close(4408, "heartbeat timeout");
      } catch {
        // Already closing.
      }
      this.scheduleReconnect();
      return;
    }
    if (this.lastPingAt <= this.lastHeard) {
      this.lastPingAt = Date.now();
      this.send({ type: "ping" });
    }
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Ask the server for a fresh snapshot. */
  resync() {
    this.send({ type: "resync", version: this.version ?? 0 });
  }

  /** Send a move; resolves on ack, rejects with {code, message}. */
  act(action, expectedVersion) {
    const message = { type: "act", action };
    if (typeof expectedVersion === "number") message.expected_version = expectedVersion;
    return this.request(message);
  }

  /** Take back our last step, seen at `version`; resolves on ack, rejects with {code, message}. */
  undo(version) {
    return this.request({ type: "undo", expected_version: version });
  }

  /** Say "ask", "yes" or "no" about taking back moves (`proposal`: the open request's id); resolves on ack. */
  takeback(say, proposal) {
    const message = { type: "takeback", say };
    if (typeof proposal === "number") message.proposal = proposal;
    return this.request(message);
  }

  /** Whether `action` could be taken back at once once made: resolves with {undoable}, rejects as a move would. */
  preview(action) {
    return this.request({ type: "preview", action }, { quiet: true });
  }

  /** Post a chat line; resolves with the ack (its `message` is the stored line), rejects with {code, message}. */
  chat(text) {
    // A line written while the page still connects (or reconnects) waits for the connection and goes then.
    return this.request({ type: "chat", text }, { quiet: true, queue: true });
  }

  request(fields, { quiet = false, queue = false } = {}) {
    return new Promise((resolve, reject) => {
      const open = this.ws && this.ws.readyState === WebSocket.OPEN;
      const coming = !this.stopped && this.status !== "closed";
      if (!open && !(queue && coming)) {
        reject({ code: "offline", message: "" });
        return;
      }
      const clientId = newClientId();
      const message = { ...fields, client_id: clientId };
      const timer = setTimeout(() => {
        if (this.pending.delete(clientId)) reject({ code: "timeout", message: "" });
      }, ACT_TIMEOUT_MS);
      this.pending.set(clientId, { message, resolve, reject, timer, quiet });
      if (open) this.send(message); // otherwise onopen sends what is pending
    });
  }

  failPending(error) {
    for (const [, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(error);
    }
    this.pending.clear();
  }
}
