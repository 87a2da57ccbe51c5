// Who is signed in: guest, account login/registration, sign-out.

import { api, ApiError, setToken } from "./api.js";

let current = null;

/** The signed-in user ({id, name, username}) or null. */
export function me() {
  return current;
}

/** Ask the server who we are; null when not signed in. */
export async function loadMe() {
  try {
    current = await api("GET", "/api/me");
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      setToken(null);
      current = null;
    } else {
      throw error;
    }
  }
  return current;
}

function signedIn(answer) {
  setToken(answer.token);
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

/** Change my account's password: my other sessions are signed out, this one gets a new token. */
export async function changePassword(currentPassword, newPassword) {
  return signedIn(await api("POST", "/api/me/password", { current: currentPassword, new: newPassword }));
}

/** Sign out and forget the token. */
export async function signOut() {
  try {
    await api("POST", "/api/auth/logout");
  } finally {
    setToken(null);
    current = null;
  }
}
