// What is drawn, given the view state: collapsed subtrees, a prune range, a focus node and the
// visible roots. Hidden nodes are never dropped silently: a collapsed node stands for its
// subtree, and the children a prune hides are folded into one aggregate item per parent, whose
// tooltip gives the number of hidden nodes and the sums of their exclusive metrics.
//
// The specification is tests/conformance/view-cases.json, run against this module
// (js/test/conformance.test.js, through the real decoder) and against its Python twin
// cctviz/view/state.py (tests/test_conformance.py). `viewTreeOf` takes the state as the traits hold it
// (full-tree node ids); `buildViewTree` works on rows of the decoded table and gives each drawn
// item a key (a node's key is its row: `keyOfRow` and `rowOfKey`, the one place rows and keys meet).

import { runAll, SLICE_ITEMS } from "../base/steps.js";
import { NO_ROW } from "../data/ids.js";
import { hiddenNodes, subtreeStats } from "./subtree-stats.js";

/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */

/**
 * @typedef {"node" | "collapsed" | "aggregate"} ItemKind
 * @typedef {object} ViewItem
 * @property {ItemKey} key    the node's row for "node"/"collapsed" and a fold; table size + n for
 *   the other aggregates
 * @property {Row} id     the node's row, not its node id ("aggregate": its parent's row, -1 at the top)
 * @property {ItemKind} kind
 * @property {ItemKey} parentKey  key of the item drawn as its parent (-1 for a top-level item)
 * @property {Row[]} hidden   rows of the roots of the hidden subtrees it stands for
 * @property {boolean} [fold]  an aggregate that is a fold row of level of detail: its row (the
 *   key, and `hidden[0]`) holds the count and sums of nodes Python has not sent
 */

/** The key of the item drawn for the node in `row`: its row. @param {Row} row @returns {ItemKey} */
export const keyOfRow = (row) => /** @type {ItemKey} */ (/** @type {number} */ (row));
/** The row of a node drawn with `key` (a node or collapsed item's key, or a parent key: a node's
 * row); an aggregate's key is no row. @param {ItemKey} key @returns {Row} */
export const rowOfKey = (key) => /** @type {Row} */ (/** @type {number} */ (key));

/**
 * Nodes kept by a prune range on `values`, plus their ancestors (kept for context).
 * A fold row of level of detail is never in range by itself: its value is a sum over nodes not
 * sent, which says nothing about whether any of them is in range (it is drawn under its parent
 * when the parent is kept, and hidden with it otherwise).
 * @param {Float64Array} values
 * @param {Int32Array} parent
 * @param {[number, number]} range inclusive; NaN values are outside every range
 * @param {Int32Array | null} [folded] the table's `folded` column (fold rows: > 0)
 * @returns {Uint8Array} 1 = drawn
 */
export function pruneMask(values, parent, [lo, hi], folded = null) {
  const keep = new Uint8Array(values.length);
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (keep[i] || (v >= lo && v <= hi && !(folded && folded[i] > 0))) {
      keep[i] = 1;
      if (parent[i] >= 0) keep[parent[i]] = 1;
    }
  }
  return keep;
}

/** The `hidden` of every "node" item: one shared empty list, never changed (at 10^5 items a
 * list each, and one more for each open node, made a first picture's view tree twice as slow). */
const NO_HIDDEN = /** @type {Row[]} */ (/** @type {unknown} */ (Object.freeze([])));

/**
 * @typedef {{ collapsed?: Set<Row>, keep?: Uint8Array | null, focus?: Row | null, roots?: Row[] | null }} RowState
 *   the view state in rows of the table
 * @typedef {{ items: ViewItem[], byKey: Map<ItemKey, ViewItem>, hiddenCount: number }} ViewTree
 */

/**
 * The view tree at once. @param {import("../data/decode.js").Table} table
 * @param {ReturnType<typeof subtreeStats>} stats @param {RowState} [state] @returns {ViewTree}
 */
export const buildViewTree = (table, stats, state = {}) => runAll(viewTreeSteps(table, stats, state));

/**
 * The view tree in slices: yields after every `SLICE_ITEMS` items made (and read), returns the tree.
 * @param {import("../data/decode.js").Table} table
 * @param {ReturnType<typeof subtreeStats>} stats
 * @param {RowState} state
 * @returns {Generator<void, ViewTree, void>}
 */
export function* viewTreeSteps(table, stats, { collapsed = new Set(), keep = null, focus = null, roots = null }) {
  /** @type {ViewItem[]} */
  const items = [];
  let nextAggregate = table.size;
  const starts = focus !== null && focus !== undefined ? [focus] : (roots ?? stats.roots);
  const TOP_ROW = NO_ROW;
  const TOP = keyOfRow(TOP_ROW);

  /** @param {Row} parentRow @param {Row[]} hidden */
  const addAggregate = (parentRow, hidden) => {
    const key = /** @type {ItemKey} */ (nextAggregate++);
    items.push({ key, id: parentRow, kind: "aggregate", parentKey: keyOfRow(parentRow), hidden });
  };
  const folded = table.folded;
  /** @param {Row} row @param {Row} parentRow */
  const addFold = (row, parentRow) => {
    const parentKey = keyOfRow(parentRow);
    items.push({ key: keyOfRow(row), id: parentRow, kind: "aggregate", parentKey, hidden: [row], fold: true });
  };

  /** @type {{ row: Row, children: Row[], next: number, hidden: Row[] | null }[]} */
  const open = [];
  /** @param {Row} row @param {ItemKey} parentKey */
  const enter = (row, parentKey) => {
    const children = stats.children[row] ?? [];
    if (collapsed.has(row) && children.length) {
      items.push({ key: keyOfRow(row), id: row, kind: "collapsed", parentKey, hidden: children });
      return;
    }
    items.push({ key: keyOfRow(row), id: row, kind: "node", parentKey, hidden: NO_HIDDEN });
    // a leaf has nothing to visit nor hide: no entry on the stack (most nodes are leaves: a
    // 10^5-node view tree made one object fewer for each)
    if (children.length) open.push({ row, children, next: 0, hidden: null });
  };

  let sliceEnd = SLICE_ITEMS;
  /** @type {Row[]} */
  const hiddenStarts = [];
  for (const r of starts) {
    if (folded && folded[r] > 0) addFold(r, TOP_ROW);
    else if (keep && !keep[r]) hiddenStarts.push(r);
    else {
      // pre-order from `r`, with an explicit stack: a call path can be thousands of levels deep
      enter(r, TOP);
      while (open.length) {
        if (items.length >= sliceEnd) {
          sliceEnd = items.length + SLICE_ITEMS;
          yield;
        }
        const top = open[open.length - 1];
        if (top.next < top.children.length) {
          const c = top.children[top.next++];
          if (folded && folded[c] > 0) addFold(c, top.row);
          else if (keep && !keep[c]) {
            if (top.hidden) top.hidden.push(c);
            else top.hidden = [c];
          } else enter(c, keyOfRow(top.row));
        } else {
          open.pop();
          if (top.hidden) addAggregate(top.row, top.hidden);
        }
      }
    }
  }
  if (hiddenStarts.length) addAggregate(TOP_ROW, hiddenStarts);

  let hiddenCount = 0;
  /** @type {Map<ItemKey, ViewItem>} */
  const byKey = new Map();
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % SLICE_ITEMS === 0) yield;
    const item = items[i];
    if (item.kind !== "node") hiddenCount += hiddenNodes(stats, item);
    byKey.set(item.key, item);
  }
  return { items, byKey, hiddenCount };
}

/**
 * The view state as the traits hold it: node ids of the full tree.
 * @typedef {object} ViewState
 * @property {Iterable<NodeId>} [collapsed] ids of collapsed nodes (ids the table lacks are ignored)
 * @property {[number, number] | null} [prune] inclusive range of `values` kept; null: all
 * @property {NodeId | null} [focus] id of the node the view is rooted at (ignored if the table
 *   lacks it); it wins over `roots`
 * @property {NodeId[] | null} [roots] ids of the roots shown, drawn in tree order (ids the table
 *   lacks and non-roots are ignored); null: every root (and the fold of hidden roots); []: no tree
 * @property {ArrayLike<number> | null} [values] the colour metric, by row of the table: what
 *   `prune` compares
 */

/**
 * The view tree of a state given in full-tree ids.
 * @param {import("../data/decode.js").Table} table
 * @param {ReturnType<typeof subtreeStats>} stats
 * @param {ViewState} [state]
 */
export const viewTreeOf = (table, stats, state = {}) => buildViewTree(table, stats, rowState(table, state));

/**
 * A state given in full-tree ids in rows of the table: the one place where that state becomes
 * rows (`viewTreeSteps` makes its view tree).
 * @param {import("../data/decode.js").Table} table
 * @param {ViewState} state
 * @returns {RowState}
 */
export function rowState(table, { collapsed = [], prune = null, focus = null, roots = null, values = null }) {
  /** @type {Set<Row>} */
  const rows = new Set();
  for (const id of collapsed) {
    const r = table.rowOf(id);
    if (r >= 0) rows.add(r);
  }
  const keep =
    prune && values
      ? pruneMask(
          values instanceof Float64Array ? values : Float64Array.from(values),
          table.parent,
          prune,
          table.folded,
        )
      : null;
  const focusRow = focus === null || focus === undefined ? NO_ROW : table.rowOf(focus);
  const rootRows =
    roots === null || roots === undefined
      ? null
      : [...new Set(roots.map((id) => table.rowOf(id)))]
          .filter((r) => r >= 0 && table.parent[r] < 0)
          .sort((a, b) => a - b);
  return { collapsed: rows, keep, focus: focusRow >= 0 ? focusRow : null, roots: rootRows };
}

/**
 * One drawn item in full-tree ids.
 * @typedef {object} IdItem
 * @property {"node" | "collapsed" | "aggregate" | "fold"} kind "aggregate": the children (or
 *   roots) a prune hides; "fold": a fold row of level of detail (nodes Python has not sent)
 * @property {NodeId | null} id the node's id; null for an aggregate or a fold
 * @property {NodeId | -1} parent id of the node it is drawn under; -1 at the top level
 * @property {number} hidden how many nodes it stands for (0 for a node)
 */

/**
 * The items of a view tree in full-tree ids, in pre-order.
 * @param {import("../data/decode.js").Table} table
 * @param {ReturnType<typeof subtreeStats>} stats
 * @param {ReturnType<typeof buildViewTree>} tree
 * @returns {IdItem[]}
 */
export function itemsInIds(table, stats, tree) {
  return tree.items.map((item) => {
    const kind = item.fold ? "fold" : item.kind;
    const drawnNode = kind === "node" || kind === "collapsed";
    return {
      kind,
      id: drawnNode ? table.idOf(item.id) : null,
      parent: item.parentKey < 0 ? -1 : table.idOf(rowOfKey(item.parentKey)),
      hidden: item.kind === "node" ? 0 : hiddenNodes(stats, item),
    };
  });
}

/**
 * What is drawn for a table and a state in full-tree ids: the items (see `IdItem`) and how many
 * nodes they hide in all. The executable form of tests/conformance/view-cases.json.
 * @param {import("../data/decode.js").Table} table
 * @param {ViewState} state
 * @returns {{ items: IdItem[], hiddenCount: number }}
 */
export function viewItems(table, state = {}) {
  const stats = subtreeStats(table);
  const tree = viewTreeOf(table, stats, state);
  return { items: itemsInIds(table, stats, tree), hiddenCount: tree.hiddenCount };
}

/** The rows of the ancestors of `row`, root first, `row` last. @param {import("../data/ids.js").RowColumn} parent @param {Row} row */
export function pathTo(parent, row) {
  /** @type {Row[]} */
  const path = [];
  for (let r = row; r >= 0; r = parent[r]) path.push(r);
  return path.reverse();
}

/**
 * The hot path from `start`: repeatedly the child with the largest value (NaN never wins).
 * @param {{ children: Row[][] }} stats @param {Float64Array} values @param {Row} start
 * @returns {Row[]} rows from `start` down
 */
export function hotPath(stats, values, start) {
  const path = [start];
  for (let row = start; ; ) {
    let best = NO_ROW;
    for (const c of stats.children[row] ?? []) {
      if (!Number.isNaN(values[c]) && (best < 0 || values[c] > values[best])) best = c;
    }
    if (best < 0) return path;
    path.push(best);
    row = best;
  }
}
