// Label layout in screen pixels: every drawn node may get a label — the hot path and the largest
// nodes first — placed where it overlaps no other label and no node mark and stays inside the
// picture. A leaf's label goes right of its mark; an internal node's above or below its mark,
// starting at its centre (the links leave to the right at the mark's height), else left of it.
// A label that does not fit whole is cut at its end (the full name stays in the tooltip), down
// to a few characters; below that it is left out. Pure: boxes in, boxes out.
import { characters } from "./text.js";

const ELLIPSIS = "…";

/** What a label ends with: a collapsed node's "(+N)" count (kept when its name is cut), a
 * share "42%" (dropped first: a whole name says more than a share). */
const TAIL = /^(.*?)( \(\+[\d,]+\))?( \d+(?:\.\d+)?%)?$/su;

/**
 * `text` cut to `chars` characters (whole ones: grapheme clusters): its share dropped first, then its name cut at
 * its end, keeping a "(+N)" count of a collapsed node: the start of a name is what a reader
 * recognises.
 * @param {string} text @param {number} chars
 */
export function cutText(text, chars) {
  if (text.length <= chars || characters(text).length <= chars) return text;
  const [, name = text, count = ""] = TAIL.exec(text) ?? [];
  const whole = name + count;
  if (characters(whole).length <= chars) return whole;
  const keep = Math.max(MIN_NAME, chars - count.length - 1);
  return characters(name).slice(0, keep).join("") + ELLIPSIS + count;
}

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
 * @typedef {{ dx: number, dy: number, align: "start" | "end" }} Spot from the node's centre to
 *   the start (or end) of the text and its vertical middle
 * @typedef {{ key: number, text: string, dx: number, dy: number, box: Box }} PlacedLabel dx, dy:
 *   from the node's centre to the start of the text (and its vertical middle)
 * @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box
 */

/** Shortest label worth showing (characters, the ellipsis included). */
const MIN_CHARS = 5;
/** Fewest characters of a name a cut label keeps: "F… (+3)" names nothing. */
const MIN_NAME = 4;
const GAP = 3;

/**
 * @param {LabelCandidate[]} candidates in priority order
 * @param {{ x: number, y: number, r: number }[]} marks every mark on screen (obstacles)
 * @param {{ width: number, height: number, fontPx: number, measure: (text: string) => number, keepOut?: Box[] }} frame
 *   `keepOut`: boxes no label may cover (the legends)
 * @returns {PlacedLabel[]}
 */
export function layoutLabels(candidates, marks, { width, height, fontPx, measure, keepOut = [] }) {
  const h = fontPx + 2;
  const cell = Math.max(16, fontPx * 4);
  /** @type {Map<number, Box[]>} grid cell (a number: no string per cell) → boxes in it */
  const grid = new Map();
  const COLS = 1 << 20;
  // loops without lists or closures per test: a view of 10^4 marks makes thousands of tests
  // against dozens of boxes per cell (at 10^4 nodes drawn whole, 50 ms with `every` and lists)
  /** @param {Box} b */
  const add = (b) => {
    const i1 = Math.floor(b.x1 / cell);
    const j0 = Math.floor(b.y0 / cell);
    const j1 = Math.floor(b.y1 / cell);
    for (let i = Math.floor(b.x0 / cell); i <= i1; i++) {
      for (let j = j0; j <= j1; j++) {
        const list = grid.get(i * COLS + j);
        if (list) list.push(b);
        else grid.set(i * COLS + j, [b]);
      }
    }
  };
  /** Whether `b` overlaps no box added so far. @param {Box} b */
  const free = (b) => {
    const i1 = Math.floor(b.x1 / cell);
    const j0 = Math.floor(b.y0 / cell);
    const j1 = Math.floor(b.y1 / cell);
    for (let i = Math.floor(b.x0 / cell); i <= i1; i++) {
      for (let j = j0; j <= j1; j++) {
        const list = grid.get(i * COLS + j);
        if (!list) continue;
        for (let k = 0; k < list.length; k++) {
          const o = list[k];
          if (o.x0 < b.x1 && b.x0 < o.x1 && o.y0 < b.y1 && b.y0 < o.y1) return false;
        }
      }
    }
    return true;
  };
  const inside = (/** @type {Box} */ b) => b.x0 >= 1 && b.y0 >= 1 && b.x1 <= width - 1 && b.y1 <= height - 1;

  // marks are obstacles (a little larger than drawn, so that text never touches them); a
  // node's own mark too: every spot below starts clear of it
  for (const m of marks) add({ x0: m.x - m.r - 1, y0: m.y - m.r - 1, x1: m.x + m.r + 1, y1: m.y + m.r + 1 });
  for (const b of keepOut) add(b);

  /** @type {PlacedLabel[]} */
  const placed = [];
  /** @type {Set<number>} */
  const placedKeys = new Set();
  for (const c of candidates) {
    if (c.unless !== undefined && placedKeys.has(c.unless)) continue;
    /** @type {Spot[]} */
    const spots = c.spots
      ? c.spots
      : c.leaf
        ? [{ dx: c.r + GAP, dy: 0, align: "start" }]
        : [
            { dx: -Math.min(c.r, 3), dy: -(c.r + GAP + h / 2), align: "start" },
            { dx: -Math.min(c.r, 3), dy: c.r + GAP + h / 2, align: "start" },
            { dx: -(c.r + GAP), dy: 0, align: "end" },
          ];
    // the whole label, then shorter ones (a few lengths, not every one: thousands of candidates)
    const full = [...c.text].length;
    const lengths = [full, 24, 16, 10, MIN_CHARS].filter((n, i) => i === 0 || n < full);
    let done = false;
    for (const chars of lengths) {
      if (done) break;
      const text = chars >= full ? c.text : cutText(c.text, chars);
      const w = measure(text) * (c.widthScale ?? 1);
      for (const s of spots) {
        const x0 = s.align === "start" ? c.x + s.dx : c.x + s.dx - w;
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
 * Text width in pixels: measured with a canvas where there is one (browsers), else estimated.
 * @param {Document} doc @param {number} fontPx @param {string} fontFamily
 * @returns {(text: string) => number}
 */
export function textMeasure(doc, fontPx, fontFamily) {
  /** @type {CanvasRenderingContext2D | null} */
  let ctx = null;
  try {
    ctx = doc.createElement("canvas").getContext("2d");
  } catch {
    ctx = null;
  }
  if (ctx && typeof ctx.measureText === "function") {
    const context = ctx;
    context.font = `${fontPx}px ${fontFamily}`;
    // a little air: the SVG's text may be rendered with a slightly different font than measured;
    // widths are kept (the same names come back at every zoom)
    /** @type {Map<string, number>} */
    const widths = new Map();
    return (text) => {
      let width = widths.get(text);
      if (width === undefined) {
        width = context.measureText(text).width * 1.06 + 2;
        if (widths.size < 50_000) widths.set(text, width);
      }
      return width;
    };
  }
  return (text) => [...text].length * fontPx * 0.62 + 1;
}
