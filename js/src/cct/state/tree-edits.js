// The tree edits of the tree commands (toolbar, gestures, keyboard) as pure functions: each takes
// the table, its subtree statistics and the state (full-tree ids) and returns the change to
// apply, also in full-tree ids. Nothing here touches the DOM or holds state; the renderer applies the
// result through the store.
import { metricByName, withoutFolds } from "../data/decode.js";
import { asRow } from "../data/ids.js";
import { hotPath as hotPathRows } from "../picture/view-tree.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {{ children: Row[][], roots: Row[] }} Stats */

/**
 * Full-tree ids of the children of node `id` that the table has (fold rows are not nodes).
 * @param {Table} table @param {Stats} stats @param {NodeId} id
 * @returns {NodeId[]}
 */
export function childIds(table, stats, id) {
  const row = table.rowOf(id);
  if (row < 0) return [];
  const out = [];
  for (const c of stats.children[row] ?? []) {
    const cid = table.idOf(c);
    if (cid >= 0) out.push(cid);
  }
  return out;
}

/** Whether node `id` has children to collapse (drawn ones or a fold). */
export function hasChildren(/** @type {Table} */ table, /** @type {Stats} */ stats, /** @type {NodeId} */ id) {
  const row = table.rowOf(id);
  return row >= 0 && (stats.children[row]?.length ?? 0) > 0;
}

/** @type {WeakMap<Table, NodeId[]>} */
const rootsMemo = new WeakMap();
/** Full-tree ids of the roots, read from the parents (not the subtree statistics: receiving a
 * big table names its roots in the toolbar without them). @param {Table} table @returns {NodeId[]} */
export function rootIds(table) {
  let ids = rootsMemo.get(table);
  if (!ids) {
    ids = [];
    for (let n = 0; n < table.size; n++) {
      const row = asRow(n);
      if (table.parent[row] >= 0) continue;
      const id = table.idOf(row);
      if (id >= 0) ids.push(/** @type {NodeId} */ (id));
    }
    rootsMemo.set(table, ids);
  }
  return ids;
}

/**
 * The node ids collapsed so that the tree shows down to `depth` (nodes at that depth with
 * children fold).
 * @param {Table} table @param {Stats} stats @param {number} depth
 * @returns {Partial<ViewState>}
 */
export function collapseToDepth(table, stats, depth) {
  if (!(Number.isInteger(depth) && depth >= 0)) throw new RangeError(`depth must be a whole number ≥ 0; got ${depth}`);
  const collapsed = [];
  for (let n = 0; n < table.size; n++) {
    const row = asRow(n);
    const id = table.idOf(row);
    if (id >= 0 && table.depth[row] === depth && stats.children[row]?.length) collapsed.push(id);
  }
  return { collapsed };
}

/**
 * Collapse or expand node `id` (a leaf has nothing to collapse: no change).
 * @param {Table} table @param {Stats} stats @param {ViewState} view @param {NodeId} id
 * @returns {Partial<ViewState> | null}
 */
export function toggleCollapse(table, stats, view, id) {
  if (!hasChildren(table, stats, id)) return null;
  const collapsed = new Set(view.collapsed);
  if (collapsed.has(id)) collapsed.delete(id);
  else collapsed.add(id);
  return { collapsed: [...collapsed] };
}

/**
 * The values the hot path follows: the inclusive partner of the colour metric if it has one,
 * with fold rows (sums of nodes not sent) as missing, since they are not nodes.
 * @param {Table} table @param {ViewState} view
 */
export function hotValues(table, view) {
  const m = metricByName(table, view.colorBy);
  if (!m) throw new RangeError(`unknown colour metric ${JSON.stringify(view.colorBy)}`);
  const inc = m.kind === "inclusive" ? m : ((m.partner ? metricByName(table, m.partner) : null) ?? m);
  return withoutFolds(table, inc.values);
}

/**
 * From `start`, open the child with the largest inclusive value, repeatedly; fold the siblings
 * along the path (those with children) so that the path stands out.
 * @param {Table} table @param {Stats} stats @param {ViewState} view @param {NodeId} start
 * @returns {{ change: Partial<ViewState>, path: NodeId[] }} path: full-tree ids from `start` down
 */
export function hotPath(table, stats, view, start) {
  const rows = hotPathRows(stats, hotValues(table, view), table.rowOf(start));
  const path = rows.map((r) => table.idOf(r));
  const open = new Set(path);
  const collapsed = new Set(view.collapsed.filter((id) => !open.has(id)));
  for (const id of path) {
    for (const c of childIds(table, stats, id)) if (!open.has(c) && hasChildren(table, stats, c)) collapsed.add(c);
  }
  return { change: { collapsed: [...collapsed] }, path };
}

/**
 * Show or hide root `id` in the roots menu; all shown again is `null`.
 * @param {Table} table @param {ViewState} view @param {NodeId} id
 * @returns {Partial<ViewState>}
 */
export function toggleRoot(table, view, id) {
  const all = rootIds(table);
  const shown = new Set(view.roots ?? all);
  if (shown.has(id)) shown.delete(id);
  else shown.add(id);
  const roots = all.filter((r) => shown.has(r));
  return { roots: roots.length === all.length ? null : roots };
}

/**
 * Both metrics swapped for their inclusive (or exclusive) partners, where they have one.
 * @param {Table} table @param {ViewState} view @param {boolean} inclusive
 * @returns {Partial<ViewState>}
 */
export function inclusiveMetrics(table, view, inclusive) {
  /** @param {string} name */
  const partnerOf = (name) => {
    const m = metricByName(table, name);
    if (!m?.partner) return name;
    return (m.kind === "inclusive") === inclusive ? name : m.partner;
  };
  return { colorBy: partnerOf(view.colorBy), sizeBy: partnerOf(view.sizeBy) };
}

/**
 * The selection with every loaded descendant of the selected nodes added.
 * @param {Table} table @param {Stats} stats @param {NodeId[]} selection
 */
export function withDescendants(table, stats, selection) {
  const out = new Set(selection);
  const stack = [...selection];
  while (stack.length) {
    const id = /** @type {NodeId} */ (stack.pop());
    for (const c of childIds(table, stats, id)) {
      if (!out.has(c)) {
        out.add(c);
        stack.push(c);
      }
    }
  }
  return [...out];
}

/** The whole tree again: nothing collapsed, pruned, focused or searched; every root. */
export const RESET = Object.freeze({ collapsed: [], prune: null, focus: null, roots: null, search: "" });
