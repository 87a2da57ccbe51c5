// Draw every step of games played by random legal moves (a JSON file of views written by
// tests/frontend/test_renderers_in_node.py) with each game's renderer, in the small document of setup-browser.js: the
// player's view in both languages and the spectator's, a click on legal pieces, the events in words. A click that
// sends nothing is a half-made choice: drawn again into the same area it stays chosen, and another area (a replay's)
// does not have it. Prints one JSON line of counts per game; exits 1 on the first failure.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [fixtures, root] = process.argv.slice(2);
const games = JSON.parse(fs.readFileSync(fixtures, "utf8"));
globalThis.location = /** @type {any} */ ({ href: "http://localhost/", pathname: "/", search: "", host: "localhost", protocol: "http:" });
await import("./setup-browser.js");
globalThis.fetch = /** @type {any} */ (async (url) => {
  const game = /\/api\/games\/([^/]+)\/catalog$/.exec(String(url));
  const body = game ? games[game[1]].catalog : null;
  return { ok: Boolean(body), status: body ? 200 : 404, json: async () => body, text: async () => JSON.stringify(body) };
});

/** What an element draws, as text: tags, attributes (by name: a redrawn element keeps the order they came in) and
 * words. */
function drawn(el) {
  if (!el.tagName) return el.textContent;
  const attrs = [...el.attrs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}="${v}"`).join(" ");
  return `<${el.tagName} ${attrs}>${el.childNodes.map(drawn).join("")}</${el.tagName}>`;
}

for (const [id, { seats, steps }] of Object.entries(games)) {
  const module = await import(pathToFileURL(path.join(root, "frontend", "games", `${id}.js`)).href);
  const area = document.createElement("div");
  document.body.appendChild(area);
  const counts = { game: id, draws: 0, clicks: 0, sent: 0, kept: 0 };
  for (const [i, step] of steps.entries()) {
    let sent = 0;
    const ctx = {
      seat: "0", actions: step.actions, awaiting: step.awaiting, send: async () => { sent += 1; },
      names: Object.fromEntries(seats.map((s) => [s, `Player ${s}`])), people: {}, host: null, lang: i % 2 ? "es" : "en",
      events: step.events, lastMoveEvents: step.events, over: false, prompt: () => {},
    };
    try {
      module.render(area, step.view, ctx);
      counts.draws += 1;
      const legal = area.querySelectorAll(".legal");
      if (legal.length) {
        const before = drawn(area);
        // The legal piece, or the clickable thing inside it (a market position holds its card).
        const piece = legal[i % legal.length];
        const clicks = (el) => el.listeners.has("click");
        (clicks(piece) ? piece : [...piece.querySelectorAll("*")].find(clicks) ?? piece).click();
        counts.clicks += 1;
        const chosen = drawn(area);
        if (!sent && chosen !== before) {
          module.render(area, step.view, ctx);
          if (drawn(area) !== chosen) throw new Error("a half-made choice was lost on a redraw");
          const other = document.createElement("div");
          document.body.appendChild(other);
          module.render(other, step.view, ctx);
          other.remove();
          if (drawn(other) !== before) throw new Error("another game area shares the half-made choice");
          counts.kept += 1;
        }
      }
      counts.sent += sent;
      module.render(area, step.spectator, { ...ctx, seat: null, actions: [] });
      for (const event of step.events) module.describeEvent(event, ctx);
    } catch (error) {
      console.error(`${id}, step ${i}:`, error);
      process.exit(1);
    }
  }
  console.log(JSON.stringify(counts));
}
