// Food Truck Champion renderer: your truck board (fridge, hired staff, plating, awards), your hand, the
// marketplace with its covered stacks, the popularity stacks, the action round's choices and the other trucks.
// Every decision is made by clicking the card, stack, position or board section itself.
import { attr, cardWords, clickable, h, instruction, markChanged, matching, morph, named, piece, syllables, uiState } from "../lib/dom.js";
import { iconFor } from "../lib/icons.js";
import { langOf, seatName } from "../lib/text.js";

// The table page adds this stylesheet before the first draw (frontend/app/renderer.js).
export const stylesheet = new URL("./food-truck-champion.css", import.meta.url).pathname;

// The printed card faces never change: fetched once, not carried in every view.
const CATALOG = await fetch("/api/games/food-truck-champion/catalog").then((r) => r.json());

// Ingredients and staff actions are drawn as coloured text badges (no emoji font is needed).
const ING_CLASS = { Fruit: "fruit", Dairy: "dairy", Grain: "grain", Seasoning: "seasoning", Meat: "meat", Vegetable: "vegetable" };
const STAFF_CLASS = { Driver: "driver", Cashier: "cashier", Manager: "manager", "Prep Cook": "prep", "Exec. Chef": "chef" };

const TEXT = {
  en: {
    ing: { Fruit: "Fruit", Dairy: "Dairy", Grain: "Grain", Seasoning: "Seasoning", Meat: "Meat", Vegetable: "Vegetable" },
    short: { Fruit: "Fru", Dairy: "Dai", Grain: "Gra", Seasoning: "Sea", Meat: "Mea", Vegetable: "Veg" },
    staff: { Driver: "Driver", Cashier: "Cashier", Manager: "Manager", "Prep Cook": "Prep Cook", "Exec. Chef": "Exec. Chef" },
    section: { fridge: "Fridge", hired_staff: "Hired Staff", plating: "Plating Area" },
    neutral: "Neutral owner", you: "you", first: "first player",
    deck: "Deck", discard: "Discard", market: "Marketplace", stacks: "Popularity stacks",
    hand: "Your hand", handOf: "hand", completed: "Completed orders", awards: "Awards", tokens: "Popularity tokens",
    cards: (n) => `${n} card${n === 1 ? "" : "s"}`, tokensN: (n) => `${n} token${n === 1 ? "" : "s"}`,
    ownerHand: "Owner in hand",
    // what each piece is, for screen readers (sighted players read it off the card)
    a11y: {
      owner: (truck) => `${truck} Owner card`, faceDown: "face down", ownerShort: "Owner card",
      pile: (label, n) => `${label}: ${n} card${n === 1 ? "" : "s"}`,
      stack: (v, p, c) => `${v}-point popularity stack: ${p ? `${p} token${p === 1 ? "" : "s"}` : "no token"}${c ? `, ${c} critique${c === 1 ? "" : "s"}` : ""}`,
      token: (v) => `Popularity token, ${v} point${Number(v) === 1 ? "" : "s"}`,
      profile: (list) => `Flavor profile: ${list}`, logo: (truck) => `${truck} logo`,
      gray: (n) => `${n} of 3 gray icons covered`, emptyDiscard: "Discard: empty", noNeutral: "Nothing played by the neutral owner",
      on: "on it",
    },
    stackLabel: (v, n) => `Take a ${v}-point popularity token (${n} in the stack)`,
    emptyPos: (p) => `M${p}: empty position`, emptySlot: (s) => `${s}: empty space`,
    placeToken: (s) => `Place the token on ${s}`,
    centre: "Played", needs: "needs", critiquesPending: (n) => `${n} critique${n === 1 ? "" : "s"} pending`,
    endTriggered: "The end is triggered: play continues until everyone has had the same number of turns.",
    round: (who, a) => `${who} leads ${a}`,
    choice: {
      lead: (n) => `leads (${n} action${n === 1 ? "" : "s"} left)`,
      follow_hand: (n) => `follows from hand (${n} left)`,
      follow_staff: (n, also) => `follows with staff (${n} left)${also === "market_research" ? " + research" : also === "take_charge" ? " + take charge" : ""}`,
      market_research: () => "Market Research", take_charge: () => "Take Charge",
    },
    deciding: "deciding…", toDecide: "decides later",
    // what the others decide now (the shell's turn bar already says who is awaited)
    others: {
      turn: (n) => `${n} chooses an action: lead a card, Market Research or Take Charge…`,
      decide: (n, many, a) => `${n} ${many ? "decide" : "decides"} how to follow the ${a}…`,
      resolve: (n, many, a) => `${n} ${many ? "perform" : "performs"} the ${a} action…`,
      critique: (n, many) => `Critique: ${n} ${many ? "pick" : "picks"} a completed order for Awards…`,
      market: (n, many) => `${n} ${many ? "put their" : "puts the"} played card${many ? "s" : ""} in the market…`,
      discard: (n) => `${n} discards down to six cards…`,
      token: (n) => `${n} chooses a lower popularity token…`,
      place_token: (n) => `${n} places a popularity token on their board…`,
    },
    prompt: {
      turn: "Your turn: click a card in your hand to lead it, the deck for Market Research, or your face-down Owner card to Take Charge.",
      decide: (a) => `${a} was led: follow with a matching card in your hand (or your Owner card), with matching Hired Staff, or do Market Research / Take Charge.`,
      resolve: (a, n) => `Perform ${a} (${n} left): click what to use, or decline.`,
      driver: "Click a Marketplace card to put in your Fridge.",
      cashier: "Click a Marketplace card to take as an order ticket to your Plating Area.",
      manager: "Click a Marketplace card to hire into your Hired Staff.",
      prep_cook: "Click an ingredient in your Fridge, then the ticket of your Plating Area that needs it.",
      exec_chef: "Click a card in your hand, then the ticket of your Plating Area that needs its ingredient.",
      whereTo: (s) => `Now click an empty space of your ${s}, or a card there to replace it.`,
      whichTicket: "Now click the ticket of your Plating Area to put it on.",
      discard: (n) => `Over the hand limit of six: click ${n} card${n === 1 ? "" : "s"} in your hand to discard (never the Owner card).`,
      token: (v) => `No ${v}-point token is left: click a lower Popularity stack, or take none.`,
      place: "Click the heading of the section of your truck where your new token goes (+1 capacity).",
      critique: "Critique: click one of your Completed orders to move it to Awards.",
      market: "Click the Marketplace position for your played card.",
      ownerLead: "Which action does your Owner card lead?",
      followStaff: "Follow through your hired staff — and also do Market Research or Take Charge?",
    },
    btn: {
      research: "Market Research", charge: "Take Charge", decline: "Decline", none: "Take no token",
      staffOnly: "Follow with hired staff", staffMR: "Staff + Market Research", staffTC: "Staff + Take Charge",
      cancel: "Cancel",
    },
    final: "Final scoring", player: "Player", total: "Total", tokenPts: "Tokens", sets: "Profile sets", logos: "Own logo",
    tokenCount: "Tokens held",
    log: {
      turn: (n) => `${n}'s turn`, neutralTurn: "The neutral owner's turn",
      research: (n, c) => `${n} did Market Research (drew ${c})`, drew: (cards) => `You drew ${cards}`,
      drewOther: (n, cards) => `${n} drew ${cards}`,
      rebuilt: (c) => `The discard pile became the new deck (${c} cards)`,
      discarded: (n, c) => `${n} discarded ${c}`, charge: (n) => `${n} took charge (Owner card to hand)`,
      lead: (n, a, c) => `${n} leads ${a} with ${c}`, neutralLead: (a, c) => `The neutral owner leads ${a} (${c})`,
      followHand: (n, k) => `${n} follows from hand (${k} action${k === 1 ? "" : "s"})`,
      followStaff: (n, k, also) => `${n} follows with hired staff (${k})${also === "market_research" ? " and researches" : also === "take_charge" ? " and takes charge" : ""}`,
      willResearch: (n) => `${n} chooses Market Research`, willCharge: (n) => `${n} chooses Take Charge`,
      tookFridge: (n, c, p) => `${n} drove ${c} into the fridge (M${p})`,
      tookTicket: (n, c, p) => `${n} took the order ${c} (M${p})`, hired: (n, c, p) => `${n} hired ${c} (M${p})`,
      replaced: (n, c, s) => `${n} replaced ${c} in the ${s}`,
      placed: (n, i, t) => `${n} put ${i} on ${t}`, served: (n, d, v) => `${n} served ${d} (${v} ingredient${v === 1 ? "" : "s"})!`,
      token: (n, v) => `${n} took a ${v}-point popularity token`, noToken: (n) => `${n} got no popularity token`,
      critique: "A critique token is revealed!", exhausted: (v) => `The ${v}-point stack is exhausted`,
      end: "The end of the game is triggered", endSupply: "No card is left for the neutral owner: the end is triggered",
      declined: (n, a) => `${n} declined a ${a}`, skipped: (n, a) => `${n} could not use a ${a}`,
      critiqueStart: "Critique: everyone with a completed order moves one to Awards",
      pick: (c) => `You picked ${c} for the critique`, pickOther: (n, c) => `${n} picked ${c} for the critique`, awarded: (n, c) => `${n} moved ${c} to Awards`,
      neutralStack: (c) => `${c} goes under the neutral owner`,
      toMarket: (n, c, p, cov) => `${n} put ${c} on M${p}${cov ? ` (covering ${cov})` : ""}`,
      refill: (p, c) => `M${p} refilled with ${c}`, neutralSkip: "The neutral owner cannot draw: its turn is skipped",
      over: "Game over",
    },
  },
  es: {
    ing: { Fruit: "Fruta", Dairy: "Lácteo", Grain: "Cereal", Seasoning: "Especia", Meat: "Carne", Vegetable: "Verdura" },
    short: { Fruit: "Fru", Dairy: "Lác", Grain: "Cer", Seasoning: "Esp", Meat: "Car", Vegetable: "Ver" },
    staff: { Driver: "Conductor", Cashier: "Cajero", Manager: "Gerente", "Prep Cook": "Ayudante", "Exec. Chef": "Chef" },
    section: { fridge: "Nevera", hired_staff: "Personal", plating: "Emplatado" },
    neutral: "Dueño neutral", you: "tú", first: "jugador inicial",
    deck: "Mazo", discard: "Descartes", market: "Mercado", stacks: "Pilas de popularidad",
    hand: "Tu mano", handOf: "mano", completed: "Pedidos completados", awards: "Premios", tokens: "Fichas de popularidad",
    cards: (n) => `${n} carta${n === 1 ? "" : "s"}`, tokensN: (n) => `${n} ficha${n === 1 ? "" : "s"}`,
    ownerHand: "Dueño en la mano",
    a11y: {
      owner: (truck) => `Carta de Dueño de ${truck}`, faceDown: "boca abajo", ownerShort: "Carta de Dueño",
      pile: (label, n) => `${label}: ${n} carta${n === 1 ? "" : "s"}`,
      stack: (v, p, c) => `Pila de popularidad de ${v} punto${Number(v) === 1 ? "" : "s"}: ${p ? `${p} ficha${p === 1 ? "" : "s"}` : "ninguna ficha"}${c ? `, ${c} crítica${c === 1 ? "" : "s"}` : ""}`,
      token: (v) => `Ficha de popularidad de ${v} punto${Number(v) === 1 ? "" : "s"}`,
      profile: (list) => `Perfil de sabor: ${list}`, logo: (truck) => `Logo de ${truck}`,
      gray: (n) => `${n} de 3 iconos grises cubiertos`, emptyDiscard: "Descartes: vacío", noNeutral: "El dueño neutral no ha jugado nada",
      on: "encima",
    },
    stackLabel: (v, n) => `Tomar una ficha de ${v} puntos (${n} en la pila)`,
    emptyPos: (p) => `M${p}: posición vacía`, emptySlot: (s) => `${s}: hueco libre`,
    placeToken: (s) => `Poner la ficha en ${s}`,
    centre: "Jugada", needs: "falta", critiquesPending: (n) => `${n} crítica${n === 1 ? "" : "s"} pendiente${n === 1 ? "" : "s"}`,
    endTriggered: "Se activó el final: se juega hasta que todos tengan los mismos turnos.",
    round: (who, a) => `${who} lidera ${a}`,
    choice: {
      lead: (n) => `lidera (${n === 1 ? "queda" : "quedan"} ${n})`, follow_hand: (n) => `sigue con carta (${n === 1 ? "queda" : "quedan"} ${n})`,
      follow_staff: (n, also) => `sigue con personal (${n === 1 ? "queda" : "quedan"} ${n})${also === "market_research" ? " + investiga" : also === "take_charge" ? " + toma el mando" : ""}`,
      market_research: () => "Investigación de mercado", take_charge: () => "Tomar el mando",
    },
    deciding: "decidiendo…", toDecide: "decide después",
    others: {
      turn: (n) => `${n} elige acción: liderar una carta, investigar o tomar el mando…`,
      decide: (n, many, a) => `${n} ${many ? "deciden" : "decide"} cómo seguir al ${a}…`,
      resolve: (n, many, a) => `${n} ${many ? "realizan" : "realiza"} la acción de ${a}…`,
      critique: (n, many) => `Crítica: ${n} ${many ? "eligen" : "elige"} un pedido completado para Premios…`,
      market: (n, many) => `${n} ${many ? "ponen sus cartas jugadas" : "pone su carta jugada"} en el mercado…`,
      discard: (n) => `${n} descarta hasta quedarse con seis cartas…`,
      token: (n) => `${n} elige una ficha de popularidad menor…`,
      place_token: (n) => `${n} pone una ficha de popularidad en su camión…`,
    },
    prompt: {
      turn: "Tu turno: pulsa una carta de tu mano para liderar, el mazo para investigar o tu Dueño boca abajo para tomar el mando.",
      decide: (a) => `Se lideró ${a}: sigue con una carta igual de tu mano (o tu Dueño), con tu Personal igual, o investiga / toma el mando.`,
      resolve: (a, n) => `Realiza ${a} (${n === 1 ? "queda" : "quedan"} ${n}): pulsa qué usar o renuncia.`,
      driver: "Pulsa una carta del Mercado para tu Nevera.", cashier: "Pulsa una carta del Mercado como pedido para tu Emplatado.",
      manager: "Pulsa una carta del Mercado para contratarla en tu Personal.",
      prep_cook: "Pulsa un ingrediente de tu Nevera y luego el pedido de tu Emplatado que lo necesita.",
      exec_chef: "Pulsa una carta de tu mano y luego el pedido de tu Emplatado que necesita su ingrediente.",
      whereTo: (s) => `Pulsa un hueco libre de tu ${s} o una carta suya para reemplazarla.`,
      whichTicket: "Pulsa el pedido de tu Emplatado.",
      discard: (n) => `Más de seis cartas: pulsa ${n === 1 ? "una carta" : `${n} cartas`} de tu mano para descartar (nunca el Dueño).`,
      token: (v) => `No quedan fichas de ${v}: pulsa una Pila de popularidad menor o no tomes ninguna.`,
      place: "Pulsa el título de la sección de tu camión donde va la ficha (+1 capacidad).",
      critique: "Crítica: pulsa uno de tus Pedidos completados para pasarlo a Premios.",
      market: "Pulsa la posición del Mercado para tu carta jugada.", ownerLead: "¿Qué acción lidera tu Dueño?",
      followStaff: "Sigues con tu personal: ¿además investigas o tomas el mando?",
    },
    btn: {
      research: "Investigar", charge: "Tomar el mando", decline: "Renunciar", none: "Ninguna ficha",
      staffOnly: "Seguir con personal", staffMR: "Personal + investigar", staffTC: "Personal + tomar el mando",
      cancel: "Cancelar",
    },
    final: "Puntuación final", player: "Jugador", total: "Total", tokenPts: "Fichas", sets: "Sets de sabor", logos: "Logo propio",
    tokenCount: "N.º de fichas",
    log: {
      turn: (n) => `Turno de ${n}`, neutralTurn: "Turno del dueño neutral",
      research: (n, c) => `${n} investigó (robó ${c})`, drew: (cards) => `Robaste ${cards}`,
      drewOther: (n, cards) => `${n} robó ${cards}`,
      rebuilt: (c) => `Los descartes forman el nuevo mazo (${c})`, discarded: (n, c) => `${n} descartó ${c}`,
      charge: (n) => `${n} tomó el mando`, lead: (n, a, c) => `${n} lidera ${a} con ${c}`,
      neutralLead: (a, c) => `El dueño neutral lidera ${a} (${c})`,
      followHand: (n, k) => `${n} sigue con carta (${k})`, followStaff: (n, k) => `${n} sigue con personal (${k})`,
      willResearch: (n) => `${n} investigará`, willCharge: (n) => `${n} tomará el mando`,
      tookFridge: (n, c, p) => `${n} llevó ${c} a la nevera (M${p})`, tookTicket: (n, c, p) => `${n} tomó el pedido ${c} (M${p})`,
      hired: (n, c, p) => `${n} contrató ${c} (M${p})`, replaced: (n, c, s) => `${n} reemplazó ${c} (${s})`,
      placed: (n, i, t) => `${n} puso ${i} en ${t}`, served: (n, d) => `¡${n} sirvió ${d}!`,
      token: (n, v) => `${n} tomó una ficha de ${v}`, noToken: (n) => `${n} no recibe ficha`,
      critique: "¡Se reveló una ficha de crítica!", exhausted: (v) => `La pila de ${v} se agotó`,
      end: "Se activa el final", endSupply: "No quedan cartas para el dueño neutral: se activa el final",
      declined: (n, a) => `${n} renunció a ${a}`, skipped: (n, a) => `${n} no pudo usar ${a}`,
      critiqueStart: "Crítica: cada uno pasa un pedido completado a Premios",
      pick: (c) => `Elegiste ${c} para la crítica`, pickOther: (n, c) => `${n} eligió ${c} para la crítica`, awarded: (n, c) => `${n} pasó ${c} a Premios`,
      neutralStack: (c) => `${c} va bajo el dueño neutral`,
      toMarket: (n, c, p) => `${n} puso ${c} en M${p}`, refill: (p, c) => `M${p} se repone con ${c}`,
      neutralSkip: "El dueño neutral no puede robar: pierde el turno", over: "Fin de la partida",
    },
  },
};

const cardCache = CATALOG.cards; // card id -> printed faces, for the log lines
// The game area's uiState, of the draw under way: `selection`, a half-made choice ({kind: "market"|"fridge"|"hand"|
// "ownerLead", ...}), dropped when the moves offered change (`selectionKey`); `last`, {container, view, ctx} for
// redrawing after a local selection.
let ui = { selection: null, selectionKey: "", last: null };

function tr(ctx) { return TEXT[langOf(ctx)]; }
function nameOf(ctx, seat) {
  return seat === null || seat === undefined ? tr(ctx).neutral : seatName(ctx, seat);
}
function dish(id) {
  const c = cardCache[id];
  return c ? c.dish : id;
}
let T0 = TEXT.en; // the texts of the current render, for the card helpers
function ingBadge(i, extra) {
  return h("span", { class: ["ftc-ib", `ing-${ING_CLASS[i]}`, extra], title: T0.ing[i] || i },
    iconFor("ingredient", i, "ftc-icon"), T0.short[i] || i);
}
// What a card says it is, clickable or not: the coded badges (Dai, Fru…) only carry their full names in a title.
function cardName(c, face) {
  if (face === "ingredient") return `${T0.ing[c.ingredient] || c.ingredient} (${c.dish})`;
  if (face === "staff") return `${T0.staff[c.action] || c.action} (${c.dish})`;
  const truck = CATALOG.trucks[c.logo];
  const needs = `${c.dish}: ${c.icons.map((i) => T0.ing[i] || i).join(", ")} · ${T0.a11y.logo(truck ? truck.name : c.logo)}`;
  if (face === "ticket" || !c.action) return needs;
  return `${T0.ing[c.ingredient] || c.ingredient} · ${T0.staff[c.action] || c.action} · ${needs}`;
}
function icons(list) { return list.map((i) => ingBadge(i)); }
function staffBadge(a) {
  return h("span", { class: ["ftc-sb", `st-${STAFF_CLASS[a]}`], title: T0.staff[a] || a },
    iconFor("staff", a, "ftc-icon"), T0.staff[a] || a);
}

// ---- cards ------------------------------------------------------------------------------------------------

// Where the long words of the dish names and truck logos may break on a card ("-" = a soft hyphen): only a word wider
// than the card breaks (a market card at 360 px holds about eight letters), at these points, never anywhere
// ("Cheesebu|rger", "Stroganof|f"). The names are the catalog's, in English in both languages.
const SYLLABLES = syllables(`
  Ar-ti-choke Av-o-ca-do Blue-ber-ry Bread-sticks Bris-ket Broc-co-li Buf-fa-lo Bur-ra-ta But-ter-milk Can-died
  Ca-pre-se Car-ni-tas Cau-li-flow-er Cheese-bur-ger Chick-en Chi-mi-chur-ri Cin-na-mon Com-pote Creamed Cur-ried
  Ev-ery-thing Fa-la-fel Fo-cac-cia Har-vest Ha-wai-ian Lem-on-ade Meat-ball Milk-shake Pan-cakes Par-fait
  Peach-es Pep-pers Plat-ter Pret-zel Pro-sciut-to Que-sa-dil-la Rain-bow Ra-ta-touille Sand-wich Sau-sage Short-cake Smooth-ie
  Sour-dough Spin-ach Stro-gan-off Turn-over Veg-e-ta-ble Wa-ter-mel-on Straw-ber-ry
`);

function logoChip(view, logo) {
  const truck = CATALOG.trucks[logo];
  return h("span", { class: `ftc-logo ftc-t-${logo}`, title: truck ? truck.name : logo }, cardWords(truck ? truck.logo : logo, SYLLABLES));
}

function cardEl(view, id, opts = {}) {
  const c = CATALOG.cards[id];
  const face = opts.face || "full";
  const classes = ["ftc-card", `ftc-face-${face}`, opts.legal && "legal", opts.selected && "selected",
    opts.small && "small"];
  const props = { class: classes, title: c ? `${c.dish}` : id, dataset: { card: id },
    ...piece(opts.onclick, c ? cardName(c, face) : id) };
  if (!c) return h("div", props, id);
  const ticket = h("div", { class: "ftc-ticket" }, h("span", { class: "ftc-dish" }, cardWords(c.dish, SYLLABLES)),
    h("span", { class: "ftc-icons" }, icons(c.icons)), logoChip(view, c.logo));
  if (face === "ingredient") {
    return h("div", props, h("div", { class: "ftc-big" }, ingBadge(c.ingredient)), h("div", { class: "ftc-label" }, T0.ing[c.ingredient]));
  }
  if (face === "staff") {
    return h("div", props, h("div", { class: "ftc-big" }, staffBadge(c.action)));
  }
  if (face === "ticket") return h("div", props, ticket);
  const top = c.action
    ? h("div", { class: "ftc-top" }, ingBadge(c.ingredient), staffBadge(c.action))
    : null;
  return h("div", props, top, ticket);
}

function ownerCard(view, truck, opts = {}) {
  const t = CATALOG.trucks[truck];
  const mark = opts.faceDown ? "OWNER" : "★";
  const name = `${T0.a11y.owner(t ? t.name : truck)}${opts.faceDown ? ` (${T0.a11y.faceDown})` : ""}`;
  const props = { class: ["ftc-card", "ftc-owner", opts.faceDown && "back", opts.legal && "legal", opts.selected && "selected"],
    title: name, ...piece(opts.onclick, name) };
  return h("div", props, h("div", { class: "ftc-big" }, mark),
    h("div", { class: "ftc-label" }, t ? t.name : truck));
}

function back(label, count, opts = {}) {
  const props = { class: ["ftc-card", "back", opts.legal && "legal"], title: label, ...piece(opts.onclick, T0.a11y.pile(label, count)) };
  return h("div", props, h("div", { class: "ftc-big" }, count), h("div", { class: "ftc-label" }, label));
}

// ---- actions ----------------------------------------------------------------------------------------------

function act(ctx, action) {
  ui.selection = null;
  ctx.send(action).catch(() => {});
}
function redraw() { if (ui.last) render(ui.last.container, ui.last.view, ui.last.ctx); }
// These choices end with a button of the prompt, which the table page keeps in sight in its turn bar.
function choose(sel) {
  ui.selection = sel;
  redraw();
}

// ---- centre: stacks, deck, discard, market, neutral --------------------------------------------------------

function stacksEl(view, ctx) {
  const T = tr(ctx);
  const takeable = matching(ctx.actions, { type: "take_token" });
  return h("section", { class: "ftc-stacks" }, h("h3", null, T.stacks),
    h("div", { class: "ftc-row" }, ["3", "2", "1"].map((v) => {
      const legal = takeable.find((a) => String(a.value) === v);
      const stack = view.stacks[v];
      const critiques = stack.filter((x) => x !== "P").length;
      return h("div", { class: ["ftc-stack", legal && "legal"], title: `${v}`,
        ...piece(legal ? () => act(ctx, legal) : null,
          legal ? T.stackLabel(v, stack.length) : T.a11y.stack(v, stack.length - critiques, critiques)) },
      h("div", { class: "ftc-stack-value" }, v),
      h("div", { class: "ftc-chips" }, stack.length ? stack.map((x) => h("span", { class: x === "P" ? "chip-p" : "chip-c" }, x === "P" ? v : "C")) : "—"));
    })),
    view.pending_critiques ? h("p", { class: "ftc-note" }, T.critiquesPending(view.pending_critiques)) : null,
    view.end_triggered && view.phase !== "over" && !ctx.over ? h("p", { class: "ftc-note warn" }, T.endTriggered) : null);
}

function marketEl(view, ctx) {
  const T = tr(ctx);
  const staff = ctx.actions.filter((a) => ["driver", "cashier", "manager", "place_card"].includes(a.type));
  const positions = view.market.map((pile, i) => {
    const pos = i + 1;
    const here = staff.filter((a) => a.position === pos);
    const onclick = here.length
      ? () => (here.length === 1 ? act(ctx, here[0]) : choose({ kind: "market", position: pos }))
      : null;
    const selected = ui.selection && ui.selection.kind === "market" && ui.selection.position === pos;
    const top = pile.length ? pile[pile.length - 1] : null;
    return h("div", { class: ["ftc-pos", here.length && "legal", selected && "selected"], dataset: { position: pos } },
      h("div", { class: "ftc-pos-label" }, `M${pos}`, pile.length > 1 ? h("span", { class: "ftc-depth" }, ` ×${pile.length}`) : null),
      top ? cardEl(view, top, { legal: here.length > 0, selected, onclick })
        : h("div", { class: ["ftc-card", "empty", here.length && "legal"], ...piece(onclick, T.emptyPos(pos)) }, "—"));
  });
  const research = ctx.actions.find((a) => a.type === "market_research");
  const discardTop = view.discard.length ? view.discard[view.discard.length - 1] : null;
  return h("section", { class: "ftc-marketplace" }, h("h3", null, T.market),
    h("div", { class: "ftc-market" }, positions),
    h("div", { class: "ftc-row ftc-piles" },
      back(T.deck, view.deck_count, { legal: Boolean(research), onclick: research ? () => act(ctx, research) : null }),
      h("div", { class: "ftc-discard" }, h("div", { class: "ftc-label" }, `${T.discard} (${view.discard.length})`),
        discardTop ? cardEl(view, discardTop, { small: true }) : h("div", { class: "ftc-card empty", ...named(T.a11y.emptyDiscard) }, "—")),
      view.neutral ? h("div", { class: "ftc-neutral" },
        h("div", { class: "ftc-label" }, `${T.neutral} (${T.cards(view.neutral.stack.length)})`),
        view.neutral.centre ? cardEl(view, view.neutral.centre, { small: true })
          : h("div", { class: "ftc-card empty", ...named(T.a11y.noNeutral) }, "★")) : null));
}

function roundEl(view, ctx) {
  const T = tr(ctx);
  const rnd = view.round;
  if (!rnd) return null;
  const seats = rnd.leader === null ? [...view.order] : [rnd.leader, ...after(view.order, rnd.leader)];
  return h("section", { class: "ftc-round" },
    h("h3", null, T.round(nameOf(ctx, rnd.leader), T.staff[rnd.lead_action])),
    h("ul", { class: "ftc-choices" }, seats.map((seat) => {
      const c = rnd.choices[seat];
      const text = c ? T.choice[c.choice](c.left, c.also) : (rnd.to_decide.includes(seat) && !ctx.over ? (ctx.awaiting.includes(seat) ? T.deciding : T.toDecide) : "");
      return h("li", { class: ctx.awaiting.includes(seat) ? "now" : null },
        h("b", null, nameOf(ctx, seat)), " ", c && c.card ? cardLabel(view, c.card) : null, " ", text);
    })));
}

function cardLabel(view, id) {
  if (id.startsWith("owner-")) return h("span", { class: "ftc-tag", ...named(T0.a11y.ownerShort) }, "★");
  const c = CATALOG.cards[id];
  return h("span", { class: "ftc-tag" }, c ? c.dish : id);
}

function after(order, seat) {
  const i = order.indexOf(seat);
  return [...order.slice(i + 1), ...order.slice(0, i)];
}

// ---- boards -----------------------------------------------------------------------------------------------

function ticketEl(view, ctx, slot, opts) {
  const c = CATALOG.cards[slot.card];
  // An icon is open exactly while the ticket still needs it; the others already carry an ingredient.
  const left = {};
  for (const i of slot.need) left[i] = (left[i] || 0) + 1;
  const marks = c ? c.icons.map((i) => {
    const open = (left[i] || 0) > 0;
    if (open) left[i] -= 1;
    return ingBadge(i, open ? "open" : "done");
  }) : [];
  const on = slot.on.map((id) => CATALOG.cards[id]).filter(Boolean).map((x) => T0.ing[x.ingredient] || x.ingredient);
  const truck = c && CATALOG.trucks[c.logo];
  const name = c ? `${c.dish} (${T0.needs}: ${slot.need.map((i) => T0.ing[i] || i).join(", ")}${on.length ? `; ${T0.a11y.on}: ${on.join(", ")}` : ""}) · ${T0.a11y.logo(truck ? truck.name : c.logo)}` : slot.card;
  return h("div", { class: ["ftc-slot", opts.legal && "legal", opts.selected && "selected"], ...piece(opts.onclick, name),
    dataset: { ticket: slot.card } },
  c ? h("div", { class: "ftc-ticket" }, h("span", { class: "ftc-dish" }, cardWords(c.dish, SYLLABLES)), h("span", { class: "ftc-icons" }, marks),
    logoChip(view, c.logo)) : slot.card,
  slot.on.length ? h("div", { class: "ftc-on" }, slot.on.map((id) => cardEl(view, id, { face: "ingredient", small: true }))) : null);
}

function sectionEl(view, ctx, seat, board, section, big) {
  const T = tr(ctx);
  const mine = seat === ctx.seat;
  const cap = board.capacity[section];
  const placeTok = mine ? ctx.actions.find((a) => a.type === "place_token" && a.section === section) : null;
  const marketSel = mine && ui.selection && ui.selection.kind === "market"
    ? ctx.actions.filter((a) => a.position === ui.selection.position && sectionOf(a.type) === section) : [];
  const header = h("div", { class: ["ftc-sec-head", placeTok && "legal"], ...clickable(placeTok ? () => act(ctx, placeTok) : null),
    "aria-label": placeTok ? T.placeToken(T.section[section]) : null, dataset: { section } },
  h("span", null, T.section[section]), h("span", { class: "ftc-cap" }, ` ${section === "plating" ? board.plating.length : board[section].length}/${cap}`),
  h("span", { class: "ftc-gray", ...named(T.a11y.gray(board.gray[section])) }, " ", "●".repeat(board.gray[section]), "○".repeat(3 - board.gray[section])));
  let items;
  if (section === "plating") {
    items = board.plating.map((slot) => {
      const replace = marketSel.find((a) => a.replace === slot.card);
      const cook = mine && ui.selection && (ui.selection.kind === "fridge" || ui.selection.kind === "hand")
        ? ctx.actions.find((a) => a.card === ui.selection.card && a.ticket === slot.card) : null;
      const target = replace || cook;
      return ticketEl(view, ctx, slot, { legal: Boolean(target), onclick: target ? () => act(ctx, target) : null });
    });
  } else {
    items = board[section].map((id) => {
      const replace = marketSel.find((a) => a.replace === id);
      let onclick = replace ? () => act(ctx, replace) : null;
      let legal = Boolean(replace);
      if (mine && section === "fridge" && !ui.selection) {
        const cooks = matching(ctx.actions, { type: "prep_cook", card: id });
        if (cooks.length) {
          legal = true;
          onclick = () => (cooks.length === 1 ? act(ctx, cooks[0]) : choose({ kind: "fridge", card: id }));
        }
      }
      if (mine && section === "hired_staff" && view.round && view.round.stage === "decide" && !ui.selection) {
        const c = CATALOG.cards[id];
        const follows = matching(ctx.actions, { type: "follow_staff" });
        if (c && c.action === view.round.lead_action && follows.length) {
          legal = true;
          onclick = () => (follows.length === 1 ? act(ctx, follows[0]) : choose({ kind: "followStaff" }));
        }
      }
      const selected = ui.selection && ui.selection.kind === "fridge" && ui.selection.card === id;
      return cardEl(view, id, { face: section === "fridge" ? "ingredient" : "staff", legal, selected, onclick, small: !big });
    });
  }
  const free = marketSel.find((a) => !("replace" in a));
  const used = section === "plating" ? board.plating.length : board[section].length;
  const empties = [];
  for (let i = used; i < cap; i += 1) {
    empties.push(h("div", { class: ["ftc-card", "empty", "slot", free && "legal"],
      ...piece(free ? () => act(ctx, free) : null, T.emptySlot(T.section[section])) }, "+"));
  }
  // Where the chosen market card or ingredient goes: the instruction names this section.
  const reveal = marketSel.length > 0 || (mine && section === "plating" && ui.selection && ["fridge", "hand"].includes(ui.selection.kind));
  return h("div", { class: ["ftc-section", `ftc-${section}`], "data-reveal": reveal || null }, header, h("div", { class: "ftc-row" }, items, empties));
}

function sectionOf(type) { return { driver: "fridge", cashier: "plating", manager: "hired_staff" }[type]; }

function ownerSpot(view, ctx, seat, board) {
  const T = tr(ctx);
  const mine = seat === ctx.seat;
  const charge = mine ? ctx.actions.find((a) => a.type === "take_charge") : null;
  const centre = board.centre;
  return h("div", { class: "ftc-centre" },
    board.owner === "board" ? ownerCard(view, board.truck, { faceDown: true, legal: Boolean(charge),
      onclick: charge ? () => act(ctx, charge) : null }) : null,
    board.owner === "hand" ? h("div", { class: "ftc-label" }, T.ownerHand) : null,
    centre ? h("div", null, h("div", { class: "ftc-label" }, T.centre),
      centre.startsWith("owner-") ? ownerCard(view, board.truck, {}) : cardEl(view, centre, { small: true })) : null);
}

function truckHead(view, ctx, seat, board) {
  const T = tr(ctx);
  const truck = CATALOG.trucks[board.truck];
  return h("div", { class: "ftc-truck-head" },
    h("span", { class: `ftc-logo ftc-t-${board.truck}`, "aria-hidden": "true" }, truck.logo), // the name follows
    h("b", null, ` ${truck.name} `), h("span", { class: "muted" }, `${nameOf(ctx, seat)}${seat === ctx.seat ? ` (${T.you})` : ""}`),
    view.first_player === seat ? h("span", { class: "ftc-tag" }, T.first) : null,
    h("span", { class: "ftc-profile", ...named(T.a11y.profile(truck.profile.map((i) => T.ing[i] || i).join(", "))) }, icons(truck.profile)));
}

function myBoard(view, ctx) {
  const T = tr(ctx);
  const seat = ctx.seat;
  const board = view.boards[seat];
  const critique = matching(ctx.actions, { type: "critique" });
  return h("section", { class: "ftc-board mine" },
    truckHead(view, ctx, seat, board),
    h("div", { class: "ftc-board-grid" },
      sectionEl(view, ctx, seat, board, "fridge", true),
      ownerSpot(view, ctx, seat, board),
      sectionEl(view, ctx, seat, board, "hired_staff", true),
      sectionEl(view, ctx, seat, board, "plating", true),
      // Completed, Awards and tokens share one full-width row: in a grid column of their own a long row of
      // Awards would widen its column and squeeze the Fridge to nothing on a phone.
      h("div", { class: "ftc-board-foot" },
        h("div", { class: "ftc-section" }, h("div", { class: "ftc-sec-head" }, `${T.completed} (${board.completed_count})`),
          h("div", { class: "ftc-row" }, (board.completed || []).map((id) => {
            const pick = critique.find((a) => a.card === id);
            return cardEl(view, id, { face: "ticket", small: true, legal: Boolean(pick), onclick: pick ? () => act(ctx, pick) : null });
          }))),
        h("div", { class: "ftc-section" }, h("div", { class: "ftc-sec-head" }, `${T.awards} (${board.awards.length})`),
          h("div", { class: "ftc-row" }, board.awards.map((id) => cardEl(view, id, { face: "ticket", small: true })))),
        h("div", { class: "ftc-section" }, h("div", { class: "ftc-sec-head" }, T.tokens),
          h("div", { class: "ftc-row" }, (board.tokens || []).map((v) => h("span", { class: "chip-p", ...named(T.a11y.token(v)) }, v)))))));
}

function handEl(view, ctx) {
  const T = tr(ctx);
  const board = view.boards[ctx.seat];
  const cards = board.hand.map((id) => {
    const here = ctx.actions.filter((a) => a.card === id && ["lead", "follow_hand", "discard", "exec_chef"].includes(a.type));
    const selected = ui.selection && (ui.selection.kind === "hand" || ui.selection.kind === "ownerLead") && ui.selection.card === id;
    let onclick = null;
    if (here.length === 1) onclick = () => act(ctx, here[0]);
    else if (here.length > 1) {
      onclick = () => choose({ kind: here[0].type === "lead" ? "ownerLead" : "hand", card: id });
    }
    if (id.startsWith("owner-")) return ownerCard(view, board.truck, { legal: here.length > 0, selected, onclick });
    return cardEl(view, id, { legal: here.length > 0, selected, onclick });
  });
  // The hand is what the instruction names first when it holds the choice (lead, follow, discard).
  const reveal = !ui.selection && board.hand.some((id) => ctx.actions.some((a) => a.card === id && ["lead", "follow_hand", "discard"].includes(a.type)));
  return h("section", { class: "ftc-hand", "data-reveal": reveal || null },
    h("h3", null, `${T.hand} (${board.hand.length})`), h("div", { class: "ftc-row" }, cards));
}

function otherBoard(view, ctx, seat) {
  const T = tr(ctx);
  const board = view.boards[seat];
  return h("section", { class: ["ftc-board", "other", ctx.awaiting.includes(seat) && "now"] },
    truckHead(view, ctx, seat, board),
    h("div", { class: "ftc-other-grid" },
      back(T.handOf, board.hand_count),
      ownerSpot(view, ctx, seat, board),
      sectionEl(view, ctx, seat, board, "fridge", false),
      sectionEl(view, ctx, seat, board, "hired_staff", false),
      sectionEl(view, ctx, seat, board, "plating", false),
      h("div", { class: "ftc-section" }, h("div", { class: "ftc-sec-head" }, `${T.completed}: ${board.completed_count} · ${T.tokens}: ${board.token_count}`),
        board.completed ? h("div", { class: "ftc-row" }, board.completed.map((id) => cardEl(view, id, { face: "ticket", small: true }))) : null),
      h("div", { class: "ftc-section" }, h("div", { class: "ftc-sec-head" }, `${T.awards} (${board.awards.length})`),
        h("div", { class: "ftc-row" }, board.awards.map((id) => cardEl(view, id, { face: "ticket", small: true }))))));
}

// ---- prompt -----------------------------------------------------------------------------------------------

function promptEl(view, ctx) {
  const T = tr(ctx);
  const P = T.prompt;
  // The shell's turn bar says "Game over"; the final scoring follows (an abandoned game has none).
  if (view.phase === "over" || ctx.over) return null;
  if (!ctx.seat || !ctx.awaiting.includes(ctx.seat)) {
    const line = othersLine(view, ctx);
    return line ? h("div", { class: "ftc-prompt waiting" }, line) : null;
  }
  const buttons = [];
  const button = (label, action) =>
    buttons.push(h("button", { type: "button", class: "legal", onclick: () => act(ctx, action) }, label));
  let text;
  const pending = view.pending;
  const rnd = view.round;
  if (pending) {
    text = pending.kind === "discard" ? P.discard(Math.max(1, view.boards[ctx.seat].hand.length - 6)) : pending.kind === "token" ? P.token(pending.value) : P.place;
    const none = ctx.actions.find((a) => a.type === "decline_token");
    if (none) button(T.btn.none, none);
  } else if (!rnd) {
    text = P.turn;
  } else if (rnd.stage === "decide") {
    text = P.decide(T.staff[rnd.lead_action]);
  } else if (rnd.stage === "resolve") {
    const left = rnd.choices[ctx.seat].left;
    const kind = ctx.actions.find((a) => a.type !== "decline");
    text = `${P.resolve(T.staff[rnd.lead_action], left)} ${kind ? P[kind.type] : ""}`;
  } else if (rnd.stage === "critique") {
    text = P.critique;
  } else {
    text = P.market;
  }
  if (ui.selection && ui.selection.kind === "market") {
    // The section the chosen card goes to, named: on a phone it is a screen or two below the market.
    const into = ctx.actions.find((a) => a.position === ui.selection.position && sectionOf(a.type));
    text = P.whereTo(T.section[into ? sectionOf(into.type) : "fridge"]);
  }
  if (ui.selection && (ui.selection.kind === "fridge" || ui.selection.kind === "hand")) text = P.whichTicket;
  if (ui.selection && ui.selection.kind === "ownerLead") {
    text = P.ownerLead;
    for (const a of matching(ctx.actions, { type: "lead", card: ui.selection.card })) button(T.staff[a.action], a);
  }
  const staffOnly = ui.selection && ui.selection.kind === "followStaff";
  if (staffOnly) text = P.followStaff;
  const research = ctx.actions.find((a) => a.type === "market_research");
  const charge = ctx.actions.find((a) => a.type === "take_charge");
  if (research && !staffOnly) button(T.btn.research, research);
  if (charge && !staffOnly) button(T.btn.charge, charge);
  for (const a of matching(ctx.actions, { type: "follow_staff" })) {
    button({ none: T.btn.staffOnly, market_research: T.btn.staffMR, take_charge: T.btn.staffTC }[a.also], a);
  }
  const decline = ctx.actions.find((a) => a.type === "decline");
  if (decline) button(T.btn.decline, decline);
  if (ui.selection) buttons.push(h("button", { type: "button", class: "secondary", onclick: () => choose(null) }, T.btn.cancel));
  return h("div", { class: "ftc-prompt mine", "data-testid": "ftc-prompt" }, h("span", null, text),
    buttons.length ? h("div", { class: "ftc-buttons" }, buttons) : null);
}

// What the awaited players decide, when the viewer is not one of them. Not a bare "Waiting for X": the shell's
// turn bar names them already (and a replay's view carries `awaiting`, so this line names them there too).
function othersLine(view, ctx) {
  const O = tr(ctx).others;
  const seats = ctx.awaiting.filter((s) => s !== ctx.seat);
  if (!seats.length) return null;
  const names = seats.map((s) => nameOf(ctx, s)).join(", ");
  const many = seats.length > 1;
  const rnd = view.round;
  const staff = rnd ? tr(ctx).staff[rnd.lead_action] || rnd.lead_action : "";
  if (view.pending) return (O[view.pending.kind] || O.place_token)(names, many);
  if (!rnd) return O.turn(names);
  if (rnd.stage === "decide") return O.decide(names, many, staff);
  if (rnd.stage === "resolve") return O.resolve(names, many, staff);
  if (rnd.stage === "critique") return O.critique(names, many);
  return O.market(names, many);
}

// ---- final scoring ----------------------------------------------------------------------------------------

function finalEl(view, ctx) {
  const T = tr(ctx);
  const out = view.final;
  if (!out) return null;
  const seats = out.ranking.flat();
  return h("section", { class: "ftc-final" }, h("h3", null, T.final),
    // Focusable, so that a keyboard can scroll the table where it is wider than the screen.
    h("div", { class: "ftc-final-wrap", tabindex: "0", role: "region", "aria-label": T.final },
    h("table", { class: "ranking" },
      h("thead", null, h("tr", null, h("th", null, T.player), h("th", { class: "num" }, T.tokenPts), h("th", { class: "num" }, T.sets),
        h("th", { class: "num" }, T.logos), h("th", { class: "num" }, T.total), h("th", { class: "num" }, T.tokenCount))),
      h("tbody", null, seats.map((seat) => {
        const d = out.details[seat];
        return h("tr", { class: out.winners.includes(seat) ? "winner" : null },
          h("td", null, `${nameOf(ctx, seat)} · ${CATALOG.trucks[d.truck].name}`),
          h("td", { class: "num" }, `${d.token_points} (${d.tokens.join("+") || "0"})`),
          h("td", { class: "num" }, `${d.profile_sets} × 5 = ${d.set_points}`),
          h("td", { class: "num" }, d.logo_points), h("td", { class: "num" }, h("b", null, d.total)),
          h("td", { class: "num" }, d.token_count));
      })))));
}

// ---- entry points -----------------------------------------------------------------------------------------

export function render(container, view, ctx) {
  ctx = { ...ctx, actions: ctx.actions || [], awaiting: ctx.awaiting || view.awaiting || [] };
  
  T0 = tr(ctx);
  ui = uiState(container);
  const key = JSON.stringify(ctx.actions);
  if (key !== ui.selectionKey) { ui.selection = null; ui.selectionKey = key; }
  ui.last = { container, view, ctx };
  const mine = ctx.seat !== null && ctx.seat !== undefined && view.boards[ctx.seat];
  const others = view.order.filter((s) => s !== ctx.seat);
  const mineNow = Boolean(ctx.actions.length && ctx.awaiting.includes(ctx.seat));
  morph(container, h("div", { class: "ftc" },
    instruction(ctx, promptEl(view, ctx), mineNow),
    finalEl(view, ctx),
    h("div", { class: "ftc-table" },
      h("div", { class: "ftc-middle" }, marketEl(view, ctx), stacksEl(view, ctx), roundEl(view, ctx)),
      mine ? myBoard(view, ctx) : null,
      mine ? handEl(view, ctx) : null),
    h("div", { class: "ftc-others" }, others.map((seat) => otherBoard(view, ctx, seat)))));
  markChanged(container, changedPieces(ctx.lastMoveEvents || []));
}

// What the last move changed, as selectors of the table's pieces: the cards it moved (into the market, a fridge, the
// plating area, a hand, the centre), the market positions it took from or filled, the popularity stack it took from.
function changedPieces(events) {
  const out = [];
  for (const e of events) {
    if (typeof e.card === "string") out.push(attr("data-card", e.card));
    if (typeof e.ticket === "string") out.push(`.ftc-slot${attr("data-ticket", e.ticket)}`);
    if (["took_from_market", "card_to_market", "market_refilled"].includes(e.type)) out.push(`.ftc-pos${attr("data-position", e.position)}`);
    if (e.type === "token_taken") out.push(`.ftc-stack${attr("title", e.value)}`);
  }
  return out;
}

// One line per player under the shell's result (used by a shell that asks renderers for it).
export function describeDetails(d, ctx) {
  const T = tr(ctx);
  const truck = CATALOG.trucks[d.truck];
  return `${truck ? truck.name : d.truck} · ${T.tokenPts}: ${d.token_points} · ${T.sets}: ${d.profile_sets} × 5 · ${T.logos}: ${d.logo_points}`;
}

export function describeEvent(event, ctx) {
  const L = tr(ctx).log;
  const T = tr(ctx);
  const n = nameOf(ctx, event.seat);
  const staff = (a) => T.staff[a] || a;
  switch (event.type) {
    case "turn_started": return event.seat === null ? L.neutralTurn : L.turn(n);
    case "market_research": return L.research(n, event.count);
    case "drew": {
      // Only the drawing seat sees this live; a replay shows it to everyone.
      const cards = (event.dishes || event.cards.map(dish)).join(", ");
      return ctx && event.seat === ctx.seat ? L.drew(cards) : L.drewOther(n, cards);
    }
    case "deck_rebuilt": return L.rebuilt(event.cards);
    case "discarded": return L.discarded(n, dish(event.card));
    case "took_charge": return L.charge(n);
    case "lead": return event.seat === null ? L.neutralLead(staff(event.action), dish(event.card))
      : L.lead(n, staff(event.action), event.card.startsWith("owner-") ? "★" : dish(event.card));
    case "decided":
      if (event.choice === "follow_hand") return L.followHand(n, event.actions);
      if (event.choice === "follow_staff") return L.followStaff(n, event.actions, event.also);
      return event.choice === "market_research" ? L.willResearch(n) : L.willCharge(n);
    case "took_from_market": {
      const c = cardCache[event.card];
      if (event.action === "driver") return L.tookFridge(n, c ? T.ing[c.ingredient] : event.card, event.position);
      if (event.action === "cashier") return L.tookTicket(n, dish(event.card), event.position);
      return L.hired(n, c ? staff(c.action) : event.card, event.position);
    }
    case "replaced": return L.replaced(n, dish(event.card), T.section[event.section]);
    case "ingredient_placed": return L.placed(n, T.ing[event.ingredient], dish(event.ticket));
    case "order_completed": return L.served(n, event.dish, event.value);
    case "token_taken": return L.token(n, event.value);
    case "no_token": return L.noToken(n);
    case "critique_revealed": return L.critique;
    case "stack_exhausted": return L.exhausted(event.value);
    case "end_triggered": return event.reason === "supply_exhausted" ? L.endSupply : L.end;
    case "declined": return L.declined(n, staff(event.action));
    case "skipped": return L.skipped(n, staff(event.action));
    case "critique_started": return L.critiqueStart;
    case "critique_pick": return ctx && event.seat === ctx.seat ? L.pick(dish(event.card)) : L.pickOther(n, dish(event.card));
    case "awarded": return L.awarded(n, dish(event.card));
    case "neutral_card_stacked": return L.neutralStack(dish(event.card));
    case "card_to_market": return L.toMarket(n, dish(event.card), event.position, event.covered ? dish(event.covered) : null);
    case "market_refilled": return L.refill(event.position, dish(event.card));
    case "neutral_skipped": return L.neutralSkip;
    case "game_over": return L.over;
    default: return null; // token_placed, critique_chosen, owner_returned, round_ended: visible on the table
  }
}
