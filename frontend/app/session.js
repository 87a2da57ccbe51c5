// Who is signed in: guest, account login/registration, sign-out, and a session the server ended.

import { api, endSession, getSessionId, onSessionRefused, setSessionId, SESSION_REFUSALS } from "./api.js";

// How long a refused session waits for a newer session to be stored before it counts as ended: the page (or another
// tab of this browser) that changed the password gets the new session in the answer, which may land just after the
// refusal or the socket's close.
const RENEWAL_GRACE_MS = 1000;
// Written when this browser's session ends, so its other tabs (which get a storage event) sign out too.
const ENDED_KEY = "fg.session_ended";

let current = null;
let checking = null;
const signedOutListeners = new Set();

/** The signed-in user ({id, name, username}) or null. */
export function me() {
  return current;
}

/** Forget the session here: its stored id, and the cookie (which holds its token, or nothing valid). */
async function forget() {
  setSessionId(null);
  current = null;
  await api("POST", "/api/auth/logout", undefined, { sessionCheck: false }).catch(() => {});
}

/** Ask the server who we are (`GET /api/auth/session`, answered 200 signed in or not, so a visitor's page logs no
 * error); null when not signed in. */
export async function loadMe() {
  const status = await api("GET", "/api/auth/session", undefined, { sessionCheck: false });
  // A refused token (the password changed, a sign-out everywhere): the answer cleared its cookie; the stored id goes.
  if (status.refused && SESSION_REFUSALS.has(status.refused.code)) await forget();
  current = status.user ? { ...status.user, session: status.session } : null;
  setSessionId(current ? status.session : null);
  return current;
}

/** Call `listener(refusal)` when the session this page was signed in with has ended (it is signed out by then);
 * `refusal` is the server's {code, message}, or null when another tab found out. */
export function onSignedOut(listener) {
  signedOutListeners.add(listener);
}

/** Tell the other tabs of this browser (a storage event) that its session ended. */
function announceEnded() {
  try {
    localStorage.setItem(ENDED_KEY, String(Date.now()));
  } catch {
    // Storage refused: the other tabs find out at their next call or socket close.
  }
}

/** The session ended: tell this page's listeners and the other tabs. */
function ended(refusal) {
  announceEnded();
  for (const listener of signedOutListeners) listener(refusal);
}

window.addEventListener("storage", (event) => {
  // Another tab found the session ended (or signed out everywhere): its token and cookie are gone for this page too.
  if (event.key === ENDED_KEY && current) {
    current = null;
    for (const listener of signedOutListeners) listener(null);
  }
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a session other than `oldSession` is stored, or comes within the grace. */
async function newerSession(oldSession) {
  const deadline = Date.now() + RENEWAL_GRACE_MS;
  for (;;) {
    const session = getSessionId();
    if (session && session !== oldSession) return true;
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
}

async function runCheck(oldSession, refusal) {
  if (await newerSession(oldSession)) return true;
  let refused;
  try {
    // Without a newer stored session id, the cookie may still hold a newer session (a browser refusing storage).
    const status = await api("GET", "/api/auth/session", undefined, { sessionCheck: false });
    if (status.user) {
      current = { ...status.user, session: status.session };
      if (status.session) setSessionId(status.session);
      return true;
    }
    refused = true;
  } catch {
    refused = false;
  }
  const session = getSessionId();
  if (session && session !== oldSession) return true;
  if (refused) await forget();
  else {
    // The server is out of reach: `oldSession` was refused by it, so it is gone for good; the cookie is left alone.
    setSessionId(null);
    current = null;
  }
  ended(refusal);
  return false;
}

/**
 * The server refused the session `oldSession` (its id, or null) with `refusal` ({code, message}), or closed a socket
 * opened with it: resolves true when this browser holds a newer session (this page or another tab changed the
 * password), else signs out here, tells the `onSignedOut` listeners and resolves false. Checks at the same time
 * share one answer.
 */
export function checkSession(oldSession, refusal = null) {
  if (!checking) {
    checking = runCheck(oldSession, refusal).finally(() => {
      checking = null;
    });
  }
  return checking;
}

onSessionRefused((session, refusal) => {
  checkSession(session, refusal);
});

function signedIn(answer) {
  setSessionId(answer.session); // the token itself stays in the HttpOnly cookie, out of reach of scripts

  current = answer.user;
  return current;
}

/** Sign in as a guest under `name`. */
export async function signInGuest(name) {
  return signedIn(await api("POST", "/api/auth/guest", { name }));
}

/** Log in to an existing account. */
export async function logIn(username, password) {
  return signedIn(await api("POST", "/api/auth/login", { username, password }));
}

/** Create an account (a signed-in guest keeps their id and tables). */
export async function register(username, password, name) {
  const body = { username, password };
  if (name) body.name = name;
  return signedIn(await api("POST", "/api/auth/register", body));
}

/** Change my display name; the answer is who I am now. */
export async function rename(name) {
  current = await api("PATCH", "/api/me", { name });
  return current;
}

/** Change my account's password: my other sessions are signed out, this one goes on as a new session. */
export async function changePassword(currentPassword, newPassword) {
  return signedIn(await api("POST", "/api/me/password", { current: currentPassword, new: newPassword }));
}

/** Sign me out on every device, this one included. */
export async function signOutEverywhere() {
  await endSession("/api/auth/logout_all");
  setSessionId(null);
  current = null;
  announceEnded(); // this browser's other tabs are signed out too
}

/** Sign out: the server ends the session (its token is refused from now on) and clears the cookie. */
export async function signOut() {
  try {
    await endSession("/api/auth/logout");
  } finally {
    setSessionId(null);
    current = null;
  }
}
