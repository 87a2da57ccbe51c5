// The card icons (frontend/lib/icons.js): every kind the games' data names has one, each is drawn only with shapes
// and presentation attributes the site's Content-Security-Policy allows, and each is hidden from assistive technology.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { ICON_FOR, SHAPES, icon, iconFor } from "../../../frontend/lib/icons.js";

const data = (path) => JSON.parse(readFileSync(new URL(`../../../app/games/${path}`, import.meta.url), "utf8"));

test("every kind of card, food and ingredient in the games' data has an icon", () => {
  const kinds = {
    meal: data("food_truck/data/meals.json").types.map((m) => m.type),
    ingredient: data("food_truck_champion/data/cards.json").map((c) => c.ingredient),
    staff: data("food_truck_champion/data/cards.json").map((c) => c.action),
    culture: data("foodies/data/cultures.json").map((c) => c.code),
    good: ["food", "drinks"].flatMap((k) => data("food_chain_magnate/data/setup.json").components.goods[k]),
    employee: data("food_chain_magnate/data/employees.json").employees.map((e) => e.group),
  };
  for (const [kind, codes] of Object.entries(kinds)) {
    assert.ok(codes.length, `no ${kind} in the data`);
    for (const code of new Set(codes)) {
      assert.ok(Object.hasOwn(ICON_FOR[kind], code), `${kind} ${code} has no icon`);
      assert.ok(SHAPES[ICON_FOR[kind][code]], `${kind} ${code}: no drawing named ${ICON_FOR[kind][code]}`);
    }
  }
  // Every drawing is worn by something (the truck by Food Truck's Truck cards).
  const worn = new Set([...Object.values(ICON_FOR).flatMap((table) => Object.values(table)), "truck"]);
  assert.deepEqual(Object.keys(SHAPES).filter((name) => !worn.has(name)), []);
});

test("the icons are drawn with plain shapes and presentation attributes only, inside their 24-unit square", () => {
  const tags = new Set(["path", "circle", "rect", "ellipse", "polygon", "polyline", "line"]);
  const attributes = new Set(["d", "cx", "cy", "r", "rx", "ry", "x", "y", "width", "height", "x1", "y1", "x2", "y2",
    "points", "fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "transform"]);
  const place = new Set(["cx", "cy", "x", "y", "x1", "y1", "x2", "y2"]);
  for (const [name, shapes] of Object.entries(SHAPES)) {
    assert.ok(shapes.length >= 2, `${name} is a single shape`);
    for (const [tag, attrs] of shapes) {
      assert.ok(tags.has(tag), `${name}: <${tag}>`);
      for (const [key, value] of Object.entries(attrs)) {
        assert.ok(attributes.has(key), `${name}: ${key}`);
        if (place.has(key)) assert.ok(value >= 0 && value <= 24, `${name}: ${key}=${value}`);
        if (key === "fill" || key === "stroke") assert.match(String(value), /^(none|#[0-9a-f]{6})$/, `${name}: ${key}`);
        if (key === "d") assert.match(String(value), /^[MmLlHhVvCcSsQqTtAaZz0-9.,\s-]+$/, `${name}: d`);
        if (key === "points") assert.match(String(value), /^[0-9.,\s]+$/, `${name}: points`);
      }
    }
  }
});

test("an icon is an svg hidden from assistive technology; an unknown name or code gives none", () => {
  const made = [];
  const element = (namespace, tag) => {
    const el = { namespace, tag, attrs: {}, children: [], setAttribute(k, v) { this.attrs[k] = v; },
      appendChild(child) { this.children.push(child); },
      cloneNode() {
        const copy = element(namespace, tag);
        Object.assign(copy.attrs, this.attrs);
        copy.children = this.children.map((child) => child.cloneNode());
        return copy;
      } };
    made.push(el);
    return el;
  };
  const saved = globalThis.document;
  globalThis.document = /** @type {any} */ ({ createElementNS: element });
  try {
    const svg = /** @type {any} */ (iconFor("meal", "burger", "ft-icon"));
    assert.equal(svg.tag, "svg");
    assert.equal(svg.namespace, "http://www.w3.org/2000/svg");
    assert.equal(svg.attrs["aria-hidden"], "true");
    assert.equal(svg.attrs.focusable, "false");
    assert.equal(svg.attrs.class, "icon icon-burger ft-icon");
    assert.equal(svg.children.length, SHAPES.burger.length);
    // Each call gives an element of its own (a copy of one built once), which the next call's class does not touch.
    const again = /** @type {any} */ (iconFor("meal", "burger"));
    assert.notEqual(again, svg);
    assert.notEqual(again.children[0], svg.children[0]);
    assert.equal(again.attrs.class, "icon icon-burger");
    assert.equal(svg.attrs.class, "icon icon-burger ft-icon");
    assert.deepEqual(again.children.map((c) => c.attrs), svg.children.map((c) => c.attrs));
    assert.ok(made.every((el) => !("style" in el.attrs)));
    assert.equal(icon("no-such-icon"), null);
    assert.equal(iconFor("meal", "toString"), null);
    assert.equal(iconFor("no-such-kind", "burger"), null);
  } finally {
    globalThis.document = saved;
  }
});
