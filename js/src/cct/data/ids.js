// Node ids, rows and item keys: three kinds of node numbers, kept apart by the type check.
//
// - `NodeId` (declared with the contract): a node of the full tree, what Python, the traits, the
//   view state, the selection and every API name nodes by.
// - `Row`: a row of the decoded table (its columns are indexed by rows). Under level of detail
//   the table holds only some nodes, so rows are not ids; a fold row stands for nodes not sent.
// - `ItemKey`: the key of a drawn item of a view tree (its layout and marks are indexed by keys):
//   a node's row, or past the table's rows for an aggregate.
//
// Only the decoder converts between ids and rows (`table.rowOf`, `table.idOf`, data/decode.js),
// and only the view tree turns rows into keys (picture/view-tree.js). A row counted from 0 (a
// walk over the table) becomes a `Row` through `asRow`, which refuses an id or a key.
// js/test/types/ids.check.js holds the type-level test: a row where an id is expected fails tsc.

/** @typedef {import("../../contract.js").NodeId} NodeId */
/** @typedef {number & { readonly __brand: "Row" }} Row */
/** @typedef {number & { readonly __brand: "ItemKey" }} ItemKey */
/** A column of rows (the table's `parent`): reading it gives rows. @typedef {Int32Array & { readonly [index: number]: Row }} RowColumn */

/** A plain number, not one of the three: what `asRow` takes. @typedef {number & { readonly __brand?: never }} Plain */

/** No row: a node the table does not have, or the parent of a root. */
export const NO_ROW = /** @type {Row} */ (/** @type {unknown} */ (-1));
/** No node: a fold row's id, or the parent of a root. */
export const NO_ID = /** @type {NodeId} */ (/** @type {unknown} */ (-1));

/**
 * A row counted from 0 (a walk over the table's rows, a typed array's index): a plain number
 * only; a `NodeId` or an `ItemKey` is refused by the type check.
 * @param {Plain} i @returns {Row}
 */
export const asRow = (i) => /** @type {Row} */ (/** @type {unknown} */ (i));
/** No item: a node not drawn, or the parent of a top-level item. */
export const NO_KEY = /** @type {ItemKey} */ (/** @type {unknown} */ (-1));
