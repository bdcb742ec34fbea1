import { describe, expect, test } from "vitest";
import { decodeTable } from "../src/cct/data/decode.js";
import { BAND_GAP, BAND_PX, bandRoom, HEAD_PX, itemHierarchy, layoutTree } from "../src/cct/picture/layout.js";
import { payload, realProfile, smallTree } from "./fixtures.js";
import { mountRenderer, TIME } from "./mount.js";

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
    const layout = layoutTree(itemHierarchy(itemsOf(parent)), { rowHeight: ROW }, parent.length);
    expect(layout.bands.map((b) => b.keys)).toEqual([[0], [6, 7], [8]]); // leaf roots share one
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
    const layout = layoutTree(itemHierarchy(itemsOf(one)), { rowHeight: ROW }, one.length);
    expect(layout.bands).toEqual([]);
    expect(layout.headRoom).toBe(0);
  });
});

const mount = (spec, state = {}, size = { width: 900, height: 600 }) =>
  mountRenderer(spec, { state: { ...TIME, ...state }, ...size });
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

  test("a real profile with three roots: every root is named by a band header", async () => {
    const spec = await realProfile("hpctoolkit-allgather");
    const { container } = mount(spec);
    const table = decodeTable(spec);
    const roots = [...table.parent.keys()].filter((r) => table.parent[r] < 0);
    const texts = headers(container).map((t) => t.textContent);
    expect(texts.length).toBeGreaterThanOrEqual(2);
    expect(container.querySelectorAll(".cct-band-rule").length).toBe(texts.length - 1);
    for (const r of roots) {
      const name = table.names[table.nameCode[r]];
      expect(texts.some((t) => name.startsWith(t.replace(/….*$/, "")) || / small roots$/.test(t))).toBe(true);
    }
  });
});
