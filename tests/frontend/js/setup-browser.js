// The few browser globals the shell's modules touch when they are imported, for node's test runner: storage, the
// browser's language and the page's root element. Import this before a module that needs them.
const stored = new Map();
globalThis.localStorage ??= {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key),
};
if (!globalThis.navigator) Object.defineProperty(globalThis, "navigator", { value: { language: "en-GB" }, configurable: true });
globalThis.document ??= /** @type {any} */ ({ documentElement: { lang: "" } });
