// "Your turn" outside the page: the browser's Notifications API while the table's tab is hidden, and Web Push (the
// service worker /sw.js, services/push.py) for when the site is closed. Both are each player's choice, made by a
// click (the browser's permission is asked then, never on load); the first is kept in this browser per player.

import { api } from "./api.js";
import { t } from "./i18n.js";

const KEY = "foodgames.notify.";
let shown = 0;

/** Whether this browser can show notifications at all. */
export function notificationsSupported() {
  return typeof window !== "undefined" && "Notification" in window;
}

function stored(userId) {
  try {
    return localStorage.getItem(KEY + userId) === "1";
  } catch {
    return false;
  }
}

/** Whether this player asked for turn notifications in this browser and the browser allows them. */
export function turnNotificationsOn(userId) {
  return Boolean(userId) && notificationsSupported() && Notification.permission === "granted" && stored(userId);
}

/**
 * Turn this player's notifications on or off in this browser; turning them on asks the browser's permission (so
 * call it from a click). Resolves whether they are on.
 */
export async function setTurnNotifications(userId, on) {
  if (on && notificationsSupported()) {
    // Asked even when granted already: it answers at once then, and a browser that let the grant lapse asks anew.
    const answer = await Notification.requestPermission();
    if (answer !== "granted") on = false;
  }
  try {
    localStorage.setItem(KEY + userId, on ? "1" : "0");
  } catch {
    // A browser that keeps nothing (private mode): the choice lasts until the page closes, as the chime's.
  }
  return turnNotificationsOn(userId);
}

/** How many notifications this page showed (for the browser tests). */
export function notificationsShown() {
  return shown;
}

/** Tell the player it is their turn at `title`, if they want it and the tab is hidden; whether it was shown. */
export function notifyTurn(userId, title, tag) {
  if (!turnNotificationsOn(userId) || !document.hidden) return false;
  try {
    const note = new Notification(t("notify.turn_title"), { body: t("notify.turn_body", { title }), tag, icon: "/favicon.svg" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    return false; // browsers that show notifications only through a service worker (Android)
  }
  shown += 1;
  return true;
}

/** Whether this browser can get Web Push notifications. */
export function pushSupported() {
  return notificationsSupported() && "serviceWorker" in navigator && "PushManager" in window;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** This browser's push subscription, or null. */
export async function pushSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Subscribe this browser to the signed-in person's pushes (from a click: it asks the browser's permission). */
export async function enablePush() {
  if ((await Notification.requestPermission()) !== "granted") return false;
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const { public_key: key } = await api("GET", "/api/push/key");
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await api("POST", "/api/me/push", subscription.toJSON());
  return true;
}

/** Stop this browser's pushes (on the server and in the browser). */
export async function disablePush() {
  const subscription = await pushSubscription();
  if (!subscription) return;
  await api("DELETE", "/api/me/push", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}
