// Painting a canvas view's links and marks onto a 2D context: the backend's own canvas in the
// page's theme colours (canvas-backend.js), or a picture of the view in a figure's
// (live-picture.js).
import { shapePath } from "./shapes.js";
import { linkPath } from "./svg-backend.js";

const STROKE_BATCH = 500;
/** Marks in view above which they are painted without outlines (a dense overview). */
const OUTLINED_MAX = 5000;
/** Outline dash patterns in screen pixels, as widget.css draws the SVG marks. */
const OUTLINE_DASHES = /** @type {const} */ ([
  ["solid", []],
  ["negative", [2, 1]],
  ["no-size", [0.6, 1.4]],
]);
/** @param {import("./scene.js").NodeMark} m */
const outlineOf = (m) => (m.noSize ? "no-size" : m.negative ? "negative" : "solid");

/**
 * @typedef {{ link: string, callerLink: string, outline: string, missing: CanvasPattern | string }} Colors
 *   links, a DAG's other callers, mark outlines, and the fill of marks with no value
 * @typedef {import("./svg-backend.js").NodeMark} NodeMark
 * @typedef {import("./svg-backend.js").LinkMark} LinkMark
 * @typedef {object} Drawing what a canvas view draws, and where
 * @property {number} w CSS pixels
 * @property {number} h
 * @property {number} dpr device pixels per CSS pixel
 * @property {{ x: number, y: number, k: number }} t the zoom transform
 * @property {number} maxR the largest mark radius, screen pixels
 * @property {NodeMark[]} list the marks
 * @property {LinkMark[]} segments parent → child links
 * @property {LinkMark[]} callerSegments a DAG's other callers → callee
 */

/**
 * Paints the links and marks in view onto `c` (sized `w` × `h` CSS pixels at `dpr` device pixels
 * each) in `colors`.
 * @param {CanvasRenderingContext2D} c
 * @param {Drawing} drawing
 * @param {Colors} colors
 * @returns {number} the marks painted
 */
export function paintMarks(c, { w, h, dpr, t, maxR, list, segments, callerSegments }, colors) {
  c.setTransform(dpr, 0, 0, dpr, 0, 0);
  c.clearRect(0, 0, w, h);
  c.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
  // what is in view, in layout units, with a margin of the largest radius (marks are sized
  // in screen pixels: r / k in layout units)
  const pad = (maxR + 2) / t.k;
  const x0 = -t.x / t.k - pad;
  const x1 = (w - t.x) / t.k + pad;
  const y0 = -t.y / t.k - pad;
  const y1 = (h - t.y) / t.k + pad;

  c.lineWidth = 1.2 / t.k;
  c.strokeStyle = colors.link;
  // Stroked in batches: the software rasteriser slows down badly (seconds) on one path with
  // 10^5 curves, while many small paths cost little more than their segments.
  const visible = segments.filter((s) => !outside(s, x0, x1, y0, y1));
  for (let i = 0; i < visible.length; i += STROKE_BATCH) {
    c.stroke(new Path2D(linkPath(visible.slice(i, i + STROKE_BATCH))));
  }

  if (callerSegments.length) {
    c.save();
    c.setLineDash([4 / t.k, 3 / t.k]);
    c.strokeStyle = colors.callerLink;
    c.stroke(new Path2D(linkPath(callerSegments.filter((s) => !outside(s, x0, x1, y0, y1)))));
    c.restore();
  }

  const inView = list.filter((m) => m.x >= x0 && m.x <= x1 && m.y >= y0 && m.y <= y1);
  for (const m of inView) {
    c.fillStyle = m.fill ?? colors.missing;
    if (m.shape && m.shape !== "circle") {
      c.fill(new Path2D(shapePath(m.shape, m.x, m.y, m.r / t.k)));
      continue;
    }
    c.beginPath();
    c.arc(m.x, m.y, m.r / t.k, 0, 2 * Math.PI);
    c.fill();
  }
  if (maxR > 1.5 && inView.length <= OUTLINED_MAX) {
    // outlines where marks can be told apart by them, in batches as for links: stroking
    // 10^5 arcs of a dense overview costs the software rasteriser seconds and shows nothing
    c.lineWidth = 0.75 / t.k;
    c.strokeStyle = colors.outline;
    for (const [outline, dash] of OUTLINE_DASHES) {
      c.setLineDash(dash.map((d) => d / t.k));
      const group = inView.filter((m) => outlineOf(m) === outline);
      for (let i = 0; i < group.length; i += STROKE_BATCH) {
        const path = new Path2D();
        for (const m of group.slice(i, i + STROKE_BATCH)) {
          path.moveTo(m.x + m.r / t.k, m.y);
          path.arc(m.x, m.y, m.r / t.k, 0, 2 * Math.PI);
        }
        c.stroke(path);
      }
    }
    c.setLineDash([]);
  }
  return inView.length;
}

/**
 * The fill of marks with a missing value: a hatch of `line` over `ground`, for context `c`.
 * @param {Document} doc @param {CanvasRenderingContext2D} c @param {string} ground @param {string} line
 * @returns {CanvasPattern | string}
 */
export function hatchPattern(doc, c, ground, line) {
  const tile = doc.createElement("canvas");
  tile.width = 6;
  tile.height = 6;
  const t = tile.getContext("2d");
  if (!t) return ground;
  t.fillStyle = ground;
  t.fillRect(0, 0, 6, 6);
  t.strokeStyle = line;
  t.lineWidth = 1.5;
  t.beginPath();
  t.moveTo(0, 6);
  t.lineTo(6, 0);
  t.stroke();
  return c.createPattern(tile, "repeat") ?? ground;
}

/**
 * Whether a link lies wholly on one side of the box (x0, y0)–(x1, y1).
 * @param {LinkMark} s
 * @param {number} x0
 * @param {number} x1
 * @param {number} y0
 * @param {number} y1
 */
function outside(s, x0, x1, y0, y1) {
  return (s.y0 < y0 && s.y1 < y0) || (s.y0 > y1 && s.y1 > y1) || (s.x0 < x0 && s.x1 < x0) || (s.x0 > x1 && s.x1 > x1);
}
