// The browser globals the shell's modules touch, for node's test runner: storage, the browser's language, `window`
// and a small document (elements, text, attributes, classes, events, focus and simple selectors) enough for
// lib/dom.js's h() and mount() and the table page's panels. Import this before a module that needs them.
const stored = new Map();
globalThis.localStorage ??= {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key),
};
if (!globalThis.navigator) Object.defineProperty(globalThis, "navigator", { value: { language: "en-GB" }, configurable: true });

class FakeNode {
  constructor() {
    /** @type {FakeNode[]} */
    this.childNodes = [];
    /** @type {FakeNode|null} */
    this.parentNode = null;
  }

  get firstChild() {
    return this.childNodes[0] ?? null;
  }

  get nextSibling() {
    const siblings = this.parentNode?.childNodes ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  insertBefore(node, before) {
    if (before === null) return this.appendChild(node);
    node.remove();
    node.parentNode = this;
    this.childNodes.splice(this.childNodes.indexOf(before), 0, node);
    return node;
  }

  removeChild(node) {
    node.remove();
    return node;
  }

  get children() {
    return this.childNodes.filter((n) => n instanceof FakeElement);
  }

  appendChild(child) {
    child.remove();
    child.parentNode = this;
    this.childNodes.push(child);
    return child;
  }

  append(...nodes) {
    for (const node of nodes) this.appendChild(typeof node === "string" ? new FakeText(node) : node);
  }

  replaceChildren(...nodes) {
    for (const child of [...this.childNodes]) child.remove();
    this.append(...nodes);
  }

  remove() {
    if (!this.parentNode) return;
    const siblings = this.parentNode.childNodes;
    siblings.splice(siblings.indexOf(this), 1);
    if (fakeDocument.activeElement && this.contains(fakeDocument.activeElement)) fakeDocument.activeElement = null;
    this.parentNode = null;
  }

  contains(node) {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join("");
  }

  set textContent(text) {
    this.replaceChildren(...(text === "" ? [] : [new FakeText(String(text))]));
  }

  /** A copy of the node (with its children when `deep`): text and attributes, not handlers, as the DOM's own does. */
  cloneNode(deep = false) {
    if (this instanceof FakeText) return new FakeText(this.data);
    const a = /** @type {any} */ (this);
    const copy = new FakeElement(a.tagName.toLowerCase(), a.namespaceURI);
    for (const [name, value] of a.attrs) copy.setAttribute(name, value);
    if (deep) for (const child of this.childNodes) copy.appendChild(child.cloneNode(true));
    return copy;
  }

  isEqualNode(other) {
    if (!other || other.constructor !== this.constructor) return false;
    if (this instanceof FakeText) return this.data === other.data;
    const a = /** @type {any} */ (this);
    const b = /** @type {any} */ (other);
    if (a.tagName !== b.tagName || a.attrs.size !== b.attrs.size) return false;
    for (const [name, value] of a.attrs) if (b.attrs.get(name) !== value) return false;
    return a.childNodes.length === b.childNodes.length && a.childNodes.every((n, i) => n.isEqualNode(b.childNodes[i]));
  }
}

class FakeText extends FakeNode {
  constructor(data) {
    super();
    this.data = data;
    this.nodeType = 3;
  }

  get nodeValue() {
    return this.data;
  }

  set nodeValue(data) {
    this.data = String(data);
  }

  get textContent() {
    return this.data;
  }
}

const BOOLEAN = ["hidden", "disabled", "checked", "open", "selected", "required", "readonly"];

/** One compound selector ("li.seat[data-seat='1']:not(.x)") against one element. */
function matchesCompound(el, compound) {
  const not = /:not\(([^)]*)\)/g;
  for (const [, inner] of compound.matchAll(not)) if (matchesCompound(el, inner)) return false;
  const rest = compound.replace(not, "");
  const tag = /^[a-zA-Z][\w-]*/.exec(rest);
  if (tag && el.tagName !== tag[0].toUpperCase()) return false;
  for (const [, cls] of rest.matchAll(/\.([\w-]+)/g)) if (!el.classList.contains(cls)) return false;
  for (const [, id] of rest.matchAll(/#([\w-]+)/g)) if (el.getAttribute("id") !== id) return false;
  for (const [, name, , value] of rest.matchAll(/\[([\w-]+)(=["']?([^\]"']*)["']?)?\]/g)) {
    if (!el.hasAttribute(name) || (value !== undefined && el.getAttribute(name) !== value)) return false;
  }
  return true;
}

function matchesSelector(el, selector) {
  return selector.split(",").some((one) => {
    const parts = one.trim().split(/\s+/);
    if (!matchesCompound(el, parts[parts.length - 1])) return false;
    let at = el.parentNode;
    for (let i = parts.length - 2; i >= 0; i -= 1) {
      while (at && !(at instanceof FakeElement && matchesCompound(at, parts[i]))) at = at.parentNode;
      if (!at) return false;
      at = at.parentNode;
    }
    return true;
  });
}

class FakeElement extends FakeNode {
  constructor(tag, namespaceURI = "http://www.w3.org/1999/xhtml") {
    super();
    this.tagName = tag.toUpperCase();
    this.nodeType = 1;
    this.namespaceURI = namespaceURI;
    /** @type {Map<string, string>} */
    this.attrs = new Map();
    this.listeners = new Map();
    const el = this;
    this.dataset = new Proxy({}, {
      get: (_, key) => el.getAttribute(`data-${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`) ?? undefined,
      set: (_, key, value) => {
        el.setAttribute(`data-${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, value);
        return true;
      },
    });
    // Custom properties by name; others (gridRow) as the properties h() assigns; cssText spells both.
    const props = new Map();
    this.style = {
      setProperty: (name, value) => props.set(name, value),
      getPropertyValue: (name) => props.get(name) ?? "",
      get cssText() {
        const named = [...props].map(([name, value]) => `${name}: ${value};`);
        const assigned = Object.keys(this).filter((name) => name !== "cssText" && typeof this[name] !== "function");
        return [...named, ...assigned.map((name) => `${name}: ${this[name]};`)].join(" ");
      },
      set cssText(text) {
        props.clear();
        for (const key of Object.keys(this)) if (key !== "cssText" && typeof this[key] !== "function") delete this[key];
        for (const declaration of String(text).split(";")) {
          const colon = declaration.indexOf(":");
          if (colon > 0) props.set(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
        }
      },
    };
    this.classList = {
      contains: (c) => el.className.split(/\s+/).includes(c),
      add: (...cs) => { for (const c of cs) if (!el.classList.contains(c)) el.className = `${el.className} ${c}`.trim(); },
      remove: (...cs) => { el.className = el.className.split(/\s+/).filter((x) => x && !cs.includes(x)).join(" "); },
      toggle: (c, on = !el.classList.contains(c)) => { if (on) el.classList.add(c); else el.classList.remove(c); return on; },
    };
    for (const name of BOOLEAN) {
      Object.defineProperty(this, name, {
        get: () => el.hasAttribute(name),
        set: (on) => { if (on) el.setAttribute(name, ""); else el.removeAttribute(name); },
      });
    }
  }

  get className() {
    return this.getAttribute("class") ?? "";
  }

  set className(value) {
    this.setAttribute("class", value);
  }

  get id() {
    return this.getAttribute("id") ?? "";
  }

  get value() {
    if (this.tagName === "SELECT" && this._value === undefined) {
      const options = this.querySelectorAll("option");
      const chosen = options.find((o) => o.selected) ?? options[0];
      return chosen ? chosen.value || chosen.textContent : "";
    }
    return this._value ?? this.getAttribute("value") ?? "";
  }

  set value(value) {
    this._value = String(value);
  }

  get attributes() {
    return [...this.attrs].map(([name, value]) => ({ name, value, namespaceURI: null }));
  }

  getAttributeNames() {
    return [...this.attrs.keys()];
  }

  setAttribute(name, value) {
    this.attrs.set(name, String(value));
  }

  setAttributeNS(_namespace, name, value) {
    this.setAttribute(name, value);
  }

  // As in a browser, styles set through the CSSOM show as the style attribute.
  getAttribute(name) {
    if (name === "style" && !this.attrs.has(name)) return this.style.cssText || null;
    return this.attrs.has(name) ? this.attrs.get(name) : null;
  }

  hasAttribute(name) {
    return this.getAttribute(name) !== null;
  }

  removeAttribute(name) {
    this.attrs.delete(name);
  }

  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    // As in a browser, the same listener added twice is called once.
    if (!this.listeners.get(type).includes(listener)) this.listeners.get(type).push(listener);
  }

  removeEventListener(type, listener) {
    this.listeners.set(type, (this.listeners.get(type) || []).filter((l) => l !== listener));
  }

  dispatchEvent(event) {
    if (!event.target) event.target = this;
    event.currentTarget = this;
    for (const listener of this.listeners.get(event.type) || []) listener(event);
    if (event.bubbles && this.parentNode instanceof FakeElement) this.parentNode.dispatchEvent(event);
    return true;
  }

  /** A click, as a person's: its listeners and then (a submit button's) its form's submit. */
  click() {
    if (this.disabled) return;
    let stopped = false;
    const event = { type: "click", bubbles: true, preventDefault() {}, stopPropagation() { stopped = true; } };
    Object.defineProperty(event, "bubbles", { get: () => !stopped });
    this.dispatchEvent(event);
    if (this.tagName === "BUTTON" && (this.getAttribute("type") ?? "submit") === "submit") {
      let form = this.parentNode;
      while (form && !(form instanceof FakeElement && form.tagName === "FORM")) form = form.parentNode;
      form?.dispatchEvent({ type: "submit", preventDefault() {} });
    }
  }

  focus() {
    fakeDocument.activeElement = this;
  }

  blur() {
    if (fakeDocument.activeElement === this) fakeDocument.activeElement = null;
  }

  matches(selector) {
    return matchesSelector(this, selector);
  }

  closest(selector) {
    for (let n = this; n instanceof FakeElement; n = n.parentNode) if (n.matches(selector)) return n;
    return null;
  }

  querySelectorAll(selector) {
    const found = [];
    const walk = (node) => {
      for (const child of node.childNodes) {
        if (!(child instanceof FakeElement)) continue;
        if (child.matches(selector)) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }

  after(...nodes) {
    const siblings = this.parentNode.childNodes;
    const at = siblings.indexOf(this) + 1;
    for (const [i, node] of nodes.entries()) {
      node.remove();
      node.parentNode = this.parentNode;
      siblings.splice(at + i, 0, node);
    }
  }

  getBoundingClientRect() {
    return { top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0 };
  }

  getClientRects() {
    return [];
  }

  scrollIntoView() {}
}

const fakeDocument = {
  /** @type {FakeElement|null} */
  activeElement: null,
  title: "",
  hidden: false,
  documentElement: new FakeElement("html"),
  head: new FakeElement("head"),
  body: new FakeElement("body"),
  createElement: (tag) => new FakeElement(tag),
  createElementNS: (ns, tag) => new FakeElement(tag, ns),
  createTextNode: (text) => new FakeText(String(text)),
  getElementById: (id) => fakeDocument.documentElement.querySelector(`#${id}`),
  querySelector: (selector) => fakeDocument.documentElement.querySelector(selector),
  querySelectorAll: (selector) => fakeDocument.documentElement.querySelectorAll(selector),
  addEventListener() {},
  removeEventListener() {},
};
fakeDocument.documentElement.append(fakeDocument.head, fakeDocument.body);

if (!globalThis.document || !globalThis.document.createElement) {
  globalThis.document = /** @type {any} */ (fakeDocument);
  globalThis.Node = /** @type {any} */ (FakeNode);
  globalThis.Element = /** @type {any} */ (FakeElement);
  globalThis.HTMLElement = /** @type {any} */ (FakeElement);
}
globalThis.window ??= /** @type {any} */ ({ addEventListener() {}, removeEventListener() {} });
globalThis.location ??= /** @type {any} */ ({ href: "http://localhost/", pathname: "/", search: "", origin: "http://localhost" });
globalThis.CSS ??= /** @type {any} */ ({ escape: (text) => String(text).replace(/[^\w-]/g, (c) => `\\${c}`) });
globalThis.matchMedia ??= /** @type {any} */ (() => ({ matches: true, addEventListener() {} }));
globalThis.requestAnimationFrame ??= (callback) => Number(setTimeout(() => callback(Date.now()), 0));
