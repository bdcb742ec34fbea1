import { expect, test } from "vitest";
import { MarkColumns } from "../../../src/cct/picture/mark-columns.js";

const node = {
  key: 7,
  x: 1.5,
  y: -2.25,
  id: 123456789012,
  attr: /** @type {const} */ ("data-id"),
  ref: 123456789012,
  r: 6.125,
  fill: "rgb(1, 2, 3)",
  negative: true,
  noSize: false,
  small: true,
  shape: /** @type {const} */ ("hexagon"),
  label: "main (collapsed)",
};
const fold = {
  key: 1000,
  x: 3,
  y: 4,
  id: -1,
  attr: /** @type {const} */ ("data-fold"),
  ref: 99,
  r: 4,
  fill: null,
  negative: false,
  noSize: undefined,
  small: undefined,
  shape: /** @type {const} */ ("diamond"),
  label: "12 more nodes, not loaded: click to load",
};
const fields = /** @type {const} */ ([
  "key",
  "x",
  "y",
  "id",
  "attr",
  "ref",
  "r",
  "fill",
  "negative",
  "noSize",
  "small",
  "shape",
  "label",
]);
/** A mark's fields as a plain object. @param {any} m */
const plain = (m) => Object.fromEntries(fields.map((f) => [f, m[f]]));

test("a mark reads back every field it was made with, a node's and a fold's", () => {
  const columns = new MarkColumns(2);
  const a = columns.set(0, node);
  const b = columns.set(1, fold);
  expect(plain(a)).toEqual(node);
  expect(plain(b)).toStrictEqual(fold); // a fold has no noSize nor small: undefined, not false
  expect(a.drawnAt).toBeUndefined();
  expect(columns.x).toEqual(Float64Array.from([1.5, 3]));
});

test("a figure's fitting writes through to the columns: place, radius, the radius drawn before", () => {
  const columns = new MarkColumns(1);
  const m = columns.set(0, node);
  m.drawnAt ??= m.r;
  m.r = 2;
  m.x -= 5;
  m.y = 1;
  expect([m.drawnAt, m.r, m.x, m.y]).toEqual([6.125, 2, -3.5, 1]);
  expect([columns.drawnAt[0], columns.r[0], columns.x[0], columns.y[0]]).toEqual([6.125, 2, -3.5, 1]);
  m.drawnAt ??= 99; // kept: the first radius
  expect(m.drawnAt).toBe(6.125);
  const again = columns.set(0, node); // made again: the fields it is made with, not shrunk
  expect(plain(again)).toEqual(node);
  expect(again.drawnAt).toBeUndefined();
});
