// A tiny declarative DOM builder shared by the shell and the game renderers.
// h("div", {class: "card", onclick: fn, dataset: {id: 1}}, "text", child, [more])
// Text is always inserted as text nodes, so user strings are never parsed as HTML.

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        listen(el, key.slice(2).toLowerCase(), value);
      } else if (key === "class") {
        el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
      } else if (key === "style") {
        setStyle(el, value);
      } else if (key === "dataset") {
        Object.assign(el.dataset, value);
      } else if (value === true) {
        el.setAttribute(key, "");
      } else {
        el.setAttribute(key, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

// Inline styles go through the CSSOM, never a style attribute, which the site's Content-Security-Policy refuses.
// `value` is an object ({gridRow: "2", "--seat": "#c33"}) or declarations as text ("grid-row: 2; --seat: #c33").
function setStyle(el, value) {
  if (typeof value === "string") {
    for (const declaration of value.split(";")) {
      const colon = declaration.indexOf(":");
      if (colon > 0) el.style.setProperty(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
    }
    return;
  }
  for (const [name, setting] of Object.entries(value)) {
    // Custom properties (--seat) and hyphenated names are set by name; camelCase ones (gridRow) as properties.
    if (name.includes("-")) el.style.setProperty(name, String(setting));
    else el.style[name] = setting;
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

// An element's handlers live in this table, called by one shared listener, so that `morph` can hand an element that
// stays the handlers of the one drawn in its place (a listener added directly could not be taken off again).
/** @type {WeakMap<EventTarget, Record<string, (event: Event) => unknown>>} */
const handlers = new WeakMap();

/** @param {Event} event */
function dispatch(event) {
  const handler = event.currentTarget && handlers.get(event.currentTarget)?.[event.type];
  if (handler) handler.call(event.currentTarget, event);
}

function listen(el, type, handler) {
  let own = handlers.get(el);
  if (!own) handlers.set(el, (own = {}));
  own[type] = handler;
  el.addEventListener(type, dispatch);
}

// Make what is inside `container` equal to `nodes`, keeping the elements already there that are drawn again and
// changing only what differs: their attributes, inline style, handlers, words and children. An element drawn again is
// the one with the same tag and the same card, focus id or id; without those, the next one of the same tag and first
// class (a piece's class names its kind, its state follows), so a line that comes or goes before its siblings does
// not turn each of them into the one before it, rebuilding all they hold. A game area redrawn after every move thus
// changes in the page only what the move changed (the browser lays out a quarter as often), and what it keeps keeps
// its focus, its hover, its scroll and any animation under way. Form fields are drawn anew (their typed value is the
// person's, not an attribute). Keyboard focus is kept as `mount` keeps it.
export function morph(container, ...nodes) {
  const focused = focusWithin(container);
  /** @type {Node[]} */
  const wanted = [];
  append({ appendChild: (node) => wanted.push(node) }, nodes);
  morphChildren(container, wanted);
  if (focused && !container.contains(document.activeElement)) refocus(container, focused);
}

const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

// Read as attributes, not through `dataset` and `classList`: a redraw asks this of every element on the board twice.
function keyOf(node) {
  if (node.nodeType !== 1) return null;
  const key = node.getAttribute("data-card") ?? node.getAttribute("data-focus-id") ?? (node.id || null);
  return key === null ? null : `${node.tagName}#${key}`;
}

/** The kind an element without a key is matched by: its tag and first class (text and comments by their type). */
function looseKind(node) {
  if (node.nodeType !== 1) return `#${node.nodeType}`;
  const classes = node.getAttribute("class") ?? "";
  const space = classes.indexOf(" ");
  return `${node.tagName}.${space < 0 ? classes : classes.slice(0, space)}`;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== 1) return true;
  return a.tagName === b.tagName && a.namespaceURI === b.namespaceURI && !FIELDS.has(a.tagName);
}

function morphChildren(parent, wanted) {
  /** @type {Map<string, {nodes: Node[], next: number}>} the old children by key, or by kind when they have none */
  const old = new Map();
  for (const node of parent.childNodes) {
    const key = keyOf(node) ?? looseKind(node);
    const same = old.get(key);
    if (same) same.nodes.push(node);
    else old.set(key, { nodes: [node], next: 0 });
  }
  const kept = new Set();
  const placed = wanted.map((node) => {
    const same = old.get(keyOf(node) ?? looseKind(node));
    const was = same && same.next < same.nodes.length ? same.nodes[same.next++] : null;
    if (!was || !sameKind(was, node)) return node;
    kept.add(was);
    morphNode(was, node);
    return was;
  });
  for (const node of [...parent.childNodes]) if (!kept.has(node)) parent.removeChild(node);
  let at = parent.firstChild;
  for (const node of placed) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
}

const SVG = "http://www.w3.org/2000/svg";

function morphNode(old, node) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  // An icon (lib/icons.js: the only pictures drawn, never given handlers) drawn again as it was is left as it is, the
  // browser comparing it whole: a board draws hundreds.
  if (old.namespaceURI === SVG && old.isEqualNode(node) && !handlers.has(old) && !handlers.has(node)) return;
  // By name, as h() and icon() set every attribute (none in a namespace), never through `attributes`, whose entries
  // are objects made on each read: this runs for every element on the board.
  for (const name of old.getAttributeNames()) {
    if (name !== "style" && !node.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const name of node.getAttributeNames()) {
    if (name === "style") continue;
    const value = node.getAttribute(name);
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  // Through the CSSOM: the Content-Security-Policy refuses a style attribute written as one. Styles set through the
  // CSSOM show as a style attribute, so an element with none on either side has nothing to compare.
  if ((old.hasAttribute("style") || node.hasAttribute("style")) && old.style.cssText !== node.style.cssText) {
    old.style.cssText = node.style.cssText;
  }
  const was = handlers.get(old);
  const own = handlers.get(node);
  if (was || own) {
    for (const type in was) if (!own || !(type in own)) old.removeEventListener(type, dispatch);
    for (const type in own) if (!was || !(type in was)) old.addEventListener(type, dispatch);
    if (own) handlers.set(old, own);
    else handlers.delete(old);
  }
  if (old.firstChild || node.firstChild) morphChildren(old, [...node.childNodes]);
}

// Replace everything inside `container` with `nodes`. Keyboard focus inside it stays on the same control
// (focusKey; when that one is gone, the one now in its place): a redraw would otherwise drop it to the page's start.
export function mount(container, ...nodes) {
  const focused = focusWithin(container);
  container.replaceChildren();
  append(container, nodes);
  if (focused) refocus(container, focused);
}

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

function focusKey(el) {
  // Never by its words, which change with the language, a count or a state ("Mute" → "Unmute"): a control says which
  // one it is with a stable data-focus-id (a map square, a seat's button), else it is known by its kind (tag, type,
  // name, test id, the card it draws: data-card) and, among those of its kind, by its place (the one nearest to where
  // the focused one was).
  if (el.dataset.focusId) return `#${el.dataset.focusId}`;
  return [el.tagName, el.getAttribute("type"), el.getAttribute("name"), el.dataset.testid, el.dataset.card].join("|");
}

function focusWithin(container) {
  const el = document.activeElement;
  if (!el || el === document.body || !container.contains(el)) return null;
  return { key: focusKey(el), index: [...container.querySelectorAll(FOCUSABLE)].indexOf(el) };
}

function refocus(container, { key, index }) {
  const all = [...container.querySelectorAll(FOCUSABLE)].filter((el) => !el.disabled);
  const same = all.filter((el) => focusKey(el) === key);
  const target = same.length ? same.reduce((a, b) => (Math.abs(all.indexOf(b) - index) < Math.abs(all.indexOf(a) - index) ? b : a))
    : all[Math.min(index, all.length - 1)];
  if (target) target.focus({ preventScroll: true });
}

// Like mount, but keeps what is there when it equals `node`: a redraw that changes nothing then cannot swap
// a button out between the press and the release of a click (which would lose the click). Only for nodes
// whose handlers read the current state when called, since the old handlers stay.
export function mountIfChanged(container, node) {
  if (container.childNodes.length === 1 && container.firstChild.isEqualNode(node)) return;
  mount(container, node);
}

// The UI state of a game area: what its renderer keeps between draws that is not the game's (a half-made choice, a
// card armed for its target, a fold opened, the zoom), one plain object per container the renderer draws into. The
// table page keeps one game area for its life and a replay has its own, so each has its own state; a renderer keeps
// nothing of the kind in module variables or in the drawn elements, and drops a half-made choice itself when the
// decision it belonged to is over (docs/renderers.md).
const uiStates = new WeakMap();
export function uiState(container) {
  let state = uiStates.get(container);
  if (!state) {
    state = {};
    uiStates.set(container, state);
  }
  return state;
}

// Props that make a non-button element act as a button: clicked, or Enter/Space while focused; reachable with
// Tab and named for assistive technology by `label` (else by its text). Nothing when there is no handler.
export function clickable(onclick, label) {
  if (!onclick) return {};
  return {
    onclick, role: "button", tabindex: "0", "aria-label": label || null,
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onclick(e); } },
  };
}

// Props that name a piece that is not clickable (a card, pile, token or space drawn with codes, symbols or a bare
// number) for assistive technology: it is read as one picture named by `label`, rather than as its codes ("Fru",
// "★", "3"). Sighted players see nothing new. Only for a piece with nothing clickable inside (that would be hidden).
export function named(label) {
  return label ? { role: "img", "aria-label": label } : {};
}

// A piece that may be clickable: a button named by `label` when there is a handler (clickable), else named(label).
export function piece(onclick, label) {
  return onclick ? clickable(onclick, label) : named(label);
}

// Actions from ctx.actions whose fields match `partial` (e.g. {type: "serve"}).
export function matching(actions, partial) {
  return actions.filter((a) => Object.entries(partial).every(([k, v]) => a[k] === v));
}

// Where the long words of a game's card names may break, from "Ham-bur-guesa Sand-wich" ("-" marks a soft hyphen):
// {Hamburguesa: "Ham\u00adbur\u00adguesa", …}. Debian's Chromium has no hyphenation dictionaries, so `hyphens: auto`
// does nothing there and a word too wide for a small card is otherwise cut anywhere ("Cheesebu|rger").
export function syllables(text) {
  return Object.fromEntries(text.trim().split(/\s+/).map((w) => [w.replace(/-/g, ""), w.replace(/-/g, "\u00ad")]));
}

// A card's name that breaks between its words first and inside a word only when that word alone is wider than the
// card, then at the soft hyphens `syllables` gives it: each word is an inline-block no wider than its line (class
// `word`, in style.css), so a word that fits moves to the next line whole instead of being hyphenated to fill this
// one ("Recruit-|ing Girl"). Nodes for h(); name the card in words elsewhere (the soft hyphens are not words).
export function cardWords(name, syllables = {}) {
  const out = [];
  String(name).split(" ").forEach((word, i) => {
    if (i) out.push(" ");
    out.push(h("span", { class: "word" }, syllables[word] || word));
  });
  return out;
}

// Mark what the last move changed (class `just-changed`, drawn in style.css): the elements of `root` matching each
// selector. Renderers build the selectors from ctx.lastMoveEvents with `attr` for the values they quote.
export function markChanged(root, selectors) {
  for (const selector of new Set(selectors)) {
    for (const el of root.querySelectorAll(selector)) el.classList.add("just-changed");
  }
}

// `[name="value"]` with the value quoted for a selector, whatever it holds.
export function attr(name, value) {
  return `[${name}="${String(value).replace(/["\\]/g, "\\$&")}"]`;
}

// Where a renderer's instruction goes. The table page offers `ctx.prompt`: the viewer's own instruction (what to
// click, and its buttons) is handed there, to ride in the sticky turn bar, and null is returned for the renderer's
// area; a line about what others decide (or any line, where no page offers one: a replay) stays in the area.
// The renderer calls this on every draw, so the bar never keeps an instruction the game has moved past.
export function instruction(ctx, node, mine) {
  if (typeof ctx.prompt !== "function") return node;
  ctx.prompt(mine ? node : null);
  return mine ? null : node;
}
