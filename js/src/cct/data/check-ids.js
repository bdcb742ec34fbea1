// Node ids that Python sends must be of the tree drawn: an id past its end, or a "root" that is
// not one, is refused with an error naming it (the widget shows it and Python sends its own,
// checked values again), never dropped unseen or drawn as an empty view (`roots: [10 ** 9]`).
// Python checks them first: only a message sent past its checks gets here.
import { TRAIT_OF } from "../../contract.js";

/** @typedef {import("./decode.js").Table} Table */

const NODE_KEYS = /** @type {const} */ (["collapsed", "highlighted", "focus", "roots", "selection"]);

/**
 * Throws a RangeError for the first id of `partial` (view state keys, and `selection`) that is
 * not a node of `table`'s full tree, or a root in `roots` that the table knows is not a root.
 * Values of other types are left to the contract's checks.
 * @param {Table | null} table @param {Record<string, unknown>} partial
 */
export function checkIds(table, partial) {
  if (!table) return;
  for (const key of NODE_KEYS) {
    const value = partial[key];
    const ids = Array.isArray(value) ? value : typeof value === "number" ? [value] : [];
    const trait = TRAIT_OF[key] ?? key;
    for (const id of ids) {
      if (typeof id !== "number" || !Number.isInteger(id) || id < 0) continue;
      if (id >= table.total) {
        throw new RangeError(
          `${trait}: node id ${id} is out of range: this tree has ${table.total} nodes (ids 0 to ${table.total - 1})`,
        );
      }
      const row = key === "roots" ? table.rowOf(/** @type {import("./ids.js").NodeId} */ (id)) : -1;
      if (row >= 0 && table.parent[row] >= 0) throw new RangeError(`${trait}: node ${id} is not a root`);
    }
  }
}
