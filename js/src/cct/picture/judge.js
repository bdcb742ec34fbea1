// "Too small to judge": when colour shows a value that does not add up (an imbalance ratio, a
// spread, a maximum), nodes that cost almost nothing would take the ends of the colour scale (a
// one-rank node has imbalance 64, the kernels 1.01). Nodes whose size metric's inclusive value
// is under `judgeBelow` of the total are drawn light grey, left out of the colour scale, and say
// so in their tooltip. Pure functions of the table and the view state; tests/conformance/
// judge-cases.json specifies them and cctviz/core/judge.py (the compare view's colour domain) alike.

import { metricByName } from "../data/decode.js";
import { asRow } from "../data/ids.js";
import { MAX_KINDS } from "./subtree-stats.js";

/**
 * @typedef {object} Judged
 * @property {Uint8Array} small 1 for a row too small to judge
 * @property {number} count rows too small to judge
 * @property {string} basis the inclusive metric the shares are of
 * @property {Float64Array} values that metric's values (a row's share is values[row] / total)
 * @property {number} total its total over the roots
 * @property {number} below the threshold, a share (0.01 = 1 %)
 * @property {Float64Array} maxes per row, the largest colour value in its subtree among rows
 *   that are not too small (what a collapsed glyph shows; NaN: none)
 */

/** @type {WeakMap<object, { key: unknown[], judged: Judged | null }>} */
const memo = new WeakMap();

/**
 * The rows too small to judge under this view, or null when nothing is judged (the colour
 * metric adds up, the threshold is 0, or the size metric has no inclusive values to share).
 * @param {import("../data/decode.js").Table} table
 * @param {{ colorBy: string, sizeBy: string, judgeBelow: number }} view
 * @returns {Judged | null}
 */
export function judged(table, view) {
  const color = metricByName(table, view.colorBy);
  const size = metricByName(table, view.sizeBy);
  const key = [color, size, view.judgeBelow];
  const last = memo.get(table);
  if (last && last.key.every((v, i) => v === key[i])) return last.judged;
  const out = color && size ? compute(table, color, size, view.judgeBelow) : null;
  memo.set(table, { key, judged: out });
  return out;
}

/**
 * @param {import("../data/decode.js").Table} table @param {import("../data/decode.js").Metric} color
 * @param {import("../data/decode.js").Metric} size @param {number} below
 */
function compute(table, color, size, below) {
  if (!(below > 0) || !MAX_KINDS.has(color.kind)) return null;
  // the share of an inclusive quantity: the size metric's own, or its inclusive partner's
  const basis =
    size.kind === "inclusive"
      ? size
      : size.kind === "exclusive" && size.partner
        ? metricByName(table, size.partner)
        : null;
  if (!basis || basis.kind !== "inclusive") return null;
  let total = 0;
  for (let r = 0; r < table.size; r++) {
    const v = basis.values[r];
    if (table.parent[r] < 0 && table.idOf(asRow(r)) >= 0 && v > 0) total += v;
  }
  if (!(total > 0)) return null;
  const small = new Uint8Array(table.size);
  let count = 0;
  const cut = below * total;
  for (let r = 0; r < table.size; r++) {
    if (table.idOf(asRow(r)) >= 0 && basis.values[r] < cut) {
      small[r] = 1;
      count++;
    }
  }
  // subtree maxima of the colour values of the rows that are judged (pre-order: one pass back)
  const maxes = new Float64Array(table.size);
  for (let r = 0; r < table.size; r++) maxes[r] = small[r] ? Number.NaN : color.values[r];
  for (let r = table.size - 1; r >= 0; r--) {
    const p = table.parent[r];
    const v = maxes[r];
    if (p >= 0 && !Number.isNaN(v) && !(maxes[p] >= v)) maxes[p] = v;
  }
  return { small, count, basis: basis.name, values: basis.values, total, below, maxes };
}

/**
 * The largest judged colour value a glyph hides: of a collapsed node's subtree, or of the
 * hidden subtrees of an aggregate (NaN: only nodes too small to judge).
 * @param {Judged} j @param {{ kind: string, id: number, hidden: number[] }} item
 */
export function judgedMax(j, item) {
  let best = Number.NaN;
  for (const h of item.kind === "collapsed" ? [item.id] : item.hidden) {
    const v = j.maxes[h];
    if (!Number.isNaN(v) && !(best >= v)) best = v;
  }
  return best;
}

/**
 * "too small to judge: 0.3 % of time (inc) (mean), under 1 %" for a tooltip, or "".
 * @param {Judged | null} j @param {number} row
 */
export function judgedText(j, row) {
  if (!j || !j.small[row]) return "";
  return `too small to judge: ${percent(j.values[row] / j.total)} of ${j.basis}, under ${percent(j.below)}`;
}

/**
 * "too small to judge: under 1 % of time (inc) (mean)" for the legend's key of grey nodes, or
 * null when no node is grey.
 * @param {Judged | null} j
 */
export function judgedKey(j) {
  return j && j.count ? `too small to judge: under ${percent(j.below)} of ${j.basis}` : null;
}

/** @param {number} share */
function percent(share) {
  const p = 100 * share;
  if (p > 0 && p < 0.01) return "< 0.01 %";
  return `${p >= 10 || Number.isInteger(p) ? p.toFixed(0) : p.toPrecision(2)} %`;
}

/** The fill of nodes too small to judge (scene.js draws them so, the legend's key too). */
export const SMALL_FILL = "#d4d4d4";
