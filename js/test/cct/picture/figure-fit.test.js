// A small figure folds further than the first picture of the widget: its hot path too, from its
// end up, rather than squeeze rows until marks overlap; and marks shrink to the room of their rows.
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { foldsOfPicture, foldToFit } from "../../../src/cct/picture/fit.js";
import { layoutLabels } from "../../../src/cct/picture/label-layout.js";
import { fitMarksToRows } from "../../../src/cct/picture/mark-room.js";
import { picture } from "../../../src/cct/picture/picture.js";
import { DEFAULT_SIZES } from "../../../src/cct/picture/sizes.js";
import { VIEW_DEFAULTS } from "../../../src/contract.js";
import { payload } from "../../support/fixtures.js";

/** A hot path 0 → 1 → 2 → 3 → 4 → 5, each of its nodes with `fan` leaves beside the next one. */
function fanned(fan) {
  const items = [];
  const size = [];
  const hot = [];
  let key = 0;
  let parent = -1;
  for (let d = 0; d < 6; d++) {
    const node = key++;
    hot.push(node);
    items.push({ key: node, id: node, kind: "node", parentKey: parent, hidden: [] });
    size[node] = 1000 - d;
    if (d > 0) {
      for (let i = 0; i < fan; i++) {
        const leaf = key++;
        items.push({ key: leaf, id: leaf, kind: "node", parentKey: node, hidden: [] });
        size[leaf] = 1;
      }
    }
    parent = node;
  }
  return { hot, tree: { items }, sizeOf: (/** @type {{ id: number }} */ it) => size[it.id] };
}

describe("a figure folds its hot path rather than squeeze its rows", () => {
  test("from its end up, keeping its first four nodes while rows are at two thirds of their spacing", () => {
    const { hot, tree, sizeOf } = fanned(4); // 20 leaf rows
    // the widget keeps the hot path open, whatever the rows
    expect(foldToFit(tree, sizeOf, { rows: 10, levels: 10 })).toEqual([]);
    // a figure folds it from its end until 1.5 × 10 rows: the fifth node stands for the rest
    expect(foldToFit(tree, sizeOf, { rows: 10, levels: 10, hotToo: true })).toEqual([hot[4]]);
    // with fewer rows the fourth node, not above while 3 × rows fit
    expect(foldToFit(tree, sizeOf, { rows: 5, levels: 10, hotToo: true })).toEqual([hot[3]]);
  });

  test("below a sixth of the spacing (marks at their smallest, staggered, would overlap) higher up too", () => {
    const { hot, tree, sizeOf } = fanned(30); // 150 leaf rows
    // folded up to the fourth node, 61 rows are left: more than 6 × 8
    expect(foldToFit(tree, sizeOf, { rows: 8, levels: 10, hotToo: true })).toEqual([hot[2]]);
    expect(foldToFit(tree, sizeOf, { rows: 12, levels: 10, hotToo: true })).toEqual([hot[3]]);
    // its root stays open, whatever the rows
    expect(foldToFit(tree, sizeOf, { rows: 1, levels: 10, hotToo: true })).toEqual([hot[1]]);
  });
});

describe("folds inside folds", () => {
  test("the widget keeps them (opening the outer one opens a level), a figure only the outer", () => {
    // 0 → A (large, 2 leaves) and B → (C → 6 leaves, a leaf): C folds first, then B around it
    const items = [{ key: 0, id: 0, kind: "node", parentKey: -1, hidden: [] }];
    const size = [1000];
    const add = (/** @type {number} */ parent, /** @type {number} */ value) => {
      const key = items.length;
      items.push({ key, id: key, kind: "node", parentKey: parent, hidden: [] });
      size[key] = value;
      return key;
    };
    const a = add(0, 900);
    add(a, 450);
    add(a, 450);
    const b = add(0, 5);
    const c = add(b, 4);
    for (let i = 0; i < 6; i++) add(c, 0.5);
    add(b, 0.5);
    const tree = { items };
    const sizeOf = (/** @type {{ id: number }} */ it) => size[it.id];
    expect(foldToFit(tree, sizeOf, { rows: 2, levels: 10 }).sort()).toEqual([b, c].sort());
    expect(foldToFit(tree, sizeOf, { rows: 2, levels: 10, hotToo: true })).toContain(b);
    expect(foldToFit(tree, sizeOf, { rows: 2, levels: 10, hotToo: true })).not.toContain(c);
  });
});

describe("marks no larger than their rows", () => {
  test("a squeezed column's marks shrink to 0.6 of their gap, never under the smallest radius", () => {
    const marks = [
      { x: 10, y: 0, r: 9 },
      { x: 10, y: 5, r: 9 },
      { x: 10, y: 6, r: 2.5 },
      { x: 50, y: 5, r: 9 }, // another column: room enough
    ];
    expect(fitMarksToRows(marks, 2, 2.5)).toBe(true);
    expect(marks.map((m) => m.r)).toEqual([6, 2.5, 2.5, 9]);
    expect(fitMarksToRows(marks, 2, 2.5)).toBe(false); // once fitted, nothing changes
  });

  test("the list of marks keeps its order (a picture's marks in tree order)", () => {
    const marks = [
      { x: 50, y: 5, r: 9 },
      { x: 10, y: 6, r: 2.5 },
      { x: 10, y: 0, r: 9 },
      { x: 10, y: 5, r: 9 },
    ];
    const order = [...marks];
    expect(fitMarksToRows(marks, 2, 2.5)).toBe(true);
    expect(marks).toEqual(order);
    for (let i = 0; i < marks.length; i++) expect(marks[i]).toBe(order[i]);
    expect(marks.map((m) => m.r)).toEqual([9, 2.5, 6, 2.5]);
  });
});

describe("crowded marks stagger", () => {
  test("in a run of marks closer than two smallest radii, every other one steps left; the largest stays", () => {
    const marks = [0, 1, 2, 3, 4].map((y) => ({ x: 10, y, r: y === 2 ? 4 : 1.5 }));
    expect(fitMarksToRows(marks, 2, 1.5)).toBe(true);
    const byY = [...marks].sort((a, b) => a.y - b.y);
    expect(byY.map((m) => m.x)).toEqual([10, 8, 10, 8, 10]);
    expect(byY[2].drawnAt).toBe(4); // shrunk, it still leads the hot path
    // no two marks closer than their radii and a pixel (screen pixels: k = 2)
    for (const [i, a] of byY.entries()) {
      for (const b of byY.slice(i + 1)) expect(2 * Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(a.r + b.r);
    }
  });
});

describe("a short label", () => {
  const frame = { width: 47, height: 40, fontPx: 8, measure: (/** @type {string} */ t) => 5 * [...t].length };
  const leaf = { key: 1, x: 10, y: 20, r: 2, text: "CLEAN_TIME_STEP", leaf: true };
  test("is left out below six characters and the ellipsis, unless it names the hot path", () => {
    expect(layoutLabels([leaf], [], frame)).toEqual([]);
    expect(layoutLabels([{ ...leaf, hot: true }], [], frame).map((l) => l.text)).toEqual(["CLEAN…"]);
  });
});

describe("a small figure's small roots", () => {
  // a large root and five small ones with a child each: six bands, where a figure has room for three
  const data = payload({
    parent: [-1, 0, 0, -1, 3, -1, 5, -1, 7, -1, 9, -1, 11],
    names: ["main", "a", "b", "r1", "c1", "r2", "c2", "r3", "c3", "r4", "c4", "r5", "c5"],
    metrics: { "time (inc)": [100, 60, 40, 1.5, 1.5, 0.5, 0.5, 1, 1, 0.2, 0.2, 30, 30] },
    kinds: { "time (inc)": "inclusive" },
  });
  const pic = (/** @type {boolean} */ foldHotPath) =>
    picture(
      decodeTable(data),
      { ...VIEW_DEFAULTS, colorBy: "time (inc)", sizeBy: "time (inc)" },
      {
        ...DEFAULT_SIZES,
        foldHotPath,
        room: { width: 600, height: 400 },
      },
    );
  test("fold into one band, the smallest first, until three bands are left (those above 2 % stay)", () => {
    // r4, r2, r3 leave four bands (main, r1, r5, the small roots); r1 too: three. r5 (30 %) stays
    const folds = foldsOfPicture(pic(true), { width: 600, height: 400 }, "time (inc)");
    expect(folds.sort((a, b) => a - b)).toEqual([3, 5, 7, 9]);
    expect(foldsOfPicture(pic(false), { width: 600, height: 400 }, "time (inc)")).toEqual([]);
  });
});

describe("a small figure counts one band for all its small roots", () => {
  // main, a leaf, a minor root with a child, a leaf: three bands (main, r1, the two leaves), where
  // runs of small roots would make four and fold r1
  const data = payload({
    parent: [-1, 0, 0, -1, -1, 4, -1],
    names: ["main", "a", "b", "s1", "r1", "c1", "s2"],
    metrics: { "time (inc)": [100, 60, 40, 0.1, 1, 1, 0.1] },
    kinds: { "time (inc)": "inclusive" },
  });
  test("its minor root stays a band of its own", () => {
    const pic = picture(
      decodeTable(data),
      { ...VIEW_DEFAULTS, colorBy: "time (inc)", sizeBy: "time (inc)" },
      { ...DEFAULT_SIZES, foldHotPath: true, room: { width: 600, height: 400 } },
    );
    expect(foldsOfPicture(pic, { width: 600, height: 400 }, "time (inc)")).toEqual([]);
    expect(pic.layout.bands.map((b) => b.keys)).toEqual([[0], [4], [3, 6]]);
  });
});
