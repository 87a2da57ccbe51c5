// Loading a game's renderer module from games/<id>.js, and the stylesheet the module names (its `stylesheet`).
// Relative to this module, so a page loaded from a version's addresses (/v/<version>/…) loads the same version.
// Nothing is probed first: the module knows its own files, and an import that fails says the renderer is missing.

const cache = new Map();

function safeId(gameId) {
  return /^[a-z0-9][a-z0-9_-]*$/i.test(gameId) ? gameId : null;
}

/** Add the renderer's stylesheet, resolving once it has loaded (or failed), so the first draw is styled. */
function loadCss(id, href) {
  if (document.querySelector(`link[data-game-css="${id}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.dataset.gameCss = id;
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
    document.head.appendChild(link);
  });
}

async function load(id) {
  let module;
  try {
    module = await import(`../games/${id}.js`);
  } catch (error) {
    console.error(`renderer ${id} failed to load`, error);
    return { module: null, missing: true, error };
  }
  if (typeof module.render !== "function") return { module: null, missing: true };
  if (typeof module.stylesheet === "string") await loadCss(id, module.stylesheet);
  return { module, missing: false };
}

/** Resolves to {module, missing, error?}; module is null when the game has no usable renderer. */
export function loadRenderer(gameId) {
  const id = safeId(gameId);
  if (!id) return Promise.resolve({ module: null, missing: true });
  if (!cache.has(id)) cache.set(id, load(id));
  return cache.get(id);
}
