// Colour and size scales that never produce NaN: missing and out-of-domain values are reported,
// not silently mapped to a colour or a zero radius.
import { scaleDiverging, scaleLinear, scaleSequential, scaleSequentialLog } from "d3-scale";
import {
  interpolateBlues,
  interpolateCividis,
  interpolateGreys,
  interpolateInferno,
  interpolateMagma,
  interpolatePlasma,
  interpolatePuOr,
  interpolateRdBu,
  interpolateViridis,
} from "d3-scale-chromatic";

export const COLOR_SCALES = ["linear", "log"];

/** Colour-blind-safe palettes. "auto": viridis, or the diverging rdbu when values change sign. */
export const PALETTES = {
  viridis: interpolateViridis,
  cividis: interpolateCividis,
  magma: interpolateMagma,
  plasma: interpolatePlasma,
  inferno: interpolateInferno,
  blues: interpolateBlues,
  greys: interpolateGreys,
  // diverging, low = blue, high = red, centred on 0
  rdbu: (/** @type {number} */ t) => interpolateRdBu(1 - t),
  puor: interpolatePuOr,
};
export const DIVERGING = new Set(["rdbu", "puor"]);
export const PALETTE_NAMES = ["auto", ...Object.keys(PALETTES)];

/**
 * @typedef {object} ColorScale
 * @property {"linear" | "log"} type
 * @property {string} palette  the palette in use ("auto" resolved)
 * @property {[number, number] | null} domain  null when no value can be drawn
 * @property {(v: number) => string | null} color  null: draw as missing
 * @property {(v: number) => string | null} why  why a value has no colour (null if it has one)
 * @property {(t: number) => string} interpolator  colour at t in [0, 1]
 */

/**
 * @param {Float64Array} values
 * @param {{ type?: "linear" | "log", interpolator?: ((t: number) => string) | null, palette?: string }} [options]
 * @returns {ColorScale}
 */
export function colorScale(values, { type = "linear", interpolator = null, palette = "auto" } = {}) {
  if (!COLOR_SCALES.includes(type)) {
    throw new RangeError(`unknown colour scale ${JSON.stringify(type)}; accepted: linear, log`);
  }
  if (!PALETTE_NAMES.includes(palette)) {
    throw new RangeError(`unknown palette ${JSON.stringify(palette)}; accepted: ${PALETTE_NAMES.join(", ")}`);
  }
  const log = type === "log";
  let lo = Infinity;
  let hi = -Infinity;
  for (let ix = 0; ix < values.length; ix++) {
    const v = values[ix];
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const signed = lo < 0 && hi > 0 && type === "linear";
  const name = palette === "auto" ? (signed ? "rdbu" : "viridis") : palette;
  // a name of PALETTES: `palette` is one of PALETTE_NAMES, and "auto" is resolved
  interpolator ??= PALETTES[/** @type {keyof typeof PALETTES} */ (name)];
  const diverging = DIVERGING.has(name) && type === "linear";
  /** @param {number} v @returns {string | null} */
  const why = (v) => {
    if (Number.isNaN(v)) return "missing value";
    if (log && v <= 0) return "≤ 0: not shown on a log scale";
    return null;
  };
  if (lo > hi) {
    const none = (/** @type {number} */ v) => why(v) ?? "no drawable values";
    return { type, palette: name, domain: null, color: () => null, why: none, interpolator };
  }
  if (lo === hi) {
    // One value only: give it the middle colour rather than an undefined position.
    const mid = interpolator(0.5);
    return { type, palette: name, domain: [lo, hi], color: (v) => (why(v) ? null : mid), why, interpolator };
  }
  if (diverging) {
    // centred on 0: the same distance from 0 gets the same strength of colour on either side
    const m = Math.max(Math.abs(lo), Math.abs(hi));
    const scale = scaleDiverging(interpolator).domain([-m, 0, m]).clamp(true);
    return { type, domain: [-m, m], palette: name, color: (v) => (why(v) ? null : scale(v)), why, interpolator };
  }
  const scale = (log ? scaleSequentialLog(interpolator) : scaleSequential(interpolator)).domain([lo, hi]).clamp(true);
  return {
    type,
    palette: name,
    domain: [lo, hi],
    color: (v) => (why(v) ? null : scale(v)),
    why,
    interpolator,
  };
}

/**
 * Node radius: area grows with |value| on a sqrt scale from `rMin` (0 or missing) to `rMax`
 * (the largest finite |value|, and ±infinity). Negative values get the radius of their magnitude
 * and are flagged so the backend marks them (dashed); so are missing ones (dotted).
 * @param {Float64Array} values
 * @param {{ rMin?: number, rMax?: number }} [options]
 */
export function sizeScale(values, { rMin = 2.5, rMax = 12 } = {}) {
  let max = 0;
  for (let ix = 0; ix < values.length; ix++) {
    const v = values[ix];
    if (Number.isFinite(v) && Math.abs(v) > max) max = Math.abs(v);
  }
  // r² is linear in |v|, so the area added above rMin is proportional to the value.
  const r2 = scaleLinear()
    .domain([0, max || 1])
    .range([rMin * rMin, rMax * rMax])
    .clamp(true);
  return {
    max,
    rMin,
    rMax,
    // ±infinity is larger than any value (the largest circle), NaN has no size (the smallest,
    // outlined dotted: `missing`)
    radius: (/** @type {number} */ v) => (Number.isNaN(v) ? rMin : Math.sqrt(r2(Math.abs(v)))),
    negative: (/** @type {number} */ v) => v < 0,
    missing: (/** @type {number} */ v) => Number.isNaN(v),
  };
}
