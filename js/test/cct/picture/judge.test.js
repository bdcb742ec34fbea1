// "Too small to judge" (issue 28.4): under a colour metric that does not add up, nodes that
// cost almost nothing are grey, outside the colour scale, and say so.

import { select } from "d3-selection";
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { createChrome } from "../../../src/cct/draw/chrome.js";
import { drawLegends } from "../../../src/cct/draw/legend/view-legends.js";
import { tooltipContent } from "../../../src/cct/draw/tooltip/tooltip-content.js";
import { judged, judgedKey, judgedMax, judgedText } from "../../../src/cct/picture/judge.js";
import { forestOf, layoutTree, placeLevels } from "../../../src/cct/picture/layout.js";
import { computeMarks } from "../../../src/cct/picture/scene.js";
import { subtreeStats } from "../../../src/cct/picture/subtree-stats.js";
import { buildViewTree } from "../../../src/cct/picture/view-tree.js";
import { VIEW_DEFAULTS } from "../../../src/contract.js";
import { payload } from "../../support/fixtures.js";

// main (1000) → solve (900, imbalance 1.01), init (95, imbalance 1.2), once (5: one rank, 64)
function imbalanceTable() {
  return decodeTable(
    payload({
      parent: [-1, 0, 0, 0, 2],
      names: ["main", "solve", "init", "once", "init_once"],
      metrics: {
        "time (inc)": [1.05, 1.01, 1.2, 64, 30],
        "time (inc) (mean)": [1000, 900, 95, 5, 2],
      },
      kinds: { "time (inc)": "ratio", "time (inc) (mean)": "inclusive" },
      reducer: "imbalance",
    }),
  );
}

const view = (over = {}) => ({
  ...VIEW_DEFAULTS,
  colorBy: "time (inc)",
  sizeBy: "time (inc) (mean)",
  ...over,
});

function marksOf(table, state) {
  const stats = subtreeStats(table);
  const v = view(state);
  const tree = buildViewTree(table, stats, { collapsed: new Set(v.collapsed) });
  const keys = tree.items.reduce((m, it) => Math.max(m, it.key), 0) + 1;
  const layout = layoutTree(forestOf(tree.items), { rowHeight: 28 }, keys);
  placeLevels(layout, 100);
  return computeMarks({ table, stats, tree, layout, view: v, sizes: { rMin: 2.5, rMax: 12, aggregateFill: "#999" } });
}

describe("too small to judge", () => {
  test("nodes under the share of the size metric's total are grey and off the colour scale", () => {
    const table = imbalanceTable();
    const j = judged(table, view());
    expect(j?.count).toBe(2); // once (0.5 %) and init_once (0.2 %) under 1 % of 1000
    expect([...(j?.small ?? [])]).toEqual([0, 0, 0, 1, 1]);
    const scene = marksOf(table, {});
    // the one-rank node's 64 no longer takes the top of the scale: the kernels' range does
    expect(scene.color.domain).toEqual([1.01, 1.2]);
    expect(scene.marks[3]).toMatchObject({ small: true, fill: "#d4d4d4" });
    expect(scene.marks[1].small).toBe(false);
    expect(scene.marks[1].fill).not.toBe("#d4d4d4");
  });

  test("0 judges every node; a colour metric that adds up is never judged", () => {
    const table = imbalanceTable();
    expect(judged(table, view({ judgeBelow: 0 }))).toBeNull();
    expect(marksOf(table, { judgeBelow: 0 }).color.domain).toEqual([1.01, 64]);
    expect(judged(table, view({ colorBy: "time (inc) (mean)" }))).toBeNull();
    // a higher threshold judges more
    expect(judged(table, view({ judgeBelow: 0.1 }))?.count).toBe(3);
  });

  test("a collapsed glyph shows the largest value of what it hides that is judged", () => {
    const table = imbalanceTable();
    const j = /** @type {import("../../../src/cct/picture/judge.js").Judged} */ (judged(table, view()));
    // init (1.2) hides init_once (30, too small): the glyph shows 1.2, not 30
    expect(judgedMax(j, { kind: "collapsed", id: 2, hidden: [] })).toBe(1.2);
    expect(judgedMax(j, { kind: "aggregate", id: 0, hidden: [3] })).toBeNaN();
    const scene = marksOf(table, { collapsed: [2] });
    const glyph = scene.marks.find((m) => m?.ref === 2);
    expect(glyph?.shape).toBe("triangle");
    expect(glyph?.fill).toBe(scene.color.color(1.2));
  });

  test("the tooltip and the legend say it, with the share and the threshold", () => {
    const table = imbalanceTable();
    const j = judged(table, view());
    expect(judgedText(j, 3)).toBe("too small to judge: 0.50 % of time (inc) (mean), under 1 %");
    expect(judgedText(j, 1)).toBe("");
    expect(judgedKey(j)).toBe("too small to judge: under 1 % of time (inc) (mean)");
    expect(judgedKey(judged(table, view({ judgeBelow: 0 })))).toBeNull();
    // the legend draws a grey key that says so
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    const layer = select(svg).append("g");
    const scene = marksOf(table, {});
    const legend = { legends: [{ tree: null, scale: scene.color }], size: scene.size, colorTitle: "c" };
    drawLegends(layer, { ...legend, sizeTitle: "s", onTop: false, scale: 1, small: judgedKey(j) });
    const key = svg.querySelector(".cct-small-key");
    expect(key?.textContent).toContain("too small to judge");
    expect(key?.querySelector("title")?.textContent).toContain("under 1 % of time (inc) (mean)");
    expect(key?.querySelector("circle")?.getAttribute("fill")).toBe("#d4d4d4");
    drawLegends(layer, { ...legend, sizeTitle: "s", onTop: false, scale: 1, small: null });
    expect(svg.querySelector(".cct-small-key")).toBeNull();
    const tip = tooltipContent(document, table, 3, { ...view(), judged: j });
    expect(tip.querySelector(".cct-tooltip-small")?.textContent).toContain("too small to judge");
    const kernel = tooltipContent(document, table, 1, { ...view(), judged: j });
    expect(kernel.querySelector(".cct-tooltip-small")).toBeNull();
  });

  test("a ratio with no value under the imbalance reducer is none, not missing from the profile", () => {
    const table = decodeTable(
      payload({
        parent: [-1, 0],
        names: ["main", "idle"],
        metrics: { "time (inc)": [1.2, Number.NaN], "time (inc) (mean)": [10, 0] },
        kinds: { "time (inc)": "ratio", "time (inc) (mean)": "inclusive" },
        reducer: "imbalance",
      }),
    );
    const tip = tooltipContent(document, table, 1, view({ judgeBelow: 0 }));
    const text = tip.textContent ?? "";
    expect(text).toContain("none (imbalance of zeros, or of no values)");
    expect(text).not.toContain("missing (no value in the profile)");
  });

  test("the status line's hover text holds the whole line, then how the kinds were decided", () => {
    const root = document.createElement("div");
    const chrome = createChrome(root);
    chrome.setStatus({ text: "1,474 nodes · 1 root · kinds: name pairs", title: "time: exclusive (why)" });
    const status = /** @type {HTMLElement} */ (root.querySelector(".cct-status"));
    expect(status.title).toBe("1,474 nodes\n1 root\nkinds: name pairs\n\ntime: exclusive (why)");
  });
});
