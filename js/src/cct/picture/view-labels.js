// The labels of a view: every drawn node in the picture is a candidate, where the eye goes first —
// selected and searched nodes, then the nodes the colour singles out (its extremes), the hot path,
// then the largest marks — and label-layout.js places those that fit. Pure: the view in, label
// marks (with their screen offsets) out.
import { runAll } from "../base/steps.js";
import { metricByName } from "../data/decode.js";
import { layoutLabelSteps } from "./label-layout.js";
import { labelMark } from "./scene.js";
import { focusTotals, shareBase, totals } from "./shares.js";

/** @typedef {import("./view-tree.js").ViewItem} ViewItem */
const MAX_OBSTACLES = 20_000;
/** Items read for what is on screen between two yields (10^5 nodes in view: ~25 ms in all). */
const SLICE_ITEMS = 25_000;
/** @type {WeakMap<NodeMark[], { tree: object, hot: Map<number, number>, parents: Set<number> }>} */
const memo = new WeakMap();
/** @typedef {import("./scene.js").NodeMark} NodeMark */

/**
 * The hot path of the drawn tree by mark size: from the largest top-level item, the largest
 * child, repeatedly (aggregates are not nodes). Returns item key → position on the path.
 * @param {{ items: import("./view-tree.js").ViewItem[] }} tree
 * @param {import("./scene.js").NodeMark[]} marks
 */
function hotKeys(tree, marks) {
  const size = (/** @type {number} */ key) => marks[key]?.drawnAt ?? marks[key]?.r ?? 0;
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (let ix = 0; ix < tree.items.length; ix++) {
    const it = tree.items[ix];
    if (it.kind === "aggregate") continue;
    const list = children.get(it.parentKey);
    if (list) list.push(it.key);
    else children.set(it.parentKey, [it.key]);
  }
  /** @type {Map<number, number>} */
  const out = new Map();
  for (let list = children.get(-1); list?.length; ) {
    const best = list.reduce((a, b) => (size(b) > size(a) ? b : a));
    out.set(best, out.size);
    list = children.get(best);
  }
  return out;
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
 *   first?: Set<number>, colorBy?: string }} view
 *   `keepOut`: screen boxes no label may cover (the legends); `bands`: the headers of the bands
 *   of several roots, placed first (a root named by its header gets no label of its own);
 *   `share`: labels end with the node's share of `metric`'s total (of the `focus` row's, if not -1);
 *   `first`: item keys labelled before all others (selected and searched nodes); `colorBy`: the
 *   colour metric, whose largest value drawn (and most negative one) is labelled next
 * @returns {Generator<void, import("./label-layout.js").LabelMark[], void>}
 */
export function* viewLabelSteps(view) {
  const { table, stats, tree, marks, screenOf, size, sizes, measure, keepOut = [], bands, share } = view;
  const { width: w, height: h } = size;
  /** @type {{ it: ViewItem, p: { x: number, y: number }, m: NodeMark }[]} */
  const onScreen = [];
  const { items } = tree;
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % SLICE_ITEMS === 0) yield; // a move meanwhile begins the labels again
    const it = items[i];
    const m = marks[it.key];
    if (!m) continue;
    const p = screenOf(it.key);
    if (p.x >= -m.r && p.x <= w + m.r && p.y >= -m.r && p.y <= h + m.r) onScreen.push({ it, p, m });
  }
  yield;
  // what does not change while the view only zooms or pans: computed once per tree and scene
  let cached = memo.get(marks);
  if (!cached || cached.tree !== tree) {
    const hot = hotKeys(tree, marks);
    yield;
    cached = { tree, hot, parents: new Set(tree.items.map((it) => it.parentKey)) };
    memo.set(marks, cached);
  }
  const { hot, parents } = cached;
  yield;
  const inFrame = onScreen.filter(({ p }) => p.x >= 0 && p.x <= w && p.y >= 0 && p.y <= h);
  // where the eye goes, before the hot path: what the user picked, then the colour's extremes
  const first = new Set(view.first ?? []);
  const extremes = colorExtremes(table, view.colorBy, inFrame);
  yield;
  const tier = (/** @type {number} */ key) => (first.has(key) ? 0 : extremes.has(key) ? 1 : hot.has(key) ? 2 : 3);
  const rank = (/** @type {number} */ key) => hot.get(key) ?? Number.POSITIVE_INFINITY;
  /** @type {Float64Array | null} radii in frame, sorted (once, when needed) */
  let radii = null;
  /** the largest `count` entries (and the hot path), in tree order: a threshold on the radius,
   * so that a view of 10^5 nodes sorts numbers, not entries @param {number} count */
  const largest = (count) => {
    if (inFrame.length <= count) return inFrame;
    if (!radii) {
      radii = new Float64Array(inFrame.length);
      for (let i = 0; i < inFrame.length; i++) radii[i] = inFrame[i].m.r;
      radii.sort();
    }
    const cut = radii[radii.length - count];
    // ties at the cut (many marks share the smallest radius) fill up in tree order
    const above = inFrame.filter((e) => e.m.r > cut || tier(e.it.key) < 3);
    const at = inFrame.filter((e) => e.m.r === cut && tier(e.it.key) > 2);
    return above.concat(at.slice(0, Math.max(0, count - above.length)));
  };
  /** the largest `count` entries, those the eye goes to first, then by size @param {number} count */
  const top = (count) =>
    largest(count)
      .sort(
        (a, b) => tier(a.it.key) - tier(b.it.key) || rank(a.it.key) - rank(b.it.key) || b.m.r - a.m.r || a.p.y - b.p.y,
      )
      .slice(0, count);
  const headers = bands?.markOf ?? new Map();
  const shareOf = share ? labelShare(table, share.metric, share.focus) : () => "";
  const chosen = top(sizes.maxLabelCandidates);
  yield;
  /** @type {import("./label-layout.js").LabelCandidate[]} */
  const nodes = chosen.map(({ it, p, m }) => ({
    key: it.key,
    x: p.x,
    y: p.y,
    r: m.r,
    text: labelMark(table, stats, it, m, sizes).text + shareOf(it),
    leaf: !parents.has(it.key),
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
  const obstacles = (onScreen.length > MAX_OBSTACLES ? largest(MAX_OBSTACLES) : onScreen).map(({ p, m }) => ({
    x: p.x,
    y: p.y,
    r: m.r,
  }));
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
 * The item keys of the nodes the colour singles out among `drawn`: the largest value of `colorBy`
 * and, on a scale through 0, the most negative one (grey marks too small to judge are not coloured).
 * @param {import("../data/decode.js").Table} table @param {string | undefined} colorBy
 * @param {{ it: ViewItem, m: NodeMark }[]} drawn
 * @returns {Set<number>}
 */
function colorExtremes(table, colorBy, drawn) {
  const values = metricByName(table, colorBy ?? "")?.values;
  let hi = { v: Number.NEGATIVE_INFINITY, key: -1 };
  let lo = { v: 0, key: -1 };
  for (let ix = 0; ix < drawn.length; ix++) {
    const { it, m } = drawn[ix];
    const v = values?.[it.id] ?? Number.NaN;
    if (it.kind === "aggregate" || m.small || !Number.isFinite(v)) continue;
    if (v > hi.v) hi = { v, key: it.key };
    if (v < lo.v) lo = { v, key: it.key };
  }
  return new Set([hi.key, lo.key]);
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
