// Shares of totals: a value as a percentage of the whole profile's total or of the focused
// subtree's, for tooltips, the colour legend's ends and labels. Pure functions of the table.
// Which metric has a share, and of what, is Python's rule (share_base in cctviz/view/payload.py): the
// payload names each metric's base, an inclusive metric; here it is only divided by.

import { metricByName } from "../data/decode.js";

/** @type {WeakMap<object, Map<string, number>>} */
const totalsMemo = new WeakMap();

/**
 * The metric whose value at the roots (or at the focus) is `metric`'s base, or null: no share
 * (a ratio, a difference, a spread…).
 * @param {import("../data/decode.js").Table} table @param {import("../data/decode.js").Metric} metric
 */
export function shareBase(table, metric) {
  return metric.share === null ? null : metricByName(table, metric.share);
}

/**
 * The whole profile's total of each metric with a share: its base's value summed over the roots
 * (the program's time), never a sum of exclusive values (HPCToolkit repeats a procedure's
 * exclusive time in its loops and lines).
 * @param {import("../data/decode.js").Table} table
 */
export function totals(table) {
  let out = totalsMemo.get(table);
  if (out) return out;
  out = new Map();
  // the roots found once, not a pass over every row per metric (10^5 rows: ~10 ms)
  /** @type {number[]} */
  const roots = [];
  for (let r = 0; r < table.size; r++) if (table.parent[r] < 0) roots.push(r);
  for (const m of table.metrics) {
    const base = shareBase(table, m);
    if (!base) continue;
    let sum = 0;
    for (const r of roots) {
      const v = base.values[r];
      if (!Number.isNaN(v)) sum += v;
    }
    out.set(m.name, sum);
  }
  totalsMemo.set(table, out);
  return out;
}

/**
 * Each metric's total under the focused node's row (null without a focus): its base's value
 * there.
 * @param {import("../data/decode.js").Table} table @param {number} row -1: no focus
 */
export function focusTotals(table, row) {
  if (row < 0) return null;
  const out = new Map();
  for (const m of table.metrics) {
    const base = shareBase(table, m);
    if (base) out.set(m.name, base.values[row]);
  }
  return out;
}

/**
 * The colour legend as a share (view state `legendShare`): the base and how its ends are
 * written, or null (off, or a metric without a share, or nothing to divide by).
 * @param {import("../data/decode.js").Table} table
 * @param {{ legendShare: "off" | "total" | "focus", focus: import("../data/ids.js").NodeId | null }} view
 * @param {import("../data/decode.js").Metric} metric @param {(id: import("../data/ids.js").NodeId) => import("../data/ids.js").Row} rowOf
 */
export function legendShare(table, view, metric, rowOf) {
  if (view.legendShare === "off" || !shareBase(table, metric)) return null;
  const focusRow = view.legendShare === "focus" && view.focus !== null ? rowOf(view.focus) : -1;
  const base = focusRow >= 0 ? focusTotals(table, focusRow)?.get(metric.name) : totals(table).get(metric.name);
  if (base === undefined || !(base > 0)) return null;
  return {
    of: focusRow >= 0 ? "% of the focus" : "% of total",
    base,
    format: (/** @type {number} */ v) => percent(v, base),
  };
}

/**
 * "12.3 % of total · 40 % of focus": a value's share, where it has a meaning.
 * @param {number} v @param {number | undefined} total @param {number | undefined} focus
 */
export function shareText(v, total, focus) {
  if (Number.isNaN(v)) return "";
  const parts = [];
  if (total !== undefined && total > 0) parts.push(`${percent(v, total)} of total`);
  if (focus !== undefined && focus > 0) parts.push(`${percent(v, focus)} of focus`);
  return parts.join(" · ");
}

/** `v` as a percentage of `base`: two significant digits below 10 %, whole ones above. @param {number} v @param {number} base */
export function percent(v, base) {
  const p = (100 * v) / base;
  return `${Math.abs(p) >= 10 ? p.toFixed(0) : p.toPrecision(2)} %`;
}
