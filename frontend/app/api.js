// HTTP client for the documented API (docs/api.md): JSON in, JSON out, errors as ApiError.

// The id of the session this browser signed in with: not a credential (the HttpOnly cookie is), only what tells a
// newer session (a password changed in another tab) from the one that ended.
const SESSION_KEY = "fg.session";

try {
  localStorage.removeItem("fg.token"); // where tokens were once kept: a script could read them there
} catch {
  // Storage refused: nothing was kept either.
}

/** An API failure: `code` and `message` come from the server's error body when it sent one. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The id of this browser's session, or null. */
export function getSessionId() {
  try {
    return localStorage.getItem(SESSION_KEY);
  } catch {
    return null;
  }
}

/** Remember (or forget, with null) the id of this browser's session. */
export function setSessionId(id) {
  try {
    if (id) localStorage.setItem(SESSION_KEY, id);
    else localStorage.removeItem(SESSION_KEY);
  } catch {
    // Private browsing may refuse storage; the session cookie still works.
  }
}

// Refusals that say the session itself is over (a password change, a sign-out everywhere, an expired or bad token).
export const SESSION_REFUSALS = new Set(["session_revoked", "bad_token", "token_expired"]);
let sessionRefused = null;
// The requests under way: signing out stops them, and sends no other until it is done, since an answer to one sent
// with the old session would be a refusal of that session, which the person just ended themselves.
const inFlight = new Set();
let endingSession = false;

/**
 * Send the request at `path` that ends this browser's session (a sign-out, here or everywhere) and resolve with its
 * answer. Every request under way stops, and those asked for before the answer are not sent: each rejects with the
 * code "aborted", which callers need not report.
 */
export async function endSession(path) {
  for (const controller of inFlight) controller.abort();
  inFlight.clear();
  endingSession = true;
  try {
    return await send("POST", path, undefined, true);
  } finally {
    endingSession = false;
  }
}

/** Call `handler(session, refusal)` whenever the server refuses the session a request was sent with (`session`: the
 * id this page knew it by, or null; `refusal`: {code, message}); session.js decides whether it ended. */
export function onSessionRefused(handler) {
  sessionRefused = handler;
}

/** Call the API; resolves with the parsed body, rejects with ApiError. `sessionCheck: false` keeps a refused
 * session from calling the handler of `onSessionRefused` (for the calls that check the session themselves). */
export async function api(method, path, body, { sessionCheck = true } = {}) {
  if (endingSession) throw new ApiError(0, "aborted", "");
  return send(method, path, body, sessionCheck);
}

async function send(method, path, body, sessionCheck) {
  const headers = { Accept: "application/json" };
  const session = getSessionId(); // the cookie goes with the request; this only names it
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  let text;
  const controller = new AbortController();
  inFlight.add(controller);
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    text = await response.text();
  } catch {
    throw new ApiError(0, controller.signal.aborted ? "aborted" : "network", "");
  } finally {
    inFlight.delete(controller);
  }
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    if (response.status === 401 && sessionCheck && SESSION_REFUSALS.has(error.code) && sessionRefused) {
      sessionRefused(session, { code: error.code, message: error.message });
    }
    const detail = data && typeof data.detail === "string" ? data.detail : "";
    throw new ApiError(
      response.status,
      error.code || `http_${response.status}`,
      error.message || detail || response.statusText || `HTTP ${response.status}`,
    );
  }
  return data;
}

/** Build a query string from an object, skipping empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
