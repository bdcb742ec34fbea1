// What a table's cell says: a value (the one number format of the pane and the tree-table figure,
// so that a unit-aware format replaces it here for both) and its share of the whole profile's
// total where the column's metric adds up (Python sends each column's total, or null).
import { formatValue } from "../base/format.js";
import { percent } from "../picture/shares.js";

/** A missing value (NaN, or no value for that row). */
export const MISSING = "–";

/**
 * A value as the table prints it. @param {number | null} value @param {string} _column its metric
 * (for a format of the column's unit)
 */
export function valueText(value, _column) {
  return value === null || Number.isNaN(value) ? MISSING : formatValue(value);
}

/**
 * A value's share of its column's total ("" where the column has none, or the value is missing).
 * @param {number | null} value @param {number | null} total
 */
export function shareText(value, total) {
  if (value === null || !Number.isFinite(value) || total === null || !(total > 0)) return "";
  return value === 0 ? "0 %" : percent(value, total);
}
