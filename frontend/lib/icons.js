// The pictures on the four games' cards: one small SVG icon for each kind of card, food and ingredient, drawn for this
// project (no third-party game art, no emoji font). Each is a few shapes on a 24×24 grid, coloured by presentation
// attributes (fill, stroke), never a style attribute, so the site's Content-Security-Policy lets them be. An icon is
// decoration: it is hidden from assistive technology, and the card it sits on keeps its words.

const SVG = "http://www.w3.org/2000/svg";

// Colours shared by several icons.
const BUN = "#d9953b";
const CRUST = "#c98a3c";
const MEAT = "#7a3f22";
const LEAF = "#4f9a2c";
const CHEESE = "#f2c230";
const TOMATO = "#d8432f";
const DOUGH = "#f0c987";
const CREAM = "#fff6e0";
const INK = "#3b2f2a";
const WHITE = "#ffffff";
const STEEL = "#8a929c";
const BLUE = "#3a6fb4";

/** @typedef {[string, Record<string, string | number>]} Shape */

/** One shape of an icon, for the drawings that repeat one (grains, keys).
 * @param {string} tag @param {Record<string, string | number>} attrs @returns {Shape} */
const shape = (tag, attrs) => [tag, attrs];

// name -> the shapes, drawn in order. Only these tags and presentation attributes (tests/frontend/js/icons.test.js).
/** @type {Record<string, Shape[]>} */
export const SHAPES = {
  // ---- meals (Food Truck), also the foods of the other games ----
  burger: [
    ["path", { d: "M3 11a9 7 0 0 1 18 0z", fill: BUN }],
    ["ellipse", { cx: 9, cy: 7, rx: 0.8, ry: 0.5, fill: CREAM }],
    ["ellipse", { cx: 13, cy: 6, rx: 0.8, ry: 0.5, fill: CREAM }],
    ["ellipse", { cx: 15.5, cy: 8.5, rx: 0.8, ry: 0.5, fill: CREAM }],
    ["rect", { x: 2.5, y: 11, width: 19, height: 2, rx: 1, fill: LEAF }],
    ["polygon", { points: "4,13 20,13 18,15 6,15", fill: CHEESE }],
    ["rect", { x: 3, y: 14, width: 18, height: 3, rx: 1.5, fill: MEAT }],
    ["rect", { x: 3, y: 17.5, width: 18, height: 3.5, rx: 1.75, fill: BUN }],
  ],
  pizza: [
    ["polygon", { points: "12,22 3,6 21,6", fill: CHEESE }],
    ["rect", { x: 2, y: 3, width: 20, height: 3.5, rx: 1.75, fill: CRUST }],
    ["circle", { cx: 9, cy: 9.5, r: 1.7, fill: TOMATO }],
    ["circle", { cx: 14.5, cy: 10, r: 1.7, fill: TOMATO }],
    ["circle", { cx: 12, cy: 15, r: 1.5, fill: TOMATO }],
  ],
  fries_drink: [
    ["rect", { x: 3.5, y: 5, width: 1.6, height: 8, fill: CHEESE }],
    ["rect", { x: 6, y: 3.5, width: 1.6, height: 9, fill: CHEESE }],
    ["rect", { x: 8.5, y: 5.5, width: 1.6, height: 7, fill: CHEESE }],
    ["polygon", { points: "2.5,10 11.5,10 10.5,21 3.5,21", fill: TOMATO }],
    ["line", { x1: 18, y1: 8, x2: 20, y2: 2, stroke: INK, "stroke-width": 1.2, "stroke-linecap": "round" }],
    ["polygon", { points: "13.5,9 21.5,9 20.5,21 14.5,21", fill: BLUE }],
    ["rect", { x: 13, y: 7.5, width: 9, height: 2, rx: 1, fill: WHITE, stroke: STEEL, "stroke-width": 0.6 }],
  ],
  takeaway_box: [
    ["path", { d: "M9 6a3 3 0 0 1 6 0", fill: "none", stroke: STEEL, "stroke-width": 1.2 }],
    ["polygon", { points: "3.5,9 7,5.5 17,5.5 20.5,9", fill: "#ece4d2", stroke: INK, "stroke-width": 0.8 }],
    ["polygon", { points: "3.5,9 20.5,9 18.5,21 5.5,21", fill: CREAM, stroke: INK, "stroke-width": 0.8 }],
    ["path", { d: "M9 13l3 3 3-3", fill: "none", stroke: TOMATO, "stroke-width": 1.6 }],
  ],
  hot_dog: [
    ["rect", { x: 1.5, y: 8, width: 21, height: 5, rx: 2.5, fill: "#b5452f" }],
    ["path", { d: "M2.5 11h19a2 2 0 0 1 0 4a16 6 0 0 1-19 0a2 2 0 0 1 0-4z", fill: BUN }],
    ["polyline", { points: "4,10 6.5,8.5 9,10 11.5,8.5 14,10 16.5,8.5 19,10", fill: "none", stroke: CHEESE,
      "stroke-width": 1.2, "stroke-linecap": "round", "stroke-linejoin": "round" }],
  ],
  tacos: [
    ["path", { d: "M2 19a10 10 0 0 1 20 0z", fill: "#e8b84a" }],
    ["path", { d: "M4.5 19a7.5 7.5 0 0 1 15 0z", fill: LEAF }],
    ["circle", { cx: 9, cy: 15, r: 1.3, fill: TOMATO }],
    ["circle", { cx: 13.5, cy: 13.5, r: 1.3, fill: TOMATO }],
    ["circle", { cx: 15.5, cy: 17, r: 1.3, fill: MEAT }],
    ["circle", { cx: 10.5, cy: 18, r: 1.1, fill: CHEESE }],
  ],
  sushi: [
    ["rect", { x: 4, y: 12, width: 16, height: 8, rx: 3.5, fill: "#f7f3ea", stroke: STEEL, "stroke-width": 0.6 }],
    ["rect", { x: 3, y: 7.5, width: 18, height: 6.5, rx: 3.25, fill: "#f08a5d" }],
    ["path", { d: "M7 9l2 3M11 8.5l2 3.5M15 8.5l2 3", stroke: "#ffd2bd", "stroke-width": 1, fill: "none" }],
    ["rect", { x: 10.5, y: 7, width: 3, height: 13.5, fill: "#243b2a" }],
  ],
  kebab: [
    ["line", { x1: 3, y1: 21, x2: 21, y2: 3, stroke: STEEL, "stroke-width": 1.4, "stroke-linecap": "round" }],
    ["circle", { cx: 7.5, cy: 16.5, r: 2.6, fill: MEAT }],
    ["rect", { x: 8.6, y: 11.6, width: 4, height: 4, rx: 1, fill: LEAF, transform: "rotate(45 10.6 13.6)" }],
    ["circle", { cx: 13.7, cy: 10.3, r: 2.6, fill: MEAT }],
    ["circle", { cx: 16.9, cy: 7.1, r: 1.9, fill: TOMATO }],
  ],
  fried_chicken: [
    ["line", { x1: 10, y1: 14, x2: 5, y2: 19, stroke: "#e6d5b0", "stroke-width": 2.6, "stroke-linecap": "round" }],
    ["circle", { cx: 4, cy: 18.5, r: 1.7, fill: CREAM, stroke: STEEL, "stroke-width": 0.5 }],
    ["circle", { cx: 5.5, cy: 20, r: 1.7, fill: CREAM, stroke: STEEL, "stroke-width": 0.5 }],
    ["path", { d: "M14 3.5a6.8 6.8 0 0 1 2.5 13.2c-2 .8-4 .3-5.5-.7l-1.3-1.3c-1-1.5-1.5-3.5-.7-5.5A6.8 6.8 0 0 1 14 3.5z",
      fill: "#c7772b" }],
    ["path", { d: "M13 7c1.5-.8 3.5-.5 4.5 1", fill: "none", stroke: "#e9a45a", "stroke-width": 1.2, "stroke-linecap": "round" }],
  ],
  salad: [
    ["circle", { cx: 7, cy: 11, r: 3.5, fill: LEAF }],
    ["circle", { cx: 12, cy: 9, r: 4, fill: "#6cb83c" }],
    ["circle", { cx: 17, cy: 11, r: 3.5, fill: LEAF }],
    ["circle", { cx: 10, cy: 11.5, r: 1.6, fill: TOMATO }],
    ["circle", { cx: 15, cy: 10, r: 1.3, fill: CHEESE }],
    ["path", { d: "M2 12.5h20a10 8.5 0 0 1-20 0z", fill: "#e6eef8", stroke: BLUE, "stroke-width": 0.9 }],
  ],
  sandwich: [
    ["rect", { x: 2, y: 4.5, width: 20, height: 4, rx: 1.5, fill: DOUGH, stroke: CRUST, "stroke-width": 0.8 }],
    ["path", { d: "M2 9.5q2.5-1.5 5 0t5 0 5 0 5 0v1.5h-20z", fill: LEAF }],
    ["rect", { x: 2.5, y: 11, width: 19, height: 2.5, fill: "#e58f9b" }],
    ["rect", { x: 2.5, y: 13.5, width: 19, height: 2, fill: CHEESE }],
    ["rect", { x: 2, y: 15.5, width: 20, height: 4, rx: 1.5, fill: DOUGH, stroke: CRUST, "stroke-width": 0.8 }],
  ],
  dessert: [
    ["path", { d: "M5 12a7 5 0 0 1 14 0z", fill: WHITE, stroke: "#e3b6c4", "stroke-width": 0.8 }],
    ["path", { d: "M7 9a5 4 0 0 1 10 0z", fill: WHITE, stroke: "#e3b6c4", "stroke-width": 0.8 }],
    ["circle", { cx: 12, cy: 4.5, r: 2, fill: TOMATO }],
    ["polygon", { points: "4.5,12 19.5,12 17.5,21.5 6.5,21.5", fill: "#e88aa8" }],
    ["path", { d: "M8 12.5l.8 8.5M12 12.5v8.5M16 12.5l-.8 8.5", stroke: "#c9657f", "stroke-width": 0.8, fill: "none" }],
  ],
  truck: [
    ["rect", { x: 1.5, y: 6, width: 14, height: 10, rx: 1, fill: TOMATO }],
    ["path", { d: "M15.5 9h4l3 4v3h-7z", fill: "#e9704f" }],
    ["rect", { x: 17, y: 10, width: 3, height: 2.5, fill: "#cfe3f5" }],
    ["rect", { x: 3.5, y: 8, width: 9, height: 3.5, fill: CREAM }],
    ["circle", { cx: 6, cy: 17.5, r: 2.2, fill: INK }],
    ["circle", { cx: 18, cy: 17.5, r: 2.2, fill: INK }],
  ],

  // ---- ingredients (Food Truck Champion) ----
  grain: [
    ["line", { x1: 12, y1: 22, x2: 12, y2: 4, stroke: "#b98a2e", "stroke-width": 1.4, "stroke-linecap": "round" }],
    ...[6, 10, 14].flatMap((y) => [
      shape("ellipse", { cx: 9.5, cy: y, rx: 2.2, ry: 1.3, fill: "#e2b340", transform: `rotate(-35 9.5 ${y})` }),
      shape("ellipse", { cx: 14.5, cy: y, rx: 2.2, ry: 1.3, fill: "#e2b340", transform: `rotate(35 14.5 ${y})` }),
    ]),
    ["ellipse", { cx: 12, cy: 3.5, rx: 1.2, ry: 2, fill: "#e2b340" }],
  ],
  fruit: [
    ["path", { d: "M12 7c-1-2-3-3-5-3", fill: "none", stroke: "#7a5230", "stroke-width": 1.3, "stroke-linecap": "round" }],
    ["ellipse", { cx: 15, cy: 5, rx: 3, ry: 1.5, fill: LEAF, transform: "rotate(-25 15 5)" }],
    ["path", { d: "M12 8c-3-2-8-1-8 5s4 9 6 9c1 0 1.5-.5 2-.5s1 .5 2 .5c2 0 6-3 6-9s-5-7-8-5z", fill: "#d2382c" }],
    ["ellipse", { cx: 8, cy: 12, rx: 1.2, ry: 2, fill: "#ef8a80" }],
  ],
  vegetable: [
    ["path", { d: "M12 8l-2.5-5M12 8l0-6M12 8l2.5-5", stroke: LEAF, "stroke-width": 1.6, "stroke-linecap": "round", fill: "none" }],
    ["path", { d: "M7 8.5h10l-4 13a1 1 0 0 1-2 0z", fill: "#ec7a1c" }],
    ["path", { d: "M9 12h2.5M10 15.5h2M11 18.5h1.5", stroke: "#c45f10", "stroke-width": 0.9, fill: "none" }],
  ],
  meat: [
    ["ellipse", { cx: 12, cy: 13, rx: 9.5, ry: 7.5, fill: "#b8433a" }],
    ["ellipse", { cx: 11.5, cy: 12.5, rx: 7, ry: 5.2, fill: "#de6f63" }],
    ["circle", { cx: 15, cy: 12, r: 2.2, fill: CREAM }],
    ["path", { d: "M6 12q2-2 4 0", stroke: CREAM, "stroke-width": 0.9, fill: "none" }],
  ],
  seasoning: [
    ["path", { d: "M7 9a5 5 0 0 1 10 0z", fill: STEEL }],
    ["circle", { cx: 10.5, cy: 6.5, r: 0.6, fill: INK }],
    ["circle", { cx: 13.5, cy: 6.5, r: 0.6, fill: INK }],
    ["circle", { cx: 12, cy: 5, r: 0.6, fill: INK }],
    ["rect", { x: 6.5, y: 9, width: 11, height: 12.5, rx: 2, fill: WHITE, stroke: STEEL, "stroke-width": 0.9 }],
    ["path", { d: "M9 14h6M9 17h6", stroke: "#c8c8c8", "stroke-width": 0.9, fill: "none" }],
  ],
  dairy: [
    ["polygon", { points: "6,9 9,4 15,4 18,9", fill: BLUE }],
    ["rect", { x: 6, y: 9, width: 12, height: 13, fill: WHITE, stroke: BLUE, "stroke-width": 1 }],
    ["rect", { x: 10, y: 2.5, width: 4, height: 1.8, fill: BLUE }],
    ["path", { d: "M9 15.5q1.5-2 3 0t3 0", fill: "none", stroke: BLUE, "stroke-width": 1.2 }],
  ],

  // ---- staff actions (Food Truck Champion) ----
  driver: [
    ["circle", { cx: 12, cy: 12, r: 8.5, fill: "none", stroke: INK, "stroke-width": 2.4 }],
    ["circle", { cx: 12, cy: 12, r: 2.5, fill: INK }],
    ["path", { d: "M4 11h5.5M14.5 11H20M12 14.5V20", stroke: INK, "stroke-width": 2, fill: "none" }],
  ],
  cashier: [
    ["rect", { x: 6, y: 3.5, width: 10, height: 5, rx: 0.8, fill: "#2f3a45" }],
    ["rect", { x: 7.5, y: 5, width: 7, height: 2, fill: "#8fe08a" }],
    ["polygon", { points: "4,9 20,9 21,17 3,17", fill: "#6b7f95" }],
    ["rect", { x: 2.5, y: 17, width: 19, height: 4, rx: 1, fill: "#4e5d6e" }],
    ["rect", { x: 10, y: 18.3, width: 4, height: 1.3, rx: 0.6, fill: CHEESE }],
    ...[6.5, 10, 13.5, 17].map((x) => shape("rect", { x, y: 11, width: 2, height: 1.3, fill: WHITE })),
    ...[6.5, 10, 13.5, 17].map((x) => shape("rect", { x, y: 13.5, width: 2, height: 1.3, fill: WHITE })),
  ],
  manager: [
    ["rect", { x: 4.5, y: 4, width: 15, height: 18, rx: 1.5, fill: "#a0713e" }],
    ["rect", { x: 6.5, y: 6.5, width: 11, height: 13.5, fill: WHITE }],
    ["rect", { x: 9, y: 2.5, width: 6, height: 3, rx: 1, fill: STEEL }],
    ["path", { d: "M8.5 10.5l1 1 2-2M13 11h3M8.5 15l1 1 2-2M13 15.5h3", stroke: INK, "stroke-width": 0.9, fill: "none" }],
  ],
  prep_cook: [
    ["path", { d: "M3 14L17 4.5c1.5-1 3.5 1 2.5 2.5L10 17z", fill: "#c9d0d8", stroke: STEEL, "stroke-width": 0.7 }],
    ["rect", { x: 4, y: 15.5, width: 4, height: 8, rx: 1.3, fill: MEAT, transform: "rotate(45 6 19.5)" }],
    ["circle", { cx: 6.2, cy: 19.3, r: 0.6, fill: CREAM }],
  ],
  exec_chef: [
    ["circle", { cx: 7.5, cy: 9.5, r: 4, fill: WHITE, stroke: STEEL, "stroke-width": 0.8 }],
    ["circle", { cx: 16.5, cy: 9.5, r: 4, fill: WHITE, stroke: STEEL, "stroke-width": 0.8 }],
    ["circle", { cx: 12, cy: 7, r: 5, fill: WHITE, stroke: STEEL, "stroke-width": 0.8 }],
    ["rect", { x: 6.5, y: 10, width: 11, height: 6, fill: WHITE }],
    ["rect", { x: 6.5, y: 16, width: 11, height: 4.5, rx: 0.8, fill: WHITE, stroke: STEEL, "stroke-width": 0.8 }],
    ["path", { d: "M9.5 17v2.5M12 17v2.5M14.5 17v2.5", stroke: "#c8c8c8", "stroke-width": 0.8, fill: "none" }],
  ],

  // ---- more foods (Foodies' cuisines, Food Chain Magnate's drinks) ----
  dumpling: [
    ["path", { d: "M2.5 16a9.5 9 0 0 1 19 0c0 2-2 3-4 3H6.5c-2 0-4-1-4-3z", fill: "#f6efe2", stroke: "#c9b89a", "stroke-width": 0.8 }],
    ["path", { d: "M12 7v4M8.5 8.5l1.2 3.5M15.5 8.5l-1.2 3.5M5.5 11l2 2.5M18.5 11l-2 2.5", stroke: "#c9b89a",
      "stroke-width": 0.9, "stroke-linecap": "round", fill: "none" }],
  ],
  croissant: [
    ["path", { d: "M2.5 15c1-5 5-9 9.5-9s8.5 4 9.5 9l-3 1.5c-1-3-3.5-5-6.5-5s-5.5 2-6.5 5z", fill: "#d99a3e" }],
    ["path", { d: "M7.5 8.5l2 4.5M12 6v5.5M16.5 8.5l-2 4.5", stroke: "#a8691f", "stroke-width": 1.1, fill: "none" }],
    ["path", { d: "M2.5 15l3 1.5-1 2.5zM21.5 15l-3 1.5 1 2.5z", fill: "#c7862e" }],
  ],
  pretzel: [
    ["path", { d: "M12 13c-3-4-9-5-9 0s5 7 9 2c4 5 9 3 9-2s-6-4-9 0zM7 18l5-5 5 5", fill: "none", stroke: "#9a5b24",
      "stroke-width": 2.6, "stroke-linecap": "round", "stroke-linejoin": "round" }],
    ["circle", { cx: 5.5, cy: 11, r: 0.6, fill: WHITE }],
    ["circle", { cx: 18, cy: 12, r: 0.6, fill: WHITE }],
    ["circle", { cx: 12, cy: 16.5, r: 0.6, fill: WHITE }],
  ],
  curry: [
    ["path", { d: "M9 7c-1-1.5 1-2.5 0-4M13 7c-1-1.5 1-2.5 0-4", stroke: STEEL, "stroke-width": 1, fill: "none",
      "stroke-linecap": "round" }],
    ["ellipse", { cx: 12, cy: 11, rx: 9.5, ry: 2.5, fill: "#e08a1e" }],
    ["circle", { cx: 9, cy: 10.5, r: 1.1, fill: LEAF }],
    ["circle", { cx: 14, cy: 11, r: 1.1, fill: "#f6efe2" }],
    ["path", { d: "M2.5 11.5h19a9.5 8.5 0 0 1-19 0z", fill: "#3f6cae" }],
    ["rect", { x: 8, y: 19.5, width: 8, height: 2, rx: 1, fill: "#2f5590" }],
  ],
  noodles: [
    ["line", { x1: 14, y1: 2.5, x2: 20, y2: 11, stroke: "#8a5a2b", "stroke-width": 1.2, "stroke-linecap": "round" }],
    ["line", { x1: 16.5, y1: 2, x2: 21.5, y2: 10, stroke: "#8a5a2b", "stroke-width": 1.2, "stroke-linecap": "round" }],
    ["path", { d: "M5 11c1-3 2 0 3-3s2 1 3-2 2 2 3-1 2 2 3 1", fill: "none", stroke: CHEESE, "stroke-width": 1.2 }],
    ["path", { d: "M2 11h20a10 9 0 0 1-20 0z", fill: "#c8453b" }],
    ["path", { d: "M6 14.5h12", stroke: "#f3c7c2", "stroke-width": 1, fill: "none" }],
  ],
  beer: [
    ["path", { d: "M17 9h2.5a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2H17", fill: "none", stroke: "#c98a1e", "stroke-width": 1.8 }],
    ["rect", { x: 4, y: 7, width: 13, height: 15, rx: 1.5, fill: "#e9a92a" }],
    ["path", { d: "M3.5 8a2.5 2.5 0 0 1 3-3.5 3 3 0 0 1 5-1 3 3 0 0 1 5.5 2 2 2 0 0 1 0 3.5h-13.5z", fill: CREAM }],
    ["path", { d: "M8 11v8M12.5 11v8", stroke: "#f6c96a", "stroke-width": 1.2, fill: "none" }],
  ],
  lemonade: [
    ["line", { x1: 13, y1: 8, x2: 17, y2: 1.5, stroke: TOMATO, "stroke-width": 1.2, "stroke-linecap": "round" }],
    ["polygon", { points: "5,6 19,6 17,22 7,22", fill: "#eef6fb", stroke: STEEL, "stroke-width": 0.8 }],
    ["polygon", { points: "5.8,11 18.2,11 17,21.3 7,21.3", fill: "#f7e36a" }],
    ["circle", { cx: 18, cy: 7, r: 3.3, fill: "#f5d33a", stroke: "#e0b400", "stroke-width": 0.8 }],
    ["path", { d: "M18 4v6M15 7h6", stroke: "#fff3a8", "stroke-width": 0.7, fill: "none" }],
  ],
  soft_drink: [
    ["rect", { x: 6, y: 3.5, width: 12, height: 18, rx: 2.5, fill: "#c8323b" }],
    ["rect", { x: 7, y: 2.5, width: 10, height: 2, rx: 1, fill: "#b6bcc4" }],
    ["rect", { x: 7, y: 19.5, width: 10, height: 2, rx: 1, fill: "#b6bcc4" }],
    ["path", { d: "M6 13c3-3 9 1 12-2", fill: "none", stroke: WHITE, "stroke-width": 1.6 }],
    ["circle", { cx: 10, cy: 8, r: 0.7, fill: "#f0a0a5" }],
  ],

  // ---- Food Chain Magnate's employees, by career track ----
  ceo: [
    ["polygon", { points: "3,8 7.5,12 12,4 16.5,12 21,8 19,19 5,19", fill: "#e2b340", stroke: "#b98a2e", "stroke-width": 0.8 }],
    ["rect", { x: 5, y: 19, width: 14, height: 2.5, rx: 0.8, fill: "#b98a2e" }],
    ["circle", { cx: 12, cy: 14.5, r: 1.6, fill: TOMATO }],
  ],
  management: [
    ["path", { d: "M9 7V5a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2", fill: "none", stroke: "#5a3a1e", "stroke-width": 1.5 }],
    ["rect", { x: 2.5, y: 7, width: 19, height: 13, rx: 2, fill: "#8a5a2b" }],
    ["rect", { x: 2.5, y: 11.5, width: 19, height: 1.4, fill: "#6b4420" }],
    ["rect", { x: 10.5, y: 10.5, width: 3, height: 3.5, rx: 0.6, fill: "#e2b340" }],
  ],
  recruiting: [
    ["circle", { cx: 9, cy: 7.5, r: 3.5, fill: "#7b4bb3" }],
    ["path", { d: "M2.5 20a6.5 6.5 0 0 1 13 0z", fill: "#7b4bb3" }],
    ["path", { d: "M19 8v7M15.5 11.5h7", stroke: LEAF, "stroke-width": 2.2, "stroke-linecap": "round", fill: "none" }],
  ],
  training: [
    ["polygon", { points: "12,4 23,9 12,14 1,9", fill: "#2f3a45" }],
    ["path", { d: "M6 11.5v4.5c0 1.5 3 3 6 3s6-1.5 6-3v-4.5L12 14.2z", fill: "#4e5d6e" }],
    ["path", { d: "M21 9.5v6", stroke: "#e2b340", "stroke-width": 1.2, fill: "none" }],
    ["circle", { cx: 21, cy: 16.5, r: 1.2, fill: "#e2b340" }],
  ],
  marketing: [
    ["polygon", { points: "4,9.5 14,5 14,19 4,14.5", fill: "#e98a24" }],
    ["rect", { x: 2, y: 9, width: 3.5, height: 6, rx: 1, fill: "#c96f12" }],
    ["path", { d: "M6 15l1.5 5h2.5l-1-4.5", fill: "#c96f12" }],
    ["path", { d: "M17 8.5q2 3.5 0 7M19.5 6.5q3.5 5.5 0 11", stroke: "#e98a24", "stroke-width": 1.4, fill: "none",
      "stroke-linecap": "round" }],
  ],
  kitchen: [
    ["ellipse", { cx: 10, cy: 13, rx: 8, ry: 6.5, fill: "#3b3f45" }],
    ["ellipse", { cx: 10, cy: 12.5, rx: 6.2, ry: 4.8, fill: "#5c636b" }],
    ["rect", { x: 16, y: 11, width: 7, height: 3, rx: 1.5, fill: MEAT }],
    ["ellipse", { cx: 9.5, cy: 12.5, rx: 2.6, ry: 2, fill: WHITE }],
    ["circle", { cx: 9.5, cy: 12.5, r: 1.1, fill: CHEESE }],
  ],
  buyer: [
    ["path", { d: "M1.5 4h3l2.5 11h12l2-8H6", fill: "none", stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" }],
    ["rect", { x: 8, y: 8, width: 4, height: 5.5, rx: 1, fill: BLUE }],
    ["rect", { x: 13, y: 7, width: 4, height: 6.5, rx: 1, fill: TOMATO }],
    ["circle", { cx: 8.5, cy: 19, r: 1.8, fill: INK }],
    ["circle", { cx: 17.5, cy: 19, r: 1.8, fill: INK }],
  ],
  service: [
    ["path", { d: "M3 17a9 9 0 0 1 18 0z", fill: "#c9d0d8", stroke: STEEL, "stroke-width": 0.8 }],
    ["circle", { cx: 12, cy: 7, r: 1.4, fill: STEEL }],
    ["rect", { x: 1.5, y: 17, width: 21, height: 2.5, rx: 1.25, fill: STEEL }],
    ["path", { d: "M7 13a5.5 5.5 0 0 1 3-3.5", stroke: WHITE, "stroke-width": 1, fill: "none" }],
  ],
  pricing: [
    ["path", { d: "M3 4h8l10 10-7 7L4 11z", fill: "#3f8f3a" }],
    ["circle", { cx: 7.5, cy: 8, r: 1.6, fill: WHITE }],
    ["path", { d: "M11.5 15.5l4-4M12 12h.01M15 15h.01", stroke: WHITE, "stroke-width": 1.4, "stroke-linecap": "round", fill: "none" }],
  ],
  development: [
    ["polygon", { points: "2,11 12,3 22,11", fill: TOMATO }],
    ["rect", { x: 4, y: 11, width: 16, height: 10.5, fill: CREAM, stroke: INK, "stroke-width": 0.8 }],
    ["rect", { x: 10, y: 15, width: 4, height: 6.5, fill: "#8a5a2b" }],
    ["rect", { x: 5.5, y: 13, width: 3, height: 3, fill: "#cfe3f5" }],
    ["rect", { x: 15.5, y: 13, width: 3, height: 3, fill: "#cfe3f5" }],
  ],
  finance: [
    ["path", { d: "M3 21.5h18", stroke: INK, "stroke-width": 1.2, fill: "none" }],
    ["rect", { x: 4, y: 14, width: 3.5, height: 7, fill: BLUE }],
    ["rect", { x: 9, y: 10, width: 3.5, height: 11, fill: BLUE }],
    ["rect", { x: 14, y: 6, width: 3.5, height: 15, fill: BLUE }],
    ["path", { d: "M4 11l5-4 4 2 6-6M16 3h3v3", stroke: LEAF, "stroke-width": 1.4, fill: "none", "stroke-linecap": "round",
      "stroke-linejoin": "round" }],
  ],
};

// Which icon each game's kinds wear, by the codes of the games' own data (app/games/*/data).
export const ICON_FOR = {
  // Food Truck: meal types (meals.json)
  meal: {
    burger: "burger", pizza: "pizza", fries_drink: "fries_drink", takeaway_box: "takeaway_box", hot_dog: "hot_dog",
    tacos: "tacos", sushi: "sushi", kebab: "kebab", fried_chicken: "fried_chicken", salad: "salad", sandwich: "sandwich",
    dessert: "dessert",
  },
  // Food Truck Champion: a card's ingredient and its staff action (cards.json)
  ingredient: { Grain: "grain", Fruit: "fruit", Vegetable: "vegetable", Meat: "meat", Seasoning: "seasoning", Dairy: "dairy" },
  staff: { Driver: "driver", Cashier: "cashier", Manager: "manager", "Prep Cook": "prep_cook", "Exec. Chef": "exec_chef" },
  // Foodies: a stall's cuisine (cultures.json), each a dish it is known for
  culture: {
    AME: "burger", BRA: "kebab", CHN: "dumpling", FRA: "croissant", GER: "pretzel", IND: "curry", ITA: "pizza",
    JPN: "sushi", MEX: "tacos", THA: "noodles",
  },
  // Food Chain Magnate: foods and drinks, and each employee's career track (employees.json `group`)
  good: { burger: "burger", pizza: "pizza", beer: "beer", lemonade: "lemonade", soft_drink: "soft_drink" },
  employee: {
    ceo: "ceo", management: "management", recruiting: "recruiting", training: "training", marketing: "marketing",
    kitchen: "kitchen", buyer: "buyer", service: "service", pricing: "pricing", development: "development",
    finance: "finance",
  },
};

/** The icons built so far, for the document they were built in. */
const built = { document: /** @type {Document|null} */ (null), icons: /** @type {Map<string, Element>} */ (new Map()) };

/** The icon `name` as an `<svg>` element (hidden from assistive technology: the words beside it name the thing), with
 * the class `icon` and any in `extra`; null for a name there is no icon of. Each icon is built once per document and
 * copied after: a board draws hundreds on every move, and a copy costs a fraction of building one. */
export function icon(name, extra = "") {
  const shapes = SHAPES[name];
  if (!shapes) return null;
  if (built.document !== document) Object.assign(built, { document, icons: new Map() });
  let model = built.icons.get(name);
  if (!model) {
    model = document.createElementNS(SVG, "svg");
    model.setAttribute("viewBox", "0 0 24 24");
    model.setAttribute("aria-hidden", "true");
    model.setAttribute("focusable", "false");
    for (const [tag, attrs] of shapes) {
      const el = document.createElementNS(SVG, tag);
      for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
      model.appendChild(el);
    }
    built.icons.set(name, model);
  }
  const svg = /** @type {Element} */ (model.cloneNode(true));
  svg.setAttribute("class", `icon icon-${name}${extra ? ` ${extra}` : ""}`);
  return svg;
}

/** The icon a game's kind (`ICON_FOR`'s key) wears for `code` (a meal type, an ingredient …), or null. */
export function iconFor(kind, code, extra = "") {
  const table = ICON_FOR[kind];
  return table && Object.hasOwn(table, code) ? icon(table[code], extra) : null;
}
