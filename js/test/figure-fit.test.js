// A small figure folds further than the first picture of the widget: its hot path too, from its
// end up, rather than squeeze rows until marks overlap; and marks shrink to the room of their rows.
import { describe, expect, test } from "vitest";
import { foldToFit } from "../src/cct/picture/fit.js";
import { fitMarksToRows } from "../src/cct/picture/mark-room.js";

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

  test("below a third of the spacing (marks at their smallest would overlap) higher up too", () => {
    const { hot, tree, sizeOf } = fanned(30); // 150 leaf rows
    expect(foldToFit(tree, sizeOf, { rows: 12, levels: 10, hotToo: true })).toEqual([hot[2]]);
    // its root stays open, whatever the rows
    expect(foldToFit(tree, sizeOf, { rows: 1, levels: 10, hotToo: true })).toEqual([hot[1]]);
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
});
