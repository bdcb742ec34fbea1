// The bands of a view with several roots (laid out by layout.js): a rule between two bands and a
// header naming each one — its root's name, or "N small roots" for the band of small ones — that
// the label layout places before any other label, just above the band's first row. A header
// stays in view while its band does (it sticks to the top and left edges when the band is
// panned past them). Pure: the layout and the zoom in, rules and label candidates out.
import { labelMark } from "./scene.js";

/** @typedef {ReturnType<typeof import("./layout.js").layoutTree>} Layout */
/** @typedef {import("./label-layout.js").LabelCandidate} LabelCandidate */
/** @typedef {import("./label-layout.js").LabelMark} LabelMark */

/** Bold header text is about this much wider than the labels' text as measured. */
const BOLD = 1.1;

/**
 * Where the rules between bands go: halfway between one band's last row and the next's first.
 * @param {Layout} layout
 * @returns {number[]} layout units
 */
export function bandRules(layout) {
  const ys = [];
  for (let i = 1; i < layout.bands.length; i++) ys.push((layout.bands[i - 1].y1 + layout.bands[i].y0) / 2);
  return ys;
}

/**
 * The key of a band's header label: negative, so that it never meets an item's key.
 * @param {number} firstKey the key of the band's first top-level item
 */
const headerKey = (firstKey) => -2 - firstKey;

/**
 * Header candidates of the bands in view, and the label marks they become once placed.
 * @param {{ layout: Layout, table: import("../data/decode.js").Table,
 *   stats: ReturnType<typeof import("./subtree-stats.js").subtreeStats>,
 *   tree: { byKey: Map<number, import("./view-tree.js").ViewItem> }, marks: import("./scene.js").NodeMark[],
 *   transform: { x: number, y: number, k: number }, size: { width: number, height: number },
 *   sizes: { rMin: number, labelPx: number } }} view
 * @returns {{ candidates: LabelCandidate[], markOf: Map<number, LabelMark>, names: Map<number, number> }}
 *   `names`: the key of a root that is a band of its own → its header's key
 */
export function bandHeaders({ layout, table, stats, tree, marks, transform: t, size, sizes }) {
  /** @type {LabelCandidate[]} */
  const candidates = [];
  /** @type {Map<number, LabelMark>} */
  const markOf = new Map();
  /** @type {Map<number, number>} */
  const names = new Map();
  const h = sizes.labelPx + 2;
  for (const band of layout.bands) {
    const first = band.keys[0];
    const item = tree.byKey.get(first);
    const mark = marks[first];
    if (!item || !mark) continue;
    const top = t.y + t.k * band.y0;
    const bottom = t.y + t.k * band.y1;
    if (bottom < 0 || top > size.height) continue;
    const text =
      band.keys.length > 1
        ? `${band.keys.length.toLocaleString("en-US")} small roots`
        : labelMark(table, stats, item, mark, sizes).text;
    // the root's column, kept on screen; the band's top, or the view's top while it is inside
    const x = Math.max(4 + mark.r, t.x + t.k * mark.x);
    const y = Math.max(top, Math.min(h + 12, bottom));
    const key = headerKey(first);
    if (band.keys.length === 1) names.set(first, key);
    candidates.push({
      key,
      x,
      y,
      r: mark.r,
      text,
      leaf: false,
      widthScale: BOLD,
      spots: [8, 11, 14, 17].map((gap) => ({
        dx: -Math.min(mark.r, 3),
        dy: -(h / 2 + gap),
        align: /** @type {const} */ ("start"),
      })),
    });
    markOf.set(key, {
      key,
      attr: "data-band",
      ref: item.kind === "aggregate" ? -1 : table.idOf(item.id),
      x: (x - t.x) / t.k,
      y: (y - t.y) / t.k,
      r: mark.r,
      text,
      className: "cct-label cct-band-label",
    });
  }
  return { candidates, markOf, names };
}
