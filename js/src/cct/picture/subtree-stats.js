// What each subtree of a table holds, computed once per table: its size, the sums of its
// exclusive metrics, the maxima of its ratios and maxima, its root; and what a drawn item hides
// (a collapsed node's descendants, an aggregate's subtrees): how many nodes, their sums, their
// largest value.
import { childLists } from "./layout.js";

/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {import("./view-tree.js").ViewItem} ViewItem */

/** Metric kinds whose glyphs show the largest value they hide, not a sum. */
export const MAX_KINDS = new Set(["ratio", "max"]);

/**
 * Subtree sizes, subtree sums of every exclusive metric (NaN counts as 0 in a sum; a sum over
 * values that are all NaN is NaN) and subtree maxima of every ratio or maximum, by row; the
 * roots' rows and each row's children rows. Computed once per table.
 * @param {import("../data/decode.js").Table} table
 */
export function subtreeStats(table) {
  const n = table.size;
  const size = new Int32Array(n).fill(1);
  // a fold row (level of detail) stands for that many nodes, and its values are their sums
  if (table.folded) for (let i = 0; i < n; i++) if (table.folded[i] > 0) size[i] = table.folded[i];
  const rootOf = new Int32Array(n);
  for (let i = 0; i < n; i++) rootOf[i] = table.parent[i] < 0 ? i : rootOf[table.parent[i]];
  const exclusive = table.metrics.filter((m) => m.kind === "exclusive");
  const sums = new Map(exclusive.map((m) => [m.name, Float64Array.from(m.values)]));
  const maxes = new Map(
    table.metrics.filter((m) => MAX_KINDS.has(m.kind)).map((m) => [m.name, Float64Array.from(m.values)]),
  );
  // pre-order: every child comes after its parent, so one backward pass accumulates subtrees
  // (over arrays, not the maps' iterators: no iterator made per node and map)
  const summed = [...sums.values()];
  const maxed = [...maxes.values()];
  const parent = table.parent;
  for (let i = n - 1; i >= 0; i--) {
    const p = parent[i];
    if (p < 0) continue;
    size[p] += size[i];
    for (let j = 0; j < summed.length; j++) {
      const s = summed[j];
      const v = s[i];
      if (Number.isNaN(v)) continue;
      s[p] = Number.isNaN(s[p]) ? v : s[p] + v;
    }
    for (let j = 0; j < maxed.length; j++) {
      const s = maxed[j];
      const v = s[i];
      if (!Number.isNaN(v) && !(s[p] >= v)) s[p] = v;
    }
  }
  return { size, sums, maxes, rootOf, ...childLists(table.parent) };
}

/**
 * How many nodes an item hides (a collapsed node's descendants, an aggregate's subtrees).
 * @param {{ size: Int32Array }} stats @param {{ hidden: Row[] }} item
 */
export function hiddenNodes(stats, item) {
  let count = 0;
  for (const h of item.hidden) count += stats.size[h];
  return count;
}

/**
 * Sum of an exclusive metric over what an item hides (a collapsed node: its whole subtree).
 * @param {{ sums: Map<string, Float64Array> }} stats @param {{ kind: string, id: Row, hidden: Row[] }} item
 * @param {string} metric
 */
export function hiddenSum(stats, item, metric) {
  const sums = stats.sums.get(metric);
  if (!sums) return Number.NaN;
  const parts = item.kind === "collapsed" ? [item.id] : item.hidden;
  let total = Number.NaN;
  for (const h of parts) {
    const v = sums[h];
    if (!Number.isNaN(v)) total = Number.isNaN(total) ? v : total + v;
  }
  return total;
}

/**
 * The largest value of a ratio or maximum `metric` that an item hides (a collapsed node: in
 * its whole subtree, itself included); NaN if none.
 * @param {ReturnType<typeof subtreeStats>} stats @param {ViewItem} item @param {string} metric
 */
export function hiddenMax(stats, item, metric) {
  const maxes = stats.maxes.get(metric);
  if (!maxes) return Number.NaN;
  let best = Number.NaN;
  for (const h of item.kind === "collapsed" ? [item.id] : item.hidden) {
    const v = maxes[h];
    if (!Number.isNaN(v) && !(best >= v)) best = v;
  }
  return best;
}
