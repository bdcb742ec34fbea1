// Painting a canvas view's links and marks onto a 2D context: the backend's own canvas in the
// page's theme colours (canvas-backend.js), or a picture of the view in a figure's
// (live-picture.js).

import { SLICE_ITEMS } from "../../base/steps.js";
import { allLinks } from "../../picture/links.js";
import { shapePath } from "../../picture/shapes.js";
import { linksPath } from "./link-path.js";
import { fanWedgeSteps, wedgesPath } from "./link-wedges.js";
import { WORK } from "./slices.js";

/** Links (and outlines) stroked between two steps of a painting: a step is the least a slice
 * can do (slices.js), and 200 curves of a 100k-node tree drawn whole took a software rasteriser
 * ~100 ms (a picture's tasks of 110-117 ms; 50: under 100). */
const STROKE_BATCH = 50;
/** Marks in view above which they are painted without outlines (a dense overview). */
const OUTLINED_MAX = 5000;
/** Outline dash patterns in screen pixels, as cct/draw/draw.css draws the SVG marks. */
const OUTLINE_DASHES = /** @type {const} */ ([
  ["solid", []],
  ["negative", [2, 1]],
  ["no-size", [0.6, 1.4]],
]);
/** @param {import("../../picture/scene.js").NodeMark} m */
const outlineOf = (m) => (m.noSize ? "no-size" : m.negative ? "negative" : "solid");

/**
 * @typedef {{ link: string, callerLink: string, outline: string, missing: CanvasPattern | string }} Colors
 *   links, a DAG's other callers, mark outlines, and the fill of marks with no value
 * @typedef {import("../svg/svg-backend.js").NodeMark} NodeMark
 * @typedef {import("../../picture/links.js").Links} Links
 * @typedef {object} Drawing what a canvas view draws, and where
 * @property {number} w CSS pixels
 * @property {number} h
 * @property {number} dpr device pixels per CSS pixel
 * @property {{ x: number, y: number, k: number }} t the zoom transform
 * @property {number} maxR the largest mark radius, screen pixels
 * @property {NodeMark[]} list the marks
 * @property {Links} segments parent → child links
 * @property {Links} callerSegments a DAG's other callers → callee
 */

/** Marks filled between two steps of a painting (a slice can be a few milliseconds: slices.js). */
const MARK_BATCH = 100;
/** Links tested against the view between two yields. */
const SLICE_SEGMENTS = SLICE_ITEMS;

/** @type {{ key: unknown[], fans: { wedges: import("./link-wedges.js").Wedge[], rest: Int32Array } } | null}
 * the links in view and their fans of the last painting, and what they were found for */
let lastFans = null;

/**
 * Paints the links and marks in view onto `c` (sized `w` × `h` CSS pixels at `dpr` device pixels
 * each) in `colors`, in steps: the painting pauses (yields) after each batch of links or marks,
 * so that a view of 10^5 marks can be painted over a few frames rather than in one long task.
 * @param {CanvasRenderingContext2D} c
 * @param {Drawing} drawing
 * @param {Colors} colors
 * @returns {Generator<void | typeof WORK, number, void>} done with the number of marks painted;
 *   yields WORK after work that paints nothing (slices.js)
 */
export function* paintSteps(c, { w, h, dpr, t, maxR, list, segments, callerSegments }, colors) {
  // what is in view, in layout units, with a margin of the largest radius (marks are sized
  // in screen pixels: r / k in layout units)
  const pad = (maxR + 2) / t.k;
  const x0 = -t.x / t.k - pad;
  const x1 = (w - t.x) / t.k + pad;
  const y0 = -t.y / t.k - pad;
  const y1 = (h - t.y) / t.k + pad;
  // dense fans filled as wedges (link-wedges.js): ends a screen pixel apart, under strokes of 1.2.
  // Worked out in slices before the canvas is cleared: at 10^5 links that takes several (a
  // frame between two shows the last painting, not an empty canvas). The view's picture paints
  // what the view has just painted: the same links and place, so the same wedges
  const key = [segments, w, h, t.x, t.y, t.k, maxR];
  let found = lastFans?.key.every((v, i) => v === key[i]) ? lastFans.fans : null;
  if (!found) {
    const inViewIds = new Int32Array(segments.length);
    let linksInView = 0;
    for (let i = 0; i < segments.length; i++) {
      if (i && i % SLICE_SEGMENTS === 0) yield WORK;
      if (!outside(segments, i, x0, x1, y0, y1)) inViewIds[linksInView++] = i;
    }
    const steps = fanWedgeSteps(segments, inViewIds.subarray(0, linksInView), 1 / t.k);
    let step = steps.next();
    for (; !step.done; step = steps.next()) yield WORK;
    found = step.value;
    lastFans = { key, fans: found };
  }
  const { wedges, rest: visible } = found;

  c.setTransform(dpr, 0, 0, dpr, 0, 0);
  c.clearRect(0, 0, w, h);
  c.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
  c.lineWidth = 1.2 / t.k;
  c.strokeStyle = colors.link;
  // Stroked in batches: the software rasteriser slows down badly (seconds) on one path with
  // 10^5 curves, while many small paths cost little more than their segments.
  const box = { x0, x1, y0, y1, far: (2 * (w + h)) / t.k, px: 1 / (t.k * dpr) };
  c.fillStyle = colors.link;
  for (let i = 0; i < wedges.length; i += STROKE_BATCH) {
    c.fill(wedgesPath(wedges.slice(i, i + STROKE_BATCH)));
    yield;
  }
  const cut = new Set();
  for (let i = 0; i < visible.length; i += STROKE_BATCH) {
    c.stroke(linksPath(segments, visible.subarray(i, i + STROKE_BATCH), box, cut));
    yield;
  }

  if (callerSegments.length) {
    c.save();
    c.setLineDash([4 / t.k, 3 / t.k]);
    c.strokeStyle = colors.callerLink;
    const ids = allLinks(callerSegments).filter((i) => !outside(callerSegments, i, x0, x1, y0, y1));
    c.stroke(linksPath(callerSegments, ids, box));
    c.restore();
  }

  const inView = list.filter((m) => m.x >= x0 && m.x <= x1 && m.y >= y0 && m.y <= y1);
  for (let i = 0; i < inView.length; i++) {
    const m = inView[i];
    if (i % MARK_BATCH === MARK_BATCH - 1) yield;
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
        yield;
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
 * Whether link `i` lies wholly on one side of the box (x0, y0)–(x1, y1).
 * @param {Links} s
 * @param {number} i
 * @param {number} x0
 * @param {number} x1
 * @param {number} y0
 * @param {number} y1
 */
function outside(s, i, x0, x1, y0, y1) {
  const a = s.y0[i];
  const b = s.y1[i];
  if ((a < y0 && b < y0) || (a > y1 && b > y1)) return true;
  const c = s.x0[i];
  const d = s.x1[i];
  return (c < x0 && d < x0) || (c > x1 && d > x1);
}
