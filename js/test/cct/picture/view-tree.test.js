import { describe, expect, test } from "vitest";
import { SLICE_ITEMS } from "../../../src/cct/base/steps.js";
import { decodeTable, metricByName } from "../../../src/cct/data/decode.js";
import { hiddenNodes, hiddenSum, subtreeStats } from "../../../src/cct/picture/subtree-stats.js";
import {
  buildViewTree,
  hotPath,
  pathTo,
  pruneMask,
  viewItems,
  viewTreeSteps,
} from "../../../src/cct/picture/view-tree.js";
import { collapseToDepth as collapseIds } from "../../../src/cct/state/tree-edits.js";
import { randomTree, realProfile, smallTree } from "../../support/fixtures.js";

const REAL = ["hpctoolkit-allgather", "caliper-sw4-cuda", "gprof2dot-cpi", "tau-cpi-mpi"];

/** Descendants of `id` (itself included), by walking parent links: independent of view-tree.js. */
function subtreeOf(table, id) {
  const out = [];
  for (let i = 0; i < table.size; i++) {
    for (let p = i; p >= 0; p = table.parent[p]) {
      if (p === id) {
        out.push(i);
        break;
      }
    }
  }
  return out;
}

/** Sum ignoring missing values; NaN when every value is missing (missing is not zero). */
const sumOf = (values, ids) => {
  const present = ids.map((i) => values[i]).filter((v) => !Number.isNaN(v));
  return present.length ? present.reduce((a, b) => a + b, 0) : Number.NaN;
};
const expectSame = (actual, expected) => {
  if (Number.isNaN(expected)) expect(actual).toBeNaN();
  else expect(actual).toBeCloseTo(expected, 6);
};

describe.each(REAL)("collapse on the real profile %s", (name) => {
  test("a collapsed subtree's aggregate equals the sum of its nodes' exclusive values", async () => {
    const table = decodeTable(await realProfile(name));
    const stats = subtreeStats(table);
    const exclusive = table.metrics.filter((m) => m.kind === "exclusive");
    // collapse every node at depth 1 that has children
    const collapsed = new Set(collapseIds(table, stats, 1).collapsed); // ids are rows: no level of detail
    const { items, hiddenCount } = buildViewTree(table, stats, { collapsed });
    const folded = items.filter((it) => it.kind === "collapsed");
    expect(folded.length).toBe(collapsed.size);
    let hidden = 0;
    for (const item of folded) {
      const members = subtreeOf(table, item.id);
      expect(hiddenNodes(stats, item)).toBe(members.length - 1);
      hidden += members.length - 1;
      for (const m of exclusive) {
        expectSame(hiddenSum(stats, item, m.name), sumOf(m.values, members));
      }
    }
    expect(hiddenCount).toBe(hidden);
    // every node is drawn or hidden, never both, never lost
    expect(items.filter((it) => it.kind !== "aggregate").length + hidden).toBe(table.size);
  });

  test("pruning keeps in-range nodes and their ancestors, folding the rest into aggregates", async () => {
    const table = decodeTable(await realProfile(name));
    const stats = subtreeStats(table);
    const metric = table.metrics.find((m) => m.kind === "exclusive") ?? table.metrics[0];
    const finite = [...metric.values].filter(Number.isFinite).sort((a, b) => a - b);
    const lo = finite[Math.floor(finite.length * 0.8)];
    const range = [lo, finite.at(-1)];
    const keep = pruneMask(metric.values, table.parent, range);
    const { items, hiddenCount } = buildViewTree(table, stats, { keep });
    const drawn = new Set(items.filter((it) => it.kind === "node").map((it) => it.id));
    for (let i = 0; i < table.size; i++) {
      const inRange = metric.values[i] >= range[0] && metric.values[i] <= range[1];
      if (inRange) for (const a of pathTo(table.parent, i)) expect(drawn.has(a)).toBe(true);
    }
    for (const id of drawn) {
      const inRange = metric.values[id] >= range[0] && metric.values[id] <= range[1];
      const hasKeptDescendant = subtreeOf(table, id).some(
        (d) => metric.values[d] >= range[0] && metric.values[d] <= range[1],
      );
      expect(inRange || hasKeptDescendant).toBe(true);
    }
    expect(drawn.size + hiddenCount).toBe(table.size);
    // aggregates carry the exclusive sums of the subtrees they hide
    for (const item of items.filter((it) => it.kind === "aggregate")) {
      const members = item.hidden.flatMap((h) => subtreeOf(table, h));
      expectSame(hiddenSum(stats, item, metric.name), sumOf(metric.values, members));
    }
  });
});

describe("view tree", () => {
  test("focus shows one subtree; visible roots choose trees", () => {
    const table = decodeTable(smallTree());
    const stats = subtreeStats(table);
    expect(buildViewTree(table, stats, { focus: 1 }).items.map((it) => it.id)).toEqual([1, 2, 3]);
    expect(buildViewTree(table, stats, { roots: [5] }).items.map((it) => it.id)).toEqual([5]);
    expect(buildViewTree(table, stats).items.length).toBe(6);
  });

  test("a whole root pruned away becomes one top-level aggregate", () => {
    const table = decodeTable(smallTree());
    const stats = subtreeStats(table);
    const keep = pruneMask(metricByName(table, "time (inc)").values, table.parent, [40, 50]);
    const { items } = buildViewTree(table, stats, { keep });
    const top = items.filter((it) => it.parentKey === -1);
    expect(top.map((it) => it.kind)).toEqual(["node", "aggregate"]);
    expect(top[1].hidden).toEqual([5]);
  });

  test("collapse to depth and the hot path", () => {
    const table = decodeTable(smallTree());
    const stats = subtreeStats(table);
    expect(collapseIds(table, stats, 1).collapsed).toEqual([1]);
    expect(hotPath(stats, metricByName(table, "time (inc)").values, 0)).toEqual([0, 1, 2]);
    expect(pathTo(table.parent, 3)).toEqual([0, 1, 3]);
  });
});

describe.each(REAL)("view items in full-tree ids on the real profile %s", (name) => {
  test("every node of the trees shown is drawn or counted as hidden, once", async () => {
    const table = decodeTable(await realProfile(name));
    const stats = subtreeStats(table);
    const values = (table.metrics.find((m) => m.kind === "exclusive") ?? table.metrics[0]).values;
    const finite = [...values].filter(Number.isFinite).sort((a, b) => a - b);
    const withChildren = [...Array(table.size).keys()].filter((i) => stats.children[i]?.length);
    const states = [
      {},
      { collapsed: withChildren.filter((_, k) => k % 3 === 0) },
      { prune: [finite[Math.floor(finite.length / 2)], finite.at(-1)] },
      {
        collapsed: withChildren.filter((_, k) => k % 2 === 0),
        prune: [finite[0], finite[Math.floor(finite.length / 3)]],
      },
      { roots: stats.roots.slice(0, 1) },
      { roots: [] },
      { focus: withChildren[Math.floor(withChildren.length / 2)], collapsed: withChildren.slice(-3) },
    ];
    for (const state of states) {
      const { items, hiddenCount } = viewItems(table, { ...state, values });
      const drawn = items.filter((it) => it.id !== null).map((it) => it.id);
      expect(new Set(drawn).size).toBe(drawn.length);
      const shown = new Set(drawn);
      for (const it of items) if (it.parent >= 0) expect(shown.has(it.parent)).toBe(true);
      const starts = state.focus !== undefined ? [state.focus] : (state.roots ?? stats.roots);
      const expected = starts.reduce((n, r) => n + stats.size[r], 0);
      expect(drawn.length + hiddenCount).toBe(expected);
    }
  });
});

describe("a big view tree in slices", () => {
  /** @returns {[number, object]} how many times the steps yielded, and what they returned */
  const run = (steps) => {
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    return [yields, step.value];
  };
  test("yields every SLICE_ITEMS items made and read, and makes what the tree at once makes", () => {
    const table = decodeTable(randomTree(41_000, 3));
    const stats = subtreeStats(table);
    // 41,000 items: made, a yield after every SLICE_ITEMS (5,000: 8 yields); read, the same again
    const [yields, tree] = run(viewTreeSteps(table, stats, {}));
    expect(yields).toBe(2 * Math.floor(41_000 / SLICE_ITEMS));
    expect(tree.items).toHaveLength(41_000);
    expect(tree.items).toEqual(buildViewTree(table, stats).items);
    expect([...tree.byKey.keys()]).toEqual(tree.items.map((it) => it.key));
    expect(tree.byKey.get(tree.items[40_999].key)).toBe(tree.items[40_999]);
    // a collapsed subtree and a prune's aggregates: the same as at once, hidden nodes counted
    const collapsed = new Set([stats.children[stats.roots[0]][0]]);
    const keep = pruneMask(metricByName(table, "time").values, table.parent, [50, 100]);
    const [, sliced] = run(viewTreeSteps(table, stats, { collapsed, keep }));
    const whole = buildViewTree(table, stats, { collapsed, keep });
    expect(sliced.items).toEqual(whole.items);
    expect(sliced.hiddenCount).toBe(whole.hiddenCount);
    expect(sliced.hiddenCount).toBeGreaterThan(0);
  }, 30_000);
});
