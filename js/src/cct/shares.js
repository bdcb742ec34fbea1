// Shares of totals: a value as a percentage of the whole profile's total or of the focused
// subtree's, for tooltips, the colour legend's ends and labels. Pure functions of the table.

/** @type {WeakMap<object, Map<string, number>>} */
const totalsMemo = new WeakMap();

/**
 * The whole profile's total of each metric that adds up: an exclusive metric's sum over every
 * row (a fold row holds the sum of what it stands for), an inclusive one's over the roots.
 * @param {import("./decode.js").Table} table
 */
export function totals(table) {
  let out = totalsMemo.get(table);
  if (out) return out;
  out = new Map();
  for (const m of table.metrics) {
    if (m.kind === "other") continue;
    let sum = 0;
    for (let r = 0; r < table.size; r++) {
      const v = m.values[r];
      if (!Number.isNaN(v) && (m.kind === "exclusive" || table.parent[r] < 0)) sum += v;
    }
    out.set(m.name, sum);
  }
  totalsMemo.set(table, out);
  return out;
}

/**
 * Each additive metric's total under the focused node's row (null without a focus): an
 * inclusive metric's value there, an exclusive one's subtree sum.
 * @param {import("./decode.js").Table} table
 * @param {{ sums: Map<string, Float64Array> }} stats @param {number} row -1: no focus
 */
export function focusTotals(table, stats, row) {
  if (row < 0) return null;
  const out = new Map();
  for (const m of table.metrics) {
    if (m.kind === "inclusive") out.set(m.name, m.values[row]);
    if (m.kind === "exclusive") out.set(m.name, stats.sums.get(m.name)?.[row] ?? Number.NaN);
  }
  return out;
}

/**
 * The colour legend as a share (view state `legendShare`): the base and how its ends are
 * written, or null (off, or a metric that does not add up, or nothing to divide by).
 * @param {import("./decode.js").Table} table
 * @param {{ sums: Map<string, Float64Array> }} stats
 * @param {{ legendShare: "off" | "total" | "focus", focus: number | null }} view
 * @param {import("./decode.js").Metric} metric @param {(id: number) => number} rowOf
 */
export function legendShare(table, stats, view, metric, rowOf) {
  if (view.legendShare === "off" || (metric.kind !== "exclusive" && metric.kind !== "inclusive")) return null;
  const focusRow = view.legendShare === "focus" && view.focus !== null ? rowOf(view.focus) : -1;
  const base = focusRow >= 0 ? focusTotals(table, stats, focusRow)?.get(metric.name) : totals(table).get(metric.name);
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
function percent(v, base) {
  const p = (100 * v) / base;
  return `${Math.abs(p) >= 10 ? p.toFixed(0) : p.toPrecision(2)} %`;
}
