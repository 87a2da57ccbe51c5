// Food Chain Magnate renderer: the city map (roads, houses with demand, gardens, drinks, restaurants,
// campaigns), every chain's company pyramid, the employee supply, milestones, turn order, bank and cash.
// Every decision is made on the board: map squares, cards, supply piles, tokens; legal targets are "legal".
import { attr, clickable as asButton, h, instruction, markChanged, matching, morph, named, uiState } from "../lib/dom.js";
import { iconFor } from "../lib/icons.js";
import { langOf as lang, seatName as nameOf } from "../lib/text.js";

// The table page adds this stylesheet before the first draw (frontend/app/renderer.js).
export const stylesheet = new URL("./food-chain-magnate.css", import.meta.url).pathname;

// ---------- component facts the view refers to by id (printed on the physical cards) ----------

// id: [English, Spanish, colour group, manager slots, salaried, one-of-a-kind]
const CARDS = {
  ceo: ["CEO", "Director general", "ceo", 0, false, true],
  management_trainee: ["Management Trainee", "Aprendiz de gestión", "mgmt", 2, false, false],
  junior_vice_president: ["Junior Vice President", "Vicepresidente júnior", "mgmt", 3, true, false],
  vice_president: ["Vice President", "Vicepresidente", "mgmt", 4, true, false],
  senior_vice_president: ["Senior Vice President", "Vicepresidente sénior", "mgmt", 5, true, false],
  executive_vice_president: ["Executive Vice President", "Vicepresidente ejecutivo", "mgmt", 10, true, true],
  recruiting_girl: ["Recruiting Girl", "Reclutadora", "hr", 0, false, false],
  recruiting_manager: ["Recruiting Manager", "Jefe de selección", "hr", 0, true, false],
  hr_director: ["HR Director", "Director de RR. HH.", "hr", 0, true, true],
  trainer: ["Trainer", "Formador", "hr", 0, false, false],
  coach: ["Coach", "Coach", "hr", 0, true, false],
  guru: ["Guru", "Gurú", "hr", 0, true, true],
  marketing_trainee: ["Marketing Trainee", "Aprendiz de marketing", "mkt", 0, false, false],
  campaign_manager: ["Campaign Manager", "Jefe de campañas", "mkt", 0, true, false],
  brand_manager: ["Brand Manager", "Jefe de marca", "mkt", 0, true, false],
  brand_director: ["Brand Director", "Director de marca", "mkt", 0, true, true],
  kitchen_trainee: ["Kitchen Trainee", "Aprendiz de cocina", "food", 0, false, false],
  burger_cook: ["Burger Cook", "Cocinero de hamburguesas", "food", 0, true, false],
  burger_chef: ["Burger Chef", "Chef de hamburguesas", "food", 0, true, true],
  pizza_cook: ["Pizza Cook", "Pizzero", "food", 0, true, false],
  pizza_chef: ["Pizza Chef", "Chef pizzero", "food", 0, true, true],
  errand_boy: ["Errand Boy", "Recadero", "drink", 0, false, false],
  cart_operator: ["Cart Operator", "Conductor de carrito", "drink", 0, true, false],
  truck_driver: ["Truck Driver", "Camionero", "drink", 0, true, false],
  zeppelin_pilot: ["Zeppelin Pilot", "Piloto de zepelín", "drink", 0, true, true],
  waitress: ["Waitress", "Camarera", "serve", 0, false, false],
  pricing_manager: ["Pricing Manager", "Jefe de precios", "price", 0, false, false],
  discount_manager: ["Discount Manager", "Jefe de descuentos", "price", 0, true, false],
  luxuries_manager: ["Luxuries Manager", "Jefe de lujo", "price", 0, true, true],
  new_business_developer: ["New Business Developer", "Desarrollo de negocio", "build", 0, true, false],
  local_manager: ["Local Manager", "Gerente local", "build", 0, true, false],
  regional_manager: ["Regional Manager", "Gerente regional", "build", 0, true, true],
  cfo: ["CFO", "Director financiero", "cfo", 0, true, true],
};
// The supply laid out by career track, as on the table.
const SUPPLY_ROWS = [
  ["management_trainee", "junior_vice_president", "vice_president", "senior_vice_president", "executive_vice_president"],
  ["recruiting_girl", "recruiting_manager", "hr_director", "trainer", "coach", "guru"],
  ["marketing_trainee", "campaign_manager", "brand_manager", "brand_director"],
  ["kitchen_trainee", "burger_cook", "burger_chef", "pizza_cook", "pizza_chef"],
  ["errand_boy", "cart_operator", "truck_driver", "zeppelin_pilot"],
  ["waitress", "pricing_manager", "discount_manager", "luxuries_manager", "cfo"],
  ["new_business_developer", "local_manager", "regional_manager"],
];
// number: [type, footprint rows, footprint cols | airplane width]
const CAMPAIGN_TILES = {
  1: ["radio", 1, 1], 2: ["radio", 1, 1], 3: ["radio", 1, 1],
  4: ["airplane", 1], 5: ["airplane", 3], 6: ["airplane", 5],
  7: ["mailbox", 2, 2], 8: ["mailbox", 2, 2], 9: ["mailbox", 1, 1], 10: ["mailbox", 1, 1],
  11: ["billboard", 3, 2], 12: ["billboard", 2, 2], 13: ["billboard", 3, 1], 14: ["billboard", 2, 1],
  15: ["billboard", 1, 1], 16: ["billboard", 1, 1],
};
const GOODS = ["burger", "pizza", "beer", "lemonade", "soft_drink"];
const GOOD_MARK = { burger: "Bu", pizza: "Pi", beer: "Be", lemonade: "Le", soft_drink: "So" };
const DRINK_CHARS = { B: "beer", L: "lemonade", S: "soft_drink" };
const RESERVE = { reserve_100: [100, 2], reserve_200: [200, 3], reserve_300: [300, 4] };
const MILESTONES = [
  "first_billboard_placed", "first_to_train", "first_to_hire_3", "first_burger_marketed", "first_pizza_marketed",
  "first_drink_marketed", "first_errand_boy_played", "first_to_have_20", "first_burger_produced",
  "first_pizza_produced", "first_waitress_played", "first_to_throw_away", "first_to_lower_prices",
  "first_cart_operator_played", "first_airplane_campaign", "first_radio_campaign", "first_to_have_100",
  "first_to_pay_20_salaries",
];
const SEAT_COLOURS = ["#c62828", "#1f5fbf", "#2e7d32", "#d98e04", "#7b3fb0"];

const TEXT = {
  en: {
    goods: { burger: "burger", pizza: "pizza", beer: "beer", lemonade: "lemonade", soft_drink: "soft drink" },
    goodsPl: { burger: "burgers", pizza: "pizzas", beer: "beers", lemonade: "lemonades", soft_drink: "soft drinks" },
    campaignTypes: { radio: "Radio", airplane: "Airplane", mailbox: "Mailbox", billboard: "Billboard" },
    milestones: {
      first_billboard_placed: ["First billboard", "No salary for marketeers; your campaigns are eternal."],
      first_to_train: ["First to train", "$15 off salaries every Payday."],
      first_to_hire_3: ["Hire 3 in a turn", "2 free management trainees now."],
      first_burger_marketed: ["First burger marketed", "+$5 per burger sold."],
      first_pizza_marketed: ["First pizza marketed", "+$5 per pizza sold."],
      first_drink_marketed: ["First drink marketed", "+$5 per drink sold."],
      first_errand_boy_played: ["First errand boy", "+1 drink per source for all buyers."],
      first_to_have_20: ["First to have $20", "May look at the reserve cards."],
      first_burger_produced: ["First burger produced", "A free burger cook."],
      first_pizza_produced: ["First pizza produced", "A free pizza cook."],
      first_waitress_played: ["First waitress", "Waitresses earn $5."],
      first_to_throw_away: ["First to throw away", "Freezer: keep up to 10 goods."],
      first_to_lower_prices: ["First to lower prices", "Unit price −$1 for good."],
      first_cart_operator_played: ["First cart operator", "Buyers +1 range."],
      first_airplane_campaign: ["First airplane", "+2 open slots for turn order."],
      first_radio_campaign: ["First radio", "Radios place 2 demand each."],
      first_to_have_100: ["First to have $100", "Your CEO works as a CFO (+50%)."],
      first_to_pay_20_salaries: ["Paid $20 salaries", "Trainers may combine on one card."],
    },
    phases: {
      first_restaurants: "Setup: first restaurants", reserve: "Setup: reserve cards", restructuring: "1 Restructuring",
      order_of_business: "2 Order of business", working: "3 Working 9–5", payday_firing: "5 Payday",
      payday_forced: "5 Payday", cleanup: "7 Clean up", over: "Game over",
    },
    steps: { recruit: "Recruit", train: "Train", marketing: "Marketing", food_and_drinks: "Food & drinks",
      houses: "Houses & gardens", restaurants: "Restaurants" },
    round: (r) => `Round ${r}`,
    bank: "Bank", breaks: (n) => (n ? `broken ${n}×` : "not broken yet"), ceoSlots: (s) => `CEO slots: ${s}`,
    ceoNext: (s) => `(${s} from next round)`,
    reserves: "Reserve cards", hiddenCard: "face down",
    turnOrder: "Turn order",
    supply: "Employee supply", empty: "empty",
    milestonesTitle: "Milestones", available: "available", claimedNow: "claimed this round", retired: "gone",
    campaignSupply: "Campaign tiles", houseSupply: "House tiles", gardens: (n) => `Garden tiles: ${n}`,
    cash: "Cash", stock: "Stock", nothingInStock: "no food or drinks",
    company: "Company", atWork: "At work", beach: "On the beach", busy: "Busy (running campaigns)",
    handAllBusy: "No cards in hand: all your employees are busy on campaigns; they come back when their campaigns end.",
    handEmpty: "No cards in hand: only the CEO works this round.",
    hand: "Hand", choosing: "Putting to work (secret)", structureChosen: "decided", choosingSecret: "deciding…",
    restaurants: (n) => `Restaurants on the map: ${n}/3`, price: (p) => `Unit price $${p}`,
    driveIn: "drive-ins", bankrupt: "bankrupt", out: "out of the game", you: "you",
    slots: (n) => `${n} slots`, open: (n) => `${n} open`, overCommitted: "Over-committed: only the CEO would work!",
    zoomIn: "Zoom in", zoomOut: "Zoom out", wholeMap: "Whole map",
    comingSoon: "coming soon", eternal: "eternal", left: (n) => `${n} left`,
    house: (n) => `House ${n}`, garden: "garden", entrance: "entrance",
    square: (r, c) => `Row ${r + 1}, column ${c + 1}`, restaurant: (n) => `${n}'s restaurant`, edges: { N: "north", S: "south", W: "west", E: "east" },
    // the map read square by square (a screen reader hears the focused square's name)
    map: "City map (arrow keys move from square to square, Enter chooses)",
    ground: { road: "road", bridge: "bridge", lot: "empty", hsq: "house" },
    source: (g) => `${g} source`, gardenOf: (n) => `garden of house ${n}`, wants: (list) => `wants ${list}`,
    reached: { sure: "reached by this campaign", maybe: "maybe reached by this campaign" },
    planned: "where the piece goes", chosen: "chosen", canChoose: "you can choose it",
    beside: (edge, i) => `beside the board, ${edge} side, ${i + 1}`,
    airSpot: (edge, a, b) => `Airplane beside the ${edge} side, squares ${a}–${b}`,
    campaignOn: (type, n, good, left, owner) => `${type} #${n}: ${good}, ${left} (${owner})`,
    // card faces read in words
    meta: { slots: (n) => `manages ${n}`, salary: "salary $5", unique: "one of a kind" },
    inSupply: (n) => `${n} in the supply`, onCampaign: (n) => `on campaign #${n}`, fireIt: "fire",
    emptySlot: "empty slot", reserveOf: (n, what) => `${n}'s reserve card: ${what}`,
    position: (k, who) => `Turn order: position ${k}${who ? `, ${who}` : ""}`,
    // prompts
    placeFirst: "Place your first restaurant: click a highlighted square of the map for its top-left corner (or pass).",
    placeFirstEntrance: "Click the corner that will be the entrance.",
    pass: "Pass",
    chooseReserve: "Choose your reserve card (secret): it adds money when the bank first breaks and votes for the CEO's slots.",
    restructure: "Restructuring (secret): click cards of your Hand to put them to work (click a placed card to take it back), then submit.",
    takeBack: (c) => `Take the ${c} back to the hand`,
    submitStructure: "Submit structure",
    submitOver: "Submit anyway (over-committed)",
    pickPosition: "Choose your place on the turn-order track: click a free position.",
    recruit: "Recruit: click a pile of the Employee supply to hire that employee onto your beach.",
    train: "Train: click a card of yours On the beach, then what it becomes.",
    trainInto: (card) => `Train ${card} into:`,
    marketing: "Marketing: click one of the Campaign tiles (pick the marketeer first when several can).",
    pickMarketeer: "Choose which marketeer places it:",
    placeCampaign: (n) => `Place campaign #${n}: click highlighted squares (click more squares to pin down the shape).`,
    placeAirplane: (n) => `Airplane #${n}: click a highlighted square beside the board (the middle of its flight).`,
    advertise: "Choose the good advertised, then the duration.",
    advertiseGood: "Choose the good advertised (this campaign has no duration to choose: it runs for good).",
    duration: "Duration",
    food: "Food & drinks: click a kitchen card to cook, or a buyer to fetch drinks.",
    routeHelp: "Click drink sources on the map to choose the route's stops, or a route below.",
    routes: "Routes",
    reachHelp: "Outlined houses get demand from this campaign (dashed: depends on the squares still to pick).",
    collect: "Collect",
    houses: "Houses & gardens: click one of the House tiles to build it, or a printed house on the map to give it a garden.",
    houseAt: "Click the map square for the top-left corner of the new house.",
    gardenAt: "Click the map squares where the garden goes.",
    restaurantsStep: "Restaurants: click your local/regional manager to open a restaurant, or a restaurant to move it.",
    restaurantAt: "Click the map square for the top-left corner of the restaurant.",
    entranceAt: "Click the corner that will be the entrance.",
    fire: "Payday (secret): click cards to fire them, then submit.",
    forced: "You cannot pay all salaries: click salaried cards to fire until you can.",
    submitFiring: "Submit firing", firing: "fired",
    discard: "Clean up: your freezer holds 10; click goods in your Stock to throw away.",
    done: { recruit: "Done recruiting", train: "Done training", marketing: "Done with marketing",
      food_and_drinks: "Done with food & drinks", houses: "Done with houses", restaurants: "End my turn" },
    turnOf: (n, step) => `${n} is working (${step})`,
    cancel: "Cancel selection",
    by: (n) => `by ${n}`,
    phantom: "empty pile: hire and train at once",
    final: "Final scoring", place: "Place", player: "Chain", tie: "Turn order",
    held: "Milestones", staff: "Staff",
    tieNote: "Equal cash: the chain earlier in the last turn order wins.",
    bankEnd: (b) => (b < 0 ? `The bank ended $${-b} short (paid in IOUs, which count as cash).` : `Left in the bank: $${b}.`),
    preview: "new",
  },
  es: {
    goods: { burger: "hamburguesa", pizza: "pizza", beer: "cerveza", lemonade: "limonada", soft_drink: "refresco" },
    goodsPl: { burger: "hamburguesas", pizza: "pizzas", beer: "cervezas", lemonade: "limonadas", soft_drink: "refrescos" },
    campaignTypes: { radio: "Radio", airplane: "Avioneta", mailbox: "Buzoneo", billboard: "Valla" },
    milestones: {
      first_billboard_placed: ["Primera valla", "Sin sueldo para marketing; tus campañas son eternas."],
      first_to_train: ["Primero en formar", "$15 menos de sueldos en cada día de paga."],
      first_to_hire_3: ["Contratar 3 en un turno", "2 aprendices de gestión gratis."],
      first_burger_marketed: ["Primera hamburguesa anunciada", "+$5 por hamburguesa vendida."],
      first_pizza_marketed: ["Primera pizza anunciada", "+$5 por pizza vendida."],
      first_drink_marketed: ["Primera bebida anunciada", "+$5 por bebida vendida."],
      first_errand_boy_played: ["Primer recadero", "+1 bebida por fuente para los compradores."],
      first_to_have_20: ["Primero con $20", "Puede mirar las cartas de reserva."],
      first_burger_produced: ["Primera hamburguesa", "Un cocinero de hamburguesas gratis."],
      first_pizza_produced: ["Primera pizza", "Un pizzero gratis."],
      first_waitress_played: ["Primera camarera", "Las camareras ganan $5."],
      first_to_throw_away: ["Primero en tirar", "Congelador: guarda hasta 10."],
      first_to_lower_prices: ["Primero en bajar precios", "Precio −$1 para siempre."],
      first_cart_operator_played: ["Primer carrito", "Compradores +1 de alcance."],
      first_airplane_campaign: ["Primera avioneta", "+2 huecos libres para el orden."],
      first_radio_campaign: ["Primera radio", "Las radios ponen 2 de demanda."],
      first_to_have_100: ["Primero con $100", "Tu director general hace de financiero (+50%)."],
      first_to_pay_20_salaries: ["Pagó $20 de sueldos", "Formadores combinables en una carta."],
    },
    phases: {
      first_restaurants: "Preparación: primeros restaurantes", reserve: "Preparación: cartas de reserva",
      restructuring: "1 Reestructuración", order_of_business: "2 Orden de juego", working: "3 Jornada laboral",
      payday_firing: "5 Día de paga", payday_forced: "5 Día de paga", cleanup: "7 Limpieza", over: "Fin de la partida",
    },
    steps: { recruit: "Contratar", train: "Formar", marketing: "Marketing", food_and_drinks: "Comida y bebida",
      houses: "Casas y jardines", restaurants: "Restaurantes" },
    round: (r) => `Ronda ${r}`,
    bank: "Banco", breaks: (n) => (n ? `quebrado ${n}×` : "aún no ha quebrado"), ceoSlots: (s) => `Huecos del director: ${s}`,
    ceoNext: (s) => `(${s} desde la próxima ronda)`,
    reserves: "Cartas de reserva", hiddenCard: "boca abajo",
    turnOrder: "Orden de turno",
    supply: "Suministro de empleados", empty: "vacía",
    milestonesTitle: "Hitos", available: "disponible", claimedNow: "logrado esta ronda", retired: "agotado",
    campaignSupply: "Campañas", houseSupply: "Casas", gardens: (n) => `Jardines: ${n}`,
    cash: "Dinero", stock: "Existencias", nothingInStock: "sin comida ni bebida",
    company: "Empresa", atWork: "Trabajando", beach: "En la playa", busy: "Ocupados (campañas)",
    handAllBusy: "Sin cartas en la mano: todos tus empleados están ocupados en campañas; vuelven cuando acaban.",
    handEmpty: "Sin cartas en la mano: esta ronda solo trabaja el director.",
    hand: "Mano", choosing: "Poniendo a trabajar (secreto)", structureChosen: "decidido", choosingSecret: "decidiendo…",
    restaurants: (n) => `Restaurantes en el mapa: ${n}/3`, price: (p) => `Precio $${p}`,
    driveIn: "autoservicio", bankrupt: "en quiebra", out: "fuera de la partida", you: "tú",
    slots: (n) => `${n} huecos`, open: (n) => `${n} libres`, overCommitted: "¡Sobrecargada: solo trabajaría el director!",
    zoomIn: "Acercar", zoomOut: "Alejar", wholeMap: "Mapa entero",
    comingSoon: "próxima apertura", eternal: "eterna", left: (n) => `quedan ${n}`,
    house: (n) => `Casa ${n}`, garden: "jardín", entrance: "entrada",
    square: (r, c) => `Fila ${r + 1}, columna ${c + 1}`, restaurant: (n) => `Restaurante de ${n}`, edges: { N: "norte", S: "sur", W: "oeste", E: "este" },
    map: "Mapa de la ciudad (las flechas van de casilla en casilla, Intro elige)",
    ground: { road: "carretera", bridge: "puente", lot: "vacía", hsq: "casa" },
    source: (g) => `fuente de ${g}`, gardenOf: (n) => `jardín de la casa ${n}`, wants: (list) => `quiere ${list}`,
    reached: { sure: "la alcanza esta campaña", maybe: "quizá la alcance esta campaña" },
    planned: "donde irá la pieza", chosen: "elegida", canChoose: "puedes elegirla",
    beside: (edge, i) => `junto al tablero, lado ${edge}, ${i + 1}`,
    airSpot: (edge, a, b) => `Avioneta junto al lado ${edge}, casillas ${a}–${b}`,
    campaignOn: (type, n, good, left, owner) => `${type} #${n}: ${good}, ${left} (${owner})`,
    meta: { slots: (n) => `dirige a ${n}`, salary: "sueldo de $5", unique: "única" },
    inSupply: (n) => `${n} en el suministro`, onCampaign: (n) => `en la campaña #${n}`, fireIt: "despedir",
    emptySlot: "hueco libre", reserveOf: (n, what) => `Carta de reserva de ${n}: ${what}`,
    position: (k, who) => `Orden de turno: posición ${k}${who ? `, ${who}` : ""}`,
    placeFirst: "Coloca tu primer restaurante: haz clic en la casilla resaltada de su esquina superior izquierda (o pasa).",
    placeFirstEntrance: "Haz clic en la esquina que será la entrada.",
    pass: "Pasar",
    chooseReserve: "Elige tu carta de reserva (secreta): añade dinero cuando el banco quiebre y vota los huecos del director.",
    restructure: "Reestructuración (secreta): haz clic en cartas de tu Mano para ponerlas a trabajar (clic en una carta colocada para retirarla) y envía.",
    takeBack: (c) => `Devolver ${c} a la mano`,
    submitStructure: "Enviar estructura",
    submitOver: "Enviar igualmente (sobrecargada)",
    pickPosition: "Elige tu puesto en el orden de turno: haz clic en una posición libre.",
    recruit: "Contratar: haz clic en un montón del Suministro de empleados para contratar a ese empleado (va a tu playa).",
    train: "Formar: haz clic en una carta tuya En la playa y luego en lo que llegará a ser.",
    trainInto: (card) => `Formar ${card} como:`,
    marketing: "Marketing: haz clic en una campaña (elige antes el empleado si hay varios).",
    pickMarketeer: "Elige qué empleado la coloca:",
    placeCampaign: (n) => `Coloca la campaña #${n}: haz clic en casillas resaltadas (más casillas fijan la forma).`,
    placeAirplane: (n) => `Avioneta #${n}: haz clic junto al tablero (el centro de su vuelo).`,
    advertise: "Elige el producto anunciado y luego la duración.",
    advertiseGood: "Elige el producto anunciado (esta campaña no tiene duración que elegir: es permanente).",
    duration: "Duración",
    food: "Comida y bebida: haz clic en un cocinero para cocinar o en un comprador para traer bebida.",
    routeHelp: "Haz clic en fuentes de bebida del mapa para elegir las paradas, o en una ruta de abajo.",
    routes: "Rutas",
    reachHelp: "Las casas recuadradas recibirán demanda de esta campaña (discontinuas: según las casillas que falten).",
    collect: "Recoger",
    houses: "Casas y jardines: haz clic en una casa para construirla o en una casa impresa para darle jardín.",
    houseAt: "Haz clic en la casilla superior izquierda de la casa nueva.",
    gardenAt: "Haz clic donde irá el jardín.",
    restaurantsStep: "Restaurantes: haz clic en tu gerente para abrir un restaurante, o en un restaurante para moverlo.",
    restaurantAt: "Haz clic en la casilla superior izquierda del restaurante.",
    entranceAt: "Haz clic en la esquina que será la entrada.",
    fire: "Día de paga (secreto): haz clic en cartas para despedirlas y envía.",
    forced: "No puedes pagar todos los sueldos: despide cartas con sueldo hasta poder.",
    submitFiring: "Enviar despidos", firing: "despedido",
    discard: "Limpieza: tu congelador guarda 10; haz clic en productos para tirarlos.",
    done: { recruit: "Terminar de contratar", train: "Terminar de formar", marketing: "Terminar marketing",
      food_and_drinks: "Terminar comida y bebida", houses: "Terminar casas", restaurants: "Terminar mi turno" },
    turnOf: (n, step) => `${n} está trabajando (${step})`,
    cancel: "Cancelar selección",
    by: (n) => `con ${n}`,
    phantom: "montón vacío: contratar y formar a la vez",
    final: "Puntuación final", place: "Puesto", player: "Cadena", tie: "Orden",
    held: "Hitos", staff: "Plantilla",
    tieNote: "Empate en dinero: gana la cadena que iba antes en el último orden de turno.",
    bankEnd: (b) => (b < 0 ? `Al banco le faltaron $${-b} (pagados en pagarés, que cuentan como dinero).` : `Quedan en el banco: $${b}.`),
    preview: "nuevo",
  },
};

// English indefinite article ("an Errand Boy", "a CFO" is read "a see-eff-oh" but "an HR Director").
function an(noun) {
  return `${/^([AEIOU]|HR)/.test(noun) ? "an" : "a"} ${noun}`;
}

const LOG = {
  en: {
    passed: (n) => `${n} passes on placing a restaurant`,
    reserve_chosen: (n, card) => `You chose the ${card} reserve card`,
    reserve_ready: (n) => `${n} has chosen a reserve card`,
    round_started: (r) => `— Round ${r} —`,
    work_chosen: (n, card) => `You put ${card} to work`,
    work_taken_back: (n, card) => `You take ${card} back out of your structure`,
    structure_submitted: (n) => `${n}'s structure is ready`,
    structure_revealed: (n, cards, over) => (over ? `${n} over-committed: everyone goes to the beach, the CEO works alone`
      : `${n} puts to work: ${cards || "CEO only"}`),
    order_of_business: (list) => `Order of business (most open slots choose first): ${list}`,
    position_taken: (n, p) => `${n} takes turn-order position ${p}`,
    working_turn: (n) => `${n} starts working`,
    hired: (n, card) => `${n} hires ${an(card)}`,
    hired_phantom: (n, card, into) => `${n} hires ${an(card)} from an empty pile, to be trained into ${an(into)}`,
    trained: (n, from, into) => `${n} trains ${an(from)} into ${an(into)}`,
    campaign_placed: (n, type, num, good, d) => `${n} places ${type} #${num} advertising ${good}${d}`,
    for_rounds: (k) => ` for ${k} round${k === 1 ? "" : "s"}`,
    eternal: " (eternal)",
    produced: (n, amount, good, card) => `${n}'s ${card} produces ${amount} ${good}`,
    drinks_collected: (n, card, list) => `${n}'s ${card} collects ${list}`,
    house_placed: (n, num) => `${n} builds house ${num} with a garden`,
    garden_placed: (n, num) => `${n} adds a garden to house ${num}`,
    restaurant_placed: (n, open) => `${n} places a restaurant${open ? "" : " (coming soon)"}`,
    restaurant_moved: (n) => `${n} moves a restaurant`,
    dinnertime: "Dinnertime: in number order, each house with demand buys everything it wants from the chain with the lowest price + distance (ties: more waitresses, then earlier in turn order)",
    sale: (n, house, garden, list, price, score, pays, rivals) => `House ${house}${garden ? " (garden)" : ""} buys ${list} from ${n}: ${price}, ${score}; ${pays}${rivals ? `. ${rivals}` : ""}`,
    no_sale: (house, garden, list, rivals) => `House ${house}${garden ? " (garden)" : ""} wants ${list} and buys nothing: ${rivals || "no chain is in the game"}`,
    price: (parts, unit) => (parts ? `$10${parts} = $${unit} each` : `$${unit} each`),
    score: (d, total) => `distance ${d} → total ${total}`,
    pays: (k, unit, garden, bonus, income) => `${k} × $${unit}${garden ? " ×2 (garden)" : ""}${bonus} = $${income}`,
    bonus: (b, list) => ` + $${b} (marketing bonus: ${list})`,
    rival: {
      higher_total: (n, r) => `${n} would have cost $${r.unit_price} + ${r.distance} = ${r.total}`,
      fewer_waitresses: (n, r, w) => `${n} also scored ${r.total} but has fewer waitresses (${r.waitresses} vs ${w})`,
      later_in_turn_order: (n, r) => `${n} also scored ${r.total} with as many waitresses but is later in turn order`,
      missing_goods: (n, r, w, list) => `${n} cannot serve (short of ${list})`,
      not_connected: (n) => `${n} has no road to the house`,
      no_open_restaurant: (n) => `${n} has no open restaurant`,
      bankrupt: (n) => `${n} is bankrupt`,
    },
    bankrupt: (n) => `${n} cannot pay and is bankrupt`,
    waitress_tips: (n, a) => `${n}'s waitresses earn $${a}`,
    cfo_bonus: (n, a) => `${n}'s CFO adds 50%: $${a}`,
    bank_broken: (k) => (k === 1 ? "The bank breaks for the first time!" : "The bank breaks a second time — the game ends after Dinnertime"),
    reserves_revealed: (list, added, slots) => `Reserve cards revealed (${list}): $${added} added to the bank; CEOs get ${slots} slots from next round`,
    milestone: (n, m) => `${n} earns the milestone “${m}”`,
    free_cards: (n, count, card) => `${n} receives ${count} free ${card}`,
    fire_chosen: (n, card) => `You will fire ${an(card)}`,
    firing_submitted: (n) => `${n} has decided whom to fire`,
    fired: (n, card, forced, camp) => `${n} fires ${an(card)}${camp ? ` from campaign #${camp} (it keeps running)` : ""}${forced ? " (forced)" : ""}`,
    salaries_paid: (n, a) => `${n} pays $${a} in salaries`,
    campaign_ran: (num, good, list) => (list ? `Campaign #${num} (${good}) adds demand: ${list}` : `Campaign #${num} (${good}) reaches no house with room`),
    campaign_ended: (num, n) => `${n}'s campaign #${num} runs out`,
    discarded: (n, count, good) => `${n} throws away ${count} ${good}`,
    restaurant_opened: (n) => `${n}'s new restaurant opens`,
    left_game: (n) => `${n} is out of the game`,
    game_over: (list) => `Game over. Cash: ${list}`,
  },
  es: {
    passed: (n) => `${n} pasa y no coloca restaurante`,
    reserve_chosen: (n, card) => `Elegiste la carta de reserva ${card}`,
    reserve_ready: (n) => `${n} ha elegido carta de reserva`,
    round_started: (r) => `— Ronda ${r} —`,
    work_chosen: (n, card) => `Pones a trabajar: ${card}`,
    work_taken_back: (n, card) => `Retiras de la estructura: ${card}`,
    structure_submitted: (n) => `${n} tiene su estructura lista`,
    structure_revealed: (n, cards, over) => (over ? `${n} se sobrecargó: todos a la playa, el director trabaja solo`
      : `${n} pone a trabajar: ${cards || "solo el director"}`),
    order_of_business: (list) => `Orden de juego (más huecos libres eligen antes): ${list}`,
    position_taken: (n, p) => `${n} toma la posición ${p}`,
    working_turn: (n) => `${n} empieza a trabajar`,
    hired: (n, card) => `${n} contrata: ${card}`,
    hired_phantom: (n, card, into) => `${n} contrata ${card} de un montón vacío, que formará como ${into}`,
    trained: (n, from, into) => `${n} forma ${from} como ${into}`,
    campaign_placed: (n, type, num, good, d) => `${n} coloca ${type} #${num} anunciando ${good}${d}`,
    for_rounds: (k) => ` durante ${k} ronda${k === 1 ? "" : "s"}`,
    eternal: " (eterna)",
    produced: (n, amount, good, card) => `${card} de ${n} produce ${amount} ${good}`,
    drinks_collected: (n, card, list) => `${card} de ${n} recoge ${list}`,
    house_placed: (n, num) => `${n} construye la casa ${num} con jardín`,
    garden_placed: (n, num) => `${n} añade un jardín a la casa ${num}`,
    restaurant_placed: (n, open) => `${n} coloca un restaurante${open ? "" : " (próxima apertura)"}`,
    restaurant_moved: (n) => `${n} mueve un restaurante`,
    dinnertime: "La cena: por orden de número, cada casa con demanda compra todo lo que quiere a la cadena con menor precio + distancia (empates: más camareras, luego antes en el turno)",
    sale: (n, house, garden, list, price, score, pays, rivals) => `La casa ${house}${garden ? " (jardín)" : ""} compra ${list} a ${n}: ${price}, ${score}; ${pays}${rivals ? `. ${rivals}` : ""}`,
    no_sale: (house, garden, list, rivals) => `La casa ${house}${garden ? " (jardín)" : ""} quiere ${list} y no compra nada: ${rivals || "no queda ninguna cadena"}`,
    price: (parts, unit) => (parts ? `$10${parts} = $${unit} por unidad` : `$${unit} por unidad`),
    score: (d, total) => `distancia ${d} → total ${total}`,
    pays: (k, unit, garden, bonus, income) => `${k} × $${unit}${garden ? " ×2 (jardín)" : ""}${bonus} = $${income}`,
    bonus: (b, list) => ` + $${b} (bonificación de marketing: ${list})`,
    rival: {
      higher_total: (n, r) => `${n}: habría costado $${r.unit_price} + ${r.distance} = ${r.total}`,
      fewer_waitresses: (n, r, w) => `${n} también suma ${r.total} pero tiene menos camareras (${r.waitresses} frente a ${w})`,
      later_in_turn_order: (n, r) => `${n} también suma ${r.total} con las mismas camareras pero va después en el turno`,
      missing_goods: (n, r, w, list) => `${n} no puede servir (necesita ${list} más)`,
      not_connected: (n) => `${n} no tiene camino hasta la casa`,
      no_open_restaurant: (n) => `${n} no tiene restaurante abierto`,
      bankrupt: (n) => `${n} está en quiebra`,
    },
    bankrupt: (n) => `${n} no puede pagar y quiebra`,
    waitress_tips: (n, a) => `Las camareras de ${n} ganan $${a}`,
    cfo_bonus: (n, a) => `El financiero de ${n} añade un 50%: $${a}`,
    bank_broken: (k) => (k === 1 ? "¡El banco quiebra por primera vez!" : "El banco quiebra otra vez: la partida acaba tras la cena"),
    reserves_revealed: (list, added, slots) => `Cartas de reserva (${list}): $${added} al banco; el director tendrá ${slots} huecos desde la próxima ronda`,
    milestone: (n, m) => `${n} logra el hito «${m}»`,
    free_cards: (n, count, card) => `${n} recibe gratis ${count} × ${card}`,
    fire_chosen: (n, card) => `Despedirás: ${card}`,
    firing_submitted: (n) => `${n} ha decidido a quién despedir`,
    fired: (n, card, forced, camp) => `${n} despide: ${card}${camp ? ` de la campaña #${camp} (sigue en marcha)` : ""}${forced ? " (obligado)" : ""}`,
    salaries_paid: (n, a) => `${n} paga $${a} de sueldos`,
    campaign_ran: (num, good, list) => (list ? `La campaña #${num} (${good}) crea demanda: ${list}` : `La campaña #${num} (${good}) no llega a ninguna casa con sitio`),
    campaign_ended: (num, n) => `Se acaba la campaña #${num} de ${n}`,
    discarded: (n, count, good) => `${n} tira ${count} ${good}`,
    restaurant_opened: (n) => `Abre el nuevo restaurante de ${n}`,
    left_game: (n) => `${n} queda fuera de la partida`,
    game_over: (list) => `Fin de la partida. Dinero: ${list}`,
  },
};

// ---------- small helpers ----------

// Per game area (uiState): the half-made choice (selected squares, card, good…), the folds, and the last drawn view/ctx.

function tx(ctx) {
  return TEXT[lang(ctx)];
}
function cardName(ctx, id) {
  const c = CARDS[id];
  return c ? c[lang(ctx) === "es" ? 1 : 0] : String(id).replace(/_/g, " ");
}
function goodName(ctx, good, count = 1) {
  const t = tx(ctx);
  return (count === 1 ? t.goods : t.goodsPl)[good] || good;
}
function milestoneName(ctx, id) {
  return (tx(ctx).milestones[id] || [id])[0];
}
function key(cell) {
  return `${cell[0]},${cell[1]}`;
}
function sameCell(a, b) {
  return a && b && a[0] === b[0] && a[1] === b[1];
}
function colourOf(view, seat) {
  const i = view.players.indexOf(seat);
  return SEAT_COLOURS[(i < 0 ? 0 : i) % SEAT_COLOURS.length];
}
function isManager(id) {
  return (CARDS[id] || [])[3] > 0;
}
function slotsOf(id) {
  return (CARDS[id] || [])[3] || 0;
}
function send(ctx, action, container) {
  if (container) {
    // A sent action ends the half-made choice; the zoom and the open supply stay as they were.
    const mem = uiState(container);
    if (mem.ui) mem.ui = { zoom: mem.ui.zoom, openSupply: mem.ui.openSupply };
  }
  const result = ctx.send(action);
  if (result && typeof result.catch === "function") result.catch(() => {});
}
// A clickable non-button element: a button for assistive technology, reachable with Tab, pressed with Enter or
// Space; `label` names it where its text alone does not (a lone number, a letter, an empty square).
// A click here must not also reach the square or panel it sits on.
function clickable(onclick, label) {
  return asButton(onclick && ((e) => { e.stopPropagation(); onclick(); }), label);
}
// A piece named in words, a button when it has a handler (../lib/dom.js piece(), with this file's clickable).
function piece(onclick, label) {
  return onclick ? clickable(onclick, label) : named(label);
}
function countList(items) {
  const out = {};
  for (const x of items) out[x] = (out[x] || 0) + 1;
  return out;
}
function goodsList(ctx, goods) {
  return Object.entries(countList(goods)).map(([g, n]) => `${n} ${goodName(ctx, g, n)}`).join(" + ");
}

function unitPrice(view, seat) {
  const p = view.p[seat];
  let price = 10;
  for (const c of p.work || []) {
    if (c === "pricing_manager") price -= 1;
    else if (c === "discount_manager") price -= 3;
    else if (c === "luxuries_manager") price += 10;
  }
  if (p.milestones && "first_to_lower_prices" in p.milestones) price -= 1;
  return price;
}

// The company structure (§2.4) of a set of cards: managers take CEO slots, the others fill manager slots first.
function pyramid(cards, ceoSlots) {
  const managers = cards.filter(isManager);
  const others = cards.filter((c) => !isManager(c));
  const columns = [];
  let rest = [...others];
  for (const m of managers) {
    const under = rest.slice(0, slotsOf(m));
    rest = rest.slice(under.length);
    columns.push({ card: m, under, free: slotsOf(m) - under.length });
  }
  const freeCeo = ceoSlots - managers.length;
  for (let i = 0; i < freeCeo; i++) columns.push({ card: rest.length ? rest.shift() : null, under: [], free: 0 });
  const feasible = managers.length <= ceoSlots && rest.length === 0;
  const open = feasible ? columns.reduce((s, c) => s + c.free + (c.card ? 0 : 1), 0) : 0;
  return { columns: columns.slice(0, Math.max(ceoSlots, managers.length)), overflow: rest, feasible, open };
}

// ---------- pieces ----------

function token(ctx, good, opts = {}) {
  // Named in words ("3 burgers"), not by its code ("Bu3"); one that something around it names already is hidden.
  const name = opts.title || (typeof opts.count === "number" ? `${opts.count} ${goodName(ctx, good, opts.count)}` : goodName(ctx, good));
  return h("span", {
    class: ["fcm-good", `g-${good}`, opts.legal && "legal", opts.selected && "fcm-selected", opts.class],
    title: opts.title || goodName(ctx, good),
    ...(opts.hidden ? { "aria-hidden": "true" } : opts.onclick ? clickable(opts.onclick, name) : named(name)),
  },
  // The project's picture of the good (frontend/lib/icons.js); the map's tiny tokens keep the short mark, which fits.
  (opts.class === "tiny" ? null : iconFor("good", good, "fcm-good-icon")) || GOOD_MARK[good] || "?",
  opts.count !== undefined ? h("sub", null, String(opts.count)) : null);
}

// Each employee's career track (the `group` of the game's employees.json), for its icon: the card kinds, but with
// recruiting and training told apart.
const TRACK = { ceo: "ceo", mgmt: "management", mkt: "marketing", food: "kitchen", drink: "buyer", serve: "service",
  price: "pricing", build: "development", cfo: "finance" };
const TRAINERS = new Set(["trainer", "coach", "guru"]);
function trackOf(id, kind) {
  if (kind === "hr") return TRAINERS.has(id) ? "training" : "recruiting";
  return TRACK[kind] || null;
}

function employee(ctx, id, opts = {}) {
  const t = tx(ctx);
  const c = CARDS[id] || [id, id, "other", 0, false, false];
  const bits = [];
  const said = [cardName(ctx, id)];
  if (c[3]) { bits.push(`▢${c[3]}`); said.push(t.meta.slots(c[3])); }
  if (c[4]) { bits.push("$5"); said.push(t.meta.salary); }
  if (c[5] && id !== "ceo") { bits.push("1x"); said.push(t.meta.unique); }
  if (opts.badge !== undefined && opts.badge !== null) said.push(opts.badgeName || String(opts.badge));
  if (opts.captionName || opts.caption) said.push(opts.captionName || opts.caption);
  // The card in words ("Burger Cook, salary $5"), not its codes; one with choices on it is a group named so.
  const name = said.join(", ");
  return h("div", {
    class: ["fcm-card", `k-${c[2]}`, opts.small && "sm", opts.legal && "legal", opts.selected && "fcm-selected",
      opts.marked && "fcm-marked", opts.dim && "fcm-dim", opts.class],
    title: opts.title || cardName(ctx, id),
    dataset: { card: id },
    ...(opts.extra ? { role: "group", "aria-label": name } : piece(opts.onclick, name)),
    "aria-pressed": opts.onclick && opts.selected ? "true" : null,
  },
  // Plain words: the name breaks only between them, and the card grows to its longest word (the stylesheet).
  h("span", { class: "fcm-card-name" }, iconFor("employee", trackOf(id, c[2]), "fcm-card-icon"), cardName(ctx, id)),
  bits.length ? h("span", { class: "fcm-card-meta" }, bits.join(" ")) : null,
  opts.badge !== undefined && opts.badge !== null ? h("span", { class: "fcm-badge" }, String(opts.badge)) : null,
  opts.caption ? h("span", { class: "fcm-card-caption" }, opts.caption) : null,
  opts.extra || null);
}

function slotBox(ctx) {
  return h("div", { class: "fcm-slot", ...named(tx(ctx).emptySlot) });
}

function pyramidView(ctx, view, cards, opts = {}) {
  const t = tx(ctx);
  const pyr = pyramid(cards, view.ceo_slots);
  const cardEl = (id) => (opts.cardEl ? opts.cardEl(id) : employee(ctx, id, { small: opts.small }));
  return h("div", { class: ["fcm-pyramid", opts.small && "sm", !pyr.feasible && "fcm-over"] },
    h("div", { class: "fcm-ceo-row" }, employee(ctx, "ceo", { small: opts.small, caption: t.slots(view.ceo_slots) })),
    h("div", { class: "fcm-pyr-cols" }, pyr.columns.map((col) => h("div", { class: "fcm-pyr-col" },
      col.card ? cardEl(col.card) : slotBox(ctx),
      col.card && isManager(col.card) ? h("div", { class: "fcm-pyr-under" },
        col.under.map((c) => cardEl(c)), Array.from({ length: col.free }, () => slotBox(ctx))) : null))),
    pyr.overflow.length ? h("div", { class: "fcm-overflow" },
      h("span", { class: "fcm-warn" }, t.overCommitted), pyr.overflow.map((c) => cardEl(c))) : null);
}

function cardRow(ctx, cards, makeOpts) {
  return h("div", { class: "fcm-row" }, cards.map((id, i) => employee(ctx, id, makeOpts ? makeOpts(id, i) : {})));
}

// ---------- the city map ----------

function chainEntrances(view, r) {
  const p = view.p[r.owner];
  if (r.open && p && p.r && p.r.drive_in && !r.dead) {
    const rows = r.cells.map((c) => c[0]);
    const cols = r.cells.map((c) => c[1]);
    const r0 = Math.min(...rows);
    const c0 = Math.min(...cols);
    return [[r0, c0], [r0, c0 + 1], [r0 + 1, c0], [r0 + 1, c0 + 1]];
  }
  return [r.entrance];
}

function box(cells) {
  const rows = cells.map((c) => c[0]);
  const cols = cells.map((c) => c[1]);
  const r0 = Math.min(...rows);
  const c0 = Math.min(...cols);
  return { r0, c0, h: Math.max(...rows) - r0 + 1, w: Math.max(...cols) - c0 + 1 };
}

function area(b, extra = {}) {
  // +2: grid line 1 is the margin row/column used by airplanes.
  return css({ gridRow: `${b.r0 + 2} / span ${b.h}`, gridColumn: `${b.c0 + 2} / span ${b.w}`, ...extra });
}

// Inline style text from an object; custom properties (--seat, --cell) cannot be set through el.style[key].
function css(obj) {
  return Object.entries(obj).map(([k, v]) => `${k.startsWith("--") ? k : k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}: ${v}`).join("; ");
}

// Houses a campaign on these squares would reach (§4.4), to preview a placement before it is pinned down.
function reachOf(view, type, cells) {
  const grid = view.map.grid;
  const houseSquares = (hs) => (hs.garden ? [...hs.cells, ...hs.garden] : hs.cells);
  const near = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;
  let hit;
  if (type === "billboard") {
    hit = (hs) => houseSquares(hs).some((q) => cells.some((c) => near(c, q)));
  } else if (type === "mailbox") {
    // The block: non-road squares joined orthogonally, bounded by roads, bridges and the board edge.
    const seen = new Set(cells.map(key));
    const todo = [...cells];
    while (todo.length) {
      const [r, c] = todo.pop();
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const n = [r + dr, c + dc];
        const ch = (grid[n[0]] || "")[n[1]];
        if (ch === undefined || ch === "#" || ch === "X" || seen.has(key(n))) continue;
        seen.add(key(n));
        todo.push(n);
      }
    }
    hit = (hs) => houseSquares(hs).some((q) => seen.has(key(q)));
  } else if (type === "radio") {
    const [tr, tc] = [Math.floor(cells[0][0] / 5), Math.floor(cells[0][1] / 5)];
    hit = (hs) => houseSquares(hs).some((q) => Math.abs(Math.floor(q[0] / 5) - tr) <= 1 && Math.abs(Math.floor(q[1] / 5) - tc) <= 1);
  } else {
    return [];
  }
  return view.houses.filter(hit).map((hs) => hs.number);
}

// Work out what clicking on the map can do now: {cells: Map key->handler, houses, restaurants, margins, ghost}.
function mapTargets(view, ctx, container, ui) {
  const t = tx(ctx);
  const acts = ctx.actions || [];
  const out = { cells: new Map(), houses: new Map(), restaurants: new Map(), margins: new Map(), ghost: [],
    selected: new Set(), reach: new Map(), help: null, extra: null };
  const go = (a) => () => send(ctx, a, container);
  const rerender = () => redraw(container);

  for (const a of matching(acts, { type: "restaurant_at" })) out.cells.set(key(a.cell), go(a));
  const entrances = matching(acts, { type: "restaurant_entrance" });
  if (entrances.length && view.pending && view.pending.cell) {
    const [r, c] = view.pending.cell;
    out.ghost = [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]];
    for (const a of entrances) out.cells.set(key(a.entrance), go(a));
  }
  for (const a of matching(acts, { type: "house_at" })) out.cells.set(key(a.cells[0]), go(a));
  const gardens = matching(acts, { type: "garden_at" });
  if (gardens.length) {
    if (view.pending && view.pending.cells) out.ghost = view.pending.cells;
    for (const a of gardens) for (const cell of a.garden) out.cells.set(key(cell), go(a));
  }
  for (const a of matching(acts, { type: "garden" })) out.houses.set(a.house, go(a));
  for (const a of matching(acts, { type: "move_restaurant" })) out.restaurants.set(a.restaurant, go(a));

  // Campaign footprints: click squares until only one legal footprint contains them all.
  const spots = acts.filter((a) => a.type === "campaign_at" && a.cells);
  if (spots.length) {
    const picked = ui.cells || [];
    const fits = spots.filter((a) => picked.every((p) => a.cells.some((c) => sameCell(c, p))));
    for (const p of picked) out.selected.add(key(p));
    for (const a of fits) {
      for (const cell of a.cells) {
        if (out.selected.has(key(cell))) continue;
        out.cells.set(key(cell), () => {
          const next = [...picked, cell];
          const left = spots.filter((s) => next.every((p) => s.cells.some((c) => sameCell(c, p))));
          const exact = left.find((s) => s.cells.length === next.length);
          if (left.length === 1 || exact) send(ctx, exact || left[0], container);
          else { ui.cells = next; rerender(); }
        });
      }
    }
    if (picked.length) {
      out.extra = h("button", { type: "button", class: "fcm-btn secondary", onclick: () => { ui.cells = []; rerender(); } }, t.cancel);
      // Houses every remaining footprint reaches are sure; those only some reach are possible.
      const type = (CAMPAIGN_TILES[(view.pending || {}).number] || [])[0];
      const reaches = fits.map((a) => reachOf(view, type, a.cells));
      for (const n of new Set(reaches.flat())) out.reach.set(n, reaches.every((r) => r.includes(n)) ? "sure" : "maybe");
      out.help = t.reachHelp;
    }
  }
  const chosen = view.pending && view.pending.kind === "campaign" && view.pending.spot;
  if (chosen && chosen.cells && !spots.length) {
    out.ghost = chosen.cells;
    const type = (CAMPAIGN_TILES[view.pending.number] || [])[0];
    for (const n of reachOf(view, type, chosen.cells)) out.reach.set(n, "sure");
  }
  const planes = acts.filter((a) => a.type === "campaign_at" && a.edge);
  for (const a of planes) {
    const width = (view.pending && CAMPAIGN_TILES[view.pending.number] || [])[1] || 1;
    out.margins.set(`${a.edge}${a.offset + Math.floor(width / 2)}`, { act: go(a), from: a.offset, width });
  }

  // Buyer routes: pick sources; a listed set that equals the selection can be collected.
  const buys = acts.filter((a) => a.type === "buy" && a.sources);
  if (buys.length) {
    const cardsWithRoutes = [...new Set(buys.map((a) => a.card))];
    const buyer = ui.buyer && cardsWithRoutes.includes(ui.buyer) ? ui.buyer
      : cardsWithRoutes.length === 1 ? cardsWithRoutes[0] : null;
    if (buyer) {
      const mine = buys.filter((a) => a.card === buyer);
      const picked = ui.sources || [];
      for (const p of picked) out.selected.add(key(p));
      const fits = mine.filter((a) => picked.every((p) => a.sources.some((s) => sameCell(s, p))));
      for (const a of fits) {
        for (const s of a.sources) {
          if (out.selected.has(key(s))) continue;
          out.cells.set(key(s), () => { ui.sources = [...picked, s]; rerender(); });
        }
      }
      for (const p of picked) {
        out.cells.set(key(p), () => { ui.sources = picked.filter((x) => !sameCell(x, p)); rerender(); });
      }
      const exact = picked.length ? fits.find((a) => a.sources.length === picked.length) : null;
      out.help = t.routeHelp;
      out.extra = h("div", { class: "fcm-routes" },
        exact ? h("button", { type: "button", class: "fcm-btn legal", onclick: go(exact) },
          `${t.collect}: ${drinksOf(view, ctx, exact.sources)}`) : null,
        h("span", { class: "fcm-muted" }, `${t.routes}:`),
        maximal(mine).map((a) => h("button", { type: "button", class: "fcm-btn small legal", onclick: go(a),
          title: a.sources.map((s) => `(${s[0]},${s[1]})`).join(" ") }, drinksOf(view, ctx, a.sources))));
    }
  }
  return out;
}

function maximal(actions) {
  return actions.filter((a) => !actions.some((b) => b !== a && b.sources.length > a.sources.length
    && a.sources.every((s) => b.sources.some((x) => sameCell(x, s)))));
}

function drinksOf(view, ctx, sources) {
  const types = sources.map((s) => DRINK_CHARS[view.map.grid[s[0]][s[1]]] || "beer");
  return types.map((g) => goodName(ctx, g)).join(" + ");
}

// What is on each square, in words, for the map's square names: "r,c" -> [phrases].
function squareWords(view, ctx, targets) {
  const t = tx(ctx);
  const words = new Map();
  const add = (cell, text) => {
    const k = key(cell);
    if (!words.has(k)) words.set(k, []);
    words.get(k).push(text);
  };
  for (const house of view.houses) {
    const demand = (view.demand || {})[String(house.number)] || [];
    const reach = targets.reach.get(house.number);
    const about = [t.house(house.number), house.garden ? t.garden : null, demand.length ? t.wants(goodsList(ctx, demand)) : null,
      reach ? t.reached[reach] : null].filter(Boolean).join(", ");
    for (const cell of house.cells) add(cell, about);
    for (const cell of house.garden || []) add(cell, t.gardenOf(house.number));
  }
  for (const r of view.restaurants) {
    const doors = chainEntrances(view, r).map(key);
    const about = `${t.restaurant(nameOf(ctx, r.owner))}${r.open ? "" : ` (${t.comingSoon})`}`;
    for (const cell of r.cells) add(cell, doors.includes(key(cell)) ? `${about}, ${t.entrance}` : about);
  }
  for (const camp of view.campaigns) {
    if (!camp.cells) continue;
    const about = t.campaignOn(t.campaignTypes[camp.type], camp.number, goodName(ctx, camp.good),
      camp.eternal ? t.eternal : t.left(camp.tokens), nameOf(ctx, camp.owner));
    for (const cell of camp.cells) add(cell, about);
  }
  return words;
}

// The map is one tab stop, a grid of squares (WAI-ARIA grid, roving tabindex): one square is in the Tab order,
// the arrow keys move between squares (Home/End: along the row, Ctrl+Home/End: the corners, Page Up/Down: five
// rows, one city tile), Enter or Space does what a click on the square does. Each square's name says what is
// on it and whether it can be chosen now. The airplane spots beside the board are squares of the margin rows
// and columns.
function mapKeys(e, mem) {
  const cell = e.target.closest("[role=gridcell]");
  const grid = e.currentTarget;
  if (!cell || !grid.contains(cell)) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    e.stopPropagation();
    if (cell.dataset.act) cell.click();
    return;
  }
  const all = [...grid.querySelectorAll("[role=gridcell]")];
  const at = new Map(all.map((el) => [el.dataset.cell, el]));
  const pos = (el) => el.dataset.cell.split(",").map(Number);
  const [r, c] = pos(cell);
  const rows = all.map((el) => pos(el)[0]);
  const cols = all.map((el) => pos(el)[1]);
  const [r0, r1, c0, c1] = [Math.min(...rows), Math.max(...rows), Math.min(...cols), Math.max(...cols)];
  // The next square that way (the margin rows hold only a few), or none at the edge.
  const toward = (dr, dc, from = [r, c]) => {
    for (let [i, j] = [from[0] + dr, from[1] + dc]; i >= r0 && i <= r1 && j >= c0 && j <= c1; i += dr, j += dc) {
      if (at.has(`${i},${j}`)) return at.get(`${i},${j}`);
    }
    return null;
  };
  const row = all.filter((el) => pos(el)[0] === r);
  let next;
  if (e.key === "ArrowUp") next = toward(-1, 0);
  else if (e.key === "ArrowDown") next = toward(1, 0);
  else if (e.key === "ArrowLeft") next = toward(0, -1);
  else if (e.key === "ArrowRight") next = toward(0, 1);
  else if (e.key === "Home") next = e.ctrlKey ? all[0] : row[0];
  else if (e.key === "End") next = e.ctrlKey ? all[all.length - 1] : row[row.length - 1];
  else if (e.key === "PageUp" || e.key === "PageDown") {
    const squares = all.filter((el) => el.classList.contains("fcm-sq")).map(pos);
    const [last, lastCol] = [Math.max(...squares.map((p) => p[0])), Math.max(...squares.map((p) => p[1]))];
    const to = Math.max(0, Math.min(last, r + (e.key === "PageUp" ? -5 : 5)));
    next = at.get(`${to},${c}`) || at.get(`${to},${Math.max(0, Math.min(lastCol, c))}`) || null;
  }
  else return;
  e.preventDefault();
  e.stopPropagation(); // the replay's own arrow keys step through the moves
  if (next && next !== cell) {
    rove(grid, next, mem);
    next.focus();
  }
}

// Make `cell` the map's one tab stop (and remember it across redraws).
function rove(grid, cell, mem) {
  for (const el of grid.querySelectorAll("[role=gridcell][tabindex='0']")) if (el !== cell) el.setAttribute("tabindex", "-1");
  cell.setAttribute("tabindex", "0");
  mem.cursor = cell.dataset.cell;
}

function cityMap(view, ctx, container, ui) {
  const t = tx(ctx);
  const m = view.map;
  const rows = m.grid.length;
  const cols = m.grid[0].length;
  const targets = mapTargets(view, ctx, container, ui);
  const ghost = new Set(targets.ghost.map(key));
  const zoom = ui.zoom || 1;
  const mem = uiState(container);
  // A square is the width of the game area shared by the map's columns (container query units), but never less than
  // --fcm-min-cell (28 px to read a house's number and demand; 40 px, a finger, while a touch screen picks a square:
  // the stylesheet sets it) nor more than 40 px, times the zoom. On a phone the map is then wider than the screen and
  // scrolls inside its frame. "Whole map" instead fits it to the width, however small its squares get (as before).
  const fit = `((100cqw - 4px) / ${cols + 2})`;
  const cell = zoom === "fit" ? `clamp(12px, ${fit}, 40px)`
    : `calc(clamp(var(--fcm-min-cell), ${fit}, max(40px, var(--fcm-min-cell))) * ${zoom})`;
  const words = squareWords(view, ctx, targets);
  // A square may act for the house or restaurant on it (a garden, a move): the keyboard reaches those through it.
  const pieceActs = new Map();
  for (const house of view.houses) {
    const act = targets.houses.get(house.number);
    if (act) for (const c of house.cells) pieceActs.set(key(c), act);
  }
  for (const r of view.restaurants) {
    const act = targets.restaurants.get(r.id);
    if (act) for (const c of r.cells) pieceActs.set(key(c), act);
  }

  // Squares of the margin: airplane spots to choose and airplanes flying there, at row -1 / rows or column -1 / cols.
  const edgeAt = (edge, i) => ({ N: [-1, i], S: [rows, i], W: [i, -1], E: [i, cols] })[edge];
  const margin = new Map(); // "r,c" -> {spot, edge, i} | {plane}
  for (const [k, spot] of targets.margins) {
    const edge = k[0];
    const i = Number(k.slice(1));
    margin.set(key(edgeAt(edge, i)), { spot, edge, i });
  }
  for (const camp of view.campaigns) {
    if (!camp.edge) continue;
    for (let i = camp.offset; i < camp.offset + (camp.covers || 1); i++) {
      const k = key(edgeAt(camp.edge, i));
      if (!margin.has(k)) margin.set(k, { plane: camp, edge: camp.edge, i });
    }
  }

  // The square in the Tab order: the last one the keyboard was on in this decision, else the first one that can be
  // chosen now, else the top-left corner (render() forgets the last one when a new decision opens).
  const exists = (k) => {
    if (!k) return false;
    const [r, c] = k.split(",").map(Number);
    return (r >= 0 && r < rows && c >= 0 && c < cols) || margin.has(k);
  };
  const firstLegal = [...targets.cells.keys(), ...pieceActs.keys()].sort((a, b) => {
    const [ra, ca] = a.split(",").map(Number);
    const [rb, cb] = b.split(",").map(Number);
    return ra - rb || ca - cb;
  })[0] || [...margin.entries()].filter(([, v]) => v.spot).map(([k]) => k)[0];
  const cursor = exists(mem.cursor) ? mem.cursor : firstLegal || "0,0";
  mem.cursor = cursor;

  const gridCell = (k, props, label, act, ...children) => {
    const onclick = act ? (e) => { e.stopPropagation(); act(); } : null;
    return h("div", {
      ...props, role: "gridcell", tabindex: k === cursor ? "0" : "-1", "aria-label": `${label}${act ? ` — ${t.canChoose}` : ""}`,
      "aria-selected": targets.selected.has(k) ? "true" : null,
      dataset: { ...(props.dataset || {}), cell: k, focusId: `fcm-map:${k}`, ...(act ? { act: "1" } : {}) },
      onclick,
    }, ...children);
  };

  const gridRows = [];
  const marginCell = (k) => {
    const at = margin.get(k);
    if (!at) return null;
    const [r, c] = k.split(",").map(Number);
    const style = css({ gridRow: String(r + 2), gridColumn: String(c + 2) });
    const where = t.beside(t.edges[at.edge], at.i);
    if (at.spot) {
      const { spot } = at;
      return gridCell(k, { class: "fcm-margin legal", style, dataset: { edge: at.edge, offset: String(spot.from) },
        title: `${spot.from}–${spot.from + spot.width - 1}` },
      t.airSpot(t.edges[at.edge], spot.from + 1, spot.from + spot.width), spot.act, "✈");
    }
    const camp = at.plane;
    return gridCell(k, { class: "fcm-mcell", style }, `${where}: ${t.campaignOn(t.campaignTypes.airplane, camp.number,
      goodName(ctx, camp.good), camp.eternal ? t.eternal : t.left(camp.tokens), nameOf(ctx, camp.owner))}`, null);
  };
  const marginRow = (r) => {
    const cells = [];
    for (let c = 0; c < cols; c++) cells.push(marginCell(key([r, c])));
    return cells.some(Boolean) ? h("div", { role: "row", class: "fcm-gridrow" }, cells) : null;
  };
  gridRows.push(marginRow(-1));
  for (let r = 0; r < rows; r++) {
    const squares = [marginCell(key([r, -1]))];
    for (let c = 0; c < cols; c++) {
      const ch = m.grid[r][c];
      const k = `${r},${c}`;
      const act = targets.cells.get(k) || pieceActs.get(k);
      const kind = ch === "#" ? "road" : ch === "X" ? "bridge" : ch === "H" ? "hsq" : DRINK_CHARS[ch] ? "drink" : "lot";
      const here = words.get(k) || [];
      const said = [
        ...(kind === "drink" ? [t.source(goodName(ctx, DRINK_CHARS[ch]))] : here.length ? [] : [t.ground[kind]]),
        ...here,
        ghost.has(k) ? t.planned : null,
        targets.selected.has(k) ? t.chosen : null,
      ].filter(Boolean);
      const cls = ["fcm-sq", kind, r % 5 === 0 && "tb-n", c % 5 === 0 && "tb-w", r === rows - 1 && "tb-s", c === cols - 1 && "tb-e",
        targets.cells.has(k) && "legal", targets.selected.has(k) && "fcm-selected", ghost.has(k) && "fcm-ghost"];
      squares.push(gridCell(k, {
        class: cls, style: css({ gridRow: String(r + 2), gridColumn: String(c + 2) }),
        title: DRINK_CHARS[ch] ? goodName(ctx, DRINK_CHARS[ch]) : null,
      }, `${t.square(r, c)}: ${said.join("; ")}`, act,
      DRINK_CHARS[ch] ? token(ctx, DRINK_CHARS[ch], { class: "fcm-source", hidden: true }) : null));
    }
    squares.push(marginCell(key([r, cols])));
    gridRows.push(h("div", { role: "row", class: "fcm-gridrow" }, squares));
  }
  gridRows.push(marginRow(rows));

  // The pieces on the map are drawn over the squares; the squares' names say what they are, so assistive
  // technology skips them, and the keyboard reaches what they do through the squares.
  const pieces = [];
  const pieceClick = (act) => (act ? (e) => { e.stopPropagation(); act(); } : null);
  for (const house of view.houses) {
    const b = box(house.cells);
    const act = targets.houses.get(house.number);
    const demand = (view.demand || {})[String(house.number)] || [];
    if (house.garden) {
      pieces.push(h("div", { class: "fcm-garden", style: area(box(house.garden)), title: `${t.house(house.number)}: ${t.garden}`, "aria-hidden": "true" }));
    }
    const houseTitle = `${t.house(house.number)}${house.garden ? ` (${t.garden})` : ""}${demand.length ? `: ${goodsList(ctx, demand)}` : ""}`;
    pieces.push(h("div", {
      class: ["fcm-house", house.placed && "placed", act && "legal", targets.reach.has(house.number) && `fcm-reach-${targets.reach.get(house.number)}`],
      style: area(b), dataset: { house: String(house.number) },
      title: houseTitle, "aria-hidden": "true", onclick: pieceClick(act),
    },
    h("span", { class: "fcm-house-no" }, String(house.number)),
    // Demand grouped by good ("Bu3"), so a house two squares wide on a phone still shows all of it.
    demand.length ? h("span", { class: "fcm-demand" }, Object.entries(countList(demand)).map(([g, n]) =>
      token(ctx, g, { class: "tiny", count: n > 1 ? n : undefined }))) : null));
  }
  for (const r of view.restaurants) {
    const b = box(r.cells);
    const act = targets.restaurants.get(r.id);
    const doors = chainEntrances(view, r);
    pieces.push(h("div", {
      class: ["fcm-rest", !r.open && "soon", r.dead && "dead", act && "legal"],
      style: area(b, { "--seat": colourOf(view, r.owner) }), dataset: { restaurant: String(r.id), owner: r.owner },
      title: `${nameOf(ctx, r.owner)}${r.open ? "" : ` (${t.comingSoon})`}`, "aria-hidden": "true", onclick: pieceClick(act),
    },
    doors.map((d) => h("span", { class: "fcm-door", style: css({ gridRow: String(d[0] - b.r0 + 1), gridColumn: String(d[1] - b.c0 + 1) }) })),
    h("span", { class: "fcm-rest-label" }, r.open ? "R" : "…")));
  }
  for (const camp of view.campaigns) {
    if (!camp.cells) continue;
    pieces.push(h("div", {
      class: ["fcm-camp", `c-${camp.type}`], style: area(box(camp.cells), { "--seat": colourOf(view, camp.owner) }),
      dataset: { campaign: String(camp.number) }, "aria-hidden": "true",
      title: `${tx(ctx).campaignTypes[camp.type]} #${camp.number}: ${goodName(ctx, camp.good)} — ${camp.eternal ? t.eternal : t.left(camp.tokens)} (${nameOf(ctx, camp.owner)})`,
    },
    h("span", { class: "fcm-camp-no" }, `#${camp.number}`),
    token(ctx, camp.good, { class: "tiny", count: camp.eternal ? "∞" : camp.tokens })));
  }
  for (const camp of view.campaigns) {
    if (!camp.edge) continue;
    const span = camp.covers || 1;
    const vertical = camp.edge === "W" || camp.edge === "E";
    const style = vertical
      ? { gridRow: `${camp.offset + 2} / span ${span}`, gridColumn: camp.edge === "W" ? "1" : String(cols + 2) }
      : { gridColumn: `${camp.offset + 2} / span ${span}`, gridRow: camp.edge === "N" ? "1" : String(rows + 2) };
    pieces.push(h("div", { class: ["fcm-plane", vertical && "v"], style: css({ ...style, "--seat": colourOf(view, camp.owner) }),
      dataset: { campaign: String(camp.number) }, "aria-hidden": "true",
      title: `${t.campaignTypes.airplane} #${camp.number}: ${goodName(ctx, camp.good)} — ${camp.eternal ? t.eternal : t.left(camp.tokens)}` },
    `✈#${camp.number}`, token(ctx, camp.good, { class: "tiny", count: camp.eternal ? "∞" : camp.tokens })));
  }

  // From the whole map, "+" goes back to readable squares (zoom 1) and "−" has nothing smaller to show.
  const fitted = zoom === "fit";
  const zoomBy = (f) => () => {
    mem.ui.zoom = fitted ? 1 : Math.max(0.6, Math.min(2.5, zoom * f));
    redraw(container);
  };
  const wholeMap = () => {
    mem.ui.zoom = fitted ? mem.zoomBeforeFit || 1 : "fit";
    if (!fitted) mem.zoomBeforeFit = zoom;
    redraw(container);
  };
  return h("section", { class: "fcm-mapwrap" },
    h("div", { class: "fcm-map-tools" },
      h("button", { type: "button", class: "fcm-btn small secondary fcm-zoomstep", "aria-label": t.zoomOut, title: t.zoomOut,
        disabled: fitted, onclick: zoomBy(1 / 1.25) }, "−"),
      h("button", { type: "button", class: "fcm-btn small secondary fcm-zoomstep", "aria-label": t.zoomIn, title: t.zoomIn, onclick: zoomBy(1.25) }, "+"),
      h("button", { type: "button", class: "fcm-btn small secondary", "aria-pressed": fitted ? "true" : "false",
        dataset: { testid: "fcm-whole-map" }, onclick: wholeMap }, t.wholeMap),
      targets.help ? h("span", { class: "fcm-muted" }, targets.help) : null),
    targets.extra,
    h("div", { class: "fcm-mapscroll" },
      h("div", {
        class: ["fcm-map", targets.cells.size && "fcm-passive", (targets.cells.size || targets.margins.size) && "fcm-picking"],
        dataset: { testid: "fcm-map" },
        role: "grid", "aria-label": t.map,
        onkeydown: (e) => mapKeys(e, mem),
        onfocusin: (e) => { const sq = e.target.closest("[role=gridcell]"); if (sq) rove(e.currentTarget, sq, mem); },
        style: css({ "--cell": cell, gridTemplateColumns: `repeat(${cols + 2}, var(--cell))`, gridTemplateRows: `repeat(${rows + 2}, var(--cell))` }),
      }, gridRows, pieces)),
    h("div", { class: "fcm-legend", "aria-hidden": "true" }, GOODS.map((g) => h("span", null, token(ctx, g), goodName(ctx, g))),
      h("span", null, h("span", { class: "fcm-legend-door" }), t.entrance)));
}

// A folded panel that stays as the person left it: every update redraws the whole area.
function foldable(container, key, byDefault, props, ...children) {
  const open = uiState(container).open;
  return h("details", { ...props, open: (key in open ? open[key] : byDefault) ? true : null,
    ontoggle: (e) => { open[key] = e.target.open; } }, ...children);
}

function redraw(container) {
  const mem = uiState(container);
  if (mem.view) render(container, mem.view, mem.ctx);
}

// ---------- shared areas ----------

function bankPanel(view, ctx) {
  const t = tx(ctx);
  const reserves = view.players.map((s) => {
    const r = view.p[s].reserve;
    if (!r) return null;
    const known = r !== "hidden" && RESERVE[r];
    return h("span", { class: ["fcm-reserve", !known && "back"], style: css({ "--seat": colourOf(view, s) }),
      title: `${nameOf(ctx, s)}: ${known ? `+$${known[0]}` : t.hiddenCard}`,
      ...named(t.reserveOf(nameOf(ctx, s), known ? `+$${known[0]}, ${t.ceoSlots(known[1])}` : t.hiddenCard)) },
    known ? `+$${known[0]} ▢${known[1]}` : "?");
  });
  return h("div", { class: "fcm-bank", dataset: { testid: "fcm-bank" } },
    h("b", null, `${t.bank}: ${view.bank < 0 ? "−" : ""}$${Math.abs(view.bank)}`), " ",
    h("span", { class: "fcm-muted" }, t.breaks(view.breaks)), " ",
    h("span", { class: "fcm-muted" }, t.ceoSlots(view.ceo_slots), view.ceo_slots_next ? ` ${t.ceoNext(view.ceo_slots_next)}` : ""),
    view.options && view.options.intro || !reserves.some(Boolean) ? null : h("span", { class: "fcm-reserves" }, `${t.reserves}: `, reserves));
}

function turnTrack(view, ctx, container) {
  const t = tx(ctx);
  const n = view.players.filter((s) => !view.p[s].out).length;
  const choosing = view.phase === "order_of_business";
  const taken = choosing ? view.positions || {} : {};
  const picks = matching(ctx.actions || [], { type: "position" });
  const slots = [];
  for (let k = 1; k <= n; k++) {
    const who = choosing ? Object.keys(taken).find((s) => taken[s] === k) || null : view.turn_order[k - 1];
    const act = picks.find((a) => a.position === k);
    slots.push(h("div", { class: ["fcm-track-pos", act && "legal"], dataset: { position: String(k) },
      ...piece(act ? () => send(ctx, act, container) : null, t.position(k, who ? nameOf(ctx, who) : null)) },
      h("span", { class: "fcm-track-no" }, String(k)),
      who ? h("span", { class: "fcm-marker", style: css({ "--seat": colourOf(view, who) }) }, nameOf(ctx, who)) : null));
  }
  return h("div", { class: "fcm-track" }, h("span", { class: "fcm-muted" }, `${t.turnOrder}:`), slots,
    choosing && view.queue && view.queue.length ? h("span", { class: "fcm-muted" }, `→ ${view.queue.map((s) => nameOf(ctx, s)).join(", ")}`) : null);
}

function supplyPanel(view, ctx, container, ui) {
  const t = tx(ctx);
  const hires = matching(ctx.actions || [], { type: "hire" });
  const hiring = hires.length > 0;
  const rows = SUPPLY_ROWS.map((row) => h("div", { class: "fcm-supply-row" }, row.map((id) => {
    const n = view.supply[id] || 0;
    const plain = hires.find((a) => a.card === id && !a.into);
    const phantoms = hires.filter((a) => a.card === id && a.into);
    let onclick = null;
    if (plain) onclick = () => send(ctx, plain, container);
    else if (phantoms.length) onclick = () => { ui.phantom = ui.phantom === id ? null : id; redraw(container); };
    return employee(ctx, id, { small: true, badge: n, badgeName: t.inSupply(n), legal: !!onclick, dim: n === 0, onclick,
      selected: ui.phantom === id, title: `${cardName(ctx, id)}: ${n}` });
  })));
  let phantomChoice = null;
  if (ui.phantom) {
    const opts = hires.filter((a) => a.card === ui.phantom && a.into);
    const me = view.p[ctx.seat];
    phantomChoice = h("div", { class: "fcm-choice" }, h("span", { class: "fcm-muted" }, t.phantom),
      opts.map((a) => employee(ctx, a.into, { small: true, legal: true,
        caption: t.by(cardName(ctx, ((me.r.trainers || [])[a.train_by] || {}).card || "trainer")),
        onclick: () => send(ctx, a, container) })));
  }
  return h("details", { class: "fcm-supply", open: hiring || ui.openSupply ? true : null,
    ontoggle: (e) => { if (!hiring) ui.openSupply = e.target.open; } },
  h("summary", null, t.supply), rows, phantomChoice);
}

function campaignSupply(view, ctx, container, ui) {
  const t = tx(ctx);
  const acts = matching(ctx.actions || [], { type: "campaign" });
  const marketeers = [...new Set(acts.map((a) => a.marketeer))];
  const chosen = marketeers.length === 1 ? marketeers[0] : ui.marketeer && marketeers.includes(ui.marketeer) ? ui.marketeer : null;
  const tiles = view.campaign_supply.map((num) => {
    const [type, a, b] = CAMPAIGN_TILES[num];
    const act = chosen ? acts.find((x) => x.number === num && x.marketeer === chosen) : null;
    const possible = acts.some((x) => x.number === num);
    return h("div", { class: ["fcm-ctile", `c-${type}`, act && "legal", possible && !act && "fcm-maybe"], dataset: { campaign: String(num) },
      title: `${t.campaignTypes[type]} #${num}`, ...clickable(act ? () => send(ctx, act, container) : null) },
    h("b", null, `#${num}`), h("span", null, t.campaignTypes[type]),
    h("span", { class: "fcm-muted" }, type === "airplane" ? `${a}` : `${a}×${b}`));
  });
  const pick = marketeers.length > 1 ? h("div", { class: "fcm-choice" }, h("span", { class: "fcm-muted" }, t.pickMarketeer),
    marketeers.map((m) => employee(ctx, m, { small: true, legal: true, selected: chosen === m,
      onclick: () => { ui.marketeer = m; redraw(container); } }))) : null;
  const houses = matching(ctx.actions || [], { type: "new_house" });
  return h("div", { class: "fcm-tiles" },
    pick,
    h("div", { class: "fcm-tiles-row" }, h("span", { class: "fcm-muted" }, `${t.campaignSupply}:`), tiles),
    h("div", { class: "fcm-tiles-row" }, h("span", { class: "fcm-muted" }, `${t.houseSupply}:`),
      view.house_supply.map((num) => {
        const act = houses.find((a) => a.number === num);
        return h("div", { class: ["fcm-htile", act && "legal"], dataset: { house: String(num) }, title: t.house(num),
          ...piece(act ? () => send(ctx, act, container) : null, t.house(num)) }, String(num));
      }),
      h("span", { class: "fcm-muted" }, t.gardens(view.garden_supply))));
}

function advertisePanel(view, ctx, container, ui) {
  const t = tx(ctx);
  const acts = matching(ctx.actions || [], { type: "advertise" });
  if (!acts.length) return null;
  const goods = GOODS.filter((g) => acts.some((a) => a.good === g));
  const good = ui.good && goods.includes(ui.good) ? ui.good : null;
  const durations = good ? acts.filter((a) => a.good === good) : [];
  return h("div", { class: "fcm-choice fcm-advertise" },
    h("div", { class: "fcm-row" }, goods.map((g) => {
      const only = acts.filter((a) => a.good === g);
      return h("span", { class: ["fcm-good-pick", "legal", good === g && "fcm-selected"], dataset: { good: g },
        ...clickable(() => {
          if (only.length === 1) send(ctx, only[0], container);
          else { ui.good = g; redraw(container); }
        }) }, token(ctx, g), goodName(ctx, g));
    })),
    durations.length > 1 ? h("div", { class: "fcm-row" }, h("span", { class: "fcm-muted" }, `${t.duration}:`),
      durations.map((a) => h("button", { type: "button", class: "fcm-btn small legal", dataset: { duration: String(a.duration) },
        onclick: () => send(ctx, a, container) }, String(a.duration)))) : null);
}

function milestonesPanel(view, ctx, container) {
  const t = tx(ctx);
  if (view.options && view.options.intro) return null;
  const items = MILESTONES.map((id) => {
    const holders = view.players.filter((s) => view.p[s].milestones && id in view.p[s].milestones);
    const available = view.milestones_available.includes(id);
    const now = (view.milestones_round || []).includes(id);
    const [name, effect] = tx(ctx).milestones[id] || [id, ""];
    return h("li", { class: ["fcm-ms", !available && "gone", now && "now"], title: effect, dataset: { milestone: id } },
      h("span", { class: "fcm-ms-name" }, name),
      h("span", { class: "fcm-ms-who" }, holders.map((s) => h("span", { class: "fcm-dot", style: css({ "--seat": colourOf(view, s) }), title: nameOf(ctx, s),
        ...named(nameOf(ctx, s)) }, nameOf(ctx, s).slice(0, 2)))),
      h("span", { class: "fcm-muted" }, now ? t.claimedNow : available ? t.available : t.retired));
  });
  return foldable(container, "milestones", false, { class: "fcm-milestones" },
    h("summary", null, `${t.milestonesTitle} (${view.milestones_available.length}/18)`),
    h("ul", null, items));
}

// ---------- a chain's area ----------

function chainArea(view, ctx, container, seat, ui, mine) {
  const t = tx(ctx);
  const p = view.p[seat];
  const acts = mine ? ctx.actions || [] : [];
  const small = !mine;
  const go = (a) => () => send(ctx, a, container);
  const step = view.work && view.work.step;

  const head = h("div", { class: "fcm-chain-head" },
    h("span", { class: "fcm-swatch", style: css({ "--seat": colourOf(view, seat) }) }),
    // The player's name heads their chain's section (its h4s, Hand, Beach…, come under it).
    h("h3", { class: "fcm-chain-name" }, nameOf(ctx, seat)), mine ? h("span", { class: "fcm-tag" }, t.you) : null,
    h("span", { class: "fcm-cash", dataset: { testid: `fcm-cash-${seat}` } }, `$${p.cash}`),
    h("span", { class: "fcm-muted" }, t.price(unitPrice(view, seat))),
    p.r && p.r.drive_in ? h("span", { class: "fcm-tag" }, t.driveIn) : null,
    p.bankrupt ? h("span", { class: "fcm-tag fcm-warn" }, t.bankrupt) : null,
    p.out ? h("span", { class: "fcm-tag fcm-warn" }, t.out) : null,
    view.secret && view.secret[seat] && !ctx.over ? h("span", { class: "fcm-tag" }, view.secret[seat].done ? `✓ ${t.structureChosen}` : t.choosingSecret) : null);

  // Stock: goods tokens; clickable when throwing away in Clean up.
  const discards = matching(acts, { type: "discard" });
  const stock = h("div", { class: "fcm-stock" }, h("span", { class: "fcm-muted" }, `${t.stock}:`),
    GOODS.some((g) => p.stock[g]) ? GOODS.filter((g) => p.stock[g]).map((g) => {
      const one = discards.find((a) => a.good === g && a.count === 1);
      return token(ctx, g, { count: p.stock[g], legal: !!one, onclick: one ? go(one) : null, title: `${p.stock[g]} ${goodName(ctx, g, p.stock[g])}` });
    }) : h("span", { class: "fcm-muted" }, t.nothingInStock));

  // Per-card decisions for the cards at work, on the beach and in hand.
  const fires = acts.filter((a) => a.type === "fire");
  const firedNow = (mine && view.secret && view.secret[seat] && view.secret[seat].fire) || [];
  const produce = matching(acts, { type: "produce" });
  const errands = acts.filter((a) => a.type === "buy" && a.drink);
  const routeBuyers = [...new Set(acts.filter((a) => a.type === "buy" && a.sources).map((a) => a.card))];
  const newRest = matching(acts, { type: "new_restaurant" });
  const trains = matching(acts, { type: "train" });

  // Cards already chosen to be fired (Payday, secret) are crossed out where they are, one copy per choice.
  const toFire = countList(firedNow.map((f) => `${f.from}:${f.card}`));
  const crossedOut = (from, id, opts) => {
    if (!toFire[`${from}:${id}`]) return false;
    toFire[`${from}:${id}`] -= 1;
    Object.assign(opts, { marked: true, caption: t.firing });
    return true;
  };

  const workCard = (id) => {
    const opts = { small };
    if (crossedOut("work", id, opts)) return employee(ctx, id, opts);
    const fire = fires.find((a) => a.card === id && a.from === "work");
    if (fire) { opts.legal = true; opts.onclick = go(fire); opts.caption = "✕"; opts.captionName = t.fireIt; }
    const cook = produce.filter((a) => a.card === id);
    if (cook.length === 1) { opts.legal = true; opts.onclick = go(cook[0]); opts.caption = `→ ${goodName(ctx, cook[0].good)}`; }
    if (cook.length > 1) {
      // The goods on the card are the click targets, not the card itself.
      opts.extra = h("span", { class: "fcm-card-choices" }, cook.map((a) => token(ctx, a.good, { legal: true, onclick: go(a) })));
    }
    const errand = errands.filter((a) => a.card === id);
    if (errand.length) {
      opts.extra = h("span", { class: "fcm-card-choices" }, errand.map((a) => token(ctx, a.drink, { legal: true, onclick: go(a) })));
    }
    if (routeBuyers.includes(id)) {
      opts.legal = true;
      opts.selected = ui.buyer === id || routeBuyers.length === 1;
      opts.onclick = () => { ui.buyer = ui.buyer === id ? null : id; ui.sources = []; redraw(container); };
    }
    const rest = newRest.find((a) => a.card === id);
    if (rest) { opts.legal = true; opts.onclick = go(rest); }
    return employee(ctx, id, opts);
  };

  let company;
  if (mine && view.phase === "restructuring" && view.secret && view.secret[seat] && view.secret[seat].work) {
    // Building the structure: chosen cards fill the pyramid; hand cards are clicked into it.
    const chosen = view.secret[seat].work;
    const left = countList(p.hand);
    for (const c of chosen) left[c] -= 1;
    const rest = [];
    for (const [c, n] of Object.entries(left)) for (let i = 0; i < n; i++) rest.push(c);
    const works = matching(acts, { type: "work" });
    const backs = matching(acts, { type: "take_back" });
    const submit = matching(acts, { type: "submit" })[0];
    const pyr = pyramid(chosen, view.ceo_slots);
    // A placed card clicked again goes back to the hand.
    const placed = (id) => {
      const a = backs.find((x) => x.card === id);
      return employee(ctx, id, { legal: !!a, onclick: a ? go(a) : null, class: "fcm-placed",
        title: a ? t.takeBack(cardName(ctx, id)) : undefined });
    };
    company = h("div", { class: "fcm-company" },
      h("h4", null, t.choosing),
      pyramidView(ctx, view, chosen, { cardEl: placed }),
      h("div", { class: "fcm-muted" }, pyr.feasible ? t.open(pyr.open) : ""),
      h("h4", null, t.hand),
      h("div", { dataset: { testid: "fcm-hand" } }, cardRow(ctx, rest.sort(), (id) => {
        const a = works.find((x) => x.card === id);
        const fits = pyramid([...chosen, id], view.ceo_slots).feasible;
        return { legal: !!a, onclick: a ? go(a) : null, class: !fits && "fcm-overfit" };
      })),
      rest.length || chosen.length ? null : h("div", { class: "fcm-muted", dataset: { testid: "fcm-empty-hand" } },
        p.busy.length ? t.handAllBusy : t.handEmpty),
      submit ? h("button", { type: "button", class: ["fcm-btn", "legal", !pyr.feasible && "danger"], dataset: { testid: "fcm-submit" },
        onclick: go(submit) }, pyr.feasible ? t.submitStructure : t.submitOver) : null,
      // Marketeers on campaigns stay busy through restructuring; they are shown so no card seems lost.
      p.busy.length ? h("div", null, h("h4", null, t.busy), h("div", { class: "fcm-row" },
        p.busy.map((b) => employee(ctx, b.card, { small: true, badge: `#${b.campaign}`, badgeName: t.onCampaign(b.campaign) })))) : null);
  } else {
    const beachCard = (id) => {
      const opts = { small };
      if (crossedOut("beach", id, opts)) return employee(ctx, id, opts);
      const fire = fires.find((a) => a.card === id && a.from === "beach");
      if (fire) { opts.legal = true; opts.onclick = go(fire); opts.caption = "✕"; opts.captionName = t.fireIt; }
      const tr = trains.filter((a) => a.card === id);
      if (tr.length) {
        opts.legal = true; opts.selected = ui.trainee === id;
        opts.onclick = () => { ui.trainee = ui.trainee === id ? null : id; redraw(container); };
      }
      return employee(ctx, id, opts);
    };
    const trainChoice = ui.trainee && trains.some((a) => a.card === ui.trainee) ? h("div", { class: "fcm-choice" },
      h("span", { class: "fcm-muted" }, t.trainInto(cardName(ctx, ui.trainee))),
      trains.filter((a) => a.card === ui.trainee).map((a) => employee(ctx, a.into, { small: true, legal: true,
        caption: t.by(cardName(ctx, ((p.r.trainers || [])[a.by] || {}).card || "trainer")), onclick: go(a) }))) : null;
    const busyFires = fires.filter((a) => a.from === "busy");
    company = h("div", { class: "fcm-company" },
      p.work.length || view.phase !== "restructuring" ? pyramidView(ctx, view, p.work, { small, cardEl: workCard }) : null,
      p.beach.length ? h("div", { class: "fcm-beach" }, h("h4", null, t.beach), h("div", { class: "fcm-row" }, p.beach.map(beachCard))) : null,
      trainChoice,
      p.hand.length ? h("div", null, h("h4", null, t.hand), cardRow(ctx, p.hand, () => ({ small }))) : null,
      p.busy.length ? h("div", null, h("h4", null, t.busy), h("div", { class: "fcm-row" }, p.busy.map((b) => {
        const fire = busyFires.find((a) => a.card === b.card && a.campaign === b.campaign);
        return employee(ctx, b.card, { small, badge: `#${b.campaign}`, badgeName: t.onCampaign(b.campaign), legal: !!fire,
          onclick: fire ? go(fire) : null, captionName: fire ? t.fireIt : null });
      }))) : null);
  }

  const restCount = view.restaurants.filter((r) => r.owner === seat).length;
  const held = Object.keys(p.milestones || {});
  return h("section", { class: ["fcm-chain", mine && "mine", view.work && view.work.seat === seat && "turn"], dataset: { seat },
    style: css({ "--seat": colourOf(view, seat) }) },
  head, stock,
  // With several rivals their pyramids start folded, so the map stays near the top on a phone.
  mine || !small ? company : foldable(container, `company:${seat}`, view.players.length <= 2 || view.phase === "over", { class: "fcm-compact" },
    h("summary", null, `${t.company} (${p.hand.length + p.work.length + p.beach.length + p.busy.length + 1})`), company),
  h("div", { class: "fcm-muted" }, t.restaurants(restCount), step && view.work.seat === seat ? ` · ${t.steps[step]}` : ""),
  held.length ? h("div", { class: "fcm-held" }, held.map((m) => h("span", { class: "fcm-chip", title: (tx(ctx).milestones[m] || ["", ""])[1] }, milestoneName(ctx, m)))) : null);
}

// ---------- prompt and decision bar ----------

function promptBar(view, ctx, container, ui) {
  const t = tx(ctx);
  const acts = ctx.actions || [];
  const go = (a) => () => send(ctx, a, container);
  const buttons = [];
  let text = null;
  const has = (type) => acts.some((a) => a.type === type);
  if (view.phase === "over" || ctx.over) return null;
  if (!acts.length) {
    // Who is awaited the shell's turn bar says; the status line above, which phase it is. Only a working turn says more.
    if (view.phase === "working" && view.work && view.work.seat) text = t.turnOf(nameOf(ctx, view.work.seat), t.steps[view.work.step]);
  } else if (view.phase === "first_restaurants") {
    text = has("restaurant_entrance") ? t.placeFirstEntrance : t.placeFirst;
  } else if (view.phase === "reserve") {
    text = t.chooseReserve;
    buttons.push(...matching(acts, { type: "reserve" }).map((a) => h("div", {
      class: "fcm-reserve big legal", dataset: { reserve: a.card },
      ...clickable(go(a), `+$${RESERVE[a.card][0]}, ${t.ceoSlots(RESERVE[a.card][1])}`) },
    `+$${RESERVE[a.card][0]}`, h("small", null, `▢${RESERVE[a.card][1]}`))));
  } else if (view.phase === "restructuring") {
    text = t.restructure;
  } else if (view.phase === "order_of_business") {
    text = t.pickPosition;
  } else if (view.phase === "payday_firing") {
    text = t.fire;
    const submit = matching(acts, { type: "submit" })[0];
    if (submit) buttons.push(h("button", { type: "button", class: "fcm-btn legal", dataset: { testid: "fcm-submit" }, onclick: go(submit) }, t.submitFiring));
  } else if (view.phase === "payday_forced") {
    text = t.forced;
  } else if (view.phase === "cleanup") {
    text = t.discard;
  } else if (view.phase === "working") {
    const step = view.work.step;
    const pend = view.pending;
    if (pend && pend.kind === "campaign") {
      if (has("advertise")) {
        // A campaign that runs for good (the first billboard's) has one duration: its good alone is chosen.
        const ads = matching(acts, { type: "advertise" });
        text = ads.every((a) => ads.filter((b) => b.good === a.good).length === 1) ? t.advertiseGood : t.advertise;
      }
      else if (acts.some((a) => a.type === "campaign_at" && a.edge)) text = t.placeAirplane(pend.number);
      else text = t.placeCampaign(pend.number);
    } else if (pend && pend.kind === "house") text = has("garden_at") ? t.gardenAt : t.houseAt;
    else if (pend && pend.kind === "garden") text = t.gardenAt;
    else if (pend && pend.kind === "restaurant") text = has("restaurant_entrance") ? t.entranceAt : t.restaurantAt;
    else text = { recruit: t.recruit, train: t.train, marketing: t.marketing, food_and_drinks: t.food,
      houses: t.houses, restaurants: t.restaurantsStep }[step];
  }
  const done = matching(acts, { type: "done" })[0];
  if (done) buttons.push(h("button", { type: "button", class: "fcm-btn legal", dataset: { testid: "fcm-done" }, onclick: go(done) }, t.done[view.work.step] || "OK"));
  const pass = matching(acts, { type: "pass" })[0];
  if (pass) buttons.push(h("button", { type: "button", class: "fcm-btn legal secondary", dataset: { testid: "fcm-pass" }, onclick: go(pass) }, t.pass));
  if (!text && !buttons.length) return null;
  return h("div", { class: ["fcm-prompt", acts.length && "fcm-alert"], dataset: { testid: "fcm-prompt" } },
    text ? h("span", null, text) : null, buttons.length ? h("div", { class: "fcm-row" }, buttons) : null,
    advertisePanel(view, ctx, container, ui));
}

// ---------- final scoring ----------

function finalScoring(view, ctx) {
  if (view.phase !== "over") return null;
  const t = tx(ctx);
  const order = view.turn_order;
  const seats = [...view.players].sort((a, b) => {
    const pa = view.p[a];
    const pb = view.p[b];
    const la = pa.bankrupt || pa.out ? 0 : 1;
    const lb = pb.bankrupt || pb.out ? 0 : 1;
    return lb - la || pb.cash - pa.cash || order.indexOf(a) - order.indexOf(b);
  });
  const first = view.p[seats[0]];
  const tied = seats.filter((s) => view.p[s].cash === first.cash && !view.p[s].bankrupt && !view.p[s].out);
  return h("section", { class: "fcm-final", dataset: { testid: "fcm-final" } },
    h("h3", null, t.final),
    h("table", null,
      h("thead", null, h("tr", null, h("th", null, t.place), h("th", null, t.player), h("th", null, t.cash),
        h("th", null, t.tie), h("th", null, t.held), h("th", null, t.staff))),
      h("tbody", null, seats.map((s, i) => {
        const p = view.p[s];
        const held = Object.keys(p.milestones || {});
        const staff = p.hand.length + p.work.length + p.beach.length + p.busy.length;
        return h("tr", { class: i === 0 && "fcm-winner", dataset: { seat: s } },
          h("td", null, String(i + 1)),
          h("td", null, nameOf(ctx, s), p.bankrupt || p.out ? h("div", { class: "fcm-warn" }, t.bankrupt) : null),
          h("td", null, h("b", null, `$${p.cash}`)),
          h("td", null, String(order.indexOf(s) + 1)),
          h("td", null, held.length ? h("details", null, h("summary", null, String(held.length)),
            held.map((m) => h("div", { class: "fcm-muted" }, milestoneName(ctx, m)))) : "0"),
          h("td", null, String(staff)));
      }))),
    tied.length > 1 ? h("p", { class: "fcm-muted" }, t.tieNote) : null,
    h("p", { class: "fcm-muted" }, t.bankEnd(view.bank)));
}

// ---------- entry points ----------

export function render(container, view, ctx) {
  const t = tx(ctx);
  const mem = uiState(container);
  mem.ui ??= {};
  mem.open ??= {};
  // Half-made choices only survive while the same decision is open.
  const decision = JSON.stringify([view.phase, view.round, view.work && view.work.seat, view.work && view.work.step,
    view.pending, (ctx.actions || []).length]);
  const newDecision = mem.decision !== decision;
  if (newDecision) {
    const zoom = mem.ui.zoom;
    const openSupply = mem.ui.openSupply;
    mem.ui = { zoom, openSupply };
    mem.decision = decision;
    // A new decision enters the map at its first square to choose, unless the keyboard is on the map now.
    const map = container.querySelector("[data-testid=fcm-map]");
    if (!(map && map.contains(document.activeElement))) mem.cursor = null;
  }
  mem.view = view;
  mem.ctx = ctx;
  const ui = mem.ui;
  const me = ctx.seat !== null && ctx.seat !== undefined && view.p[ctx.seat] ? ctx.seat : null;
  const others = view.players.filter((s) => s !== me);
  const phase = t.phases[view.phase] || view.phase;
  const onOwnChain = me !== null && decidesOnChain(view, ctx);
  const frame = mapFrame(container);
  morph(container, h("div", { class: "fcm-root", lang: lang(ctx), dataset: { phase: view.phase, round: String(view.round),
    step: (view.work && view.work.step) || "", actions: String((ctx.actions || []).length) } },
    finalScoring(view, ctx),
    h("div", { class: "fcm-status" },
      h("b", null, view.round ? t.round(view.round) : ""), " ",
      h("span", null, phase), view.phase === "working" && view.work && view.work.step ? ` · ${t.steps[view.work.step]}` : ""),
    instruction(ctx, promptBar(view, ctx, container, ui), (ctx.actions || []).length > 0),
    me !== null && onOwnChain ? chainArea(view, ctx, container, me, ui, true) : null,
    h("section", { class: "fcm-others" }, others.map((s) => chainArea(view, ctx, container, s, ui, false))),
    h("section", { class: "fcm-shared" },
      bankPanel(view, ctx),
      turnTrack(view, ctx, container),
      cityMap(view, ctx, container, ui),
      campaignSupply(view, ctx, container, ui),
      supplyPanel(view, ctx, container, ui),
      milestonesPanel(view, ctx, container)),
    me !== null && !onOwnChain ? chainArea(view, ctx, container, me, ui, true) : null));
  markChanged(container, changedPieces(ctx.lastMoveEvents || []));
  frame.restore(newDecision);
}

// What the last move changed, as selectors: the map's new campaign, house, garden or restaurant, the house that
// bought at dinner, the cards a chain hired or trained, and the cash of every chain that was paid or paid out.
function changedPieces(events) {
  const out = [];
  const chain = (seat) => `.fcm-chain${attr("data-seat", seat)}`;
  for (const e of events) {
    const p = e.player;
    if (e.type === "campaign_placed" && e.campaign) out.push(`[data-testid=fcm-map] ${attr("data-campaign", e.campaign.number)}`);
    if (e.type === "house_placed") out.push(`[data-testid=fcm-map] ${attr("data-house", e.number)}`);
    if (e.type === "garden_placed" || e.type === "sale") out.push(`[data-testid=fcm-map] ${attr("data-house", e.house)}`);
    if (e.type === "restaurant_placed" || e.type === "restaurant_moved") {
      out.push(`[data-testid=fcm-map] .fcm-rest${attr("data-restaurant", e.restaurant)}`);
    }
    if (e.type === "hired") out.push(`${chain(p)} ${attr("data-card", e.into || e.card)}`);
    if (e.type === "trained") out.push(`${chain(p)} ${attr("data-card", e.into)}`);
    if (["sale", "waitress_tips", "cfo_bonus", "salaries_paid", "bankrupt"].includes(e.type)) {
      out.push(`[data-testid=fcm-cash-${CSS.escape(String(p))}]`);
    }
  }
  return out;
}

// The map's frame scrolls (on a phone the map is wider than the screen), and every update redraws it from scratch,
// which would throw the player back to its top-left corner: the new frame shows the same part of the map as the old
// one (its centre, scaled when the squares changed size). When a new decision asks for squares and none of them is in
// sight, the frame brings the first one (the map's tab stop) into view, so a phone does not hide where to tap.
function mapFrame(container) {
  const old = container.querySelector(".fcm-mapscroll");
  const was = old && old.scrollWidth ? { x: (old.scrollLeft + old.clientWidth / 2) / old.scrollWidth,
    y: (old.scrollTop + old.clientHeight / 2) / old.scrollHeight } : null;
  return {
    restore(newDecision) {
      const now = container.querySelector(".fcm-mapscroll");
      if (!now || (now.scrollWidth <= now.clientWidth && now.scrollHeight <= now.clientHeight)) return;
      if (was) {
        now.scrollLeft = was.x * now.scrollWidth - now.clientWidth / 2;
        now.scrollTop = was.y * now.scrollHeight - now.clientHeight / 2;
      }
      if (!newDecision) return;
      const frame = now.getBoundingClientRect();
      const seen = (el) => {
        const r = el.getBoundingClientRect();
        return r.right > frame.left && r.left < frame.right && r.bottom > frame.top && r.top < frame.bottom;
      };
      const choices = [...now.querySelectorAll("[role=gridcell][data-act]")];
      const first = now.querySelector("[role=gridcell][data-act][tabindex='0']") || choices[0];
      if (!first || choices.some(seen)) return;
      const r = first.getBoundingClientRect();
      now.scrollLeft += r.left + r.width / 2 - (frame.left + frame.width / 2);
      now.scrollTop += r.top + r.height / 2 - (frame.top + frame.height / 2);
    },
  };
}

// Whether the viewer decides on their own chain now (hand, pyramid, beach, cooks, stock): it is then drawn right under
// the prompt rather than at the bottom, below the map and the supply. Buyers choosing routes keep it there (the routes
// are picked beside the map).
function decidesOnChain(view, ctx) {
  const acts = ctx.actions || [];
  if (!acts.length) return false;
  if (["restructuring", "payday_firing", "payday_forced", "cleanup"].includes(view.phase)) return true;
  if (view.phase !== "working" || view.pending) return false;
  return acts.some((a) => a.type === "train" || a.type === "produce" || (a.type === "buy" && a.drink))
    && !acts.some((a) => a.type === "buy" && a.sources);
}

// Why each other chain did not get the house (Dinnertime, §6.4), one clause per chain.
function rivalsText(event, ctx, L, n) {
  return (event.rivals || []).map((r) => {
    const say = L.rival[r.reason];
    const missing = Object.entries(r.missing || {}).map(([g, k]) => `${k} ${goodName(ctx, g, k)}`).join(" + ");
    return say ? say(n(r.player), r, event.waitresses, missing) : n(r.player);
  }).join("; ");
}

// One line per player under the shell's result (the score is the cash): turn order, bankruptcy, milestones.
export function describeDetails(d, ctx) {
  const t = tx(ctx);
  const parts = [`${t.turnOrder}: ${d.turn_position}`];
  if (d.bankrupt) parts.push(t.bankrupt);
  if (d.milestones && d.milestones.length) parts.push(`${t.milestonesTitle}: ${d.milestones.map((m) => milestoneName(ctx, m)).join(", ")}`);
  return parts.join(" · ");
}

export function describeEvent(event, ctx) {
  const L = LOG[lang(ctx)];
  const t = tx(ctx);
  const n = (seat) => nameOf(ctx, seat);
  const c = (id) => cardName(ctx, id);
  const p = event.player;
  switch (event.type) {
    case "passed": return L.passed(n(p));
    case "reserve_chosen": return L.reserve_chosen(n(p), RESERVE[event.card] ? `+$${RESERVE[event.card][0]}` : event.card);
    case "reserve_ready": return L.reserve_ready(n(p));
    case "round_started": return L.round_started(event.round);
    case "work_chosen": return L.work_chosen(n(p), c(event.card));
    case "work_taken_back": return L.work_taken_back(n(p), c(event.card));
    case "structure_submitted": return L.structure_submitted(n(p));
    case "structure_revealed": return L.structure_revealed(n(p), (event.work || []).map(c).join(", "), event.over_committed);
    case "order_of_business": return L.order_of_business((event.choosing_order || [])
      .map((s) => `${n(s)} (${(event.open_slots || {})[s]})`).join(", "));
    case "position_taken": return L.position_taken(n(p), event.position);
    case "working_turn": return L.working_turn(n(p));
    case "hired": return event.phantom ? L.hired_phantom(n(p), c(event.card), c(event.into)) : L.hired(n(p), c(event.card));
    case "trained": return L.trained(n(p), c(event.from), c(event.into));
    case "campaign_placed": {
      const camp = event.campaign || {};
      const d = camp.eternal ? L.eternal : L.for_rounds(camp.tokens);
      return L.campaign_placed(n(p), t.campaignTypes[camp.type] || camp.type, camp.number, goodName(ctx, camp.good, 2), d);
    }
    case "produced": return L.produced(n(p), event.amount, goodName(ctx, event.good, event.amount), c(event.card));
    case "drinks_collected": return L.drinks_collected(n(p), c(event.card),
      Object.entries(event.drinks || {}).map(([g, k]) => `${k} ${goodName(ctx, g, k)}`).join(", ") || "—");
    case "house_placed": return L.house_placed(n(p), event.number);
    case "garden_placed": return L.garden_placed(n(p), event.house);
    case "restaurant_placed": return L.restaurant_placed(n(p), event.open);
    case "restaurant_moved": return L.restaurant_moved(n(p));
    case "dinnertime": return L.dinnertime;
    case "sale": {
      const goods = event.goods || [];
      const parts = (event.price_parts || []).map((part) => ` ${part.delta < 0 ? "−" : "+"} $${Math.abs(part.delta)} (${
        part.count > 1 ? `${part.count} × ` : ""}${CARDS[part.source] ? c(part.source) : milestoneName(ctx, part.source)})`).join("");
      const bonusSum = (event.bonuses || []).reduce((s, b) => s + b.count * b.each, 0);
      const bonus = bonusSum ? L.bonus(bonusSum, (event.bonuses || [])
        .map((b) => `${b.count} ${goodName(ctx, b.good, b.count)}`).join(", ")) : "";
      return L.sale(n(p), event.house, event.garden, goodsList(ctx, goods), L.price(parts, event.unit_price),
        L.score(event.distance, event.total), L.pays(goods.length, event.unit_price, event.garden, bonus, event.income),
        rivalsText(event, ctx, L, n));
    }
    case "no_sale": return L.no_sale(event.house, event.garden, goodsList(ctx, event.goods || []), rivalsText(event, ctx, L, n));
    case "bankrupt": return L.bankrupt(n(p));
    case "waitress_tips": return L.waitress_tips(n(p), event.amount);
    case "cfo_bonus": return L.cfo_bonus(n(p), event.amount);
    case "bank_broken": return L.bank_broken(event.breaks);
    case "reserves_revealed": return L.reserves_revealed(Object.entries(event.reserves || {})
      .map(([s, r]) => `${n(s)} +$${(RESERVE[r] || [r])[0]}`).join(", "), event.added, event.ceo_slots);
    case "milestone": return L.milestone(n(p), milestoneName(ctx, event.milestone));
    case "free_cards": return L.free_cards(n(p), event.count, c(event.card));
    case "fire_chosen": return L.fire_chosen(n(p), c(event.card));
    case "firing_submitted": return L.firing_submitted(n(p));
    case "fired": return L.fired(n(p), c(event.card), event.forced, event.campaign);
    case "salaries_paid": return L.salaries_paid(n(p), event.amount);
    case "campaign_ran": {
      const list = Object.entries(event.added || {}).map(([house, k]) => `${t.house(house)} +${k}`).join(", ");
      return L.campaign_ran(event.campaign, goodName(ctx, event.good), list);
    }
    case "campaign_ended": return L.campaign_ended(event.campaign, n(p));
    case "discarded": return L.discarded(n(p), event.count, goodName(ctx, event.good, event.count));
    case "restaurant_opened": return L.restaurant_opened(n(p));
    case "left_game": return L.left_game(n(p));
    case "game_over": return L.game_over(Object.entries(event.cash || {}).map(([s, v]) => `${n(s)} $${v}`).join(", "));
    default: return null;
  }
}
