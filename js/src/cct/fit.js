// Folding to fit: which subtrees to collapse so that the first picture of a tree has readable
// rows. A tidy tree needs one row per leaf (a collapsed glyph, a fold or an aggregate is one
// leaf) and one column per level; when the drawing has room for fewer, the smallest subtrees by
// the size metric fold first — the way Perfetto merges slices under a few pixels and Grafana's
// flame graph groups what it cannot show — and levels beyond the room fold at the last one.
// Pure: a function of the view tree and the values; the renderer applies the result as ordinary
// collapse state (undoable, reported to Python as `collapsed`).

import { withoutFolds } from "./commands.js";
import { metricByName } from "./decode.js";

/** @typedef {import("./view-tree.js").ViewItem} ViewItem */

/**
 * The node ids to collapse so that the tree drawn now fits `room`, sizing subtrees by `sizeBy`:
 * its inclusive value, or the subtree sum of an exclusive metric.
 * @param {import("./decode.js").Table} table
 * @param {ReturnType<typeof import("./view-tree.js").subtreeStats>} stats
 * @param {{ items: ViewItem[] }} tree @param {string} sizeBy @param {{ rows: number, levels: number }} room
 * @returns {number[]} full-tree ids
 */
export function foldsToFit(table, stats, tree, sizeBy, room) {
  const metric = metricByName(table, sizeBy);
  if (!metric) return [];
  const values = withoutFolds(table, stats.sums.get(metric.name) ?? metric.values);
  return foldToFit(tree, (item) => values[item.id], room).map((row) => table.idOf(row));
}

/**
 * @param {{ items: ViewItem[] }} tree the items drawn now, in pre-order
 * @param {(item: ViewItem) => number} sizeOf the size metric of a node item (NaN: unknown, folds first)
 * @param {{ rows: number, levels: number }} room how many leaf rows and depth levels fit
 * @returns {number[]} item ids (rows of the table) of the nodes to collapse, smallest first
 *
 * The hot path — from the largest root, the largest child, repeatedly — stays open within the
 * levels that fit: it is what an analyst looks for first. When a node has more children than
 * there are rows, the picture cannot fit by folding alone; it then folds what it can and the
 * rows get closer than `rowPx` (the labels that collide are left out).
 */
export function foldToFit(tree, sizeOf, { rows, levels }) {
  const { items } = tree;
  /** @type {Map<number, number>} key → index in items */
  const at = new Map(items.map((it, i) => [it.key, i]));
  const parentOf = items.map((it) => (it.parentKey >= 0 ? (at.get(it.parentKey) ?? -1) : -1));
  const depth = new Int32Array(items.length);
  const childCount = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const p = parentOf[i];
    if (p >= 0) {
      depth[i] = depth[p] + 1;
      childCount[p]++;
    }
  }
  // leaf rows under each item, bottom-up (pre-order: children come after their parent)
  const leaves = new Float64Array(items.length);
  for (let i = items.length - 1; i >= 0; i--) {
    if (childCount[i] === 0) leaves[i] = 1;
    const p = parentOf[i];
    if (p >= 0) leaves[p] += leaves[i];
  }
  let total = 0;
  for (let i = 0; i < items.length; i++) if (parentOf[i] < 0) total += leaves[i];

  const folded = new Uint8Array(items.length);
  /** leaf rows a fold took away (to unfold it again) */
  const saved = new Float64Array(items.length);
  /** @type {number[]} indices of the folded items, in folding order */
  const out = [];
  const insideFold = (/** @type {number} */ i) => {
    for (let a = parentOf[i]; a >= 0; a = parentOf[a]) if (folded[a]) return true;
    return false;
  };
  const grow = (/** @type {number} */ i, /** @type {number} */ delta) => {
    leaves[i] += delta;
    for (let a = parentOf[i]; a >= 0; a = parentOf[a]) leaves[a] += delta;
    total += delta;
  };
  const fold = (/** @type {number} */ i) => {
    saved[i] = leaves[i] - 1;
    folded[i] = 1;
    grow(i, -saved[i]);
    out.push(i);
  };
  const ids = () => out.filter((i) => folded[i]).map((i) => items[i].id);
  const foldable = (/** @type {number} */ i) => items[i].kind === "node" && childCount[i] > 0;
  const size = (/** @type {number} */ i) => {
    const v = sizeOf(items[i]);
    return Number.isNaN(v) ? -Infinity : Math.abs(v);
  };
  // the hot path, by item index
  const hot = new Uint8Array(items.length);
  const kids = items.map(() => /** @type {number[]} */ ([]));
  const tops = [];
  for (let i = 0; i < items.length; i++) {
    if (parentOf[i] >= 0) kids[parentOf[i]].push(i);
    else tops.push(i);
  }
  const largest = (/** @type {number[]} */ list) =>
    list.filter((i) => items[i].kind !== "aggregate").reduce((a, b) => (a < 0 || size(b) > size(a) ? b : a), -1);
  for (let i = largest(tops); i >= 0; i = largest(kids[i])) hot[i] = 1;

  // levels beyond the room: the nodes on the last level that fits stand for their subtrees
  const last = Math.max(0, levels - 1);
  for (let i = 0; i < items.length; i++) {
    if (depth[i] === last && foldable(i) && !insideFold(i)) fold(i);
  }
  if (total <= rows) return ids();
  // rows: the smallest subtrees first, until the leaves fit (ties: the deeper first)
  const order = [];
  for (let i = 0; i < items.length; i++) if (foldable(i) && !folded[i] && !hot[i]) order.push(i);
  order.sort((a, b) => size(a) - size(b) || depth[b] - depth[a]);
  const byRows = [];
  for (const i of order) {
    if (total <= rows) break;
    if (!insideFold(i) && leaves[i] > 1) {
      fold(i);
      byRows.push(i);
    }
  }
  // a big fold can overshoot: open again, largest first, what still fits
  for (let j = byRows.length - 1; j >= 0; j--) {
    const i = byRows[j];
    if (!insideFold(i) && total + saved[i] <= rows) {
      folded[i] = 0;
      grow(i, saved[i]);
    }
  }
  return ids();
}

/**
 * How many leaf rows and levels a drawing has room for.
 * @param {{ width: number, height: number }} room screen pixels left for the tree
 * @param {{ rowPx: number, levelPx: number }} minimum readable spacing
 */
export function roomFor(room, { rowPx, levelPx }) {
  return {
    rows: Math.max(1, Math.floor(room.height / rowPx) + 1),
    levels: Math.max(1, Math.floor(room.width / levelPx) + 1),
  };
}
