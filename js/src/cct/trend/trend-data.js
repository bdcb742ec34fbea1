// The trend pane's data and scales, pure: Python's pane (cctviz/widget/trend_payload.py)
// checked, and the x and y scales of its small multiples. Every chart shares one y scale, so
// that a child's line sits below its parent's as much as it weighs less; x is a date, a number
// (a scaling curve: log axes offered) or a category (one point per value, with its spread).
import { scaleLinear, scaleLog } from "d3-scale";
import { formatValue } from "../base/format.js";
import { displayText } from "../base/text.js";

/**
 * @typedef {"date" | "number" | "category"} AxisKind
 * @typedef {object} Series one chart: a node's values along the axis
 * @property {number} id the node's id (a full-tree id)
 * @property {string} name as text
 * @property {number | null} share its value over its parent's, in the tree (null: none)
 * @property {number[]} x dates in ms since 1970, numbers, or category positions
 * @property {number[]} y NaN where missing
 * @property {number[]} count profiles behind each point
 * @property {number[] | null} low @property {number[] | null} high each point's spread (a
 *   category axis), NaN where none
 * @typedef {object} Trend what Python sends
 * @property {string} by @property {AxisKind} kind the axis
 * @property {{ name: string, kind: AxisKind }[]} axes the columns the menu offers
 * @property {string} metric @property {string} reducer
 * @property {number} profiles the profiles the values are over
 * @property {string} where the condition they pass ('' for all)
 * @property {string[]} categories a category axis's values, in order
 * @property {{ id: number, name: string }[]} path the root down to the node shown
 * @property {number} children the node's children @property {number} leftOut of them, not drawn
 * @property {boolean} thinned a long series was thinned to its shape
 * @property {Series[]} series the node first, then its children
 */

const KINDS = new Set(["date", "number", "category"]);
/** @param {unknown} v */
const num = (v) => (typeof v === "number" ? v : Number.NaN);
/** @param {unknown} v @param {number} n */
const numbers = (v, n) => (Array.isArray(v) && v.length === n ? v.map(num) : null);
/** @param {unknown} v @returns {AxisKind} */
const kindOf = (v) => (KINDS.has(/** @type {string} */ (v)) ? /** @type {AxisKind} */ (v) : "category");
/** @param {unknown} v */
const text = (v) => displayText(String(v ?? ""));
/** @param {unknown} v */
const nodeId = (v) => (Number.isInteger(v) && /** @type {number} */ (v) >= 0 ? /** @type {number} */ (v) : -1);

/**
 * Checks Python's pane: series of equal lengths, names as text. Null when there is none (a
 * GraphFrame's view: `{}`).
 * @param {unknown} value
 * @returns {Trend | null}
 */
export function asTrend(value) {
  const v = /** @type {Record<string, any>} */ (value ?? {});
  if (!Array.isArray(v.series) || !Array.isArray(v.path) || !Array.isArray(v.axes)) return null;
  /** @type {Series[]} */
  const series = [];
  for (const s of v.series) {
    const x = Array.isArray(s?.x) ? s.x.map(num) : [];
    const y = numbers(s?.y, x.length);
    const id = nodeId(s?.id);
    if (!y || id < 0) return null;
    series.push({
      id,
      name: text(s.name),
      share: typeof s.share === "number" && Number.isFinite(s.share) ? s.share : null,
      x,
      y,
      count: numbers(s.count, x.length) ?? x.map(() => Number.NaN),
      low: numbers(s.low, x.length),
      high: numbers(s.high, x.length),
    });
  }
  return {
    by: String(v.by ?? ""),
    kind: kindOf(v.kind),
    axes: v.axes.map((/** @type {any} */ a) => ({ name: String(a?.name), kind: kindOf(a?.kind) })),
    metric: text(v.metric),
    reducer: text(v.reducer),
    profiles: num(v.profiles),
    where: text(v.where),
    categories: Array.isArray(v.categories) ? v.categories.map(text) : [],
    path: v.path.map((/** @type {any} */ p) => ({ id: nodeId(p?.id), name: text(p?.name) })),
    children: num(v.children) || 0,
    leftOut: num(v.left_out) || 0,
    thinned: v.thinned === true,
    series,
  };
}

/** @param {number} ms */
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * A point of the axis as text: a date, a number or a category's value.
 * @param {Trend} trend @param {number} x
 */
export function xText(trend, x) {
  if (trend.kind === "date") return Number.isFinite(x) ? day(x) : "missing";
  if (trend.kind === "category") return trend.categories[x] ?? "missing";
  return formatValue(x);
}

/**
 * Whether the pane offers log axes: for a numeric axis (a scaling curve).
 * @param {Trend} trend
 */
export const offersLog = (trend) => trend.kind === "number";

/**
 * The extent of the finite values of `lists` (only positive ones for a log scale); null if none.
 * @param {(number[] | null)[]} lists @param {boolean} log
 * @returns {[number, number] | null}
 */
function extent(lists, log) {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const list of lists)
    for (const v of list ?? [])
      if (Number.isFinite(v) && (!log || v > 0)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  return lo <= hi ? [lo, hi] : null;
}

/**
 * The scales of the pane's charts, `width` × `height` pixels inside their margins: x along the
 * axis (categories at even steps), y shared by every chart (from 0 on a linear scale; a log
 * scale spans the positive values, and a point at or below 0 is not drawn).
 * @param {Trend} trend @param {boolean} log @param {[number, number]} xRange @param {[number, number]} yRange
 */
export function scalesOf(trend, log, xRange, yRange) {
  const logX = log && offersLog(trend);
  const all = trend.series;
  const xs = trend.kind === "category" ? [[0, Math.max(0, trend.categories.length - 1)]] : all.map((s) => s.x);
  const [x0, x1] = extent(xs, logX) ?? (logX ? [1, 10] : [0, 1]);
  const ys = [...all.map((s) => s.y), ...all.map((s) => s.high), ...all.map((s) => s.low)];
  const [y0, y1] = extent(ys, log) ?? (log ? [1, 10] : [0, 1]);
  const pad = trend.kind === "category" ? 0.5 : 0;
  const x = (logX ? scaleLog() : scaleLinear())
    .domain(x0 === x1 ? (logX ? [x0 / 2, x0 * 2] : [x0 - 1, x1 + 1]) : [x0 - pad, x1 + pad])
    .range(xRange);
  const y = log
    ? scaleLog()
        .domain(y0 === y1 ? [y0 / 2, y0 * 2] : [y0, y1])
        .range(yRange)
    : scaleLinear()
        .domain([Math.min(0, y0), y1 > Math.min(0, y0) ? y1 : 1])
        .range(yRange);
  return { x, y, logX, defined: (/** @type {number} */ v) => Number.isFinite(v) && (!log || v > 0) };
}

/**
 * An SVG path through the points of a series, broken where a value is missing (or not positive
 * on a log scale).
 * @param {Series} s @param {ReturnType<typeof scalesOf>} scales
 */
export function linePath(s, { x, y, logX, defined }) {
  let d = "";
  let pen = false;
  for (let i = 0; i < s.x.length; i++) {
    const ok = defined(s.y[i]) && Number.isFinite(s.x[i]) && (!logX || s.x[i] > 0);
    if (ok) d += `${pen ? "L" : "M"}${x(s.x[i]).toFixed(1)},${y(s.y[i]).toFixed(1)}`;
    pen = ok;
  }
  return d;
}

/**
 * What a chart's share says: "34 % of parent"; '' without one.
 * @param {number | null} share
 */
export function shareText(share) {
  if (share === null) return "";
  const pct = share * 100;
  return `${pct >= 10 || pct === 0 ? Math.round(pct) : pct.toPrecision(2)} % of parent`;
}
