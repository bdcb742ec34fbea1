// Label layout in screen pixels: every drawn node may get a label — the hot path and the largest
// nodes first — placed where it overlaps no other label and no node mark and stays inside the
// picture. A leaf's label goes right of its mark; an internal node's above or below its mark,
// starting at its centre (the links leave to the right at the mark's height), else left of it,
// else centred above or below it, else right of it, over its links.
// A label that does not fit whole is cut at its end (label-text.js), down to six characters and
// the ellipsis (five for the hot path and where the eye goes first); below that it is left out. Also the plain greedy placement of labels right of their nodes
// (placeLabels). Pure: boxes in, boxes out.
import { runAll } from "../base/steps.js";
import { cutText } from "./label-text.js";

/**
 * A label, keyed as its node's mark (see scene.js), as the overlay draws it (draw/svg/overlay.js), named in the DOM by `attr` = `ref`. `x`, `y`
 * are the node's layout position; `r`, `dx`, `dy` screen pixels: the text starts `dx` right of
 * the node's centre and is centred `dy` below it (default: right of the mark, on its row).
 * `className`: "cct-label" unless set (a band's header is "cct-label cct-band-label").
 * @typedef {{ key: number, attr: string, ref: number, x: number, y: number, r: number, text: string,
 *   dx?: number, dy?: number, className?: string }} LabelMark
 */

/**
 * @typedef {object} LabelCandidate
 * @property {number} key the item's key
 * @property {number} x screen position of the node's centre
 * @property {number} y
 * @property {number} r the mark's radius, screen pixels
 * @property {string} text the full label
 * @property {boolean} leaf
 * @property {Spot[]} [spots] where to try the label instead of the usual places
 * @property {number} [unless] the key of a label that, once placed, makes this one unneeded
 * @property {number} [widthScale] text drawn wider than measured (bold): its factor
 * @property {boolean} [first] where the eye goes first (view-labels.js): a leaf tries more places
 * @property {boolean} [hot] on the hot path (or `first`): may be cut shorter than the others
 * @typedef {{ dx: number, dy: number, align: "start" | "end" | "middle" }} Spot from the node's
 *   centre to the start (end, middle) of the text and its vertical middle
 * @typedef {{ key: number, text: string, dx: number, dy: number, box: Box }} PlacedLabel dx, dy:
 *   from the node's centre to the start of the text (and its vertical middle)
 * @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box
 */

/** Shortest label worth showing (characters, the ellipsis included); a hot one's is one shorter. */
const MIN_CHARS = 7;
const GAP = 3;

/** Candidates tried, and marks added as obstacles, between two yields of layoutLabelSteps. */
const SLICE_CANDIDATES = 50;
const SLICE_MARKS = 5000;

/**
 * @param {LabelCandidate[]} candidates in priority order
 * @param {{ x: number, y: number, r: number }[]} marks every mark on screen (obstacles)
 * @param {{ width: number, height: number, fontPx: number, measure: (text: string) => number, keepOut?: Box[] }} frame
 *   `keepOut`: boxes no label may cover (the legends)
 * @returns {PlacedLabel[]}
 */
export const layoutLabels = (candidates, marks, frame) => runAll(layoutLabelSteps(candidates, marks, frame));

/**
 * layoutLabels in slices: yields every few dozen candidates (a view of 10^5 marks: ~100 ms and more).
 * @param {LabelCandidate[]} candidates @param {{ x: number, y: number, r: number }[]} marks
 * @param {{ width: number, height: number, fontPx: number, measure: (text: string) => number, keepOut?: Box[] }} frame
 * @returns {Generator<void, PlacedLabel[], void>}
 */
export function* layoutLabelSteps(candidates, marks, { width, height, fontPx, measure, keepOut = [] }) {
  const h = fontPx + 2;
  const cell = Math.max(16, fontPx * 4);
  /** @type {Map<number, Box[]>} grid cell (a number: no string per cell) → boxes in it */
  const grid = new Map();
  const COLS = 1 << 20;
  // loops without lists or closures per test: a view of 10^4 marks makes thousands of tests
  // against dozens of boxes per cell (at 10^4 nodes drawn whole, 50 ms with `every` and lists)
  /**
   * The grid cells `b` covers, visited once for both uses: `insert` adds `b` to them; else the
   * answer is whether `b` overlaps no box added so far.
   * @param {Box} b
   * @param {boolean} insert
   */
  const cells = (b, insert) => {
    const i1 = Math.floor(b.x1 / cell);
    const j0 = Math.floor(b.y0 / cell);
    const j1 = Math.floor(b.y1 / cell);
    for (let i = Math.floor(b.x0 / cell); i <= i1; i++) {
      for (let j = j0; j <= j1; j++) {
        const list = grid.get(i * COLS + j);
        if (insert) {
          if (list) list.push(b);
          else grid.set(i * COLS + j, [b]);
        } else if (list) {
          for (let k = 0; k < list.length; k++) {
            const o = list[k];
            if (o.x0 < b.x1 && b.x0 < o.x1 && o.y0 < b.y1 && b.y0 < o.y1) return false;
          }
        }
      }
    }
    return true;
  };
  const add = (/** @type {Box} */ b) => cells(b, true);
  /** Whether `b` overlaps no box added so far. @param {Box} b */
  const free = (b) => cells(b, false);
  const inside = (/** @type {Box} */ b) => b.x0 >= 1 && b.y0 >= 1 && b.x1 <= width - 1 && b.y1 <= height - 1;

  // marks are obstacles (a little larger than drawn, so that text never touches them); a
  // node's own mark too: every spot below starts clear of it
  for (const [i, m] of marks.entries()) {
    add({ x0: m.x - m.r - 1, y0: m.y - m.r - 1, x1: m.x + m.r + 1, y1: m.y + m.r + 1 });
    if ((i + 1) % SLICE_MARKS === 0) yield;
  }
  for (const b of keepOut) add(b);

  /** @type {PlacedLabel[]} */
  const placed = [];
  /** @type {Set<number>} */
  const placedKeys = new Set();
  for (const [i, c] of candidates.entries()) {
    if (i && i % SLICE_CANDIDATES === 0) yield;
    if (c.unless !== undefined && placedKeys.has(c.unless)) continue;
    const off = c.r + GAP + h / 2; // above or below the mark
    const near = -Math.min(c.r, 3);
    /** @type {Spot} */
    const right = { dx: c.r + GAP, dy: 0, align: "start" };
    /** @type {Spot} */
    const left = { dx: -(c.r + GAP), dy: 0, align: "end" };
    /** @type {Spot[]} */
    const centred = [
      // centred above or below: between the marks of the next level and of the previous one
      { dx: 0, dy: -off, align: "middle" },
      { dx: 0, dy: off, align: "middle" },
    ];
    /** @type {Spot[]} */
    const spots =
      c.spots ??
      (c.leaf
        ? // a leaf the eye goes to first: above, below or left of it where right of it is taken
          [right, ...(c.first ? [...centred, left] : [])]
        : [
            { dx: near, dy: -off, align: "start" },
            { dx: near, dy: off, align: "start" },
            left,
            ...centred,
            right, // last: over the links it leaves by
          ]);
    // the whole label, then shorter ones (a few lengths, not every one: thousands of candidates)
    const full = [...c.text].length;
    const lengths = [full, 24, 16, 10, MIN_CHARS - (c.hot ? 1 : 0)].filter((n, i) => i === 0 || n < full);
    let done = false;
    for (const chars of lengths) {
      if (done) break;
      const text = chars >= full ? c.text : cutText(c.text, chars);
      const w = measure(text) * (c.widthScale ?? 1);
      for (const s of spots) {
        const x0 = c.x + s.dx - (s.align === "start" ? 0 : s.align === "end" ? w : w / 2);
        const box = { x0, y0: c.y + s.dy - h / 2, x1: x0 + w, y1: c.y + s.dy + h / 2 };
        if (!inside(box) || !free(box)) continue;
        add(box);
        placed.push({ key: c.key, text, dx: x0 - c.x, dy: s.dy, box });
        placedKeys.add(c.key);
        done = true;
        break;
      }
    }
  }
  return placed;
}

/**
 * Picks which labels to draw so that none overlap: candidates in priority order, each kept if
 * its box (to the right of the node) is free. Boxes are binned in a uniform grid.
 * @param {{ id: number, x: number, y: number, text: string }[]} candidates screen coordinates
 * @param {{ fontSize: number, charWidth?: number, gap?: number }} metrics
 * @returns {Set<number>} ids of the labels to draw
 */
export function placeLabels(candidates, { fontSize, charWidth = 0.6, gap = 2 }) {
  const cell = fontSize * 4;
  /** @type {Map<string, Box[]>} grid cell → boxes kept that touch it */
  const grid = new Map();
  /** @type {Set<number>} */
  const kept = new Set();
  const h = fontSize + gap;
  for (const c of candidates) {
    const box = { x0: c.x, y0: c.y - h / 2, x1: c.x + c.text.length * fontSize * charWidth + gap, y1: c.y + h / 2 };
    const keys = cellsOf(box, cell);
    if (keys.some((k) => (grid.get(k) ?? []).some((b) => overlaps(b, box)))) continue;
    for (const k of keys) {
      if (!grid.has(k)) grid.set(k, []);
      /** @type {Box[]} */ (grid.get(k)).push(box);
    }
    kept.add(c.id);
  }
  return kept;
}

/**
 * The keys of the grid cells a box touches.
 * @param {Box} box
 * @param {number} cell cell size
 */
function cellsOf(box, cell) {
  /** @type {string[]} */
  const keys = [];
  for (let i = Math.floor(box.x0 / cell); i <= Math.floor(box.x1 / cell); i++) {
    for (let j = Math.floor(box.y0 / cell); j <= Math.floor(box.y1 / cell); j++) keys.push(`${i},${j}`);
  }
  return keys;
}

/** @param {Box} a @param {Box} b */
function overlaps(a, b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}
