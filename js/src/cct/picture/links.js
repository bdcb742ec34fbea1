// Links as columns, made from the view tree and its layout: the i-th link's ends and its
// parent's item key are the i-th values of five typed arrays, not an object. A tree of 10^5
// nodes drawn whole has 10^5 links: as objects, 10^5 more things on the heap for each
// young-generation collection of its first picture to copy (and a boxed number for each
// fractional coordinate). Columns are five allocations, outside the heap.

import { runAll, SLICE_ITEMS } from "../base/steps.js";
import { keyOfRow } from "./view-tree.js";

/**
 * Parent → child links in layout units, `p` the parent's item key (-1: none named; a canvas
 * fills dense fans of one parent's links, link-wedges.js).
 * @typedef {object} Links
 * @property {number} length
 * @property {Float64Array} x0
 * @property {Float64Array} y0
 * @property {Float64Array} x1
 * @property {Float64Array} y1
 * @property {Int32Array} p
 */
/** @typedef {{ x0: number, y0: number, x1: number, y1: number, p?: number }} LinkObject one link as an object */
/** @typedef {ReturnType<typeof import("./view-tree.js").buildViewTree>} ViewTree */
/** @typedef {{ x: Float64Array, y: Float64Array }} Positions */

/** Room for `n` links, `length` 0 (see `pushLink`, `trimLinks`). @param {number} n @returns {Links} */
export function linkRoom(n) {
  return {
    length: 0,
    x0: new Float64Array(n),
    y0: new Float64Array(n),
    x1: new Float64Array(n),
    y1: new Float64Array(n),
    p: new Int32Array(n),
  };
}

/**
 * Adds a link in the room left (made by `linkRoom`).
 * @param {Links} links @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1
 * @param {number} p the parent's item key, -1 for none
 */
export function pushLink(links, x0, y0, x1, y1, p) {
  const i = links.length++;
  links.x0[i] = x0;
  links.y0[i] = y0;
  links.x1[i] = x1;
  links.y1[i] = y1;
  links.p[i] = p;
}

/** The links made, their columns as long as they are (views of the room's). @param {Links} links @returns {Links} */
export function trimLinks(links) {
  const n = links.length;
  const cut = (/** @type {Float64Array} */ a) => (a.length === n ? a : a.subarray(0, n));
  return {
    length: n,
    x0: cut(links.x0),
    y0: cut(links.y0),
    x1: cut(links.x1),
    y1: cut(links.y1),
    p: links.p.subarray(0, n),
  };
}

/** Links from objects (a DAG's few caller edges, tests). @param {readonly LinkObject[]} list @returns {Links} */
export function linksOf(list) {
  const links = linkRoom(list.length);
  for (const s of list) pushLink(links, s.x0, s.y0, s.x1, s.y1, s.p ?? -1);
  return links;
}

/**
 * The links at `ids` (every link when null) as objects, `p` left out when -1 (tests, debugging).
 * @param {Links} links @param {ArrayLike<number> | null} [ids] @returns {LinkObject[]}
 */
export function linkObjects(links, ids = null) {
  const n = ids ? ids.length : links.length;
  /** @type {LinkObject[]} */
  const out = [];
  for (let j = 0; j < n; j++) {
    const i = ids ? ids[j] : j;
    const s = { x0: links.x0[i], y0: links.y0[i], x1: links.x1[i], y1: links.y1[i] };
    out.push(links.p[i] >= 0 ? { ...s, p: links.p[i] } : s);
  }
  return out;
}

/** The indices 0 … length − 1: every link. @param {Links} links */
export function allLinks(links) {
  const ids = new Int32Array(links.length);
  for (let i = 0; i < ids.length; i++) ids[i] = i;
  return ids;
}

/** No links. */
export const NO_LINKS = Object.freeze(linkRoom(0));

/** Items whose links are made between two yields of linkSegmentSteps. */
const SLICE_LINKS = SLICE_ITEMS;

/**
 * Parent → child links in layout units, each with its parent's item key `p` (as columns).
 * @param {ViewTree} tree @param {Positions} layout
 */
export const linkSegments = (tree, layout) => runAll(linkSegmentSteps(tree, layout));

/**
 * linkSegments in slices of SLICE_LINKS items (a yield between two).
 * @param {ViewTree} tree @param {Positions} layout
 * @returns {Generator<void, Links, void>}
 */
export function* linkSegmentSteps(tree, layout) {
  const { items } = tree;
  const links = linkRoom(items.length);
  const { x, y } = layout;
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % SLICE_LINKS === 0) yield;
    const item = items[i];
    const p = item.parentKey;
    if (p >= 0) pushLink(links, x[p], y[p], x[item.key], y[item.key], p);
  }
  return trimLinks(links);
}

/**
 * A DAG's other call edges (see decode.js `callers`) between drawn nodes: caller → callee, in
 * layout units (drawn dashed), `p` -1 (no fans of them: link-wedges.js).
 * @param {import("../data/decode.js").Table} table @param {ViewTree} tree @param {Positions} layout
 * @returns {Links}
 */
export function callerSegments(table, tree, layout) {
  /** @type {LinkObject[]} */
  const segments = [];
  const drawn = (/** @type {import("../data/ids.js").NodeId} */ id) => {
    const key = keyOfRow(table.rowOf(id));
    const kind = key >= 0 ? tree.byKey.get(key)?.kind : undefined;
    return kind === "node" || kind === "collapsed" ? key : -1;
  };
  for (const [callee, callers] of table.callers ?? []) {
    const to = drawn(callee);
    if (to < 0) continue;
    for (const caller of callers) {
      const from = drawn(caller);
      if (from >= 0) segments.push({ x0: layout.x[from], y0: layout.y[from], x1: layout.x[to], y1: layout.y[to] });
    }
  }
  return linksOf(segments);
}
