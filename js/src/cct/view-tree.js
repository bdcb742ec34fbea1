// What is drawn, given the view state: collapsed subtrees, a prune range, a focus node and the
// visible roots. Hidden nodes are never dropped silently: a collapsed node stands for its
// subtree, and the children a prune hides are folded into one aggregate item per parent, whose
// tooltip gives the number of hidden nodes and the sums of their exclusive metrics.
import { childLists } from "./tree.js";

/**
 * @typedef {"node" | "collapsed" | "aggregate"} ItemKind
 * @typedef {object} ViewItem
 * @property {number} key    node id for "node"/"collapsed"; table size + n for aggregates
 * @property {number} id     the node id ("aggregate": its parent's id, or -1 at the top)
 * @property {ItemKind} kind
 * @property {number} parentKey  key of the item drawn as its parent (-1 for a top-level item)
 * @property {number[]} hidden   ids of the roots of the hidden subtrees it stands for
 * @property {boolean} [fold]  an aggregate that is a fold row of level of detail: its row (the
 *   key, and `hidden[0]`) holds the count and sums of nodes Python has not sent
 */

/**
 * Per-node subtree sizes and subtree sums of every exclusive metric (NaN counts as 0 in a sum;
 * a sum over values that are all NaN is NaN). Computed once per table.
 * @param {import("./decode.js").Table} table
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
  // pre-order: every child comes after its parent, so one backward pass accumulates subtrees
  for (let i = n - 1; i >= 0; i--) {
    const p = table.parent[i];
    if (p < 0) continue;
    size[p] += size[i];
    for (const s of sums.values()) {
      const v = s[i];
      if (Number.isNaN(v)) continue;
      s[p] = Number.isNaN(s[p]) ? v : s[p] + v;
    }
  }
  return { size, sums, rootOf, ...childLists(table.parent) };
}

/**
 * Nodes kept by a prune range on `values`, plus their ancestors (kept for context).
 * @param {Float64Array} values
 * @param {Int32Array} parent
 * @param {[number, number]} range inclusive; NaN values are outside every range
 * @returns {Uint8Array} 1 = drawn
 */
export function pruneMask(values, parent, [lo, hi]) {
  const keep = new Uint8Array(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (keep[i] || (v >= lo && v <= hi)) {
      keep[i] = 1;
      if (parent[i] >= 0) keep[parent[i]] = 1;
    }
  }
  return keep;
}

/**
 * @param {import("./decode.js").Table} table
 * @param {ReturnType<typeof subtreeStats>} stats
 * @param {{ collapsed?: Set<number>, keep?: Uint8Array | null, focus?: number | null, roots?: number[] | null }} state
 * @returns {{ items: ViewItem[], byKey: Map<number, ViewItem>, hiddenCount: number }}
 */
export function buildViewTree(table, stats, { collapsed = new Set(), keep = null, focus = null, roots = null } = {}) {
  const items = [];
  let nextAggregate = table.size;
  const starts = focus !== null && focus !== undefined ? [focus] : (roots ?? stats.roots);

  const addAggregate = (parentKey, id, hidden) => {
    items.push({ key: nextAggregate++, id, kind: "aggregate", parentKey, hidden });
  };
  const folded = table.folded;
  const addFold = (row, parentKey) => {
    items.push({ key: row, id: parentKey, kind: "aggregate", parentKey, hidden: [row], fold: true });
  };

  const visit = (id, parentKey) => {
    const children = stats.children[id] ?? [];
    if (collapsed.has(id) && children.length) {
      items.push({ key: id, id, kind: "collapsed", parentKey, hidden: children });
      return;
    }
    items.push({ key: id, id, kind: "node", parentKey, hidden: [] });
    const hidden = [];
    for (const c of children) {
      if (folded?.[c] > 0) addFold(c, id);
      else if (keep && !keep[c]) hidden.push(c);
      else visit(c, id);
    }
    if (hidden.length) addAggregate(id, id, hidden);
  };

  // iterative over the starts, recursive below: depth is bounded by the call paths' depth
  const hiddenStarts = [];
  for (const r of starts) {
    if (folded?.[r] > 0) addFold(r, -1);
    else if (keep && !keep[r]) hiddenStarts.push(r);
    else visit(r, -1);
  }
  if (hiddenStarts.length) addAggregate(-1, -1, hiddenStarts);

  let hiddenCount = 0;
  for (const item of items) {
    if (item.kind !== "node") hiddenCount += hiddenNodes(stats, item);
  }
  return { items, byKey: new Map(items.map((it) => [it.key, it])), hiddenCount };
}

/** How many nodes an item hides (a collapsed node's descendants, an aggregate's subtrees). */
export function hiddenNodes(stats, item) {
  let count = 0;
  for (const h of item.hidden) count += stats.size[h];
  return count;
}

/** Sum of an exclusive metric over what an item hides (a collapsed node: its whole subtree). */
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

/** Ancestors of `id`, root first, `id` last. @param {Int32Array} parent */
export function pathTo(parent, id) {
  const path = [];
  for (let i = id; i >= 0; i = parent[i]) path.push(i);
  return path.reverse();
}

/** Collapsed set that shows the tree down to `depth` (nodes at that depth with children fold). */
export function collapseToDepth(table, stats, depth) {
  const out = new Set();
  for (let i = 0; i < table.size; i++) {
    if (table.depth[i] === depth && stats.children[i]?.length) out.add(i);
  }
  return out;
}

/**
 * The hot path from `start`: repeatedly the child with the largest value (NaN never wins).
 * @returns {number[]} node ids from `start` down
 */
export function hotPath(stats, values, start) {
  const path = [start];
  for (let id = start; ; ) {
    let best = -1;
    for (const c of stats.children[id] ?? []) {
      if (!Number.isNaN(values[c]) && (best < 0 || values[c] > values[best])) best = c;
    }
    if (best < 0) return path;
    path.push(best);
    id = best;
  }
}
