// Food Truck renderer: every player's served meals by type (who serves what is the whole game), the
// face-up Truck cards, the supply, victory points, and the click-by-click ordering of one's hand in Prep.
import { attr, cardWords, clickable, h, instruction, markChanged, matching, morph, named, piece, syllables, uiState } from "../lib/dom.js";
import { langOf as lang, seatName as nameOf } from "../lib/text.js";
import { icon, iconFor } from "../lib/icons.js";

// The table page adds this stylesheet before the first draw (frontend/app/renderer.js).
export const stylesheet = new URL("./food-truck.css", import.meta.url).pathname;

const TEXT = {
  en: {
    meals: {
      burger: "Burger", pizza: "Pizza", fries_drink: "Fries & Drink", takeaway_box: "Takeaway Box",
      hot_dog: "Hot Dog", tacos: "Tacos", sushi: "Sushi", kebab: "Kebab", fried_chicken: "Fried Chicken",
      salad: "Salad", sandwich: "Sandwich", dessert: "Dessert",
    },
    effects: {
      E1: ["Rearrange", "Rearrange the top 5 cards of your draw pile."],
      E2: ["Send Back", "Send a face-up Meal that is not part of a pile to the bottom of its owner's draw pile."],
      E3: ["Swap", "Swap the revealed card for a supply card, then play that one."],
      E4: ["Skip", "Put the revealed card under your pile and play the next one."],
      E5: ["Share", "Serve your card if exactly one other player shows that Meal, as a single."],
    },
    round: (r) => `Round ${r}`,
    target: (n) => `First to ${n} VP wins`,
    supply: "Supply",
    deck: "Meal deck",
    served: "Served",
    desserts: "Desserts",
    nothingServed: "nothing served yet",
    drawPile: "Draw pile",
    yourPile: "Your pile (top first)",
    hand: "Your hand",
    stacked: "Stacked so far (top first)",
    toReorder: "Top cards to reorder",
    newOrder: "New order (top first)",
    truckCard: "Truck card",
    truckUsed: "Truck card used",
    truckNone: "no Truck card",
    trucksLeft: "Truck deck",
    revealed: "Revealed",
    owns: "Owns",
    ownsCount: (n) => `Owns ${n} cards`,
    you: "you",
    marker: "first player",
    out: "out",
    ready: "order ready",
    ordering: "ordering…",
    vp: "VP",
    menu: "Who serves what",
    nobody: "—",
    chooseTruck: "Choose your food truck: click one.",
    chooseTruckWait: (n) => `${n} is choosing a truck…`,
    prepPrompt: "Prep: click your cards in the order you want to play them — the first card you click is the top of your pile.",
    prepDone: "Your order is in; the others are still ordering their hands…",
    prepOthers: "Prep: each player orders their hand in secret…",
    revealPrompt: "Your turn: click your draw pile to reveal the top card.",
    revealOrTruck: "Your turn: click your draw pile to reveal, or click your Truck card to play it first.",
    decideOk: "Click your revealed card to serve it — or play your Truck card.",
    decideBlocked: (who) => `Blocked: ${who} already served this meal. Click your revealed card to accept elimination — or play your Truck card.`,
    blockedBy: (who) => `blocked by ${who}`,
    serveIt: "Serve it",
    giveUp: "Accept elimination",
    rearrangePrompt: "Rearrange: click the cards in their new order (first = top).",
    rearrangeOther: (n, k) => `${n} is rearranging ${k} cards…`,
    compensationPrompt: "You are out: click a card of the Supply to add to your deck.",
    winnerPick: "You won the round: click the card of the Supply you keep.",
    armE2: "Send Back: click a highlighted single face-up Meal among the served cards (click your Truck card again to cancel).",
    armE3: "Swap: click a card of the Supply to take instead (click your Truck card again to cancel).",
    turnOf: (n) => `${n}'s turn`,
    revealOther: (n) => `${n} reveals the top card of their pile…`,
    decideOther: (n) => `${n} decides whether to serve the revealed card…`,
    picking: (n) => `${n} is picking a supply card`,
    takeBack: "take back",
    final: "Final scoring",
    place: "Place",
    player: "Player",
    roundsWon: "Rounds won",
    cards: "Cards owned",
    history: "Rounds",
    lastRound: (n) => `The table as round ${n} ended it:`,
    roundLine: (r, w, outs) => `Round ${r}: ${w} stayed open${outs ? ` (out in order: ${outs})` : ""}`,
    empty: "empty",
    // what a card, pile or token is, for screen readers
    pileOf: (n) => `pile of ${n}`, cardsN: (n) => `${n} card${n === 1 ? "" : "s"}`, blocked: "blocked",
    vpOf: (vp, target) => `${vp} of ${target} VP`,
  },
  es: {
    meals: {
      burger: "Hamburguesa", pizza: "Pizza", fries_drink: "Patatas y bebida", takeaway_box: "Caja para llevar",
      hot_dog: "Perrito caliente", tacos: "Tacos", sushi: "Sushi", kebab: "Kebab", fried_chicken: "Pollo frito",
      salad: "Ensalada", sandwich: "Sándwich", dessert: "Postre",
    },
    effects: {
      E1: ["Reordenar", "Reordena las 5 primeras cartas de tu mazo."],
      E2: ["Devolver", "Manda una comida boca arriba que no forme pila al fondo del mazo de su dueño."],
      E3: ["Cambiar", "Cambia la carta revelada por una de la reserva y juega esa."],
      E4: ["Saltar", "Pon la carta revelada bajo tu mazo y juega la siguiente."],
      E5: ["Compartir", "Sirve tu carta si exactamente otro jugador muestra esa comida, sin pila."],
    },
    round: (r) => `Ronda ${r}`,
    target: (n) => `Gana quien llegue a ${n} PV`,
    supply: "Reserva",
    deck: "Mazo de comidas",
    served: "Servido",
    desserts: "Postres",
    nothingServed: "nada servido aún",
    drawPile: "Mazo",
    yourPile: "Tu mazo (de arriba abajo)",
    hand: "Tu mano",
    stacked: "Apilado hasta ahora (de arriba abajo)",
    toReorder: "Cartas de arriba por reordenar",
    newOrder: "Nuevo orden (de arriba abajo)",
    truckCard: "Carta de camión",
    truckUsed: "Carta de camión usada",
    truckNone: "sin carta de camión",
    trucksLeft: "Mazo de camión",
    revealed: "Revelada",
    owns: "Tiene",
    ownsCount: (n) => `Tiene ${n} cartas`,
    you: "tú",
    marker: "jugador inicial",
    out: "eliminado",
    ready: "orden listo",
    ordering: "ordenando…",
    vp: "PV",
    menu: "Quién sirve qué",
    nobody: "—",
    chooseTruck: "Elige tu food truck: haz clic en uno.",
    chooseTruckWait: (n) => `${n} está eligiendo camión…`,
    prepPrompt: "Preparación: haz clic en tus cartas en el orden en que quieres jugarlas; la primera queda arriba.",
    prepDone: "Tu orden está listo; el resto aún ordena su mano…",
    prepOthers: "Preparación: cada jugador ordena su mano en secreto…",
    revealPrompt: "Tu turno: haz clic en tu mazo para revelar la carta de arriba.",
    revealOrTruck: "Tu turno: haz clic en tu mazo para revelar, o en tu carta de camión para jugarla antes.",
    decideOk: "Haz clic en tu carta revelada para servirla, o juega tu carta de camión.",
    decideBlocked: (who) => `Bloqueada: ${who} ya sirvió esta comida. Haz clic en tu carta revelada para aceptar la eliminación, o juega tu carta de camión.`,
    blockedBy: (who) => `bloqueada por ${who}`,
    serveIt: "Servir",
    giveUp: "Aceptar la eliminación",
    rearrangePrompt: "Reordenar: haz clic en las cartas en su nuevo orden (la primera, arriba).",
    rearrangeOther: (n, k) => `${n} está reordenando ${k} cartas…`,
    compensationPrompt: "Estás eliminado: haz clic en una carta de la reserva para añadirla a tu mazo.",
    winnerPick: "Has ganado la ronda: haz clic en la carta de la reserva que te quedas.",
    armE2: "Devolver: haz clic en una comida suelta resaltada entre las servidas (otro clic en tu carta de camión cancela).",
    armE3: "Cambiar: haz clic en la carta de la reserva que tomas (otro clic en tu carta de camión cancela).",
    turnOf: (n) => `Turno de ${n}`,
    revealOther: (n) => `${n} revela la carta de arriba de su mazo…`,
    decideOther: (n) => `${n} decide si sirve la carta revelada…`,
    picking: (n) => `${n} elige una carta de la reserva`,
    takeBack: "devolver",
    final: "Puntuación final",
    place: "Puesto",
    player: "Jugador",
    roundsWon: "Rondas ganadas",
    cards: "Cartas",
    history: "Rondas",
    lastRound: (n) => `La mesa tal como acabó la ronda ${n}:`,
    roundLine: (r, w, outs) => `Ronda ${r}: ${w} siguió abierto${outs ? ` (eliminados: ${outs})` : ""}`,
    empty: "vacía",
    pileOf: (n) => `pila de ${n}`, cardsN: (n) => `${n} carta${n === 1 ? "" : "s"}`, blocked: "bloqueada",
    vpOf: (vp, target) => `${vp} de ${target} PV`,
  },
};

const LOG = {
  en: {
    truck_chosen: (n, truck) => `${n} drives the ${truck}`,
    round_started: (r, n) => `Round ${r} begins; ${n} holds the first-player marker`,
    truck_reshuffled: (n) => `${n} reshuffles their Truck cards`,
    truck_revealed: (n, e) => `${n} turns up a Truck card: ${e}`,
    card_stacked: (card, pos) => `You stacked ${card} (card ${pos})`,
    card_unstacked: (card) => `You took ${card} back`,
    order_ready: (n) => `${n}'s order is ready`,
    service_started: (n) => `Service! ${n} starts`,
    revealed: (n, card) => `${n} reveals ${card}`,
    served: (n, card, pile, shared) => `${n} served ${card}${pile > 1 ? ` (pile of ${pile})` : ""}${shared ? ` alongside ${shared}` : ""}`,
    dessert_served: (n) => `${n} served a Dessert`,
    ran_out: (n) => `${n} has no card left to reveal`,
    eliminated: (n, card, by) => (card ? `${n} is out: ${by} already served ${card}` : `${n} is out`),
    marker_taken: (n) => `${n} takes the first-player marker`,
    compensation_taken: (n, card) => `${n} takes ${card} from the supply`,
    no_compensation: (n) => `${n} gets nothing: the supply is empty`,
    truck_played: (n, e, extra) => `${n} plays ${e}${extra ? `: ${extra}` : ""}`,
    e1: (k) => `rearranging ${k} card${k === 1 ? "" : "s"}`,
    e2: (card, owner) => `${card} goes back under ${owner}'s pile`,
    e3: (gave, took) => `swaps ${gave} for ${took}`,
    e4: (card) => `${card} goes under the pile`,
    e5: (who) => `sharing with ${who}`,
    card_rearranged: (card, pos) => `You put ${card} at position ${pos}`,
    rearranged: (n, k) => `${n} has rearranged ${k} cards`,
    round_won: (n, r, vp) => `${n} is the last truck open and wins round ${r} (${vp} VP)`,
    last_card_taken: (n, card) => `${n} takes the last supply card, ${card}`,
    truck_discarded: () => null,
    supply_dealt: (cards) => `New supply: ${cards}`,
    game_won: (n, vp) => `${n} wins the game with ${vp} VP!`,
  },
  es: {
    truck_chosen: (n, truck) => `${n} conduce ${truck}`,
    round_started: (r, n) => `Empieza la ronda ${r}; ${n} tiene el marcador de jugador inicial`,
    truck_reshuffled: (n) => `${n} baraja de nuevo sus cartas de camión`,
    truck_revealed: (n, e) => `${n} descubre una carta de camión: ${e}`,
    card_stacked: (card, pos) => `Has apilado ${card} (carta ${pos})`,
    card_unstacked: (card) => `Has recuperado ${card}`,
    order_ready: (n) => `${n} tiene su orden listo`,
    service_started: (n) => `¡Servicio! Empieza ${n}`,
    revealed: (n, card) => `${n} revela ${card}`,
    served: (n, card, pile, shared) => `${n} sirvió ${card}${pile > 1 ? ` (pila de ${pile})` : ""}${shared ? ` junto a ${shared}` : ""}`,
    dessert_served: (n) => `${n} sirvió un postre`,
    ran_out: (n) => `${n} no tiene cartas que revelar`,
    eliminated: (n, card, by) => (card ? `${n} queda eliminado: ${by} ya sirvió ${card}` : `${n} queda eliminado`),
    marker_taken: (n) => `${n} toma el marcador de jugador inicial`,
    compensation_taken: (n, card) => `${n} toma ${card} de la reserva`,
    no_compensation: (n) => `${n} no recibe nada: la reserva está vacía`,
    truck_played: (n, e, extra) => `${n} juega ${e}${extra ? `: ${extra}` : ""}`,
    e1: (k) => `reordena ${k} carta${k === 1 ? "" : "s"}`,
    e2: (card, owner) => `${card} vuelve al fondo del mazo de ${owner}`,
    e3: (gave, took) => `cambia ${gave} por ${took}`,
    e4: (card) => `${card} va al fondo del mazo`,
    e5: (who) => `comparte con ${who}`,
    card_rearranged: (card, pos) => `Has puesto ${card} en la posición ${pos}`,
    rearranged: (n, k) => `${n} ha reordenado ${k} cartas`,
    round_won: (n, r, vp) => `${n} es el último camión abierto y gana la ronda ${r} (${vp} PV)`,
    last_card_taken: (n, card) => `${n} se queda la última carta de la reserva, ${card}`,
    truck_discarded: () => null,
    supply_dealt: (cards) => `Nueva reserva: ${cards}`,
    game_won: (n, vp) => `¡${n} gana la partida con ${vp} PV!`,
  },
};

// Per game area (uiState): `armed`, a Truck card play waiting for its target (E2: a single; E3: a supply card), and
// `lastTable`, the table the winning round left (the winning move's `final_board` event): the end screen draws it
// rather than the board the engine resets after every round. Kept once seen, as later updates carry other events.

function finalBoard(container, ctx) {
  const found = [...(ctx.events || []), ...(ctx.lastMoveEvents || [])].find((e) => e && e.type === "final_board");
  if (found) uiState(container).lastTable = found.seats;
  return uiState(container).lastTable || null;
}

// The view with each seat's last-round table in place of the reset one (served meals, eliminations, face-up Truck).
function asLastRound(view, seats) {
  const out = { ...view, supply: [], seats: { ...view.seats } };
  for (const [seat, table] of Object.entries(seats)) {
    if (!out.seats[seat]) continue;
    out.seats[seat] = { ...out.seats[seat], served: table.served || {}, desserts_served: table.desserts_served || [],
      eliminated: Boolean(table.eliminated), truck_current: table.truck_current ?? null, pending: null };
  }
  return out;
}

function tx(ctx) {
  return TEXT[lang(ctx)];
}

function typeOf(card) {
  return card.replace(/-\d+$/, "");
}

function mealName(t, view, meal) {
  return t.meals[meal] || (view && view.meal_names && view.meal_names[meal]) || meal.replace(/_/g, " ");
}

// Where the long words of the meal names may break on a card ("-" = a soft hyphen): only a word wider than the card
// breaks, at these points, never anywhere ("Hambur|guesa", "Sándwic|h"). Every piece fits the narrowest card (a
// small one at 360 px).
const SYLLABLES = syllables("Ham-bur-guesa ca-liente Ensa-lada Sánd-wich Take-away Sand-wich");

function effectOf(card) {
  const m = /-e(\d)$/.exec(card || "");
  return m ? `E${m[1]}` : null;
}

function send(ctx, action) {
  const result = ctx.send(action);
  if (result && typeof result.catch === "function") result.catch(() => {});
}

// ---------- pieces ----------

function mealCard(view, t, card, opts = {}) {
  const meal = typeOf(card);
  const bg = (view.meal_backgrounds && view.meal_backgrounds[meal]) || "green";
  // Named in words: the meal (without the soft hyphens), its pile, its caption (what a click does, who blocks it).
  const name = [mealName(t, view, meal), opts.pile > 1 ? t.pileOf(opts.pile) : null, opts.caption, opts.note].filter(Boolean).join(", ");
  return h("div", {
    class: ["ft-card", `ft-${bg}`, opts.small && "ft-small", opts.legal && "legal", opts.dim && "ft-dim", opts.class],
    title: opts.title || `${mealName(t, view, meal)} (${card})`,
    dataset: { card },
    ...piece(opts.onclick, name),
  },
  iconFor("meal", meal, "ft-icon"),
  h("span", { class: "ft-name" }, cardWords(mealName(t, view, meal), SYLLABLES)),
  opts.badge ? h("span", { class: "ft-badge" }, opts.badge) : null,
  opts.caption ? h("span", { class: "ft-caption" }, opts.caption) : null);
}

function cardBack(t, label, count, opts = {}) {
  return h("div", {
    class: ["ft-card", "ft-back", opts.small && "ft-small", opts.legal && "legal"],
    title: opts.title || label,
    dataset: opts.testid ? { testid: opts.testid } : undefined,
    ...piece(opts.onclick, count === null || count === undefined ? label : `${label}: ${t.cardsN(count)}`),
  },
  h("span", { class: "ft-back-count" }, count === null || count === undefined ? "?" : String(count)),
  h("span", { class: "ft-name" }, label));
}

function truckCard(view, t, seat, opts = {}) {
  const me = view.seats[seat];
  const effect = me.truck_current_effect;
  const truckName = (view.truck_names && view.truck_names[me.truck]) || me.truck || "";
  const deck = `${t.trucksLeft}: ${me.truck_pile_count}`;
  if (!effect) {
    const last = me.truck_discard.length ? effectOf(me.truck_discard[me.truck_discard.length - 1]) : null;
    const note = view.phase === "service" && me.truck_used && last ? `${t.truckUsed}: ${t.effects[last][0]}` : t.truckNone;
    return h("div", { class: ["ft-truck", "ft-truck-spent", opts.small && "ft-small"], title: `${truckName} · ${deck}` },
      opts.small ? null : h("span", { class: "ft-truck-name" }, icon("truck", "ft-truck-icon"), truckName),
      h("span", { class: "ft-muted" }, note),
      opts.small ? null : h("span", { class: "ft-muted" }, deck));
  }
  const [name, text] = t.effects[effect] || [effect, ""];
  return h("div", {
    class: ["ft-truck", opts.small && "ft-small", opts.legal && "legal", opts.armed && "ft-armed"],
    title: `${truckName}: ${text} (${deck})`, dataset: { effect },
    ...clickable(opts.onclick),
  },
  opts.small ? null : h("span", { class: "ft-truck-name" }, icon("truck", "ft-truck-icon"), truckName),
  h("b", null, `${effect} · ${name}`),
  opts.small ? null : h("span", { class: "ft-truck-text" }, text),
  opts.small ? null : h("span", { class: "ft-muted" }, deck));
}

function vpTokens(view, seat, t) {
  const vp = view.seats[seat].vp;
  return h("span", { class: "ft-vp", title: `${vp} / ${view.vp_target}`, ...named(t.vpOf(vp, view.vp_target)) },
    Array.from({ length: view.vp_target }, (_, i) => h("span", { class: ["ft-vp-dot", i < vp && "ft-vp-on"] }, "★")));
}

function seatTags(view, seat, ctx) {
  const t = tx(ctx);
  const me = view.seats[seat];
  const tags = [];
  if (seat === ctx.seat) tags.push(h("span", { class: "ft-tag" }, t.you));
  if (view.first_player === seat) tags.push(h("span", { class: "ft-tag ft-tag-marker", title: t.marker }, `⚑ ${t.marker}`));
  if (me.eliminated) tags.push(h("span", { class: "ft-tag ft-tag-out" }, t.out));
  if (view.phase === "prep" && !ctx.over) tags.push(h("span", { class: "ft-tag" }, me.ready ? `✓ ${t.ready}` : t.ordering));
  return tags;
}

// The served area of a seat: one stack per meal type, Desserts together; E2 targets are highlighted.
function servedArea(view, ctx, seat, opts) {
  const t = tx(ctx);
  const me = view.seats[seat];
  const e2 = opts.e2Targets || [];
  const stacks = Object.entries(me.served).map(([meal, cards]) => {
    const target = e2.find((a) => a.seat === seat && a.meal === meal);
    const top = cards[cards.length - 1];
    // A target of Send Back, which the instruction names (the Truck card that armed it stays lit too).
    return h("div", { class: "ft-stack", dataset: { meal }, "data-reveal": target ? true : null },
      mealCard(view, t, top, {
        small: opts.small,
        legal: !!target,
        badge: cards.length > 1 ? `×${cards.length}` : null, pile: cards.length,
        class: cards.length > 1 ? "ft-pile" : "ft-single",
        onclick: target ? () => { uiState(opts.container).armed = null; send(ctx, target); } : null,
      }));
  });
  if (me.desserts_served.length) {
    stacks.push(h("div", { class: "ft-stack", dataset: { meal: "dessert" } },
      mealCard(view, t, me.desserts_served[me.desserts_served.length - 1], {
        small: opts.small, badge: me.desserts_served.length > 1 ? `×${me.desserts_served.length}` : null, pile: me.desserts_served.length,
      })));
  }
  return h("div", { class: "ft-served" }, stacks.length ? stacks : h("span", { class: "ft-muted" }, t.nothingServed));
}

// Cards in a draw pile, counting those taken off its top to be rearranged (E1).
function pileSize(view, seat) {
  const me = view.seats[seat];
  const base = me.draw_pile ? me.draw_pile.length : me.draw_pile_count;
  const work = view.rearrange && view.turn === seat ? view.rearrange : null;
  if (!work || base === null || base === undefined) return base;
  return base + (work.todo ? work.todo.length + work.done.length : work.cards);
}

function blockersOf(view, seat, card) {
  const meal = typeOf(card);
  if (meal === "dessert") return [];
  return view.players.filter((p) => p !== seat && view.seats[p].served[meal]);
}

function collectionSummary(view, t, seat, folded) {
  const counts = {};
  const cards = view.seats[seat].collection;
  for (const card of cards) counts[typeOf(card)] = (counts[typeOf(card)] || 0) + 1;
  const chips = Object.entries(counts).map(([meal, n]) => h("span", {
    class: ["ft-chip", `ft-${(view.meal_backgrounds && view.meal_backgrounds[meal]) || "green"}`],
  }, `${mealName(t, view, meal)}${n > 1 ? ` ×${n}` : ""}`));
  if (folded) {
    return h("details", { class: "ft-owns-fold" }, h("summary", null, t.ownsCount(cards.length)),
      h("div", { class: "ft-owns" }, chips));
  }
  return h("div", { class: "ft-owns" }, h("span", { class: "ft-muted" }, `${t.owns}:`), chips);
}

// ---------- areas ----------

function menuBoard(view, ctx) {
  const t = tx(ctx);
  const meals = Object.keys(view.meal_names || {}).filter((m) => m !== "dessert");
  return h("div", { class: "ft-menu" },
    h("h3", null, t.menu),
    h("div", { class: "ft-menu-rows" }, meals.map((meal) => {
      const holders = view.players.filter((p) => view.seats[p].served[meal]);
      return h("div", { class: ["ft-menu-row", holders.length && "ft-menu-taken"], dataset: { meal } },
        h("span", { class: "ft-menu-meal" }, iconFor("meal", meal, "ft-menu-icon"), mealName(t, view, meal)),
        h("span", { class: "ft-menu-who" }, holders.length
          ? holders.map((p) => `${nameOf(ctx, p)}${view.seats[p].served[meal].length > 1 ? ` ×${view.seats[p].served[meal].length}` : ""}`).join(", ")
          : t.nobody));
    })));
}

function sharedArea(view, ctx, container, mode) {
  const t = tx(ctx);
  const takes = matching(ctx.actions || [], { type: "take" });
  const swaps = mode === "E3" ? (ctx.actions || []).filter((a) => a.type === "play_truck" && a.effect === "E3") : [];
  const supply = h("div", { class: "ft-supply", "data-reveal": swaps.length ? true : null },
    h("h3", null, t.supply),
    h("div", { class: "ft-row" },
      view.supply.length ? view.supply.map((card) => {
        const take = takes.find((a) => a.card === card);
        const swap = swaps.find((a) => a.card === card);
        const action = take || swap;
        return mealCard(view, t, card, {
          legal: !!action,
          onclick: action ? () => { uiState(container).armed = null; send(ctx, action); } : null,
        });
      }) : h("span", { class: "ft-muted" }, t.empty),
      cardBack(t, t.deck, view.central_deck_count, { title: t.deck })));
  const trucks = view.phase === "trucks" ? h("div", { class: "ft-truck-choice" },
    h("div", { class: "ft-row" }, (view.trucks_left || []).map((truck) => {
      const action = matching(ctx.actions || [], { type: "choose_truck", truck })[0];
      return h("div", {
        class: ["ft-truck", action && "legal"], dataset: { truck },
        ...clickable(action ? () => send(ctx, action) : null),
      }, h("span", { class: "ft-truck-name" }, icon("truck", "ft-truck-icon"), (view.truck_names && view.truck_names[truck]) || truck));
    }))) : null;
  return h("section", { class: "ft-shared" },
    h("div", { class: "ft-round" },
      h("b", null, view.round ? t.round(view.round) : ""), " ",
      h("span", { class: "ft-muted" }, t.target(view.vp_target))),
    trucks, supply, menuBoard(view, ctx));
}

// The line above the table. While others decide it says what they decide, never a bare "Waiting for X": the shell's
// turn bar says that (it names ctx.awaiting; a replay has no turn bar and no ctx.awaiting, so there "X's turn" is ours).
function prompt(view, ctx, mode) {
  const t = tx(ctx);
  const acts = ctx.actions || [];
  if (view.phase === "over" || ctx.over) return null;
  if (view.phase === "trucks") {
    return acts.length ? t.chooseTruck : t.chooseTruckWait(nameOf(ctx, view.truck_chooser));
  }
  if (view.phase === "prep") {
    if (acts.length) return t.prepPrompt;
    // Who is still ordering shows on each player's row ("ordering…" / "order ready").
    return ctx.seat !== null && ctx.seat !== undefined && view.seats[ctx.seat] ? t.prepDone : t.prepOthers;
  }
  if (mode === "E2") return t.armE2;
  if (mode === "E3") return t.armE3;
  const me = ctx.seat;
  if (!acts.length) {
    const who = nameOf(ctx, view.turn);
    if (view.step === "rearrange" && view.rearrange) return t.rearrangeOther(who, view.rearrange.cards);
    if (view.step === "compensation" || view.step === "winner_pick") return t.picking(who);
    if (view.step === "reveal" && view.turn) return t.revealOther(who);
    if (view.step === "decide" && view.turn) return t.decideOther(who);
    return view.turn && !(ctx.awaiting || []).length ? t.turnOf(who) : null;
  }
  if (view.step === "reveal") return acts.length > 1 ? t.revealOrTruck : t.revealPrompt;
  if (view.step === "decide") {
    const blockers = blockersOf(view, me, view.seats[me].pending);
    return blockers.length ? t.decideBlocked(blockers.map((p) => nameOf(ctx, p)).join(", ")) : t.decideOk;
  }
  if (view.step === "rearrange") return t.rearrangePrompt;
  if (view.step === "compensation") return t.compensationPrompt;
  if (view.step === "winner_pick") return t.winnerPick;
  return null;
}

function myArea(view, ctx, container, mode, e2Targets) {
  const t = tx(ctx);
  const seat = ctx.seat;
  const me = view.seats[seat];
  const acts = ctx.actions || [];
  const plays = acts.filter((a) => a.type === "play_truck");
  const takeBack = matching(acts, { type: "take_back" })[0];
  const rerender = () => render(container, view, ctx);

  // Truck card: E1/E4/E5 play at once; E2/E3 arm a target choice.
  let truckClick = null;
  if (plays.length) {
    const effect = plays[0].effect;
    if (effect === "E2" || effect === "E3") {
      truckClick = () => {
        if (uiState(container).armed === effect) uiState(container).armed = null; else uiState(container).armed = effect;
        // The targets, above this card, are brought into sight by the table page with the new instruction.
        rerender();
      };
    } else {
      truckClick = () => send(ctx, plays[0]);
    }
  }
  const truck = me.truck ? truckCard(view, t, seat, { legal: !!truckClick, armed: !!mode, onclick: truckClick }) : null;

  let work = null;
  if (view.phase === "prep" && me.hand) {
    const places = matching(acts, { type: "place" });
    work = h("div", { class: "ft-work" },
      h("h3", null, t.hand),
      h("div", { class: "ft-row ft-hand" }, me.hand.map((card) => {
        const action = places.find((a) => a.card === card);
        return mealCard(view, t, card, { legal: !!action, onclick: action ? () => send(ctx, action) : null });
      })),
      h("h3", null, t.stacked),
      h("ol", { class: "ft-row ft-stacked" }, me.draw_pile.map((card, i) => {
        const last = i === me.draw_pile.length - 1 && takeBack;
        return h("li", null, mealCard(view, t, card, {
          small: true, legal: !!last, caption: last ? t.takeBack : String(i + 1),
          onclick: last ? () => send(ctx, takeBack) : null,
        }));
      })));
  } else if (view.step === "rearrange" && view.turn === seat && view.rearrange && view.rearrange.todo) {
    const moves = matching(acts, { type: "rearrange" });
    work = h("div", { class: "ft-work" },
      h("h3", null, t.toReorder),
      h("div", { class: "ft-row" }, view.rearrange.todo.map((card) => {
        const action = moves.find((a) => a.card === card);
        return mealCard(view, t, card, { legal: !!action, onclick: action ? () => send(ctx, action) : null });
      })),
      h("h3", null, t.newOrder),
      h("ol", { class: "ft-row ft-stacked" }, view.rearrange.done.map((card, i) => {
        const last = i === view.rearrange.done.length - 1 && takeBack;
        return h("li", null, mealCard(view, t, card, {
          small: true, legal: !!last, caption: last ? t.takeBack : String(i + 1),
          onclick: last ? () => send(ctx, takeBack) : null,
        }));
      })));
  }

  const reveal = matching(acts, { type: "reveal" })[0];
  const resolve = matching(acts, { type: "resolve" })[0];
  const pile = ["trucks", "prep", "over"].includes(view.phase) ? null : cardBack(t, t.drawPile, pileSize(view, seat), {
    legal: !!reveal, onclick: reveal ? () => send(ctx, reveal) : null, testid: "ft-my-pile",
  });
  let pending = null;
  if (me.pending) {
    const blockers = blockersOf(view, seat, me.pending);
    pending = h("div", { class: "ft-pending" },
      h("span", { class: "ft-muted" }, t.revealed),
      mealCard(view, t, me.pending, {
        legal: !!resolve, class: blockers.length ? "ft-blocked" : "ft-ok",
        caption: resolve ? (blockers.length ? t.giveUp : t.serveIt)
          : blockers.length ? t.blockedBy(blockers.map((p) => nameOf(ctx, p)).join(", ")) : null,
        onclick: resolve ? () => send(ctx, resolve) : null,
      }));
  }
  const pileList = view.phase !== "prep" && me.draw_pile && me.draw_pile.length
    ? h("details", { class: "ft-pile-list" }, h("summary", null, t.yourPile),
      h("div", { class: "ft-row" }, me.draw_pile.map((card) => mealCard(view, t, card, { small: true }))))
    : null;

  return h("section", { class: ["ft-mine", view.turn === seat && "ft-turn", me.eliminated && "ft-out"], dataset: { seat } },
    h("div", { class: "ft-area-head" }, h("h3", null, nameOf(ctx, seat)), seatTags(view, seat, ctx), vpTokens(view, seat, t)),
    h("div", { class: "ft-row ft-table-row" }, truck, pile, pending),
    work,
    h("h3", null, t.served),
    servedArea(view, ctx, seat, { e2Targets, container }),
    pileList,
    collectionSummary(view, t, seat));
}

function otherArea(view, ctx, container, seat, e2Targets) {
  const t = tx(ctx);
  const me = view.seats[seat];
  const blocked = me.pending && blockersOf(view, seat, me.pending).length > 0;
  const pending = me.pending ? mealCard(view, t, me.pending, {
    small: true,
    class: blocked ? "ft-blocked" : "ft-ok",
    caption: t.revealed,
    note: blocked ? t.blocked : null,
  }) : null;
  return h("div", { class: ["ft-other", view.turn === seat && "ft-turn", me.eliminated && "ft-out"], dataset: { seat } },
    h("div", { class: "ft-area-head" }, h("b", null, nameOf(ctx, seat)), seatTags(view, seat, ctx), vpTokens(view, seat, t)),
    h("div", { class: "ft-row" },
      me.truck ? truckCard(view, t, seat, { small: true }) : null,
      ["trucks", "prep", "over"].includes(view.phase) ? null : cardBack(t, t.drawPile, pileSize(view, seat), { small: true }),
      pending,
      servedArea(view, ctx, seat, { small: true, e2Targets, container })),
    collectionSummary(view, t, seat, true));
}

function finalScoring(view, ctx) {
  const out = view.outcome;
  if (!out) return null;
  const t = tx(ctx);
  const place = {};
  out.ranking.forEach((group, i) => group.forEach((s) => { place[s] = i + 1; }));
  const order = out.ranking.flat();
  return h("section", { class: "ft-final" },
    h("h3", null, t.final),
    h("table", { class: "ft-final-table" },
      h("thead", null, h("tr", null, h("th", null, t.place), h("th", null, t.player), h("th", null, t.vp),
        h("th", null, t.roundsWon), h("th", null, t.cards))),
      h("tbody", null, order.map((seat) => {
        const d = out.details[seat];
        return h("tr", { class: out.winners.includes(seat) && "ft-winner" },
          h("td", null, String(place[seat])), h("td", null, nameOf(ctx, seat)), h("td", null, h("b", null, String(d.vp))),
          h("td", null, d.rounds_won.length ? d.rounds_won.join(", ") : "—"), h("td", null, String(d.cards_owned)));
      }))),
    h("h3", null, t.history),
    h("ol", { class: "ft-history" }, view.rounds.map((r) => h("li", null,
      t.roundLine(r.round, nameOf(ctx, r.winner), r.eliminated.map((s) => nameOf(ctx, s)).join(", "))))));
}

// ---------- entry points ----------

export function render(container, view, ctx) {
  const acts = ctx.actions || [];
  const ended = view.phase === "over" ? finalBoard(container, ctx) : null;
  if (ended) view = asLastRound(view, ended);
  const lastRound = ended && view.rounds.length ? view.rounds[view.rounds.length - 1].round : null;
  let mode = uiState(container).armed || null;
  if (mode && !acts.some((a) => a.type === "play_truck" && a.effect === mode)) {
    uiState(container).armed = null;
    mode = null;
  }
  const e2Targets = mode === "E2" ? acts.filter((a) => a.type === "play_truck" && a.effect === "E2") : [];
  const me = ctx.seat !== null && ctx.seat !== undefined && view.seats[ctx.seat] ? ctx.seat : null;
  const others = view.players.filter((s) => s !== me);
  const text = prompt(view, ctx, mode);
  morph(container, h("div", { class: "ft-root", lang: lang(ctx) },
    finalScoring(view, ctx),
    lastRound ? h("p", { class: "ft-last-round", "data-testid": "ft-last-round" }, tx(ctx).lastRound(lastRound)) : null,
    instruction(ctx, text ? h("div", { class: ["ft-prompt", acts.length && "ft-alert"] }, text) : null, acts.length > 0),
    h("section", { class: "ft-others" }, others.map((seat) => otherArea(view, ctx, container, seat, e2Targets))),
    sharedArea(view, ctx, container, mode),
    me !== null ? myArea(view, ctx, container, mode, e2Targets) : null));
  // The end screen draws the last round itself; a move of the game before marks what it changed.
  if (!ended) markChanged(container, changedPieces(ctx.lastMoveEvents || []));
}

// What the last move changed, as selectors: the cards it served, revealed, took or gave, the seat's VP when a round
// was won, and the face-up Truck card it played.
function changedPieces(events) {
  const out = [];
  for (const e of events) {
    for (const key of ["card", "sent_back", "gave", "took", "skipped"]) {
      if (typeof e[key] === "string") out.push(attr("data-card", e[key]));
    }
    if (e.type === "round_won") out.push(`${attr("data-seat", e.seat)} .ft-vp`);
    if (e.type === "truck_played") out.push(`${attr("data-seat", e.seat)} .ft-truck`);
  }
  return out;
}

// One line per player under the shell's result (used by a shell that asks renderers for it).
export function describeDetails(d, ctx) {
  const t = tx(ctx);
  return `${t.vp}: ${d.vp} · ${t.roundsWon}: ${(d.rounds_won || []).join(", ") || "—"} · ${t.cards}: ${d.cards_owned}`;
}

export function describeEvent(event, ctx) {
  const lg = lang(ctx);
  const L = LOG[lg];
  const t = TEXT[lg];
  const n = (seat) => nameOf(ctx, seat);
  const c = (card) => (card ? mealName(t, null, typeOf(card)) : "");
  const eff = (e) => (t.effects[e] || [e])[0];
  switch (event.type) {
    case "truck_chosen": return L.truck_chosen(n(event.seat), event.name || event.truck.replace(/_/g, " "));
    case "round_started": return L.round_started(event.round, nameOf(ctx, event.first_player));
    case "truck_reshuffled": return L.truck_reshuffled(n(event.seat));
    case "truck_revealed": return L.truck_revealed(n(event.seat), eff(event.effect));
    case "card_stacked": return null;
    case "card_unstacked": return null;
    case "card_rearranged": return null;
    case "order_ready": return L.order_ready(n(event.seat));
    case "service_started": return L.service_started(nameOf(ctx, event.first_player));
    case "revealed": return L.revealed(n(event.seat), c(event.card));
    case "served": return L.served(n(event.seat), c(event.card), event.pile, event.shared_with ? nameOf(ctx, event.shared_with) : null);
    case "dessert_served": return L.dessert_served(n(event.seat));
    case "ran_out": return L.ran_out(n(event.seat));
    case "eliminated": return L.eliminated(n(event.seat), c(event.card), (event.blocked_by || []).map((s) => nameOf(ctx, s)).join(", "));
    case "marker_taken": return L.marker_taken(n(event.seat));
    case "compensation_taken": return L.compensation_taken(n(event.seat), c(event.card));
    case "no_compensation": return L.no_compensation(n(event.seat));
    case "truck_played": {
      let extra = null;
      if (event.effect === "E1") extra = L.e1(event.cards);
      else if (event.effect === "E2") extra = L.e2(c(event.sent_back), nameOf(ctx, event.target));
      else if (event.effect === "E3") extra = L.e3(c(event.gave), c(event.took));
      else if (event.effect === "E4") extra = L.e4(c(event.skipped));
      else if (event.effect === "E5") extra = L.e5(nameOf(ctx, event.shared_with));
      return L.truck_played(n(event.seat), eff(event.effect), extra);
    }
    case "rearranged": return L.rearranged(n(event.seat), event.cards);
    case "round_won": return L.round_won(n(event.seat), event.round, event.vp);
    case "last_card_taken": return L.last_card_taken(n(event.seat), c(event.card));
    case "truck_discarded": return null;
    case "supply_dealt": return L.supply_dealt((event.cards || []).map(c).join(", "));
    case "game_won": return L.game_won(n(event.seat), event.vp);
    default: return null;
  }
}
