// The labels of a view: every drawn node in the picture is a candidate, where the eye goes first —
// selected and searched nodes, then the nodes the colour singles out (its extremes; of a difference
// the few largest either way), the hot path, then the largest marks — and label-layout.js places those that fit. Pure: the view in, label
// marks (with their screen offsets) out.
import { range } from "d3-array";
import { kthLargest } from "../base/kth-largest.js";
import { runAll, SLICE_ITEMS } from "../base/steps.js";
import { metricByName } from "../data/decode.js";
import { layoutLabelSteps } from "./label-layout.js";
import { labelMark } from "./scene.js";
import { focusTotals, shareBase, totals } from "./shares.js";

/** @typedef {import("./view-tree.js").ViewItem} ViewItem */
const MAX_OBSTACLES = 20_000;
/** A colour through 0 (a compare view's difference) names this many of its largest |values|. */
export const DIFFERENCES_NAMED = 3;
/** @type {WeakMap<NodeMark[], { tree: object, hot: Map<number, number>, parent: Uint8Array }>} */
const memo = new WeakMap();
/** @typedef {import("./scene.js").NodeMark} NodeMark */

/**
 * The hot path of the drawn tree by mark size: from the largest top-level item, the largest
 * child, repeatedly (aggregates are not nodes; of equal sizes the first). Returns item key →
 * position on the path, and which item keys are parents. One pass with each parent's largest
 * child by key (a list of children per parent was 10^5 pushes and a map: ~25 ms, cold).
 * @param {{ items: import("./view-tree.js").ViewItem[] }} tree
 * @param {import("./scene.js").NodeMark[]} marks
 */
function treeFacts(tree, marks) {
  const { items } = tree;
  let end = 0;
  for (let i = 0; i < items.length; i++) end = Math.max(end, items[i].key + 1, items[i].parentKey + 1);
  const best = new Int32Array(end + 1).fill(-1); // by parent key + 1 (0: the top level)
  const bestSize = new Float64Array(end + 1).fill(Number.NEGATIVE_INFINITY);
  const parent = new Uint8Array(end);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (it.parentKey >= 0) parent[it.parentKey] = 1;
    if (it.kind === "aggregate") continue;
    const m = marks[it.key];
    const size = m?.drawnAt ?? m?.r ?? 0;
    if (size > bestSize[it.parentKey + 1]) {
      bestSize[it.parentKey + 1] = size;
      best[it.parentKey + 1] = it.key;
    }
  }
  /** @type {Map<number, number>} */
  const hot = new Map();
  for (let key = best[0]; key >= 0 && !hot.has(key); key = best[key + 1]) hot.set(key, hot.size);
  return { hot, parent };
}

/** @typedef {Parameters<typeof viewLabelSteps>[0]} LabelView */

/** The labels of a view (see viewLabelSteps), placed at once. @param {LabelView} view */
export const viewLabels = (view) => runAll(viewLabelSteps(view));

/**
 * The labels of a view, in slices (yielding between them: a view of 10^5 nodes takes a few
 * hundred ms): what is in view is read in the first slices (the painter begins the labels
 * again when the view moves meanwhile: painter-labels.js).
 * @param {{ table: import("../data/decode.js").Table, stats: ReturnType<typeof import("./subtree-stats.js").subtreeStats>,
 *   tree: { items: ViewItem[], byKey: Map<number, ViewItem> }, marks: NodeMark[],
 *   screenOf: (key: number) => { x: number, y: number }, size: { width: number, height: number },
 *   sizes: { rMin: number, labelPx: number, maxLabelCandidates: number }, measure: (text: string) => number,
 *   keepOut?: { x0: number, y0: number, x1: number, y1: number }[],
 *   bands?: ReturnType<typeof import("./bands.js").bandHeaders>, share?: { metric: string, focus: number },
 *   first?: Set<number>, colorBy?: string, valueText?: (item: ViewItem) => string }} view
 *   `keepOut`: screen boxes no label may cover (the legends); `bands`: the headers of the bands
 *   of several roots, placed first (a root named by its header gets no label of its own);
 *   `share`: labels end with the node's share of `metric`'s total (of the `focus` row's, if not -1);
 *   `first`: item keys labelled before all others (selected and searched nodes); `colorBy`: the
 *   colour metric, whose largest value drawn (and most negative one; on a scale through 0 the
 *   DIFFERENCES_NAMED largest |values|) is labelled next; `valueText`: the text that ends the labels
 *   of those and of `first`'s nodes (a compare view's difference, in its unit), "" for none
 * @returns {Generator<void, import("./label-layout.js").LabelMark[], void>}
 */
export function* viewLabelSteps(view) {
  const { table, stats, tree, marks, screenOf, size, sizes, measure, keepOut = [], bands, share } = view;
  const { width: w, height: h } = size;
  // what is on screen as columns: its items' indices and screen places (entries made only for
  // the few labelled and the obstacles). An object per item on screen was 2·10^5 objects at 10^5
  // nodes, kept across the slices: they survived the young generation, and copying them was
  // half of the labels' longest task
  const { items } = tree;
  const onItem = new Int32Array(items.length);
  const sx = new Float64Array(items.length);
  const sy = new Float64Array(items.length);
  const sr = new Float64Array(items.length); // and radii
  let on = 0;
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % SLICE_ITEMS === 0) yield; // a move meanwhile begins the labels again
    const m = marks[items[i].key];
    if (!m) continue;
    const p = screenOf(items[i].key);
    if (p.x >= -m.r && p.x <= w + m.r && p.y >= -m.r && p.y <= h + m.r) {
      onItem[on] = i;
      sx[on] = p.x;
      sy[on] = p.y;
      sr[on] = m.r;
      on++;
    }
  }
  yield;
  // what does not change while the view only zooms or pans: computed once per tree and scene
  let cached = memo.get(marks);
  if (!cached || cached.tree !== tree) {
    cached = { tree, ...treeFacts(tree, marks) };
    memo.set(marks, cached);
  }
  const { hot, parent } = cached;
  yield;
  /** places on screen (indices into onItem, sx, sy) in the frame */
  const frameList = new Int32Array(on);
  let inFrame = 0;
  for (let j = 0; j < on; j++) if (sx[j] >= 0 && sx[j] <= w && sy[j] >= 0 && sy[j] <= h) frameList[inFrame++] = j;
  const framed = frameList.subarray(0, inFrame);
  const itemAt = (/** @type {number} */ j) => items[onItem[j]];
  const markAt = (/** @type {number} */ j) => /** @type {NodeMark} */ (marks[items[onItem[j]].key]);
  // where the eye goes, before the hot path: what the user picked, then the colour's extremes
  const first = new Set(view.first ?? []);
  const extremes = colorExtremes(table, view.colorBy, framed, itemAt, markAt);
  yield;
  const tier = (/** @type {number} */ key) => (first.has(key) ? 0 : extremes.has(key) ? 1 : hot.has(key) ? 2 : 3);
  const rank = (/** @type {number} */ key) => hot.get(key) ?? Number.POSITIVE_INFINITY;
  /** the keys of tiers 0-2 (one lookup a place in the passes over 10^5, not three) */
  const special = new Set([...first, ...extremes, ...hot.keys()]);
  /** @type {Map<number, number>} the `count`-th largest radius in frame, by count */
  const cuts = new Map();
  const radiusCut = (/** @type {number} */ count) => {
    let cut = cuts.get(count);
    if (cut === undefined) {
      const radii = new Float64Array(inFrame);
      for (let i = 0; i < inFrame; i++) radii[i] = sr[framed[i]];
      cut = kthLargest(radii, count);
      cuts.set(count, cut);
    }
    return cut;
  };
  /** the largest `count` places in frame (and the hot path, and where the eye goes), in tree
   * order: a threshold on the radius, so that a view of 10^5 nodes compares numbers, not entries
   * @param {number} count @returns {ArrayLike<number>} */
  const largest = (count) => {
    if (inFrame <= count) return framed;
    const cut = radiusCut(count);
    // ties at the cut (many marks share the smallest radius) fill up in tree order
    /** @type {number[]} */
    const above = [];
    /** @type {number[]} */
    const at = [];
    for (let i = 0; i < inFrame; i++) {
      const j = framed[i];
      const r = sr[j];
      if (r > cut || special.has(itemAt(j).key)) above.push(j);
      else if (r === cut && at.length < count) at.push(j);
    }
    return above.concat(at.slice(0, Math.max(0, count - above.length)));
  };
  /** The entry of a place on screen. @param {number} j */
  const entry = (j) => ({ it: itemAt(j), p: { x: sx[j], y: sy[j] }, m: markAt(j) });
  /** the largest `count` entries, those the eye goes to first, then by size @param {number} count */
  const top = (count) =>
    Array.from(largest(count), entry)
      .sort(
        (a, b) => tier(a.it.key) - tier(b.it.key) || rank(a.it.key) - rank(b.it.key) || b.m.r - a.m.r || a.p.y - b.p.y,
      )
      .slice(0, count);
  const headers = bands?.markOf ?? new Map();
  const shareOf = share ? labelShare(table, share.metric, share.focus) : () => "";
  yield; // the shares' totals: a pass over every row (once per table)
  if (inFrame > sizes.maxLabelCandidates) {
    radiusCut(sizes.maxLabelCandidates);
    yield;
  }
  const chosen = top(sizes.maxLabelCandidates);
  yield;
  /** @type {import("./label-layout.js").LabelCandidate[]} */
  const nodes = chosen.map(({ it, p, m }) => ({
    key: it.key,
    x: p.x,
    y: p.y,
    r: m.r,
    text:
      labelMark(table, stats, it, m, sizes).text +
      (tier(it.key) < 2 && view.valueText ? view.valueText(it) : shareOf(it)),
    leaf: !parent[it.key],
    first: tier(it.key) < 2,
    hot: tier(it.key) < 3,
    unless: bands?.names.get(it.key),
  }));
  // the bands' headers before the rest, after the hot path and where the eye goes first (a header
  // gives way: it is cut shorter)
  const eye = nodes.filter((c) => c.hot && !c.unless); // (a header's key is never 0)
  const candidates = eye.concat(
    bands?.candidates ?? [],
    nodes.filter((c) => !eye.includes(c)),
  );
  // every mark in view is an obstacle; past MAX_OBSTACLES (a view of 10^5 sub-pixel rows, where
  // hardly a label fits anyway) only the largest, which the labels go next to
  if (on > MAX_OBSTACLES && inFrame > MAX_OBSTACLES) {
    radiusCut(MAX_OBSTACLES); // a step of its own
    yield;
  }
  const blocking = on > MAX_OBSTACLES ? largest(MAX_OBSTACLES) : range(on);
  const obstacles = Array.from(blocking, (j) => ({ x: sx[j], y: sy[j], r: sr[j] }));
  yield;
  const frame = { width: w, height: h, fontPx: sizes.labelPx, measure, keepOut };
  const placed = yield* layoutLabelSteps(candidates, obstacles, frame);
  return placed.map((l) => {
    const header = headers.get(l.key);
    if (header) return { ...header, text: l.text, dx: l.dx, dy: l.dy };
    const item = /** @type {ViewItem} */ (tree.byKey.get(l.key));
    return { ...labelMark(table, stats, item, marks[l.key], sizes), text: l.text, dx: l.dx, dy: l.dy };
  });
}

/**
 * The item keys of the nodes the colour singles out among the places `drawn`: the largest value
 * of `colorBy` and, on a scale through 0, the most negative one (grey marks too small to judge
 * are not coloured).
 * @param {import("../data/decode.js").Table} table @param {string | undefined} colorBy
 * @param {ArrayLike<number>} drawn @param {(j: number) => ViewItem} itemAt
 * @param {(j: number) => NodeMark} markAt
 * @returns {Set<number>}
 */
export function colorExtremes(table, colorBy, drawn, itemAt, markAt) {
  const values = metricByName(table, colorBy ?? "")?.values;
  let hi = Number.NEGATIVE_INFINITY;
  let hiKey = -1;
  let lo = 0;
  let loKey = -1;
  /** the DIFFERENCES_NAMED largest |values| so far, largest first: [|v|, key] */
  /** @type {[number, number][]} */
  const most = [];
  for (let ix = 0; ix < drawn.length; ix++) {
    const it = itemAt(drawn[ix]);
    const v = values?.[it.id] ?? Number.NaN;
    if (it.kind === "aggregate" || markAt(drawn[ix]).small || !Number.isFinite(v)) continue;
    if (v > hi) {
      hi = v;
      hiKey = it.key;
    }
    if (v < lo) {
      lo = v;
      loKey = it.key;
    }
    const a = Math.abs(v);
    if (a > 0 && (most.length < DIFFERENCES_NAMED || a > most[most.length - 1][0])) {
      most.push([a, it.key]);
      most.sort((x, y) => y[0] - x[0]);
      most.length = Math.min(most.length, DIFFERENCES_NAMED);
    }
  }
  // a scale through 0 (values either side: a difference) names its few largest changes either way
  const through0 = loKey >= 0 && hi > 0;
  return new Set([hiKey, loKey, ...(through0 ? most.map(([, key]) => key) : [])]);
}

/**
 * A label's share: " 42%" of the metric's total (or of the focused row's), for nodes and
 * collapsed glyphs of 1 % and more; "" for the rest, for aggregates and for metrics without a
 * share (shares.js: the base is an inclusive value at the roots or the focus).
 * @param {import("../data/decode.js").Table} table
 * @param {string} name @param {number} focusRow -1: no focus
 * @returns {(item: ViewItem) => string}
 */
export function labelShare(table, name, focusRow) {
  const metric = table.metrics.find((m) => m.name === name);
  const of = metric ? shareBase(table, metric) : null;
  if (!metric || !of) return () => "";
  const base = (focusRow >= 0 ? focusTotals(table, focusRow) : totals(table))?.get(name);
  if (base === undefined || !(base > 0)) return () => "";
  return (item) => {
    // a root's share of the total says nothing (and the focus is 100 % of itself)
    if (item.kind === "aggregate" || item.parentKey < 0) return "";
    // a collapsed glyph stands for its subtree: the base's (inclusive) value there
    const v = (item.kind === "collapsed" ? of : metric).values[item.id];
    const p = (100 * v) / base;
    if (!(p >= 1)) return "";
    return ` ${p >= 10 ? p.toFixed(0) : p.toPrecision(2)}%`;
  };
}
