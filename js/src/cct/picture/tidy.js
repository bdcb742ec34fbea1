// The tidy tree layout (Buchheim, Jünger and Leipert's linear-time Walker algorithm), over a
// forest held in typed arrays, in slices. A port of d3-hierarchy's `tree()` (src/tree.js,
// d3-hierarchy 3.1, ISC licence, Copyright 2010-2021 Mike Bostock), with its default separation
// and `nodeSize([dx, 1])`: it gives d3's positions to the last bit. Why a port: d3's layout runs
// in one call (at 10^5 nodes ~170 ms, and its hierarchy of objects another ~55 ms, in one task
// of the page); this one is a generator that yields every few thousand nodes, so that a big
// first picture is laid out over several tasks (see view/later.js), and its arrays cost no
// object per node.

import { runAll } from "../base/steps.js";

/** Nodes a slice of either walk handles before it yields. */
export const TIDY_SLICE = 4096;

/**
 * A forest in arrays, by index: 0 is a hidden root over the top-level items, item `i` of the
 * list it is made from is index `i + 1`. -1: none.
 * @typedef {object} Forest
 * @property {Int32Array} key the item key of each index (the hidden root: -1)
 * @property {Int32Array} parent
 * @property {Int32Array} first first child
 * @property {Int32Array} last last child
 * @property {Int32Array} prev previous sibling
 * @property {Int32Array} number place among its siblings
 * @property {Int32Array} depth the hidden root: 0
 * @property {number} keyCount the largest item key + 1 (at least 1): the size of arrays by key
 */

/**
 * The forest of items listed in pre-order (a parent before its children, siblings in order).
 * @param {{ key: number, parentKey: number }[]} items parentKey -1: a top-level item
 * @returns {Forest}
 */
export const forestOf = (items) => runAll(forestSteps(items));

/**
 * forestOf in slices: yields every `slice` items (at 10^5 items its passes took ~12 ms of one
 * task, cold).
 * @param {{ key: number, parentKey: number }[]} items @param {number} [slice]
 * @returns {Generator<void, Forest, void>}
 */
export function* forestSteps(items, slice = TIDY_SLICE) {
  const n = items.length + 1;
  const key = new Int32Array(n);
  const parent = new Int32Array(n).fill(-1);
  const first = new Int32Array(n).fill(-1);
  const last = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const number = new Int32Array(n);
  const depth = new Int32Array(n);
  let top = -1;
  for (let i = 0; i < items.length; i++) {
    if (i && i % slice === 0) yield;
    top = Math.max(top, items[i].key);
  }
  /** item key + 1 → index + 1 (0: not listed yet); keys are rows, so small */
  const indexOf = new Int32Array(top + 2);
  indexOf[0] = 1;
  key[0] = -1;
  for (let i = 1; i < n; i++) {
    if (i % slice === 0) yield;
    const it = items[i - 1];
    const p = (indexOf[it.parentKey + 1] ?? 0) - 1;
    if (p < 0) throw new RangeError(`item ${it.key} comes before its parent ${it.parentKey}`);
    key[i] = it.key;
    indexOf[it.key + 1] = i + 1;
    parent[i] = p;
    depth[i] = depth[p] + 1;
    const before = last[p];
    if (before < 0) first[p] = i;
    else {
      prev[i] = before;
      number[i] = number[before] + 1;
    }
    last[p] = i;
  }
  return { key, parent, first, last, prev, number, depth, keyCount: Math.max(top, 0) + 1 };
}

/**
 * The forest's indices in post-order (children left to right, then their parent): what the
 * first walk needs, as the pre-order of the index is what the second needs.
 * @param {Forest} forest
 */
function postOrder({ parent, depth }) {
  const n = parent.length;
  const order = new Int32Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    // everything on the stack at i's depth or below is done: its subtree ended before i
    while (top > 0 && depth[stack[top - 1]] >= depth[i]) order[k++] = stack[--top];
    stack[top++] = i;
  }
  while (top > 0) order[k++] = stack[--top];
  return order;
}

/**
 * Lays `forest` out as d3's `tree().nodeSize([dx, 1])` would its hierarchy: the position
 * across the levels of each index (its `x`; depth gives the other). Yields every `slice` nodes
 * of each walk; returns the positions.
 * @param {Forest} forest @param {number} dx @param {number} [slice]
 * @returns {Generator<void, Float64Array, void>}
 */
export function* tidySteps(forest, dx, slice = TIDY_SLICE) {
  const { parent, first, last, prev, number } = forest;
  const n = parent.length;
  const z = new Float64Array(n); // prelim
  const m = new Float64Array(n); // mod
  const c = new Float64Array(n); // change
  const s = new Float64Array(n); // shift
  const thread = new Int32Array(n).fill(-1);
  const ancestor = Int32Array.from({ length: n }, (_, i) => i);
  const defaultAncestor = new Int32Array(n).fill(-1);
  const separation = (/** @type {number} */ a, /** @type {number} */ b) => (parent[a] === parent[b] ? 1 : 2);
  const nextLeft = (/** @type {number} */ v) => (first[v] >= 0 ? first[v] : thread[v]);
  const nextRight = (/** @type {number} */ v) => (last[v] >= 0 ? last[v] : thread[v]);

  /** @param {number} wm @param {number} wp @param {number} shift */
  const moveSubtree = (wm, wp, shift) => {
    const change = shift / (number[wp] - number[wm]);
    c[wp] -= change;
    s[wp] += shift;
    c[wm] += change;
    z[wp] += shift;
    m[wp] += shift;
  };
  /** @param {number} v */
  const executeShifts = (v) => {
    let shift = 0;
    let change = 0;
    for (let w = last[v]; w >= 0; w = prev[w]) {
      z[w] += shift;
      m[w] += shift;
      change += c[w];
      shift += s[w] + change;
    }
  };
  /** Combines the subtree of `v` with those of its left siblings (d3's `apportion`).
   * @param {number} v @param {number} w @param {number} a the default ancestor */
  const apportion = (v, w, a) => {
    if (w < 0) return a;
    let vip = v;
    let vop = v;
    let vim = w;
    let vom = first[parent[v]];
    let sip = m[vip];
    let sop = m[vop];
    let sim = m[vim];
    let som = m[vom];
    for (;;) {
      vim = nextRight(vim);
      vip = nextLeft(vip);
      if (vim < 0 || vip < 0) break;
      vom = nextLeft(vom);
      vop = nextRight(vop);
      ancestor[vop] = v;
      const shift = z[vim] + sim - z[vip] - sip + separation(vim, vip);
      if (shift > 0) {
        moveSubtree(parent[ancestor[vim]] === parent[v] ? ancestor[vim] : a, v, shift);
        sip += shift;
        sop += shift;
      }
      sim += m[vim];
      sip += m[vip];
      som += m[vom];
      sop += m[vop];
    }
    if (vim >= 0 && nextRight(vop) < 0) {
      thread[vop] = vim;
      m[vop] += sim - sop;
    }
    if (vip >= 0 && nextLeft(vom) < 0) {
      thread[vom] = vip;
      m[vom] += sip - som;
      return v;
    }
    return a;
  };

  const order = postOrder(forest);
  for (let k = 0; k < n; k++) {
    const v = order[k];
    const w = number[v] ? prev[v] : -1;
    if (first[v] >= 0) {
      executeShifts(v);
      const midpoint = (z[first[v]] + z[last[v]]) / 2;
      if (w >= 0) {
        z[v] = z[w] + separation(v, w);
        m[v] = z[v] - midpoint;
      } else z[v] = midpoint;
    } else if (w >= 0) z[v] = z[w] + separation(v, w);
    const p = parent[v];
    if (p >= 0) defaultAncestor[p] = apportion(v, w, defaultAncestor[p] >= 0 ? defaultAncestor[p] : first[p]);
    if ((k + 1) % slice === 0) yield;
  }
  // the second walk, in pre-order: each position is its prelim plus its ancestors' mods
  const x = new Float64Array(n);
  const rootMod = -z[0];
  x[0] = (z[0] + rootMod) * dx;
  m[0] += rootMod;
  for (let v = 1; v < n; v++) {
    x[v] = (z[v] + m[parent[v]]) * dx;
    m[v] += m[parent[v]];
    if (v % slice === 0) yield;
  }
  return x;
}
