// Folding to fit: which subtrees to collapse so that the first picture of a tree has readable
// rows. A tidy tree needs one row per leaf (a collapsed glyph, a fold or an aggregate is one
// leaf) and one column per level; when the drawing has room for fewer, the smallest subtrees by
// the size metric fold first — the way Perfetto merges slices under a few pixels and Grafana's
// flame graph groups what it cannot show — and levels beyond the room fold at the last one.
// Pure: a function of the view tree and the values; the renderer applies the result as ordinary
// collapse state (undoable, reported to Python as `collapsed`).

import { metricByName, withoutFolds } from "../data/decode.js";
import { bandCount, bandRoom } from "./layout.js";

/** @typedef {import("./view-tree.js").ViewItem} ViewItem */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** A small figure's bands at most, its small roots folded (its hot path's labels need the room). */
const MAX_BANDS = 3;

/** A node item's size by `sizeBy`: its inclusive value, or the subtree sum of an exclusive
 * metric; null without that metric.
 * @param {import("../data/decode.js").Table} table @param {ReturnType<typeof import("./subtree-stats.js").subtreeStats>} stats
 * @param {string} sizeBy @returns {((item: ViewItem) => number) | null} */
function sizesOf(table, stats, sizeBy) {
  const metric = metricByName(table, sizeBy);
  if (!metric) return null;
  const values = withoutFolds(table, stats.sums.get(metric.name) ?? metric.values);
  return (item) => values[item.id];
}

/**
 * The roots a small figure folds into the band of small roots, the smallest first (those below 2 %
 * of the largest one), until at most MAX_BANDS bands are left.
 * @param {ViewItem[]} tops @param {(item: ViewItem) => number} sizeOf @param {boolean[]} small
 *   whether each top is a small root (a leaf, or folded here: changed in place)
 * @returns {Set<number>} their item keys
 */
function minorRoots(tops, sizeOf, small) {
  const size = (/** @type {number} */ i) => Math.abs(sizeOf(tops[i])) || 0;
  const most = Math.max(0, ...tops.map((_, i) => size(i)));
  const minor = new Set();
  for (const i of [...small.keys()].sort((a, b) => size(a) - size(b))) {
    if (bandCount(small) <= MAX_BANDS) break;
    if (small[i] || size(i) >= 0.02 * most) continue;
    small[i] = true;
    minor.add(tops[i].key);
  }
  return minor;
}

/**
 * @param {{ items: ViewItem[] }} tree the items drawn now, in pre-order
 * @param {(item: ViewItem) => number} sizeOf the size metric of a node item (NaN: unknown, folds first)
 * @param {{ rows: number, levels: number, hotToo?: boolean, minor?: Set<number>, keep?: Set<number> }} room
 *   how many leaf rows and depth levels fit; `hotToo`: fold the hot path too, from its end up, where
 *   folding the rest is not enough; `minor`: the keys of roots to fold first (a small figure's small
 *   roots); `keep`: rows (items' `id`) never folded (the ancestors of what a figure must show)
 * @returns {import("../data/ids.js").Row[]} the rows (items' `id`) of the nodes to collapse, smallest first
 *
 * The hot path — from the largest root, the largest child, repeatedly — stays open within the
 * levels that fit: it is what an analyst looks for first. When a node has more children than
 * there are rows, the picture cannot fit by folding the rest alone; it then folds what it can and
 * the rows get closer than `rowPx` (the labels that collide are left out) — or, with `hotToo` (a
 * small figure, where marks would overlap), folds the hot path below its top as well.
 */
export function foldToFit(tree, sizeOf, { rows, levels, hotToo = false, minor = new Set(), keep = new Set() }) {
  const { items } = tree;
  const n = items.length;
  // typed arrays over item indices, not Maps and a list per item: at 10^5 items this runs in a
  // first picture's task (item keys are non-negative: rows, and past them aggregates)
  let maxKey = 0;
  for (const it of items) if (it.key > maxKey) maxKey = it.key;
  const indexOf = new Int32Array(maxKey + 1).fill(-1);
  for (let i = 0; i < n; i++) indexOf[items[i].key] = i;
  const parentOf = new Int32Array(n);
  const depth = new Int32Array(n);
  const childCount = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const pk = items[i].parentKey;
    const p = pk >= 0 && pk <= maxKey ? indexOf[pk] : -1;
    parentOf[i] = p;
    if (p >= 0) {
      depth[i] = depth[p] + 1;
      childCount[p]++;
    }
  }
  // leaf rows under each item, bottom-up (pre-order: children come after their parent)
  const leaves = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (childCount[i] === 0) leaves[i] = 1;
    const p = parentOf[i];
    if (p >= 0) leaves[p] += leaves[i];
  }
  let total = 0;
  for (let i = 0; i < n; i++) if (parentOf[i] < 0) total += leaves[i];

  const folded = new Uint8Array(n);
  /** leaf rows a fold took away (to unfold it again) */
  const saved = new Float64Array(n);
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
  // the live view keeps the folds inside folds: opening an outer one (a search step to a match in
  // it) then opens one level, not the whole subtree; a figure draws only the outer ones
  const ids = () => out.filter((i) => folded[i] && !(hotToo && insideFold(i))).map((i) => items[i].id);
  const foldable = (/** @type {number} */ i) => items[i].kind === "node" && childCount[i] > 0 && !keep.has(items[i].id);
  /** the size of each item: |value|, -Infinity for an unknown one */
  const size = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = sizeOf(items[i]);
    size[i] = Number.isNaN(v) ? Number.NEGATIVE_INFINITY : Math.abs(v);
  }
  // the hot path, by item index: the first largest of the tops, then of its children, repeatedly
  const hot = new Uint8Array(n);
  const kidStart = new Int32Array(n + 1); // the children of item i: kids[kidStart[i] … kidStart[i + 1]]
  for (let i = 0; i < n; i++) kidStart[i + 1] = kidStart[i] + childCount[i];
  const kids = new Int32Array(n);
  const filled = kidStart.slice(0, n);
  const tops = [];
  for (let i = 0; i < n; i++) {
    if (parentOf[i] >= 0) kids[filled[parentOf[i]]++] = i;
    else tops.push(i);
  }
  const largest = (/** @type {ArrayLike<number>} */ list) => {
    let best = -1;
    for (let k = 0; k < list.length; k++) {
      const j = list[k];
      if (items[j].kind !== "aggregate" && (best < 0 || size[j] > size[best])) best = j;
    }
    return best;
  };
  for (let i = largest(tops); i >= 0; i = largest(kids.subarray(kidStart[i], kidStart[i + 1]))) hot[i] = 1;

  for (let i = 0; i < n; i++) if (minor.has(items[i].key) && foldable(i)) fold(i);
  // levels beyond the room: the nodes on the last level that fits stand for their subtrees
  const last = Math.max(0, levels - 1);
  for (let i = 0; i < items.length; i++) {
    if (depth[i] === last && foldable(i) && !insideFold(i)) fold(i);
  }
  if (total <= rows) return ids();
  // rows: the smallest subtrees first, until the leaves fit (ties: the deeper first)
  const order = [];
  for (let i = 0; i < items.length; i++) if (foldable(i) && !folded[i] && !hot[i]) order.push(i);
  order.sort((a, b) => size[a] - size[b] || depth[b] - depth[a]);
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
  // a figure rather folds the hot path, from its end up, than squeezes rows until marks overlap:
  // below two thirds of the spacing its first four nodes stay (the fourth one maybe folded); below
  // a sixth (its smallest marks, staggered, would overlap: mark-room.js) only its root. There it
  // folds the chains beside the hot path too: their columns leave its labels room (hot[-1]: none)
  for (let i = n - 1; hotToo && i > 0; i--) {
    const beside = total > 1.5 * rows && hot[parentOf[i]] && !hot[i];
    const squeezed = hot[i] && depth[i] && total > (depth[i] >= 3 ? 1.5 : 6) * rows;
    if ((beside || squeezed) && foldable(i) && !folded[i] && !insideFold(i)) fold(i);
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

/**
 * The node ids a first picture collapses so that it fits `free` (screen pixels: the camera's
 * room) at readable spacing (`minRowPx`, `minLevelWidth`), sizing subtrees by `sizeBy`. The bands
 * of several roots take room of their own (see layout.js): BAND_PX between two bands (the small
 * roots are one band) and HEAD_PX above the first.
 * @param {import("./picture.js").Picture} picture
 * @param {{ width: number, height: number }} free @param {string} sizeBy
 * @param {Iterable<NodeId>} [shown] full-tree ids whose ancestors stay open (a figure's selection)
 * @returns {import("../data/ids.js").NodeId[]} full-tree ids
 */
export function foldsOfPicture({ table, stats, tree, sizes }, free, sizeBy, shown = []) {
  const { items } = tree;
  const parents = new Set(items.map((it) => it.parentKey));
  const tops = items.filter((it) => it.parentKey === -1);
  const sizeOf = sizesOf(table, stats, sizeBy);
  if (!sizeOf) return [];
  // a small figure folds its small roots into one band: fewer bands, more room for the largest
  const small = tops.map((it) => !parents.has(it.key));
  const minor = sizes.foldHotPath ? minorRoots(tops, sizeOf, small) : new Set();
  const bands = tops.length > 1 ? bandCount(small) : 0;
  const height = Math.max(sizes.minRowPx, free.height - bandRoom(bands, free.height).total);
  const room = roomFor({ width: free.width, height }, { rowPx: sizes.minRowPx, levelPx: sizes.minLevelWidth });
  /** @type {Set<number>} */
  const keep = new Set();
  for (const id of shown) {
    const row = table.rowOf(id);
    if (row < 0) continue;
    for (let p = table.parent[row]; p >= 0; p = table.parent[p]) keep.add(p);
  }
  const rows = foldToFit(tree, sizeOf, { ...room, hotToo: sizes.foldHotPath, minor, keep });
  return rows.map((row) => table.idOf(row));
}

/** Own changes whose folds open when an ensemble's rings arrive: the largest few. */
const CHANGES_OPENED = 12;

/**
 * The folds of a first picture (`fitted`) that hide an ensemble's own changes, the largest
 * `limit` of them by |change|: the rings come after the first picture (Python finds them once it
 * is drawn), and a ring inside a fold is no ring. Folds the user made are not in `fitted`: they
 * stay.
 * @param {import("../data/decode.js").Table} table @param {NodeId[]} collapsed
 * @param {Set<NodeId>} fitted @param {number} [limit]
 * @returns {Set<NodeId>} the collapsed ids to open
 */
export function foldsOverChanges(table, collapsed, fitted, limit = CHANGES_OPENED) {
  const open = new Set();
  const changes = table.changes;
  const closed = new Set(collapsed.filter((id) => fitted.has(id)));
  if (!changes || !closed.size) return open;
  const values = metricByName(table, changes.metric)?.values;
  const size = (/** @type {number} */ row) => Math.abs(values?.[row] ?? 0) || 0;
  const own = [];
  for (let row = 0; row < table.size; row++) if (changes.cause[row] === 1) own.push(row);
  own.sort((a, b) => size(b) - size(a));
  for (const row of own.slice(0, limit)) {
    for (let p = table.parent[/** @type {import("../data/ids.js").Row} */ (row)]; p >= 0; p = table.parent[p]) {
      const id = table.idOf(p);
      if (closed.has(id)) open.add(id);
    }
  }
  return open;
}
