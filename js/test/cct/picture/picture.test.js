// @vitest-environment node
// The picture of a table in a view state (js/src/cct/picture/picture.js), without a DOM: one
// value, memoised by reference, whose parts are shared while what they are made from holds.

import { describe, expect, test } from "vitest";
import { SLICE_ITEMS } from "../../../src/cct/base/steps.js";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { linkObjects, linkSegmentSteps, linkSegments } from "../../../src/cct/picture/links.js";
import { picture, pictureSteps, statsOf } from "../../../src/cct/picture/picture.js";
import { DEFAULT_SIZES } from "../../../src/cct/picture/sizes.js";
import { VIEW_DEFAULTS } from "../../../src/contract.js";
import { randomTree, smallTree } from "../../support/fixtures.js";

const state = (changes = {}) => ({ ...VIEW_DEFAULTS, colorBy: "time", sizeBy: "time (inc)", ...changes });
const sizes = (room = { width: 600, height: 400 }) => ({ ...DEFAULT_SIZES, room });

describe("picture", () => {
  test("the same table, state and sizes give the identical picture", () => {
    const table = decodeTable(smallTree());
    const s = state();
    const z = sizes();
    const pic = picture(table, s, z);
    expect(picture(table, s, z)).toBe(pic);
    expect(pic.table).toBe(table);
    expect(pic.state).toBe(s);
    expect(Object.isFrozen(pic)).toBe(true);
    // its parts are computed once
    expect(pic.tree).toBe(pic.tree);
    expect(pic.scene).toBe(pic.scene);
    expect(pic.stats).toBe(statsOf(table));
  });

  test("a new state is a new picture; parts whose inputs held are shared", () => {
    const table = decodeTable(smallTree());
    const z = sizes();
    const first = picture(table, state(), z);
    const { tree, layout, scene } = first;
    // an equal state of other objects: another picture, the same parts
    const equal = picture(table, state(), z);
    expect(equal).not.toBe(first);
    expect(equal.tree).toBe(tree);
    expect(equal.layout).toBe(layout);
    expect(equal.scene).toBe(scene);
    // a new colour: the same tree and layout, a new scene
    const recoloured = picture(table, state({ palette: "viridis" }), z);
    expect(recoloured.tree).toBe(tree);
    expect(recoloured.layout).toBe(layout);
    expect(recoloured.scene).not.toBe(scene);
    // a search or a highlight draws nothing new: the same scene as the last one made
    const searched = picture(table, state({ palette: "viridis", search: "kernel", highlighted: [2] }), z);
    expect(searched.scene).toBe(recoloured.scene);
    // a collapse: a new tree, layout and scene; the same statistics
    const collapsed = picture(table, state({ collapsed: [1] }), z);
    expect(collapsed.tree).not.toBe(tree);
    expect(collapsed.layout).not.toBe(layout);
    expect(collapsed.stats).toBe(first.stats);
  });

  test("the layout's levels are spread over the room; the same spread keeps the layout", () => {
    const table = decodeTable(smallTree());
    const s = state();
    const wide = picture(table, s, sizes({ width: 600, height: 400 }));
    const narrow = picture(table, s, sizes({ width: 100, height: 400 }));
    expect(narrow.tree).toBe(wide.tree);
    expect(narrow.layout).not.toBe(wide.layout);
    expect(narrow.layout.levelWidth).toBeLessThan(wide.layout.levelWidth);
    // a room whose spread is the same (levels at their widest either way) shares the layout
    const wider = picture(table, s, sizes({ width: 900, height: 400 }));
    expect(wider.layout).toBe(wide.layout);
    // the layout as laid out is not changed by spreading it
    const unspread = picture(table, s, { ...DEFAULT_SIZES, room: null }).layout;
    expect(unspread.levelWidth).toBe(0);
    expect([...unspread.x].every((x) => x === 0)).toBe(true);
  });

  test("its contents: what is drawn, where and how, in item keys; node ids through keyOf and drawn", () => {
    const table = decodeTable(smallTree()); // main → solve → kernel_a, kernel_b; main → io; init
    const pic = picture(table, state({ collapsed: [1] }), sizes());
    expect(pic.tree.items.map((it) => [it.key, it.kind, it.parentKey])).toEqual([
      [0, "node", -1],
      [1, "collapsed", 0],
      [4, "node", 0],
      [5, "node", -1],
    ]);
    expect(pic.drawn(1)).toBe(true); // as its collapsed glyph
    expect(pic.drawn(2)).toBe(false); // inside it
    expect(pic.keyOf(4)).toBe(4);
    const { x, y, levelWidth } = pic.layout;
    expect(levelWidth).toBeGreaterThan(0);
    expect([x[0], x[1], x[4], x[5]]).toEqual([0, levelWidth, levelWidth, 0]);
    expect(y[5]).toBeGreaterThan(y[0]); // the second root's band below the first
    const { marks, legends, list } = pic.scene;
    expect(list).toEqual(pic.tree.items.map((it) => marks[it.key])); // the same marks, in tree order
    for (let i = 0; i < list.length; i++) expect(list[i]).toBe(marks[pic.tree.items[i].key]);
    expect(marks.filter(Boolean).map((m) => m.key)).toEqual([0, 1, 4, 5]);
    expect(marks[1].shape).toBe("triangle");
    expect(marks[0].r).toBeGreaterThan(marks[4].r); // size by inclusive time: 48 against 5
    expect(legends).toHaveLength(1);
  });

  test("its links: a link to each item from its parent's, made in slices by its steps and read from them", () => {
    const table = decodeTable(randomTree(41_000, 7));
    const pic = picture(table, state({ foldToFit: false }), sizes());
    // in slices of SLICE_ITEMS items: a yield between two
    let yields = 0;
    const steps = linkSegmentSteps(pic.tree, pic.layout);
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBe(Math.floor(41_000 / SLICE_ITEMS));
    const { x, y } = pic.layout;
    const expected = pic.tree.items
      .filter((it) => it.parentKey >= 0)
      .map((it) => ({ x0: x[it.parentKey], y0: y[it.parentKey], x1: x[it.key], y1: y[it.key], p: it.parentKey }));
    expect(linkObjects(step.value)).toEqual(expected);
    // a picture's steps make them; the picture then reads what they made (the drawing's task
    // makes none), and a picture of another structure has its own
    const fresh = picture(table, state({ foldToFit: false, collapsed: [40_999] }), sizes());
    expect(fresh.scene).toBeTruthy(); // laid out and its scene made: what is left is its links
    let sliced = 0;
    for (const _ of pictureSteps(fresh)) sliced++;
    // three before the scene (made), one before the links and theirs (a leaf collapsed: 41,000 items)
    expect(sliced).toBe(3 + 1 + Math.floor(41_000 / SLICE_ITEMS));
    const made = fresh.links;
    expect(fresh.links).toBe(made);
    expect(made).toEqual(linkSegments(fresh.tree, fresh.layout));
    expect(picture(table, state({ foldToFit: false, collapsed: [40_999] }), sizes()).links).toBe(made);
    expect(pic.links).not.toBe(made);
    expect(linkObjects(pic.links)).toEqual(expected);
  }, 30_000);
});
