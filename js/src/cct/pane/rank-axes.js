// The rank strip's axes (rank-strip.js), pure: which bars carry their rank number below them
// (the first, the last, every k-th between with k a round step wide enough that labels do not
// overlap, and the rank the tree shows), the value axis's 3–4 ticks in the metric's unit with
// one SI prefix (as table columns and legends print), and the mean of the ranks' values.
import { ticks } from "d3-array";
import { columnParts } from "../base/format.js";

/** Pixels a rank label takes per digit, and the room kept between two labels (a few labels, not a crowd). */
const DIGIT_PX = 7;
const GAP_PX = 24;

/**
 * The positions (0 … n−1, in drawing order) of the bars that show their rank under them.
 * @param {number[]} ranks the bars' ranks, in drawing order
 * @param {number} widthPx the bars' width on screen
 * @param {number} [keep] a position always labelled (the rank the tree shows; −1: none)
 * @returns {number[]} ascending
 */
export function rankTickPositions(ranks, widthPx, keep = -1) {
  const n = ranks.length;
  if (n === 0) return [];
  const pitch = widthPx / n;
  const digits = Math.max(1, ...ranks.map((r) => String(r).length));
  const room = Math.max(1, Math.ceil((digits * DIGIT_PX + GAP_PX) / Math.max(pitch, 1e-9)));
  const step = roundStep(room);
  const wanted = [0, n - 1];
  for (let i = step; i < n - 1; i += step) wanted.push(i);
  /** @type {number[]} */
  const chosen = keep >= 0 && keep < n ? [keep] : [];
  // the kept one first, then the ends, then the steps: each only where it has room
  for (const i of [...wanted.slice(0, 2), ...wanted.slice(2)]) {
    if (chosen.every((j) => Math.abs(i - j) >= room)) chosen.push(i);
  }
  return chosen.sort((a, b) => a - b);
}

/** The smallest of 1, 2, 5, 10, 20, 50, … at least `x`. @param {number} x */
export function roundStep(x) {
  for (let p = 1; ; p *= 10) for (const m of [1, 2, 5]) if (m * p >= x) return m * p;
}

/**
 * The value axis from 0 to `top`: 3–4 round ticks, each as a share of the axis's height and
 * its number in the axis's one prefix, and the unit with that prefix ("ms"; "" with none).
 * @param {number} top the largest magnitude drawn (> 0)
 * @param {string | null} unit the metric's (w.units)
 * @returns {{ unit: string, ticks: { value: number, at: number, text: string }[],
 *   number: (v: number) => string }}
 */
export function valueAxis(top, unit) {
  let values = ticks(0, top, 3);
  if (values.length > 4) values = values.filter((_, i) => i % 2 === 0);
  const parts = columnParts([top, ...values], unit);
  return {
    unit: parts.unit,
    ticks: values.map((value) => ({ value, at: value / top, text: parts.number(value) })),
    number: parts.number,
  };
}

/** The mean, min and max of the finite values (null: none). @param {(number | null)[]} values */
export function summary(values) {
  const finite = /** @type {number[]} */ (values.filter((v) => v !== null && Number.isFinite(v)));
  if (!finite.length) return null;
  let [sum, min, max] = [0, Infinity, -Infinity];
  for (const v of finite) {
    sum += v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { mean: sum / finite.length, min, max };
}
