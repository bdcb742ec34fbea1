// Type-level test of the node numbers (src/cct/data/ids.js), run by `npm run typecheck` (not by
// vitest): each `@ts-expect-error` line is an error only while the brands keep ids, rows and item
// keys apart; were a brand removed, the line would compile and tsc would fail on the unused
// directive.
import { asRow, NO_ID, NO_KEY, NO_ROW } from "../../src/cct/data/ids.js";

/** @typedef {import("../../src/cct/data/decode.js").Table} Table */
/** @typedef {import("../../src/cct/data/ids.js").NodeId} NodeId */
/** @typedef {import("../../src/cct/data/ids.js").Row} Row */
/** @typedef {import("../../src/cct/data/ids.js").ItemKey} ItemKey */
/** @typedef {import("../../src/cct/picture/picture.js").Picture} Picture */

/** @param {Table} table @param {Picture} pic @param {NodeId} id @param {Row} row @param {ItemKey} key */
export function checks(table, pic, id, row, key) {
  // the decoder converts, both ways
  /** @type {Row} */ const r = table.rowOf(id);
  /** @type {NodeId} */ const i = table.idOf(row);
  // @ts-expect-error a row is not a node id
  table.rowOf(row);
  // @ts-expect-error a node id is not a row
  table.idOf(id);
  // @ts-expect-error an item key is not a row
  table.idOf(key);
  // @ts-expect-error a plain number is not a node id
  table.rowOf(3);
  // @ts-expect-error a row is not an item key
  pic.tree.byKey.get(row);
  // @ts-expect-error a row is not a node id
  pic.drawn(row);
  // @ts-expect-error the view state holds node ids, not rows
  pic.state.collapsed.push(row);
  // @ts-expect-error asRow takes plain numbers (a walk over the table), never an id
  asRow(id);
  // @ts-expect-error nor an item key
  asRow(key);
  // @ts-expect-error a parent is a row, not an id
  /** @type {NodeId} */ const parent = table.parent[r];
  /** @type {ItemKey} */ const k = pic.keyOf(i);
  return [asRow(0), NO_ID, NO_ROW, NO_KEY, k, parent, pic.tree.byKey.get(k)];
}
