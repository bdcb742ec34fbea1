// Colour and size scales that never produce NaN: missing and out-of-domain values are reported,
// not silently mapped to a colour or a zero radius.
import { scaleLinear, scaleSequential, scaleSequentialLog } from "d3-scale";
import { interpolateViridis } from "d3-scale-chromatic";

export const COLOR_SCALES = ["linear", "log"];

/**
 * @typedef {object} ColorScale
 * @property {"linear" | "log"} type
 * @property {[number, number] | null} domain  null when no value can be drawn
 * @property {(v: number) => string | null} color  null: draw as missing
 * @property {(v: number) => string | null} why  why a value has no colour (null if it has one)
 * @property {(t: number) => string} interpolator  colour at t in [0, 1]
 */

/**
 * @param {Float64Array} values
 * @param {{ type?: "linear" | "log", interpolator?: (t: number) => string }} [options]
 * @returns {ColorScale}
 */
export function colorScale(values, { type = "linear", interpolator = interpolateViridis } = {}) {
  if (!COLOR_SCALES.includes(type)) {
    throw new RangeError(`unknown colour scale ${JSON.stringify(type)}; accepted: linear, log`);
  }
  const log = type === "log";
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const why = (v) => {
    if (Number.isNaN(v)) return "missing value";
    if (log && v <= 0) return "≤ 0: not shown on a log scale";
    return null;
  };
  if (lo > hi) {
    return { type, domain: null, color: () => null, why: (v) => why(v) ?? "no drawable values", interpolator };
  }
  if (lo === hi) {
    // One value only: give it the middle colour rather than an undefined position.
    const mid = interpolator(0.5);
    return { type, domain: [lo, hi], color: (v) => (why(v) ? null : mid), why, interpolator };
  }
  const scale = (log ? scaleSequentialLog(interpolator) : scaleSequential(interpolator))
    .domain([lo, hi])
    .clamp(true);
  return {
    type,
    domain: [lo, hi],
    color: (v) => (why(v) ? null : scale(v)),
    why,
    interpolator,
  };
}

/**
 * Node radius: area grows with |value| on a sqrt scale from `rMin` (0 or missing) to `rMax`.
 * Negative values get the radius of their magnitude and are flagged so the backend marks them.
 * @param {Float64Array} values
 * @param {{ rMin?: number, rMax?: number }} [options]
 */
export function sizeScale(values, { rMin = 2.5, rMax = 12 } = {}) {
  let max = 0;
  for (const v of values) {
    if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  }
  // r² is linear in |v|, so the area added above rMin is proportional to the value.
  const r2 = scaleLinear().domain([0, max || 1]).range([rMin * rMin, rMax * rMax]).clamp(true);
  return {
    max,
    rMin,
    rMax,
    radius: (v) => (Number.isFinite(v) ? Math.sqrt(r2(Math.abs(v))) : rMin),
    negative: (v) => v < 0,
    missing: (v) => Number.isNaN(v),
  };
}
