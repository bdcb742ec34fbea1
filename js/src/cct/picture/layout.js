// The forest of the drawn items (several roots under one hidden root), laid out as a
// left-to-right tidy tree, its levels spread over the room a view has; and the children lists of
// a table. Loops over every item are indexed, not for…of: a first picture runs them once, cold,
// and a cold for…of makes an object per item (at 10^5 items, 2 MB per loop for the collector).

import { runAll } from "../base/steps.js";
import { asRow } from "../data/ids.js";
import { forestOf, forestSteps, tidySteps } from "./tidy.js";

/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {ReturnType<typeof layoutTree>} Layout */

export const HIDDEN_ROOT = -1;
/** Rows between the bands of two roots: room for the lower band's header and a rule. */
export const BAND_GAP = 3;
/** Rows above the first band, for its header. */
export const HEAD_ROOM = 1.6;
/** Screen pixels between two bands and above the first at least, whatever the zoom. */
export const BAND_PX = 40;
export const HEAD_PX = 24;

/**
 * Screen pixels between bands and above the first for `bands` bands in a drawing `height` pixels
 * tall: BAND_PX and HEAD_PX, less in a small drawing (a column-wide figure), where the gaps take
 * at most 45 % of the height (headers that no longer fit are left out by the label layout).
 * @param {number} bands @param {number} height
 */
export function bandRoom(bands, height) {
  if (bands < 2) return { gap: 0, head: 0, total: 0 };
  const scale = Math.min(1, (0.45 * height) / ((bands - 1) * BAND_PX + HEAD_PX));
  const gap = BAND_PX * scale;
  const head = HEAD_PX * scale;
  return { gap, head, total: (bands - 1) * gap + head };
}

/**
 * A band of a view with several roots: one root and its subtree, or all its small roots (no
 * drawn children: leaves, collapsed glyphs, folds) under one header, below the others.
 * @typedef {{ keys: number[], y0: number, y1: number }} Band keys: its top-level items; y0, y1:
 *   the extent of its nodes (layout units)
 */

/**
 * Children lists from the parent column, in table order (pre-order, so Hatchet's child order).
 * @param {Int32Array} parent parent rows (-1: a root)
 * @returns {{ roots: Row[], children: Row[][] }} rows; `children` by row
 */
export function childLists(parent) {
  /** @type {Row[][]} sparse: a leaf has no entry */
  const children = new Array(parent.length);
  /** @type {Row[]} */
  const roots = [];
  for (let n = 0; n < parent.length; n++) {
    const i = asRow(n);
    const p = parent[i];
    if (p < 0) roots.push(i);
    else if (p >= parent.length) throw new RangeError(`node ${i} has parent ${p} outside the table`);
    else if (children[p]) children[p].push(i);
    else children[p] = [i];
  }
  return { roots, children };
}

/** The forest of a view tree's items (tidy.js), what the layout is made from. */
export { forestOf, forestSteps };

/**
 * The band of each top-level item: a root with drawn children is a band of its own, in data
 * order; the small ones (leaves, collapsed glyphs, folds) share one, the last, wherever they are.
 * @param {boolean[]} small whether each top-level item is small
 * @returns {number[]} band index per item
 */
export function bandIndex(small) {
  let band = 0;
  const index = small.map((s) => (s ? -1 : band++));
  return index.map((b) => (b < 0 ? band : b));
}

/** How many bands bandIndex makes of these top-level items. @param {boolean[]} small */
export const bandCount = (small) => small.filter((s) => !s).length + (small.includes(true) ? 1 : 0);

/**
 * Tidy-tree layout, left to right. The tidy algorithm fixes only the vertical positions `y`
 * (rows `rowHeight` apart); the horizontal position is depth × level width, set by `placeLevels`
 * so that the spacing can follow the view's size without laying the tree out again.
 * The hidden root is not drawn; real roots sit at x = 0. With several roots, each root's
 * subtree is a band `BAND_GAP` rows from the next (small roots share the last one), so that it
 * can be headed by its name.
 * @param {import("./tidy.js").Forest} forest (forestOf)
 * @param {{ rowHeight: number }} spacing
 * @param {number} size number of nodes in the table
 */
export const layoutTree = (forest, spacing, size) => runAll(layoutSteps(forest, spacing, size));

/**
 * layoutTree in slices: yields between them (a big tree's layout is spread over several tasks).
 * @param {import("./tidy.js").Forest} forest @param {{ rowHeight: number }} spacing @param {number} size
 */
export function* layoutSteps(forest, { rowHeight }, size) {
  const tidyY = yield* tidySteps(forest, rowHeight);
  const { key: keyOf, parent, first } = forest;
  const n = keyOf.length;
  /** the item keys, in pre-order */
  const keys = keyOf.slice(1);
  const x = new Float64Array(size);
  const y = new Float64Array(size);
  const depth = new Int32Array(size);
  let maxDepth = 0;
  for (let i = 1; i < n; i++) {
    y[keyOf[i]] = tidyY[i];
    depth[keyOf[i]] = forest.depth[i] - 1;
    if (forest.depth[i] - 1 > maxDepth) maxDepth = forest.depth[i] - 1;
  }
  yield;
  /** band index by item key (-1: not in a band); bands only when there are several roots */
  const bandOf = new Int32Array(size).fill(-1);
  /** @type {number[][]} */
  const bandKeys = [];
  /** @type {number[]} the top-level items, in data order */
  const tops = [];
  for (let i = 1; i < n; i++) if (parent[i] === 0) tops.push(i);
  if (tops.length > 1) {
    const small = tops.map((top) => first[top] < 0);
    const index = bandIndex(small);
    for (let b = 0; b < bandCount(small); b++) bandKeys.push([]);
    /** band index by forest index */
    const bandAt = new Int32Array(n);
    tops.forEach((top, i) => {
      bandAt[top] = index[i];
      bandKeys[index[i]].push(keyOf[top]);
    });
    for (let i = 1; i < n; i++) {
      if (parent[i] !== 0) bandAt[i] = bandAt[parent[i]];
      bandOf[keyOf[i]] = bandAt[i];
    }
  }
  const banded = bandKeys.length > 1;
  /** @type {Band[]} */
  const bands = banded ? bandKeys.map((keys) => ({ keys, y0: Infinity, y1: -Infinity })) : [];
  /** each band's tidy positions, moved to start at 0 (stackBands places the bands) */
  const tidy = new Float64Array(banded ? size : 0);
  if (banded) {
    // the tidy layout packs subtrees into each other's gaps; bands are stacked strips instead,
    // each keeping its own tidy shape
    for (let ix = 0; ix < keys.length; ix++) {
      const key = keys[ix];
      const band = bands[bandOf[key]];
      band.y0 = Math.min(band.y0, y[key]);
      band.y1 = Math.max(band.y1, y[key]);
    }
    for (let ix = 0; ix < keys.length; ix++) {
      const key = keys[ix];
      tidy[key] = y[key] - bands[bandOf[key]].y0;
    }
    // the small roots: one row each, in data order
    for (const band of bands) {
      if (band.keys.length < 2) continue;
      for (let i = 0; i < band.keys.length; i++) tidy[band.keys[i]] = i * rowHeight;
    }
  }
  const heights = new Float64Array(bands.length);
  for (const key of banded ? keys : []) {
    const b = bandOf[key];
    heights[b] = Math.max(heights[b], tidy[key]);
  }
  // `stacking`: each node's band, its place within it and each band's height (stackBands)
  const stacking = { bandOf, tidy, heights };
  const layout = {
    x,
    y,
    depth,
    keys,
    height: 0,
    headRoom: 0,
    bands,
    maxDepth,
    levelWidth: 0,
    rowHeight,
    stacking,
  };
  stackBands(layout, BAND_GAP * rowHeight, HEAD_ROOM * rowHeight);
  return layout;
}

/**
 * Places the bands of several roots one below the other, `gap` apart, with `head` above the
 * first for its header (layout units; the camera widens them so that they stay readable when
 * the fitted zoom is small). Sets `height` (headroom included) and `headRoom`.
 * @param {Layout} layout @param {number} gap @param {number} head
 */
export function stackBands(layout, gap, head) {
  const { y, keys, bands } = layout;
  if (bands.length > 1) {
    const { bandOf, tidy } = layout.stacking;
    const start = bandStarts(layout, gap);
    bands.forEach((band, i) => {
      band.y0 = start[i];
      band.y1 = start[i] + layout.stacking.heights[i];
    });
    for (let ix = 0; ix < keys.length; ix++) {
      const key = keys[ix];
      y[key] = start[bandOf[key]] + tidy[key];
    }
  }
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let ix = 0; ix < keys.length; ix++) {
    const key = keys[ix];
    y0 = Math.min(y0, y[key]);
    y1 = Math.max(y1, y[key]);
  }
  layout.headRoom = bands.length > 1 ? head : 0;
  layout.height = keys.length ? y1 - y0 + layout.headRoom : 0;
}

/** Where each band starts when they are stacked `gap` apart. @param {Layout} layout @param {number} gap */
function bandStarts(layout, gap) {
  const { heights } = layout.stacking;
  const start = new Float64Array(layout.bands.length);
  for (let i = 1; i < start.length; i++) start[i] = start[i - 1] + heights[i - 1] + gap;
  return start;
}

/** The height stackBands would give `layout` (it is not changed). @param {Layout} layout @param {number} gap @param {number} head */
function stackedHeight(layout, gap, head) {
  const { bandOf, tidy } = layout.stacking;
  const start = bandStarts(layout, gap);
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let ix = 0; ix < layout.keys.length; ix++) {
    const key = layout.keys[ix];
    const y = start[bandOf[key]] + tidy[key];
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  return layout.keys.length ? y1 - y0 + head : 0;
}

/**
 * Sets the horizontal positions for a level width (layout units).
 * @param {Layout} layout
 * @param {number} levelWidth
 */
export function placeLevels(layout, levelWidth) {
  for (let ix = 0; ix < layout.keys.length; ix++) {
    const key = layout.keys[ix];
    layout.x[key] = layout.depth[key] * levelWidth;
  }
  layout.levelWidth = levelWidth;
}

/**
 * How a layout's levels and bands are spread over `room` (screen pixels): the level width
 * (layout units) such that, at the zoom that fits the tree's height, each level takes a readable
 * share of the room's width; and with several roots, the gaps between their bands and above the
 * first (BAND_PX and HEAD_PX at that zoom, at least BAND_GAP and HEAD_ROOM rows).
 * @param {Layout} layout a layout as laid out (layoutTree)
 * @param {{ width: number, height: number }} room
 * @param {{ maxFitScale: number, minLevelWidth: number, maxLevelWidth: number }} sizes
 * @returns {{ levelWidth: number, gap: number, head: number }}
 */
export function levelSpread(layout, room, { maxFitScale, minLevelWidth, maxLevelWidth }) {
  let k = Math.min(maxFitScale, room.height / Math.max(1, layout.height));
  let gap = BAND_GAP * layout.rowHeight;
  let head = HEAD_ROOM * layout.rowHeight;
  const bands = layout.bands.length;
  if (bands > 1) {
    // the bands of several roots keep BAND_PX between them at the fitted zoom
    const content = layout.bands.reduce((sum, b) => sum + b.y1 - b.y0, 0);
    const px = bandRoom(bands, room.height);
    k = Math.max(1e-4, Math.min(maxFitScale, (room.height - px.total) / Math.max(1, content)));
    gap = Math.max(BAND_GAP * layout.rowHeight, px.gap / k);
    head = Math.max(HEAD_ROOM * layout.rowHeight, px.head / k);
    k = Math.min(maxFitScale, room.height / Math.max(1, stackedHeight(layout, gap, head)));
  }
  const screen = room.width / Math.max(1, layout.maxDepth);
  const perLevel = Math.max(minLevelWidth, Math.min(maxLevelWidth, screen));
  return { levelWidth: perLevel / k, gap, head };
}

/**
 * A copy of `layout` spread as `spread` says (levelSpread); `layout` stays as it was.
 * @param {Layout} layout @param {ReturnType<typeof levelSpread>} spread
 * @returns {Layout}
 */
export function spreadLayout(layout, { levelWidth, gap, head }) {
  const spread = {
    ...layout,
    x: new Float64Array(layout.x.length),
    y: Float64Array.from(layout.y),
    bands: layout.bands.map((band) => ({ ...band })),
  };
  if (spread.bands.length > 1) stackBands(spread, gap, head);
  placeLevels(spread, levelWidth);
  return spread;
}
