// Where the selection is drawn. A selected node is drawn as itself, or inside a glyph that stands
// for it (a collapsed node's triangle, the diamond of the children a prune hides), or not at all
// (outside the focus or the visible roots). A node selected from Python may be any of these: the
// glyph that holds it gets a mark of its own (`cct-holds-selected`, dashed in the selection's
// colour), and the status line says "1 selected, hidden in …", so a selection is never unseen.
// Pure: no DOM; mark keys as in scene.js (a row, or `table.size + n` for a prune aggregate).

import { hiddenNodes } from "./subtree-stats.js";
import { keyOfRow, rowOfKey } from "./view-tree.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */
/** @typedef {ReturnType<typeof import("./view-tree.js").buildViewTree>} ViewTree */
/** @typedef {ReturnType<typeof import("./subtree-stats.js").subtreeStats>} Stats */

/**
 * @typedef {object} PlacedSelection
 * @property {Set<ItemKey>} drawn mark keys of the selected nodes drawn as themselves
 * @property {Map<ItemKey, NodeId[]>} holders mark key of a glyph → ids of the selected nodes it hides
 * @property {number} outside selected nodes outside the view (focus, visible roots)
 */

/**
 * Where each selected node is drawn. A node the table has not loaded yet (level of detail:
 * Python sends it with its path) is left out until it comes.
 * @param {Table} table @param {ViewTree} tree @param {Iterable<NodeId>} ids full-tree ids
 * @returns {PlacedSelection}
 */
export function placeSelection(table, tree, ids) {
  /** @type {PlacedSelection} */
  const placed = { drawn: new Set(), holders: new Map(), outside: 0 };
  /** @type {Map<Row, ItemKey> | null} hidden subtree's root row → its aggregate's key */
  let aggregates = null;
  for (const id of ids) {
    const row = table.rowOf(id);
    if (row < 0) continue;
    const item = tree.byKey.get(keyOfRow(row));
    if (item && item.kind !== "aggregate") {
      placed.drawn.add(item.key);
      continue;
    }
    aggregates ??= aggregateKeys(tree);
    const key = holderOf(table, tree, aggregates, row);
    if (key === null) placed.outside++;
    else placed.holders.set(key, [...(placed.holders.get(key) ?? []), id]);
  }
  return placed;
}

/** @param {ViewTree} tree */
function aggregateKeys(tree) {
  /** @type {Map<Row, ItemKey>} */
  const keys = new Map();
  for (const item of tree.items) {
    if (item.kind === "aggregate" && !item.fold) for (const h of item.hidden) keys.set(h, item.key);
  }
  return keys;
}

/**
 * The glyph that hides `row`: its nearest drawn ancestor when that is collapsed, or the
 * aggregate of the pruned subtree it is in; null: none (outside the view).
 * @param {Table} table @param {ViewTree} tree @param {Map<Row, ItemKey>} aggregates @param {Row} row
 * @returns {ItemKey | null}
 */
function holderOf(table, tree, aggregates, row) {
  for (let r = row; r >= 0; r = table.parent[r]) {
    const aggregate = aggregates.get(r);
    if (aggregate !== undefined) return aggregate;
    const item = r === row ? undefined : tree.byKey.get(keyOfRow(r));
    if (item) return item.kind === "collapsed" ? item.key : null;
  }
  return null;
}

/**
 * The status line's part for selected nodes not drawn as themselves: "1 selected, hidden in
 * main (collapsed)", "2 selected outside the view"; "" when every selected node is drawn.
 * @param {Table} table @param {Stats} stats @param {ViewTree} tree @param {PlacedSelection} placed
 */
export function hiddenSelectionText(table, stats, tree, placed) {
  const parts = [];
  if (placed.holders.size) {
    let n = 0;
    for (const ids of placed.holders.values()) n += ids.length;
    const glyphs = [...placed.holders.keys()];
    const named = glyphs.slice(0, 2).map((key) => glyphName(table, stats, tree, key));
    const more = glyphs.length > 2 ? ` and ${glyphs.length - 2} more glyphs` : "";
    parts.push(`${n} selected, hidden in ${named.join(", ")}${more}`);
  }
  if (placed.outside) parts.push(`${placed.outside} selected outside the view`);
  return parts.join(" · ");
}

/** How the status line names a glyph. @param {Table} table @param {Stats} stats @param {ViewTree} tree @param {ItemKey} key */
function glyphName(table, stats, tree, key) {
  const item = tree.byKey.get(key);
  const name = (/** @type {Row} */ row) => table.names[table.nameCode[row]];
  if (!item || item.kind === "collapsed") return `${name(rowOfKey(key))} (collapsed)`;
  const count = hiddenNodes(stats, item).toLocaleString("en-US");
  return item.id < 0 ? `the ${count} hidden roots` : `the ${count} hidden under ${name(item.id)}`;
}
