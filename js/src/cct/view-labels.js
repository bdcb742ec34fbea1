// The labels of a view: every drawn node in the picture is a candidate — the hot path first,
// then the largest marks — and label-layout.js places those that fit. Pure: the view in, label
// marks (with their screen offsets) out.
import { layoutLabels } from "./label-layout.js";
import { labelMark } from "./scene.js";

/** @typedef {import("./view-tree.js").ViewItem} ViewItem */
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
 *   keepOut?: { x0: number, y0: number, x1: number, y1: number }[] }} view `keepOut`: screen boxes
 *   no label may cover (the legends)
 * @returns {import("./overlay.js").LabelMark[]}
 */
export function viewLabels({ table, stats, tree, marks, screenOf, size, sizes, measure, keepOut = [] }) {
  const { width: w, height: h } = size;
  const onScreen = tree.items
    .map((it) => ({ it, p: screenOf(it.key), m: marks[it.key] }))
    .filter(({ p, m }) => m && p.x >= -m.r && p.x <= w + m.r && p.y >= -m.r && p.y <= h + m.r);
  const hot = hotKeys(tree, marks);
  const parents = new Set(tree.items.map((it) => it.parentKey));
  const rank = (/** @type {number} */ key) => hot.get(key) ?? Number.POSITIVE_INFINITY;
  const ranked = onScreen
    .filter(({ p }) => p.x >= 0 && p.x <= w && p.y >= 0 && p.y <= h)
    .sort((a, b) => rank(a.it.key) - rank(b.it.key) || b.m.r - a.m.r || a.p.y - b.p.y)
    .slice(0, sizes.maxLabelCandidates);
  const candidates = ranked.map(({ it, p, m }) => ({
    key: it.key,
    x: p.x,
    y: p.y,
    r: m.r,
    text: labelMark(table, stats, it, m, sizes).text,
    leaf: !parents.has(it.key),
  }));
  const obstacles = onScreen.map(({ p, m }) => ({ x: p.x, y: p.y, r: m.r }));
  const placed = layoutLabels(candidates, obstacles, { width: w, height: h, fontPx: sizes.labelPx, measure, keepOut });
  return placed.map((l) => {
    const item = /** @type {ViewItem} */ (tree.byKey.get(l.key));
    return { ...labelMark(table, stats, item, marks[l.key], sizes), text: l.text, dx: l.dx, dy: l.dy };
  });
}
