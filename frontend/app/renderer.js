// Loading a game's renderer module (and its optional stylesheet) from /games/<id>.js.

const cache = new Map();

function safeId(gameId) {
  return /^[a-z0-9][a-z0-9_-]*$/i.test(gameId) ? gameId : null;
}

function loadCss(id) {
  if (document.querySelector(`link[data-game-css="${id}"]`)) return;
  fetch(`/games/${id}.css`, { method: "HEAD" })
    .then((response) => {
      if (!response.ok) return;
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = `/games/${id}.css`;
      link.dataset.gameCss = id;
      document.head.appendChild(link);
    })
    .catch(() => {});
}

async function load(id) {
  const probe = await fetch(`/games/${id}.js`, { method: "HEAD" }).catch(() => null);
  if (probe && probe.status === 404) return { module: null, missing: true };
  try {
    const module = await import(`/games/${id}.js`);
    if (typeof module.render !== "function") return { module: null, missing: true };
    return { module, missing: false };
  } catch (error) {
    console.error(`renderer ${id} failed to load`, error);
    return { module: null, missing: !probe || !probe.ok, error };
  }
}

/** Resolves to {module, missing, error?}; module is null when the game has no usable renderer. */
export function loadRenderer(gameId) {
  const id = safeId(gameId);
  if (!id) return Promise.resolve({ module: null, missing: true });
  if (!cache.has(id)) {
    loadCss(id);
    cache.set(id, load(id));
  }
  return cache.get(id);
}
