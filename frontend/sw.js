// The service worker (scope "/": served from the site's root): shows the Web Push notifications the server sends
// (services/push.py: {title, body, url, tag}) and, on a click, brings the table's tab forward or opens it.

// The worker's global scope (ServiceWorkerGlobalScope), which the page's DOM types do not describe.
const worker = /** @type {any} */ (globalThis);

worker.addEventListener("push", (/** @type {any} */ event) => {
  let message;
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "Food Truck Games";
  event.waitUntil(worker.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag || undefined, // a later notice of the same turn replaces, not piles up
    icon: "/favicon.svg",
    data: { url: message.url || "/" },
  }));
});

worker.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", worker.location.origin).href;
  event.waitUntil((async () => {
    for (const client of await worker.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (client.url === url && "focus" in client) return client.focus();
    }
    return worker.clients.openWindow(url);
  })());
});
