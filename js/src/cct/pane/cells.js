// What a table's cell says: a value in its column's unit, with one SI prefix for the whole column
// (the unit once, in the column's header: "time (inc) [ms]" over "345", "5.52"; the one number
// format of the pane and the tree-table figure) and its share of the whole profile's total where
// the column's metric adds up (Python sends each column's total, or null).
import { columnParts, formatValue } from "../base/format.js";
import { percent } from "../picture/shares.js";

/** A missing value (NaN, or no value for that row). */
export const MISSING = "–";

/**
 * How a column prints: its unit with the column's prefix, for the header ("" where it has none),
 * and each value's number in that prefix.
 * @typedef {{ unit: string, number: (v: number) => string }} ColumnFormat
 */

/** A column of no unit whose values are not known: each number with its own prefix. */
export const PLAIN = { unit: "", number: formatValue };

/**
 * The unit of a column's values: the metric's in `units` (w.units), none for a ratio (an
 * imbalance or a derived quotient has none, whatever its metric's is).
 * @param {string} name @param {string} kind @param {Record<string, string>} units
 * @returns {string | null}
 */
export function columnUnit(name, kind, units) {
  return kind !== "ratio" && Object.hasOwn(units, name) ? units[name] : null;
}

/**
 * A column's format: one prefix, the one that fits `values` (those of the rows it shows, and its
 * total), in `unit`. @param {Iterable<number | null>} values @param {string | null} unit
 * @returns {ColumnFormat}
 */
export function columnFormatOf(values, unit) {
  const finite = [...values].filter((v) => typeof v === "number" && Number.isFinite(v));
  return columnParts(/** @type {number[]} */ (finite), unit);
}

/**
 * The formats of a table's columns: columns of the same unit share one prefix, the one that fits
 * all their values (a metric and its partner read alike: "time [ms]" beside "time (inc) [ms]",
 * not "[s]" beside "[ms]"). @param {Array<Iterable<number | null>>} values per column
 * @param {Array<string | null>} units per column @returns {ColumnFormat[]}
 */
export function columnFormats(values, units) {
  /** @type {Map<string, Array<number | null>>} */
  const byUnit = new Map();
  values.forEach((column, i) => {
    const unit = units[i];
    if (unit !== null) byUnit.set(unit, [...(byUnit.get(unit) ?? []), ...column]);
  });
  return values.map((column, i) => {
    const unit = units[i];
    return columnFormatOf(unit === null ? column : (byUnit.get(unit) ?? column), unit);
  });
}

/** A column's header: its metric's name and, in brackets, its unit. @param {string} name @param {ColumnFormat} format */
export function headerText(name, format) {
  return format.unit ? `${name} [${format.unit}]` : name;
}

/**
 * A value as the table prints it. @param {number | null} value @param {ColumnFormat} [format] its column's
 */
export function valueText(value, format = PLAIN) {
  return value === null || Number.isNaN(value) ? MISSING : format.number(value);
}

/**
 * A value's share of its column's total ("" where the column has none, or the value is missing).
 * @param {number | null} value @param {number | null} total
 */
export function shareText(value, total) {
  if (value === null || !Number.isFinite(value) || total === null || !(total > 0)) return "";
  if (value === 0) return "0 %";
  // "< 0.01 %" fits the share's room in the cell; "0.0000026 %" would be cut to "…"
  return Math.abs(value / total) < 1e-4 ? (value > 0 ? "< 0.01 %" : "> −0.01 %") : percent(value, total);
}
