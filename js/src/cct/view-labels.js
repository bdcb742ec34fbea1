// The labels of a view: every drawn node in the picture is a candidate — the hot path first,
// then the largest marks — and label-layout.js places those that fit. Pure: the view in, label
// marks (with their screen offsets) out.
import { layoutLabels } from "./label-layout.js";
import { labelMark } from "./scene.js";

/** @typedef {import("./view-tree.js").ViewItem} ViewItem */
const MAX_OBSTACLES = 20_000;
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
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const it of tree.items) {
    if (it.kind === "aggregate") continue;
    const list = children.get(it.parentKey);
    if (list) list.push(it.key);
    else children.set(it.parentKey, [it.key]);
  }
  /** @type {Map<number, number>} */
  const out = new Map();
  for (let list = children.get(-1); list?.length; ) {
    const best = list.reduce((a, b) => ((marks[b]?.r ?? 0) > (marks[a]?.r ?? 0) ? b : a));
    out.set(best, out.size);
    list = children.get(best);
  }
  return out;
}

/**
 * @param {{ table: import("./decode.js").Table, stats: ReturnType<typeof import("./view-tree.js").subtreeStats>,
 *   tree: { items: ViewItem[], byKey: Map<number, ViewItem> }, marks: NodeMark[],
 *   screenOf: (key: number) => { x: number, y: number }, size: { width: number, height: number },
 *   sizes: { rMin: number, labelPx: number, maxLabelCandidates: number }, measure: (text: string) => number,
 *   keepOut?: { x0: number, y0: number, x1: number, y1: number }[],
 *   bands?: ReturnType<typeof import("./bands.js").bandHeaders> }} view `keepOut`: screen boxes
 *   no label may cover (the legends); `bands`: the headers of the bands of several roots, placed
 *   first (a root named by its header gets no label of its own)
 * @returns {import("./overlay.js").LabelMark[]}
 */
export function viewLabels({ table, stats, tree, marks, screenOf, size, sizes, measure, keepOut = [], bands }) {
  const { width: w, height: h } = size;
  /** @type {{ it: ViewItem, p: { x: number, y: number }, m: NodeMark }[]} */
  const onScreen = [];
  for (const it of tree.items) {
    const m = marks[it.key];
    if (!m) continue;
    const p = screenOf(it.key);
    if (p.x >= -m.r && p.x <= w + m.r && p.y >= -m.r && p.y <= h + m.r) onScreen.push({ it, p, m });
  }
  // what does not change while the view only zooms or pans: computed once per tree and scene
  let cached = memo.get(marks);
  if (!cached || cached.tree !== tree) {
    cached = { tree, hot: hotKeys(tree, marks), parents: new Set(tree.items.map((it) => it.parentKey)) };
    memo.set(marks, cached);
  }
  const { hot, parents } = cached;
  const rank = (/** @type {number} */ key) => hot.get(key) ?? Number.POSITIVE_INFINITY;
  const inFrame = onScreen.filter(({ p }) => p.x >= 0 && p.x <= w && p.y >= 0 && p.y <= h);
  /** the largest `count` entries (hot path first), sorted: a threshold on the radius first, so
   * that a view of 10^5 nodes sorts a few thousand, not all of them @param {number} count */
  const top = (count) => {
    let list = inFrame;
    if (list.length > count) {
      const radii = Float64Array.from(list, (e) => e.m.r).sort();
      const cut = radii[radii.length - count];
      // ties at the cut (many marks share the smallest radius) fill up in tree order
      const above = list.filter((e) => e.m.r > cut || hot.has(e.it.key));
      const at = list.filter((e) => e.m.r === cut && !hot.has(e.it.key));
      list = above.concat(at.slice(0, Math.max(0, count - above.length)));
    }
    return list.sort((a, b) => rank(a.it.key) - rank(b.it.key) || b.m.r - a.m.r || a.p.y - b.p.y).slice(0, count);
  };
  const headers = bands?.markOf ?? new Map();
  const candidates = (bands?.candidates ?? []).concat(
    top(sizes.maxLabelCandidates).map(({ it, p, m }) => ({
      key: it.key,
      x: p.x,
      y: p.y,
      r: m.r,
      text: labelMark(table, stats, it, m, sizes).text,
      leaf: !parents.has(it.key),
      unless: bands?.names.get(it.key),
    })),
  );
  // every mark in view is an obstacle; past MAX_OBSTACLES (a view of 10^5 sub-pixel rows, where
  // hardly a label fits anyway) only the largest, which the labels go next to
  const obstacles = (onScreen.length > MAX_OBSTACLES ? top(MAX_OBSTACLES) : onScreen).map(({ p, m }) => ({
    x: p.x,
    y: p.y,
    r: m.r,
  }));
  const placed = layoutLabels(candidates, obstacles, { width: w, height: h, fontPx: sizes.labelPx, measure, keepOut });
  return placed.map((l) => {
    const header = headers.get(l.key);
    if (header) return { ...header, text: l.text, dx: l.dx, dy: l.dy };
    const item = /** @type {ViewItem} */ (tree.byKey.get(l.key));
    return { ...labelMark(table, stats, item, marks[l.key], sizes), text: l.text, dx: l.dx, dy: l.dy };
  });
}
