// Search over node names: the matcher for the current options, the collapsed ancestors to open
// so that matches show, and which matches are drawn. Pure functions of the table and the state;
// node ids are full-tree ids.
import { asRow } from "../data/ids.js";
import { pathTo } from "../picture/view-tree.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {(name: string) => boolean} NameTest */

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

/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */

/** @param {Table} table @param {Row} row */
const nameOf = (table, row) => table.names[table.nameCode[row]];

/**
 * The collapsed set with the ancestors of every match opened (matches are revealed), or null
 * when nothing has to open.
 * @param {Table} table
 * @param {NodeId[]} collapsed full-tree ids
 * @param {NameTest} test
 * @returns {NodeId[] | null}
 */
export function revealMatches(table, collapsed, test) {
  /** @type {Set<NodeId>} */
  const open = new Set();
  for (let n = 0; n < table.size; n++) {
    const row = asRow(n);
    if (table.idOf(row) < 0 || !test(nameOf(table, row))) continue;
    for (const a of pathTo(table.parent, row).slice(0, -1)) open.add(table.idOf(a));
  }
  const kept = collapsed.filter((id) => !open.has(id));
  return kept.length === collapsed.length ? null : kept;
}

/**
 * The matches that are drawn as nodes (full-tree ids, tree order) and how many others match.
 * @param {Table} table
 * @param {NameTest} test
 * @param {(row: Row) => boolean} drawn whether the node in `row` is drawn as a node
 */
export function findMatches(table, test, drawn) {
  /** @type {NodeId[]} */
  const shown = [];
  let hidden = 0;
  for (let n = 0; n < table.size; n++) {
    const row = asRow(n);
    if (table.idOf(row) < 0 || !test(nameOf(table, row))) continue;
    if (drawn(row)) shown.push(table.idOf(row));
    else hidden++;
  }
  return { shown, hidden };
}

/** The text under the search box. @param {number} shown @param {number} hidden */
export function matchSummary(shown, hidden) {
  return `${shown} match${shown === 1 ? "" : "es"}${hidden ? ` (+${hidden} not shown)` : ""}`;
}
