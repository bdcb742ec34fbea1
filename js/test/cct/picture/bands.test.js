import { describe, expect, test, vi } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import {
  BAND_GAP,
  BAND_PX,
  bandCount,
  bandIndex,
  bandRoom,
  forestOf,
  HEAD_PX,
  layoutTree,
} from "../../../src/cct/picture/layout.js";
import { payload, realProfile, smallTree } from "../../support/fixtures.js";
import { DRAWN_AT_ONCE, mountRenderer, TIME } from "../../support/mount.js";

const ROW = 28;
/** items of a forest given by its parent column (keys = rows) */
const itemsOf = (parent) => parent.map((p, key) => ({ key, parentKey: p }));
const subtree = (parent, root) => {
  const out = new Set([root]);
  parent.forEach((p, i) => {
    if (out.has(p)) out.add(i);
  });
  return out;
};

describe("bands of several roots", () => {
  // 0: a root with a deep, wide subtree; 6 and 7: two leaf roots; 8: a root with one child
  const parent = [-1, 0, 0, 1, 1, 2, -1, -1, -1, 8];

  test("each root's subtree is a strip of its own, BAND_GAP rows from the next", () => {
    const layout = layoutTree(forestOf(itemsOf(parent)), { rowHeight: ROW }, parent.length);
    expect(layout.bands.map((b) => b.keys)).toEqual([[0], [8], [6, 7]]); // leaf roots share the last one
    for (const band of layout.bands) {
      const keys = new Set(band.keys.flatMap((k) => [...subtree(parent, k)]));
      for (const k of keys) {
        expect(layout.y[k]).toBeGreaterThanOrEqual(band.y0);
        expect(layout.y[k]).toBeLessThanOrEqual(band.y1);
      }
    }
    for (let i = 1; i < layout.bands.length; i++) {
      expect(layout.bands[i].y0 - layout.bands[i - 1].y1).toBeGreaterThanOrEqual(BAND_GAP * ROW - 1e-9);
    }
    expect(layout.y[7] - layout.y[6]).toBe(ROW); // small roots stay one row apart
    expect(layout.headRoom).toBeGreaterThan(0);
  });

  test("small roots before, between and after big ones share one band, the last (lowest)", () => {
    // 0, 3, 6: leaf roots; 1 → 2 and 4 → 5: roots with a child; 7: a leaf root after them
    const forest = [-1, -1, 1, -1, -1, 4, -1, -1];
    const layout = layoutTree(forestOf(itemsOf(forest)), { rowHeight: ROW }, forest.length);
    expect(layout.bands.map((b) => b.keys)).toEqual([[1], [4], [0, 3, 6, 7]]);
    const lowestBig = Math.max(...[1, 2, 4, 5].map((k) => layout.y[k]));
    expect(Math.min(...[0, 3, 6, 7].map((k) => layout.y[k]))).toBeGreaterThanOrEqual(lowestBig + BAND_GAP * ROW);
    expect([0, 3, 6, 7].map((k) => layout.y[k] - layout.y[0])).toEqual([0, ROW, 2 * ROW, 3 * ROW]); // data order
    expect(layout.y[4]).toBeGreaterThan(layout.y[1]); // the big ones keep theirs
  });

  test("band index and count: big roots in data order, then one band for all small ones", () => {
    expect(bandIndex([true, false, true, false, true])).toEqual([2, 0, 2, 1, 2]);
    expect(bandCount([true, false, true, false, true])).toBe(3);
    expect(bandIndex([false, false])).toEqual([0, 1]);
    expect(bandCount([false, false])).toBe(2);
    expect(bandIndex([true, true])).toEqual([0, 0]);
    expect(bandCount([true, true])).toBe(1);
    expect(bandCount([])).toBe(0);
  });

  test("band gaps: BAND_PX in a tall drawing, at most 45 % of a small one's height", () => {
    expect(bandRoom(1, 500)).toEqual({ gap: 0, head: 0, total: 0 });
    const tall = bandRoom(3, 1000);
    expect(tall.gap).toBe(BAND_PX);
    expect(tall.head).toBe(HEAD_PX);
    const small = bandRoom(3, 150); // a column-wide figure's tree
    expect(small.total).toBeCloseTo(0.45 * 150);
    expect(small.gap / small.head).toBeCloseTo(BAND_PX / HEAD_PX);
  });

  test("one root: no bands, no room for headers", () => {
    const one = [-1, 0, 0, 1];
    const layout = layoutTree(forestOf(itemsOf(one)), { rowHeight: ROW }, one.length);
    expect(layout.bands).toEqual([]);
    expect(layout.headRoom).toBe(0);
  });
});

const mount = (spec, state = {}, size = { width: 900, height: 600 }) =>
  mountRenderer(spec, { state: { ...TIME, ...state }, ...size, layout: DRAWN_AT_ONCE });
const headers = (c) => [...c.querySelectorAll(".cct-labels text.cct-band-label")];

describe("band headers and rules", () => {
  test("two roots: a header naming each, one rule between them, no second label for a root", () => {
    const { container } = mount(smallTree());
    const texts = headers(container).map((t) => t.textContent);
    expect(texts).toEqual(["main", "init"]);
    expect(headers(container).map((t) => t.getAttribute("data-band"))).toEqual(["0", "5"]);
    expect(container.querySelectorAll(".cct-bands line.cct-band-rule")).toHaveLength(1);
    const plain = [...container.querySelectorAll(".cct-labels text:not(.cct-band-label)")].map((t) =>
      t.textContent.replace(/ [\d.]+%$/, ""),
    );
    expect(plain).not.toContain("main");
    // the rule lies between the two roots on screen
    const rule = Number(container.querySelector(".cct-band-rule").getAttribute("y1"));
    const svg = container.querySelector("svg.cct-svg");
    const t = svg.querySelector(".cct-viewport").getAttribute("transform");
    const [, ty, k] = /translate\([^,]+,([^)]+)\) scale\(([^)]+)\)/.exec(t).map(Number);
    const screenY = (id) => ty + k * Number(container.querySelector(`[data-id="${id}"].cct-node`).getAttribute("cy"));
    expect(screenY(4)).toBeLessThan(rule); // io, the last row of main's band
    expect(screenY(5)).toBeGreaterThan(rule); // init
  });

  test("a run of small roots is one band headed by their count", () => {
    const spec = payload({
      parent: [-1, 0, 0, -1, -1, -1],
      names: ["main", "a", "b", "x", "y", "z"],
      metrics: { time: [1, 2, 3, 4, 5, 6], "time (inc)": [6, 2, 3, 4, 5, 6] },
      kinds: { time: "exclusive", "time (inc)": "inclusive" },
      partners: { time: "time (inc)", "time (inc)": "time" },
    });
    const { container } = mount(spec);
    expect(headers(container).map((t) => t.textContent)).toEqual(["main", "3 small roots"]);
    // the small roots keep their own labels
    const plain = [...container.querySelectorAll(".cct-labels text:not(.cct-band-label)")].map((t) =>
      t.textContent.replace(/ [\d.]+%$/, ""),
    );
    expect(plain).toEqual(expect.arrayContaining(["x", "y", "z"]));
  });

  test("small roots around the big ones: one band below them all; the keys still follow data order", () => {
    const spec = payload({
      parent: [-1, -1, 1, 1, -1, -1, 5, -1],
      names: ["x", "main", "a", "b", "y", "other", "c", "z"],
      metrics: { time: [1, 1, 2, 3, 4, 1, 6, 7], "time (inc)": [1, 6, 2, 3, 4, 7, 6, 7] },
      kinds: { time: "exclusive", "time (inc)": "inclusive" },
      partners: { time: "time (inc)", "time (inc)": "time" },
    });
    const { container, renderer } = mount(spec);
    expect(headers(container).map((t) => t.textContent)).toEqual(["main", "other", "3 small roots"]);
    expect(container.querySelectorAll(".cct-band-rule")).toHaveLength(2);
    const y = (/** @type {number} */ id) => renderer.screenPosition(id).y;
    const lowestBig = Math.max(...[1, 2, 3, 5, 6].map(y));
    expect(y(0)).toBeGreaterThan(lowestBig);
    expect(y(0)).toBeLessThan(y(4));
    expect(y(4)).toBeLessThan(y(7));
    // ↓ among the roots goes in data order, not down the bands
    const stage = container.querySelector(".cct-stage");
    const press = (/** @type {string} */ k) =>
      stage.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    const visited = [];
    press("ArrowDown"); // the cursor starts on the first item
    for (let i = 0; i < 4; i++) {
      visited.push(renderer.cursor);
      press("ArrowDown");
    }
    visited.push(renderer.cursor);
    expect(visited).toEqual([0, 1, 4, 5, 7]);
  });

  test("a real profile with three roots: every root is named by a band header", async () => {
    const spec = await realProfile("hpctoolkit-allgather");
    const { container } = mount(spec);
    const table = decodeTable(spec);
    const roots = [...table.parent.keys()].filter((r) => table.parent[r] < 0);
    // 1,474 rows: the first picture's labels come in a task after its frame
    expect(container.querySelector("[data-labels='later']")).not.toBeNull();
    await vi.waitFor(() => expect(container.querySelector("[data-labels]")).toBeNull());
    const texts = headers(container).map((t) => t.textContent);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(container.querySelectorAll(".cct-band-rule").length).toBe(texts.length - 1);
    for (const r of roots) {
      const name = table.names[table.nameCode[r]];
      expect(texts.some((t) => name.startsWith(t.replace(/….*$/, "")) || / small roots$/.test(t))).toBe(true);
    }
  });
});
