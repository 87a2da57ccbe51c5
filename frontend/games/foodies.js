// Foodies renderer: food courts (3x3 stalls whose half-stars meet at the edges), the market with its
// prices, the chefs, the popularity track, coins, flyers and the die. Texts in English and Spanish.
import { attr, cardWords, clickable, h, instruction, markChanged, matching, morph, named, piece, syllables, uiState } from "../lib/dom.js";
import { iconFor } from "../lib/icons.js";
import { langOf, seatName as nameOf } from "../lib/text.js";

// The table page adds this stylesheet before the first draw (frontend/app/renderer.js).
export const stylesheet = new URL("./foodies.css", import.meta.url).pathname;

const TEXT = {
  en: {
    cultures: {
      AME: "American", BRA: "Brazilian", CHN: "Chinese", FRA: "French", GER: "German",
      IND: "Indian", ITA: "Italian", JPN: "Japanese", MEX: "Mexican", THA: "Thai",
    },
    effects: {
      franchise: "+1 coin per American stall in your court (this one included).",
      carnival: "+1 popularity if your court holds stalls of 3 or more cultures.",
      banquet: "+1 coin per stall next to this one.",
      haute_cuisine: "+1 extra popularity per full star of this stall.",
      beer_garden: "+1 flyer.",
      spice_cluster: "+1 popularity per Indian stall next to this one.",
      family_table: "Put a popularity token on each neighbouring space that has none.",
      zen_corner: "On a corner: +1 popularity; elsewhere: +1 coin.",
      taco_cart: "Put a coin token on each neighbouring space with no stall and no coin token.",
      street_flyers: "+1 coin per flyer you hold (at most 3).",
    },
    chefs: {
      specialist: ["The Specialist", "4 stalls of one culture"],
      globetrotter: ["The Globetrotter", "stalls of 5 different cultures"],
      star_gazer: ["The Star Gazer", "6 full stars"],
      crossroads: ["The Crossroads Chef", "a stall on 2, 4, 5, 6 and 8"],
      trio: ["The Trio Master", "3 cultures with 2 stalls each"],
    },
    chefForHire: "Chef for hire",
    hireCost: (c, p) => `Pay ${c} coins: +${p} popularity (once a turn)`,
    claimed: (n) => `hired by ${n}`,
    available: "available",
    market: "Market", deck: "Deck", empty: "empty",
    coins: "coins", popularity: "popularity", flyers: "flyers", stars: "full stars",
    track: (t) => `Popularity (game ends at ${t})`,
    die: "Die",
    roll: "Roll the die",
    keepZero: "Keep the 0 (nobody collects)",
    chooseFace: "You rolled 0: pick the space to visit (click it in your food court, or a face).",
    flyerPrompt: (v) => `Space ${v} is visited. Click it in your food court to collect there, or a highlighted neighbour to spend a flyer.`,
    buyPrompt: "Buy a stall: click a card in the Market, then a space of your food court.",
    placePrompt: "Now click the space of your food court where the stall goes.",
    skipBuy: "Buy nothing", cancel: "Cancel",
    hirePrompt: "Hire chefs (the Chef for hire, or a special chef) if you like, then end your turn.",
    endTurn: "End turn",
    // what the others do now (the shell's turn bar says who is awaited)
    doing: {
      roll: (n) => `${n} rolls the die…`, choose_face: (n) => `${n} rolled a 0 and picks the space visited…`,
      buy: (n) => `${n} buys a stall…`, hire: (n) => `${n} may hire chefs, then ends the turn…`,
    },
    flyerWaiting: (names, many) => `${names} ${many ? "decide" : "decides"} whether to spend a flyer…`,
    decided: "Your flyer decision is in.",
    you: "you", first: "first player", last: "last seat",
    endTriggered: "The end is triggered: the round is being finished.",
    yourCourt: "Your food court", court: (n) => `${n}'s food court`,
    keepFlyers: "Always keep my flyers (don't ask me on each roll)",
    final: "Final scoring", place: "Place", player: "Player",
    sources: {
      tokens: "tokens", stalls: "stall cards", effects: "culture effects", stars: "full stars",
      chef_for_hire: "chef for hire", special_chefs: "special chefs",
    },
    total: "popularity", coinsTie: "coins (tie-break)", chefsCol: "chefs hired",
    space: "Space", printed: (c) => `${c} coin${c === 1 ? "" : "s"}`,
    stall: (c, id) => `${c} stall ${id}`, faceLabel: (f) => `Visit space ${f}`,
    slotLabel: (stall, price) => `${stall}, costs ${price} coin${price === 1 ? "" : "s"}`,
    removed: (n) => `${n} stall${n === 1 ? "" : "s"} covered and removed`,
    lastRoll: "last roll",
    // a stall, a space, a token in words, for screen readers
    coinsN: (n) => `${n} coin${n === 1 ? "" : "s"}`, popN: (n) => `${n} popularity`, earns: (list) => `earns ${list.join(" and ")}`,
    edges: { top: "top", right: "right", bottom: "bottom", left: "left" },
    halves: (list) => `half stars ${list}`, fullStars: (list) => `full stars ${list}`,
    effect: (text) => `effect: ${text}`, onSpace: (list) => `tokens: ${list}`,
    popTokens: (n) => `${n} popularity token${n === 1 ? "" : "s"}`, coinTokens: (n) => `${n} coin token${n === 1 ? "" : "s"}`,
    visited: "visited", dieShows: (label, v) => `${label}: ${v === null || v === undefined ? "none yet" : v}`,
    flyersN: (n) => `${n} flyer${n === 1 ? "" : "s"}`, starsN: (n) => `${n} full star${n === 1 ? "" : "s"}`,
    atTrack: (name, n) => `${name}: ${n} popularity`, activeNow: "taking the turn",
  },
  es: {
    cultures: {
      AME: "Estadounidense", BRA: "Brasileña", CHN: "China", FRA: "Francesa", GER: "Alemana",
      IND: "India", ITA: "Italiana", JPN: "Japonesa", MEX: "Mexicana", THA: "Tailandesa",
    },
    effects: {
      franchise: "+1 moneda por cada puesto estadounidense de tu patio (este incluido).",
      carnival: "+1 de popularidad si tu patio tiene puestos de 3 culturas o más.",
      banquet: "+1 moneda por cada puesto adyacente a este.",
      haute_cuisine: "+1 de popularidad extra por cada estrella completa de este puesto.",
      beer_garden: "+1 volante.",
      spice_cluster: "+1 de popularidad por cada puesto indio adyacente a este.",
      family_table: "Pon una ficha de popularidad en cada espacio adyacente que no tenga ninguna.",
      zen_corner: "En una esquina: +1 de popularidad; en otro sitio: +1 moneda.",
      taco_cart: "Pon una ficha de moneda en cada espacio adyacente sin puesto y sin ficha de moneda.",
      street_flyers: "+1 moneda por cada volante que tengas (máximo 3).",
    },
    chefs: {
      specialist: ["El Especialista", "4 puestos de la misma cultura"],
      globetrotter: ["El Trotamundos", "puestos de 5 culturas diferentes"],
      star_gazer: ["El Astrónomo", "6 estrellas completas"],
      crossroads: ["El Chef del Cruce", "un puesto en 2, 4, 5, 6 y 8"],
      trio: ["El Maestro del Trío", "3 culturas con 2 puestos cada una"],
    },
    chefForHire: "Chef de alquiler",
    hireCost: (c, p) => `Paga ${c} monedas: +${p} de popularidad (una vez por turno)`,
    claimed: (n) => `contratado por ${n}`,
    available: "disponible",
    market: "Mercado", deck: "Mazo", empty: "vacío",
    coins: "monedas", popularity: "popularidad", flyers: "volantes", stars: "estrellas completas",
    track: (t) => `Popularidad (la partida acaba en ${t})`,
    die: "Dado",
    roll: "Tirar el dado",
    keepZero: "Dejar el 0 (nadie recolecta)",
    chooseFace: "Has sacado un 0: elige el espacio visitado (pulsa el espacio en tu patio o una cara).",
    flyerPrompt: (v) => `Se visita el espacio ${v}. Púlsalo en tu patio para recolectar ahí, o un vecino resaltado para gastar un volante.`,
    buyPrompt: "Compra un puesto: pulsa una carta del Mercado y luego un espacio de tu patio.",
    placePrompt: "Ahora pulsa el espacio de tu patio donde va el puesto.",
    skipBuy: "No comprar", cancel: "Cancelar",
    hirePrompt: "Contrata chefs (el chef a sueldo o uno especial) si quieres y termina tu turno.",
    endTurn: "Terminar turno",
    doing: {
      roll: (n) => `${n} tira el dado…`, choose_face: (n) => `${n} sacó un 0 y elige el espacio visitado…`,
      buy: (n) => `${n} compra un puesto…`, hire: (n) => `${n} puede contratar chefs y luego termina su turno…`,
    },
    flyerWaiting: (names, many) => `${names} ${many ? "deciden" : "decide"} si gastan un volante…`,
    decided: "Tu decisión sobre el volante está tomada.",
    you: "tú", first: "primer jugador", last: "último jugador",
    endTriggered: "Se ha activado el final: se termina la ronda.",
    yourCourt: "Tu patio de comidas", court: (n) => `Patio de ${n}`,
    keepFlyers: "Guardar siempre mis volantes (no preguntarme en cada tirada)",
    final: "Puntuación final", place: "Puesto", player: "Jugador",
    sources: {
      tokens: "fichas", stalls: "cartas de puesto", effects: "efectos de cultura", stars: "estrellas completas",
      chef_for_hire: "chef de alquiler", special_chefs: "chefs especiales",
    },
    total: "popularidad", coinsTie: "monedas (desempate)", chefsCol: "chefs contratados",
    space: "Espacio", printed: (c) => `${c} moneda${c === 1 ? "" : "s"}`,
    stall: (c, id) => `Puesto de cocina ${c.toLowerCase()} ${id}`, faceLabel: (f) => `Visitar el espacio ${f}`,
    slotLabel: (stall, price) => `${stall}, cuesta ${price} moneda${price === 1 ? "" : "s"}`,
    removed: (n) => `${n} puesto${n === 1 ? "" : "s"} cubierto${n === 1 ? "" : "s"} y retirado${n === 1 ? "" : "s"}`,
    lastRoll: "última tirada",
    coinsN: (n) => `${n} moneda${n === 1 ? "" : "s"}`, popN: (n) => `${n} de popularidad`, earns: (list) => `da ${list.join(" y ")}`,
    edges: { top: "arriba", right: "a la derecha", bottom: "abajo", left: "a la izquierda" },
    halves: (list) => `medias estrellas ${list}`, fullStars: (list) => `estrellas completas ${list}`,
    effect: (text) => `efecto: ${text}`, onSpace: (list) => `fichas: ${list}`,
    popTokens: (n) => `${n} ficha${n === 1 ? "" : "s"} de popularidad`, coinTokens: (n) => `${n} ficha${n === 1 ? "" : "s"} de moneda`,
    visited: "visitado", dieShows: (label, v) => `${label}: ${v === null || v === undefined ? "ninguna aún" : v}`,
    flyersN: (n) => `${n} volante${n === 1 ? "" : "s"}`, starsN: (n) => `${n} estrella${n === 1 ? "" : "s"} completa${n === 1 ? "" : "s"}`,
    atTrack: (name, n) => `${name}: ${n} de popularidad`, activeNow: "en su turno",
  },
};

const LOG = {
  en: {
    rolled: (n, f) => `${n} rolled ${f}`,
    face_chosen: (n, f) => `${n} turned the die to ${f}`,
    zero_kept: (n) => `${n} kept the 0: nobody collects`,
    flyer_chosen: (n, s) => (s === null ? `${n} keeps the flyers` : `${n} will spend a flyer on space ${s}`),
    flyers_revealed: (list) => (list ? `Flyers: ${list}` : null),
    flyerTo: (n, s) => `${n} → ${s}`,
    collected: (n, s, parts, flyer) => `${n} collected ${parts} from space ${s}${flyer ? " (flyer)" : ""}`,
    nothing: "nothing",
    end_triggered: (n, p, t) => `${n} reached ${p} popularity (${t}): the round is finished, then the game ends`,
    bought: (n, c, p, s, cov) => `${n} bought ${c} for ${p} coins and placed it on space ${s}${cov ? `, covering ${cov}` : ""}`,
    market_refilled: (c, left) => (c ? `${c} joins the market (${left} left in the deck)` : "The deck is empty: slot 1 stays empty"),
    buy_skipped: (n) => `${n} bought nothing`,
    chef_hired: (n, c, p) => `${n} paid ${c} coins to the chef for hire: +${p} popularity`,
    chef_claimed: (n, chef, p) => `${n} hired ${chef}: +${p} popularity`,
    turn_ended: (n) => `${n} ended the turn`,
    game_over: (w) => `Game over — ${w} win${w.includes(" & ") ? "" : "s"}`,
    amount: { coins: "coin", popularity: "popularity", flyers: "flyer" },
  },
  es: {
    rolled: (n, f) => `${n} sacó un ${f}`,
    face_chosen: (n, f) => `${n} giró el dado al ${f}`,
    zero_kept: (n) => `${n} dejó el 0: nadie recolecta`,
    flyer_chosen: (n, s) => (s === null ? `${n} guarda sus volantes` : `${n} gastará un volante en el espacio ${s}`),
    flyers_revealed: (list) => (list ? `Volantes: ${list}` : null),
    flyerTo: (n, s) => `${n} → ${s}`,
    collected: (n, s, parts, flyer) => `${n} ${parts === "nada" ? "no recolectó" : "recolectó"} ${parts} del espacio ${s}${flyer ? " (volante)" : ""}`,
    nothing: "nada",
    end_triggered: (n, p, t) => `${n} llegó a ${p} de popularidad (${t}): se termina la ronda y acaba la partida`,
    bought: (n, c, p, s, cov) => `${n} compró ${c} por ${p} monedas y lo puso en el espacio ${s}${cov ? `, cubriendo ${cov}` : ""}`,
    market_refilled: (c, left) => (c ? `${c} entra en el mercado (quedan ${left} en el mazo)` : "El mazo está vacío: el espacio 1 del mercado queda vacío"),
    buy_skipped: (n) => `${n} no compró nada`,
    chef_hired: (n, c, p) => `${n} pagó ${c} monedas al chef de alquiler: +${p} de popularidad`,
    chef_claimed: (n, chef, p) => `${n} contrató a ${chef}: +${p} de popularidad`,
    turn_ended: (n) => `${n} terminó su turno`,
    game_over: (w) => `Fin de la partida — gana ${w}`,
    amount: { coins: "moneda", popularity: "de popularidad", flyers: "volante" },
  },
};

const CULTURE_COLOURS = {
  AME: "#c8453b", BRA: "#2f9a4a", CHN: "#d9a521", FRA: "#3a5fb4", GER: "#7a5230",
  IND: "#e07b22", ITA: "#1f8a7a", JPN: "#b8336a", MEX: "#6f9a1e", THA: "#7b4bb3",
};
// Culture colours as text on a card's cream (4.5:1 or more): the lighter ones darkened, the others as they are.
const CULTURE_INK = { BRA: "#28833f", CHN: "#906d16", IND: "#af5f19", ITA: "#1d8071", MEX: "#5b7e19" };
const SEAT_COLOURS = ["#d0463b", "#2f6fd0", "#2e9b4f", "#d99a16", "#8c4bc4"];
const EDGES = ["top", "right", "bottom", "left"];
const PRINTED = { 1: 0, 2: 1, 3: 0, 4: 1, 5: 2, 6: 1, 7: 0, 8: 1, 9: 0 };

// The market card picked before a space is clicked: `picked` of the game area's uiState.

// "Always keep my flyers": a preference of this browser's player. Holding a flyer asks for a decision on every roll,
// anyone's; with it on, the page answers "keep" (no_flyer) at once, as the player would by clicking the space
// visited. The game still waits on the player while no page of theirs is open.
const KEEP_FLYERS = "fg.foodies.keepFlyers";

function keepFlyers() {
  try {
    return localStorage.getItem(KEEP_FLYERS) === "1";
  } catch {
    return false;
  }
}

function setKeepFlyers(on) {
  try {
    if (on) localStorage.setItem(KEEP_FLYERS, "1");
    else localStorage.removeItem(KEEP_FLYERS);
  } catch {
    // Not kept past this page.
  }
}

/** Answer the flyer decision with "keep" when the preference says so: once per decision. */
function keepFlyersIfAsked(container, ctx) {
  const ui = uiState(container); // `keptFlyers`: answered for the decision open now
  const deciding = (ctx.actions || []).some((a) => a.type === "no_flyer");
  if (!deciding) {
    ui.keptFlyers = false;
    return;
  }
  if (ui.keptFlyers || !keepFlyers()) return;
  ui.keptFlyers = true;
  send(ctx, { type: "no_flyer" });
}

function keepFlyersSwitch(ctx, rerender) {
  return h("label", { class: "fd-keep check small", "data-testid": "fd-keep-flyers" },
    h("input", { type: "checkbox", checked: keepFlyers() || null, onchange: (event) => {
      setKeepFlyers(event.target.checked);
      rerender();
    } }),
    h("span", null, tx(ctx).keepFlyers));
}
// Whether the person opened the culture legend: `legendOpen` of the game area's uiState (every update redraws it).

function tx(ctx) {
  return TEXT[langOf(ctx)];
}

function cultureOf(card) {
  return card.slice(0, 3);
}

function send(ctx, action) {
  const result = ctx.send(action);
  if (result && typeof result.catch === "function") result.catch(() => {});
}

// A stall card in words, for the names of the things a click buys or visits.
function stallName(t, cardId) {
  return t.stall(t.cultures[cultureOf(cardId)] || cultureOf(cardId), cardId.slice(3));
}

// A stall card in full words after `first` (its name): what it pays, its half stars (and which are full), its effect.
function stallWords(view, t, cardId, fullEdges, first = stallName(t, cardId)) {
  const card = view.cards[cardId];
  if (!card) return first;
  const list = (edges) => edges.map((e) => t.edges[e]).join(", ");
  const halves = EDGES.filter((e) => card.half_stars[e]);
  const full = halves.filter((e) => (fullEdges || []).includes(e));
  const earns = [card.coins ? t.coinsN(card.coins) : null, card.popularity ? t.popN(card.popularity) : null].filter(Boolean);
  return [first, earns.length ? t.earns(earns) : null,
    halves.length ? t.halves(list(halves)) : null, full.length ? t.fullStars(list(full)) : null,
    card.effect ? t.effect(t.effects[card.effect].replace(/\.$/, "")) : null].filter(Boolean).join("; ");
}

function seatColour(view, seat) {
  return SEAT_COLOURS[view.seats.indexOf(seat) % SEAT_COLOURS.length];
}

// ---------- pieces ----------

function dieFace(value, props = {}) {
  return h("div", { class: ["fd-die", props.legal && "legal", props.class], title: props.title,
    ...piece(props.onclick, props.onclick ? props.label : props.name) },
  value === null || value === undefined ? "?" : String(value));
}

function starTokens(n, kind) {
  if (!n) return null;
  return h("span", { class: `fd-token fd-token-${kind}` }, kind === "pop" ? "★" : "●", n > 1 ? `×${n}` : null);
}

// Where the culture names may break on a narrow card ("-" = a soft hyphen): only a name wider than the card, at these
// points, never anywhere or cut short ("Estadou…", "Al…").
const SYLLABLES = syllables(`
  Amer-i-can Bra-zil-ian Chi-nese Ger-man In-dian Ital-ian Jap-a-nese Mex-i-can
  Es-ta-dou-ni-den-se Bra-si-le-ña Fran-ce-sa Ale-ma-na Ita-lia-na Ja-po-ne-sa Me-xi-ca-na Tai-lan-de-sa
`);

function cultureName(t, culture) {
  return cardWords(t.cultures[culture] || culture, SYLLABLES);
}

function stallCard(view, cardId, ctx, opts = {}) {
  const t = tx(ctx);
  const card = view.cards[cardId];
  const culture = card ? card.culture : cultureOf(cardId);
  const full = opts.fullEdges || [];
  const halves = card ? EDGES.filter((e) => card.half_stars[e]) : [];
  const rewards = [];
  if (card && card.coins) rewards.push(h("span", { class: "fd-coin" }, `${card.coins}`));
  if (card && card.popularity) rewards.push(h("span", { class: "fd-pop" }, `★${card.popularity}`));
  const title = [cardId, t.cultures[culture], card && card.effect ? t.effects[card.effect] : null]
    .filter(Boolean).join(" — ");
  return h("div", {
    class: ["fd-stall", opts.small && "fd-small"],
    style: { "--cult": CULTURE_COLOURS[culture] || "#888", "--cult-ink": CULTURE_INK[culture] || CULTURE_COLOURS[culture] || "#666" },
    title,
  },
  halves.map((e) => h("span", { class: ["fd-half", `fd-half-${e}`, full.includes(e) && "fd-full"] }, "★")),
  opts.noHead ? null : h("div", { class: "fd-stall-head" }, cultureName(t, culture)),
  h("div", { class: "fd-stall-body" },
    iconFor("culture", culture, "fd-icon"),
    h("span", { class: "fd-stall-id" }, cardId.slice(3)),
    rewards,
    card && card.effect ? h("span", { class: "fd-effect", title: t.effects[card.effect] }, "✦") : null));
}

function courtGrid(view, seat, ctx, opts) {
  const t = tx(ctx);
  const player = view.players[seat];
  const cells = [];
  for (let space = 1; space <= 9; space += 1) {
    const card = player.court[space - 1];
    const target = opts.targets ? opts.targets[space] : null;
    const myFlyer = view.flyer_choices[seat] && view.flyer_choices[seat].space;
    const classes = ["fd-space", target && "legal", view.visited === space && "fd-visited",
      myFlyer === space && "fd-flyer-target",
      view.last_visit && view.last_visit.collections && view.last_visit.collections[seat]
        && view.last_visit.collections[seat].space === space && view.phase !== "flyers" && "fd-collected"];
    const tokensRow = h("div", { class: "fd-space-tokens" },
      starTokens(player.popularity_tokens[space - 1], "pop"), starTokens(player.coin_tokens[space - 1], "coin"));
    const pop = player.popularity_tokens[space - 1];
    const coin = player.coin_tokens[space - 1];
    const tokens = [pop ? t.popTokens(pop) : null, coin ? t.coinTokens(coin) : null].filter(Boolean);
    const label = [`${t.space} ${space}: ${card ? stallWords(view, t, card, player.star_edges[space - 1]) : `${t.empty}, ${t.printed(PRINTED[space])}`}`,
      tokens.length ? t.onSpace(tokens.join(", ")) : null, view.visited === space ? t.visited : null].filter(Boolean).join("; ");
    cells.push(h("div", {
      class: classes,
      ...piece(target ? () => target() : null, label),
      dataset: { space: String(space) },
      title: `${t.space} ${space}`,
    },
    h("span", { class: "fd-space-no" }, String(space)),
    card
      ? stallCard(view, card, ctx, { fullEdges: player.star_edges[space - 1], small: opts.small })
      : h("div", { class: "fd-printed" }, PRINTED[space] ? h("span", { class: "fd-coin" }, `${PRINTED[space]}`) : null),
    tokensRow));
  }
  return h("div", { class: ["fd-court", opts.small && "fd-court-small"] }, cells);
}

function playerStats(view, seat, ctx) {
  const t = tx(ctx);
  const p = view.players[seat];
  return h("div", { class: "fd-stats" },
    h("span", { class: "fd-stat", title: t.popularity, ...named(t.popN(p.popularity)) }, h("span", { class: "fd-pop" }, "★"), ` ${p.popularity}`),
    h("span", { class: "fd-stat", title: t.coins, ...named(t.coinsN(p.coins)) }, h("span", { class: "fd-coin" }, `${p.coins}`)),
    h("span", { class: "fd-stat", title: t.flyers, ...named(t.flyersN(p.flyers)) }, h("span", { class: "fd-flyer" }, "✉"), ` ${p.flyers}`),
    h("span", { class: "fd-stat", title: t.stars, ...named(t.starsN(p.full_stars)) }, "✶ ", `${p.full_stars}`));
}

function seatLabel(view, seat, ctx) {
  const t = tx(ctx);
  const tags = [];
  if (seat === ctx.seat) tags.push(t.you);
  if (seat === view.first_seat) tags.push(t.first);
  if (seat === view.last_seat && view.end_triggered) tags.push(t.last);
  return h("span", { class: "fd-seat-name" },
    h("span", { class: "fd-dot", style: { background: seatColour(view, seat) } }),
    nameOf(ctx, seat), tags.length ? h("small", null, ` (${tags.join(", ")})`) : null,
    view.active === seat && view.phase !== "over" && !ctx.over ? h("span", { class: "fd-active-mark", ...named(t.activeNow) }, " ◀") : null);
}

function popularityTrack(view, ctx) {
  const t = tx(ctx);
  const top = Math.max(view.threshold, ...view.seats.map((s) => view.players[s].popularity));
  const cells = [];
  for (let i = 0; i <= top; i += 1) {
    const here = view.seats.filter((s) => view.players[s].popularity === i);
    cells.push(h("div", { class: ["fd-track-cell", i === view.threshold && "fd-track-end"], title: String(i) },
      h("span", { class: "fd-track-no" }, i % 5 === 0 ? String(i) : ""),
      here.map((s) => h("span", { class: "fd-marker", style: { background: seatColour(view, s) }, title: nameOf(ctx, s),
        ...named(t.atTrack(nameOf(ctx, s), i)) }))));
  }
  return h("section", { class: "fd-track-wrap" }, h("h3", null, t.track(view.threshold)), h("div", { class: "fd-track" }, cells));
}

// ---------- shared areas ----------

function marketArea(view, ctx, sel, setSel) {
  const t = tx(ctx);
  const buys = matching(ctx.actions || [], { type: "buy" });
  const slots = view.market.map((card, i) => {
    const slot = i + 1;
    const legal = buys.some((a) => a.slot === slot);
    const chosen = sel === slot;
    return h("div", {
      class: ["fd-slot", legal && "legal", chosen && "fd-picked"],
      ...piece(legal ? () => setSel(chosen ? null : slot) : null,
        card ? stallWords(view, t, card, [], t.slotLabel(stallName(t, card), view.prices[i])) : `${t.empty}, ${t.printed(view.prices[i])}`),
      "aria-pressed": legal ? String(chosen) : null,
      dataset: { slot: String(slot) },
    },
    // The culture is named under the card: on it, a phone's narrow market card has no room between the half-stars.
    card ? stallCard(view, card, ctx, { noHead: true }) : h("div", { class: "fd-stall fd-empty-slot" }, t.empty),
    card ? h("div", { class: "fd-slot-name" }, cultureName(t, cultureOf(card))) : null,
    h("div", { class: "fd-price" }, h("span", { class: "fd-coin" }, `${view.prices[i]}`)));
  });
  return h("section", { class: "fd-market" },
    h("h3", null, t.market),
    h("div", { class: "fd-market-row" },
      h("div", { class: "fd-deck", title: t.deck }, h("div", { class: "fd-back" }, "Foodies"), h("div", null, `${t.deck}: ${view.deck_count}`)),
      slots),
    view.removed.length ? h("div", { class: "fd-muted" }, t.removed(view.removed.length)) : null);
}

function chefsArea(view, ctx) {
  const t = tx(ctx);
  const hire = matching(ctx.actions || [], { type: "hire_chef" }).length > 0;
  const claims = matching(ctx.actions || [], { type: "claim_chef" }).map((a) => a.chef);
  const forHire = h("div", {
    class: ["fd-chef", hire && "legal", view.hired_chef_this_turn && "fd-used"],
    ...clickable(hire ? () => send(ctx, { type: "hire_chef" }) : null), dataset: { chef: "for_hire" },
  },
  h("div", { class: "fd-chef-name" }, "♨ ", t.chefForHire),
  h("div", { class: "fd-chef-req" }, t.hireCost(view.chef_for_hire.cost, view.chef_for_hire.popularity)));
  const specials = view.special_chefs.map((c) => {
    const legal = claims.includes(c.id);
    const [label, req] = t.chefs[c.id] || [c.id, ""];
    return h("div", {
      class: ["fd-chef", "fd-special", legal && "legal", c.claimed_by !== null && "fd-used"],
      ...clickable(legal ? () => send(ctx, { type: "claim_chef", chef: c.id }) : null), dataset: { chef: c.id },
    },
    h("div", { class: "fd-chef-name" }, "★ ", label, ` (+${view.special_chef_popularity})`),
    h("div", { class: "fd-chef-req" }, req),
    h("div", { class: "fd-chef-owner" }, c.claimed_by !== null
      ? [h("span", { class: "fd-marker", style: { background: seatColour(view, c.claimed_by) }, "aria-hidden": "true" }), " ",
        t.claimed(nameOf(ctx, c.claimed_by))]
      : t.available));
  });
  return h("section", { class: "fd-chefs" }, forHire, specials);
}

/** Black or white, whichever reads better on the colour `hex` (#rrggbb): white on the light cultures is too faint. */
function inkOn(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // At 0.179 black and white contrast equally with the colour.
  return lum > 0.179 ? "#000" : "#fff";
}

function cultureLegend(view, ctx, container) {
  const t = tx(ctx);
  return h("details", { class: "fd-legend", open: uiState(container).legendOpen ? true : null,
    ontoggle: (e) => { uiState(container).legendOpen = e.target.open; } },
    h("summary", null, view.cultures.map((c) => h("span", { class: "fd-chip", style: { background: CULTURE_COLOURS[c], color: inkOn(CULTURE_COLOURS[c]) } }, t.cultures[c]))),
    h("ul", null, view.cultures.map((c) => h("li", null, h("b", null, t.cultures[c], ": "), t.effects[EFFECT_OF[c]]))));
}

const EFFECT_OF = {
  AME: "franchise", BRA: "carnival", CHN: "banquet", FRA: "haute_cuisine", GER: "beer_garden",
  IND: "spice_cluster", ITA: "family_table", JPN: "zen_corner", MEX: "taco_cart", THA: "street_flyers",
};

// ---------- prompts and controls ----------

function controls(view, ctx, sel, setSel) {
  const t = tx(ctx);
  const acts = ctx.actions || [];
  const out = [];
  const others = (ctx.awaiting || []).filter((s) => s !== ctx.seat);
  const waiting = others.map((s) => nameOf(ctx, s)).join(", ");
  // Nobody rolls, buys or decides any more, however the game ended (an abandoned one's phase is still mid-game).
  if (view.phase === "over" || ctx.over) return h("div", { class: "fd-controls" }, out);
  if (view.end_triggered) out.push(h("div", { class: "fd-alert" }, t.endTriggered));
  if (matching(acts, { type: "roll" }).length) {
    out.push(h("button", { class: "fd-btn legal", onclick: () => send(ctx, { type: "roll" }) }, t.roll));
  } else if (matching(acts, { type: "keep_zero" }).length) {
    out.push(h("div", { class: "fd-prompt" }, t.chooseFace));
    out.push(h("div", { class: "fd-faces" },
      matching(acts, { type: "choose_face" }).map((a) => dieFace(a.face, { legal: true, label: t.faceLabel(a.face), onclick: () => send(ctx, a) })),
      h("button", { class: "fd-btn legal", onclick: () => send(ctx, { type: "keep_zero" }) }, t.keepZero)));
  } else if (matching(acts, { type: "no_flyer" }).length) {
    out.push(h("div", { class: "fd-prompt" }, t.flyerPrompt(view.visited)));
  } else if (matching(acts, { type: "skip_buy" }).length) {
    out.push(h("div", { class: "fd-prompt" }, sel ? t.placePrompt : t.buyPrompt));
    out.push(h("div", { class: "fd-buttons" },
      sel ? h("button", { class: "fd-btn", onclick: () => setSel(null) }, t.cancel) : null,
      h("button", { class: "fd-btn legal", onclick: () => send(ctx, { type: "skip_buy" }) }, t.skipBuy)));
  } else if (matching(acts, { type: "end_turn" }).length) {
    out.push(h("div", { class: "fd-prompt" }, t.hirePrompt));
    out.push(h("button", { class: "fd-btn legal", onclick: () => send(ctx, { type: "end_turn" }) }, t.endTurn));
  } else if (view.phase === "flyers") {
    const mine = view.flyer_choices[ctx.seat];
    if (mine && mine.decided) out.push(h("div", { class: "fd-prompt" }, t.decided));
    if (waiting) out.push(h("div", { class: "fd-muted" }, t.flyerWaiting(waiting, others.length > 1)));
  } else if (view.phase !== "over" && view.active !== null && view.active !== undefined && view.active !== ctx.seat
    && t.doing[view.phase]) {
    // What the active player does (who it is, the shell's turn bar says; a replay shows it too, from the view).
    out.push(h("div", { class: "fd-muted" }, t.doing[view.phase](nameOf(ctx, view.active))));
  }
  return h("div", { class: "fd-controls" }, out);
}

// Which spaces of the viewer's court are clickable, and what a click sends.
function courtTargets(view, ctx, sel, setSel) {
  const acts = ctx.actions || [];
  const targets = {};
  for (const a of matching(acts, { type: "choose_face" })) targets[a.face] = () => send(ctx, a);
  if (matching(acts, { type: "no_flyer" }).length) {
    targets[view.visited] = () => send(ctx, { type: "no_flyer" });
    for (const a of matching(acts, { type: "use_flyer" })) targets[a.space] = () => send(ctx, a);
  }
  if (sel) {
    for (const a of matching(acts, { type: "buy", slot: sel })) {
      targets[a.space] = () => { setSel(null); send(ctx, a); };
    }
  }
  return targets;
}

function finalScoring(view, ctx) {
  const t = tx(ctx);
  const out = view.outcome;
  if (!out) return null;
  const order = out.ranking.flat();
  const sources = Object.keys(t.sources);
  return h("section", { class: "fd-final" },
    h("h3", null, t.final),
    // Focusable, so that a keyboard can scroll the table where it is wider than the screen.
    h("div", { class: "fd-table-wrap", tabindex: "0", role: "region", "aria-label": t.final },
      h("table", { class: "fd-final-table" },
        h("thead", null, h("tr", null, h("th", null, t.place), h("th", null, t.player),
          sources.map((s) => h("th", null, t.sources[s])), h("th", null, t.total), h("th", null, t.coinsTie),
          h("th", null, t.chefsCol))),
        h("tbody", null, order.map((seat) => {
          const d = out.details[seat];
          return h("tr", { class: out.winners.includes(seat) && "fd-winner" },
            h("td", null, String(d.place)),
            h("td", null, seatLabel(view, seat, ctx)),
            sources.map((s) => h("td", null, String(d.popularity_by_source[s]))),
            h("td", null, h("b", null, String(d.popularity))),
            h("td", null, String(d.coins)),
            h("td", null, d.special_chefs.map((c) => (t.chefs[c] || [c])[0]).join(", ")));
        })))));
}

// ---------- entry points ----------

export function render(container, view, ctx) {
  const t = tx(ctx);
  const rerender = () => render(container, view, ctx);
  let sel = uiState(container).picked || null;
  const buys = matching(ctx.actions || [], { type: "buy" });
  if (sel && !buys.some((a) => a.slot === sel)) sel = null;
  const setSel = (slot) => { uiState(container).picked = slot; rerender(); };
  uiState(container).picked = sel;

  const me = ctx.seat !== null && ctx.seat !== undefined && view.players[ctx.seat] ? ctx.seat : null;
  const others = view.seats.filter((s) => s !== me);
  const lastFace = view.die !== null ? view.die : view.last_visit ? view.last_visit.face : null;

  const acting = (ctx.actions || []).length > 0;
  const header = h("div", { class: "fd-header" },
    h("div", { class: "fd-die-box" }, dieFace(lastFace, {
      title: t.lastRoll,
      label: t.roll,
      name: t.dieShows(view.die !== null ? t.die : t.lastRoll, lastFace),
      legal: matching(ctx.actions || [], { type: "roll" }).length > 0,
      onclick: matching(ctx.actions || [], { type: "roll" }).length ? () => send(ctx, { type: "roll" }) : null,
    }), h("small", null, view.die !== null ? t.die : t.lastRoll)),
    instruction(ctx, controls(view, ctx, sel, setSel), acting));

  const targets = me !== null ? courtTargets(view, ctx, sel, setSel) : {};
  const mine = me !== null
    // The court is where the instruction sends the player when it has targets (a stall's space, the space visited).
    ? h("section", { class: ["fd-mine", view.active === me && view.phase !== "over" && !ctx.over && "fd-turn"], dataset: { seat: me },
      "data-reveal": Object.keys(targets).length ? true : null },
      h("div", { class: "fd-area-head" }, h("h3", null, t.yourCourt), playerStats(view, me, ctx)),
      view.phase !== "over" && !ctx.over ? keepFlyersSwitch(ctx, rerender) : null,
      courtGrid(view, me, ctx, { targets }),
      view.players[me].chefs.length ? h("div", { class: "fd-muted" }, "★ ", view.players[me].chefs.map((c) => (t.chefs[c] || [c])[0]).join(", ")) : null)
    : null;

  const rivals = h("section", { class: "fd-others" }, others.map((seat) => h("div", {
    class: ["fd-other", view.active === seat && view.phase !== "over" && !ctx.over && "fd-turn"], dataset: { seat },
  },
  h("div", { class: "fd-area-head" }, seatLabel(view, seat, ctx), playerStats(view, seat, ctx)),
  courtGrid(view, seat, ctx, { small: me !== null }),
  view.flyer_choices[seat] ? h("div", { class: "fd-muted" }, view.flyer_choices[seat].decided ? "✉ ✓" : "✉ …") : null)));

  morph(container, h("div", { class: ["fd-root", me === null && "fd-watching"] },
    finalScoring(view, ctx),
    header,
    h("div", { class: "fd-shared" }, popularityTrack(view, ctx), marketArea(view, ctx, sel, setSel), chefsArea(view, ctx), cultureLegend(view, ctx, container)),
    mine,
    rivals));
  markChanged(container, changedPieces(view, ctx.lastMoveEvents || []));
  keepFlyersIfAsked(container, ctx);
}

// What the last move changed, as selectors: the stall bought (its space in the buyer's court) and the market slot
// refilled, the chef hired or claimed, and the counts (coins, popularity, flyers) of everyone who collected.
function changedPieces(view, events) {
  const out = [];
  for (const e of events) {
    if (e.type === "bought") out.push(`${attr("data-seat", e.seat)} .fd-space${attr("data-space", e.space)}`);
    if (e.type === "market_refilled" && e.card) {
      const slot = view.market.indexOf(e.card) + 1;
      if (slot) out.push(`.fd-slot${attr("data-slot", slot)}`);
    }
    if (e.type === "chef_hired") out.push(`.fd-chef${attr("data-chef", "for_hire")}`);
    if (e.type === "chef_claimed") out.push(`.fd-chef${attr("data-chef", e.chef)}`);
    if (["collected", "chef_hired", "chef_claimed", "bought"].includes(e.type)) out.push(`${attr("data-seat", e.seat)} .fd-stats`);
  }
  return out;
}

function amountText(lang, e) {
  const L = LOG[lang];
  const parts = [];
  for (const key of ["coins", "popularity", "flyers"]) {
    const n = e[key];
    if (!n) continue;
    const word = L.amount[key];
    parts.push(`${n} ${word}${n > 1 && key !== "popularity" ? "s" : ""}`);
  }
  return parts.length ? parts.join(", ") : L.nothing;
}

// One line per player under the shell's result: coins (the tie-break) and stars (the full breakdown is drawn above).
export function describeDetails(d, ctx) {
  const t = tx(ctx);
  return `${d.coins} ${t.coins} · ${d.full_stars} ${t.stars}`;
}

export function describeEvent(event, ctx) {
  const lang = langOf(ctx);
  const L = LOG[lang];
  const t = TEXT[lang];
  const n = (seat) => nameOf(ctx, seat);
  switch (event.type) {
    case "rolled": return L.rolled(n(event.seat), event.face);
    case "face_chosen": return L.face_chosen(n(event.seat), event.face);
    case "zero_kept": return L.zero_kept(n(event.seat));
    case "flyer_chosen": return L.flyer_chosen(n(event.seat), event.space);
    case "flyers_revealed": {
      const used = Object.entries(event.choices || {}).filter(([, s]) => s !== null);
      return L.flyers_revealed(used.map(([seat, s]) => L.flyerTo(n(seat), s)).join(", "));
    }
    case "collected": return L.collected(n(event.seat), event.space, amountText(lang, event), event.by_flyer);
    case "end_triggered": return L.end_triggered(n(event.seat), event.popularity, event.threshold);
    case "bought": return L.bought(n(event.seat), cardName(t, event.card), event.price, event.space,
      event.covered ? cardName(t, event.covered) : null);
    case "market_refilled": return L.market_refilled(event.card ? cardName(t, event.card) : null, event.deck_left);
    case "buy_skipped": return L.buy_skipped(n(event.seat));
    case "chef_hired": return L.chef_hired(n(event.seat), event.cost, event.popularity);
    case "chef_claimed": return L.chef_claimed(n(event.seat), (t.chefs[event.chef] || [event.chef])[0], event.popularity);
    case "turn_ended": return null;
    case "game_over": return L.game_over((event.winners || []).map(n).join(" & "));
    default: return null;
  }
}

function cardName(t, card) {
  return `${t.cultures[cultureOf(card)] || cultureOf(card)} ${card.slice(3)}`;
}
