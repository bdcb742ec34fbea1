// Number formatting for tooltips, legends and table columns.
//
// With a unit (a text of w.units, e.g. "s", "usec", "samples"; cct/base/units.js says what
// parses), values print with their unit and an SI prefix:
//   formatWith(unit)(v)          one value, the prefix that fits it:       "345 µs", "5.52 ms"
//   columnFormat(values, unit)   one prefix for all values of a column or legend (the one that
//                                fits the largest magnitude): (v) => text  "0.345 ms", "5.52 ms"
//   legendFormat(values, unit)   columnFormat without powers of ten, for legends: "<0.001 s", "52.6 s"
//   fitExponent(values, unit)    that prefix as a power of ten (-3 for m)
// Values are in the unit given: a unit with a prefix is rescaled to its base ("ms": 1500 prints
// "1.5 s"); a label ("samples") is printed as given with k, M, … on the number ("12.3k samples").
// No unit (null or ""): the number with k, M, … ("12.3k", "0.00552"). NaN is "missing", ±∞ "∞"
// and "−∞"; minus signs are U+2212. A unit text that does not parse (Python refuses those before
// they get here) is shown as a label. The text returned is plain text, never markup: put it in
// with textContent. tests/conformance/units-cases.json holds cases Python's
// cctviz/core/units.py prints the same.
import { format } from "d3-format";
import { UNIT_GRAMMAR } from "../../contract.js";
import { LARGEST, PREFIX_OF, parseUnit } from "./units.js";

const si = format(".3~s");
const plain = format(".3~r");
const exponent = format(".2~e"); // 3 significant digits, as ".3~s"
// d3's SI prefixes end at yocto (1e-24) and yotta (1e24); beyond them "s" would print every digit
const SI_LOW = 1e-24;
const SI_HIGH = 999.5e24;
const MINUS = "\u2212";
const COLUMN_TOP = 10 ** UNIT_GRAMMAR.column_digits;

/** SI-formatted value ("1.23M", "4.5µ"; "1.8e+308" beyond the SI prefixes); "missing" for NaN.
 * Where values are of a metric, prefer `formatWith` or `columnFormat` (with its unit).
 * @param {number} v */
export function formatValue(v) {
  if (Number.isNaN(v)) return "missing";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e-3 && a < 1e3) return plain(v).replace("-", "−");
  if (a < SI_LOW || a >= SI_HIGH) return exponent(v).replace(/-/g, "−");
  return si(v).replace("-", "−");
}

/** @typedef {import("./units.js").Unit} Unit */

/** @param {Unit | string | null | undefined} unit @returns {Unit | null} */
function asUnit(unit) {
  if (unit === null || unit === undefined || unit === "") return null;
  if (typeof unit !== "string") return unit;
  try {
    return parseUnit(unit);
  } catch {
    return { text: unit, symbol: unit, per: "", scale: 1, si: false, smallest: 0, largest: LARGEST };
  }
}

/**
 * The power of ten of the one prefix that fits `values` (in `unit`): the one the largest finite
 * magnitude prints with from 1 to below 1000, or a smaller one while the smallest would print
 * below 1 and the largest stays below 10,000 (0.000345 and 0.00552 s: µs, "345 µs" and
 * "5520 µs"), within the unit's prefixes (none above seconds).
 * @param {Iterable<number>} values @param {Unit | string | null} [unit] @returns {number}
 */
export function fitExponent(values, unit) {
  const u = asUnit(unit);
  const scale = u ? u.scale : 1;
  const smallest = u ? u.smallest : 0;
  let top = 0;
  let low = Infinity;
  for (const v of values) {
    if (!Number.isFinite(v) || v === 0) continue;
    top = Math.max(top, Math.abs(v) * scale);
    low = Math.min(low, Math.abs(v) * scale);
  }
  if (top === 0) return 0;
  let e = 3 * Math.floor(Math.log10(top) / 3);
  if (top / 10 ** e < 1) e -= 3; // log10 rounding
  if (Number((top / 10 ** e).toPrecision(3)) >= 1000) e += 3; // 999.7 rounds to 1000: the next
  e = Math.max(smallest, Math.min(u ? u.largest : LARGEST, e));
  while (Number((low / 10 ** e).toPrecision(3)) < 1 && e - 3 >= smallest && top / 10 ** (e - 3) < COLUMN_TOP) e -= 3;
  return e;
}

/** Three significant digits, trailing zeros dropped; powers of ten outside 0.001 … 999,999.
 * @param {number} x */
function number(x) {
  if (x === 0) return "0";
  const a = Math.abs(x);
  let text;
  if (a < 1e-3 || a >= 1e6) {
    const [mantissa, power] = a.toExponential(2).split("e");
    text = `${mantissa.replace(/\.?0+$/, "")}e${Number(power)}`;
  } else {
    text = a.toFixed(Math.max(0, 2 - Math.floor(Math.log10(a))));
    if (text.includes(".")) text = text.replace(/\.?0+$/, "");
  }
  return (x < 0 ? MINUS : "") + text.replace("-", MINUS);
}

/**
 * `v` (in `unit`) with its unit and the prefix of power of ten `e` (0: none).
 * @param {number} v @param {Unit | null} u @param {number} e
 */
function inPrefix(v, u, e) {
  if (Number.isNaN(v)) return "missing";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : `${MINUS}∞`;
  if (v === 0) e = 0; // 0 has no scale: "0 s", "0 samples"
  const text = number((v * (u ? u.scale : 1)) / 10 ** e);
  const prefix = PREFIX_OF.get(e) ?? "";
  if (!u) return `${text}${prefix}`;
  if (u.si) return `${text} ${prefix}${u.per ? `${u.symbol}/${u.per}` : u.symbol}`;
  return `${text}${prefix} ${u.text}`;
}

/**
 * A formatter of single values in `unit`, each with the prefix that fits it.
 * @param {Unit | string | null} [unit] @returns {(v: number) => string}
 */
export function formatWith(unit) {
  const u = asUnit(unit);
  return (v) => inPrefix(v, u, fitExponent([v], u));
}

/**
 * A formatter of the values of one column, legend or tooltip row: one prefix for all of
 * `values`, the one that fits the largest.
 * @param {Iterable<number>} values @param {Unit | string | null} [unit] @returns {(v: number) => string}
 */
export function columnFormat(values, unit) {
  const u = asUnit(unit);
  const e = fitExponent(values, u);
  return (v) => inPrefix(v, u, e);
}

/**
 * A formatter of a legend's values (its ends, its ticks): one prefix for all of `values`, the
 * one `columnFormat` fits to the larger end, and no value in powers of ten: a value that would
 * print below 0.001 in that prefix says so ("<0.001 s" beside "52.6 s", not "4e−6 s"; 0 stays
 * "0 s"), so both ends read in one unit at a glance.
 * @param {Iterable<number>} values @param {Unit | string | null} [unit] @returns {(v: number) => string}
 */
export function legendFormat(values, unit) {
  const u = asUnit(unit);
  const e = fitExponent(values, u);
  const least = 1e-3 * 10 ** e;
  return (v) => {
    if (!Number.isFinite(v) || v === 0 || Math.abs(v) * (u ? u.scale : 1) >= least) return inPrefix(v, u, e);
    const edge = inPrefix(Math.sign(v) * (least / (u ? u.scale : 1)), u, e);
    return v > 0 ? `<${edge}` : `>${edge}`;
  };
}

/**
 * A table column's values split for a narrow column: the unit once, for its header ("ms";
 * "samples"; "" with no unit), and each value's number in the column's one prefix. With a known
 * base the prefix goes on the unit ("ms" over "0.345", "5.52"); on a label or no unit it stays on
 * each number ("12.3k" under "samples"), as `columnFormat` prints it.
 * @param {Iterable<number>} values @param {Unit | string | null} [unit]
 * @returns {{ unit: string, number: (v: number) => string }}
 */
export function columnParts(values, unit) {
  const u = asUnit(unit);
  const e = fitExponent(values, u);
  if (!u || !u.si) return { unit: u ? u.text : "", number: (v) => inPrefix(v, null, e) };
  const scale = u.scale;
  return {
    unit: `${PREFIX_OF.get(e) ?? ""}${u.per ? `${u.symbol}/${u.per}` : u.symbol}`,
    number: (v) => (Number.isFinite(v) ? number((v * scale) / 10 ** e) : inPrefix(v, null, 0)),
  };
}
