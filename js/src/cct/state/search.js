// Search over node names: the matcher for the current options, the matches the table has, the
// next one from a node, the collapsed ancestors to open so that matches show, and the text that
// counts them. Pure functions of the table and the state; node ids are full-tree ids. Typing
// opens nothing: only a step (one match's ancestors) or "show all" (every match's) does.
import { asRow } from "../data/ids.js";
import { pathTo, viewTreeOf } from "../picture/view-tree.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {(name: string) => boolean} NameTest */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */

/**
 * A name test for a pattern: `null` for no search, an `Error` for an invalid expression.
 * @param {string} pattern
 * @param {{ regex: boolean, caseSensitive: boolean }} options
 * @returns {NameTest | Error | null}
 */
export function matcher(pattern, { regex, caseSensitive }) {
  if (!pattern) return null;
  if (regex) {
    try {
      const re = new RegExp(pattern, caseSensitive ? "u" : "iu");
      return (name) => re.test(name);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return new Error(`invalid regular expression: ${message.replace(/^Invalid regular expression: /, "")}`);
    }
  }
  const needle = caseSensitive ? pattern : pattern.toLowerCase();
  return caseSensitive ? (name) => name.includes(needle) : (name) => name.toLowerCase().includes(needle);
}

/**
 * Ids of the nodes of the table whose names pass `test`, in tree order (ascending: ids are the
 * full tree's pre-order). Fold rows are not nodes and never match; each name is tested once.
 * @param {Table} table @param {NameTest} test @returns {NodeId[]}
 */
export function matchIds(table, test) {
  const hit = table.names.map((name) => test(name));
  /** @type {NodeId[]} */
  const ids = [];
  for (let n = 0; n < table.size; n++) {
    const row = asRow(n);
    const id = table.idOf(row);
    if (id >= 0 && hit[table.nameCode[row]]) ids.push(id);
  }
  return ids.sort((a, b) => a - b);
}

/**
 * The match a step goes to from node `from` (null: from before the first): the first match
 * after it (`step` 1) or the last before it (-1), wrapping around; null when there is none.
 * @param {NodeId[]} ids ascending @param {NodeId | null} from @param {1 | -1} step
 * @returns {NodeId | null}
 */
export function nextMatch(ids, from, step) {
  if (!ids.length) return null;
  if (from === null) return step > 0 ? ids[0] : /** @type {NodeId} */ (ids.at(-1));
  if (step > 0) return ids.find((id) => id > from) ?? ids[0];
  for (let i = ids.length - 1; i >= 0; i--) if (ids[i] < from) return ids[i];
  return /** @type {NodeId} */ (ids.at(-1));
}

/**
 * The collapsed set with every collapsed ancestor of the nodes `ids` opened, or null when
 * nothing has to open.
 * @param {Table} table @param {NodeId[]} collapsed full-tree ids @param {Iterable<NodeId>} ids
 * @returns {NodeId[] | null}
 */
export function openAncestors(table, collapsed, ids) {
  /** @type {Set<NodeId>} */
  const open = new Set();
  for (const id of ids) {
    const row = table.rowOf(id);
    if (row < 0) continue;
    for (const a of pathTo(table.parent, row).slice(0, -1)) open.add(table.idOf(a));
  }
  const kept = collapsed.filter((id) => !open.has(id));
  return kept.length === collapsed.length ? null : kept;
}

/**
 * How many more nodes (and glyphs) are drawn with `collapsed` than with the state's own.
 * @param {Table} table @param {ReturnType<typeof import("../picture/subtree-stats.js").subtreeStats>} stats
 * @param {import("../../contract.js").ViewState} state @param {NodeId[]} collapsed
 * @param {Float64Array | null} values the colour metric's (a prune range is over them)
 */
export function nodesOpened(table, stats, state, collapsed, values) {
  const { prune, focus, roots } = state;
  /** @param {NodeId[]} c */
  const count = (c) =>
    viewTreeOf(table, stats, { collapsed: c, prune, focus, roots, values }).items.filter(
      (it) => it.kind !== "aggregate",
    ).length;
  return count(collapsed) - count(state.collapsed);
}

/**
 * The text beside the search box: "13 matches", "13 matches, 9 hidden" (inside glyphs: collapsed
 * subtrees, a prune's aggregates), "…, 2 outside the view" (focus, visible roots), "…, 500 not
 * loaded" (level of detail: Python counted them, the browser has not got them).
 * @param {{ total: number, hidden: number, outside: number, notLoaded?: number }} count
 */
export function matchSummary({ total, hidden, outside, notLoaded = 0 }) {
  const n = (/** @type {number} */ v) => v.toLocaleString("en-US");
  const parts = [`${n(total)} match${total === 1 ? "" : "es"}`];
  if (hidden) parts.push(`${n(hidden)} hidden`);
  if (outside) parts.push(`${n(outside)} outside the view`);
  if (notLoaded) parts.push(`${n(notLoaded)} not loaded`);
  return parts.join(", ");
}
