// Painting a canvas view's links and marks onto a 2D context: the backend's own canvas in the
// page's theme colours (canvas-backend.js), or a picture of the view in a figure's
// (live-picture.js).

import { SLICE_ITEMS } from "../base/steps.js";
import { allLinks } from "../picture/links.js";
import { shapePath } from "../picture/shapes.js";
import { fanWedgeSteps, wedgesPath } from "./link-wedges.js";
import { WORK } from "./slices.js";

/** Links (and outlines) stroked between two steps of a painting: a step is the least a slice
 * can do (slices.js), and 200 curves of a 100k-node tree drawn whole took a software rasteriser
 * ~100 ms (a picture's tasks of 110-117 ms; 50: under 100). */
const STROKE_BATCH = 50;
/** Marks in view above which they are painted without outlines (a dense overview). */
const OUTLINED_MAX = 5000;
/** Outline dash patterns in screen pixels, as widget.css draws the SVG marks. */
const OUTLINE_DASHES = /** @type {const} */ ([
  ["solid", []],
  ["negative", [2, 1]],
  ["no-size", [0.6, 1.4]],
]);
/** @param {import("../picture/scene.js").NodeMark} m */
const outlineOf = (m) => (m.noSize ? "no-size" : m.negative ? "negative" : "solid");

/**
 * @typedef {{ link: string, callerLink: string, outline: string, missing: CanvasPattern | string }} Colors
 *   links, a DAG's other callers, mark outlines, and the fill of marks with no value
 * @typedef {import("./svg-backend.js").NodeMark} NodeMark
 * @typedef {import("../picture/links.js").Links} Links
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
  // frame between two shows the last painting, not an empty canvas)
  const inViewIds = new Int32Array(segments.length);
  let linksInView = 0;
  for (let i = 0; i < segments.length; i++) {
    if (i && i % SLICE_SEGMENTS === 0) yield WORK;
    if (!outside(segments, i, x0, x1, y0, y1)) inViewIds[linksInView++] = i;
  }
  const fans = fanWedgeSteps(segments, inViewIds.subarray(0, linksInView), 1 / t.k);
  let fan = fans.next();
  for (; !fan.done; fan = fans.next()) yield WORK;
  const { wedges, rest: visible } = fan.value;

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
 * The links at `ids` (all when null) as one path: each the cubic curve of svg-backend.js's `linkPath` (horizontal
 * tangents at both ends), but only its part in `box` when it reaches far out of it. Zoomed in on
 * a big tree, thousands of links cross the view from ends hundreds of thousands of pixels apart,
 * and the rasteriser flattens a curve along its whole length: 100 ms a frame for three nodes in
 * view. The part in view is the same curve, cut exactly (de Casteljau). Parts that fall on the
 * same device pixels as one already in the path are left out: a node with 9,000 children far
 * below the view fans out into 9,000 cut links that leave the view through a few dozen pixels,
 * and stroking each of them again cost the rasteriser ~25 ms a frame for the same picture.
 * @param {Links} links @param {ArrayLike<number> | null} ids
 * @param {{ x0: number, x1: number, y0: number, y1: number, far: number, px?: number }} box
 *   layout units; `far`: a link longer than this is cut to the box; `px`: a device pixel (0:
 *   keep every cut part)
 * @param {Set<string>} [cut] the cut parts already stroked (by their points rounded to device
 *   pixels), shared by the batches of one painting
 */
export function linksPath(links, ids, box, cut = new Set()) {
  const path = new Path2D();
  const px = box.px ?? 0;
  const { x0: left, x1: right, y0: top, y1: bottom, far } = box;
  const points = new Float64Array(8); // a cut part's control points
  const last = new Float64Array(8).fill(Number.NaN); // the last cut part's, in device pixels
  const ends = new Float64Array(4).fill(Number.NaN); // the last whole link's ends, likewise
  // Scalars only, no array or closure a link: this loop runs for every link in view each
  // painting (a fan of 9,000 links cost ~5 ms in arrays and closures, most of an expand's frame)
  const n = ids ? ids.length : links.length;
  for (let j = 0; j < n; j++) {
    const i = ids ? ids[j] : j;
    const x0 = links.x0[i];
    const y0 = links.y0[i];
    const x1 = links.x1[i];
    const y1 = links.y1[i];
    const mx = (x0 + x1) / 2;
    if (Math.abs(x1 - x0) + Math.abs(y1 - y0) <= far) {
      // a link whose ends are on the device pixels of the one before: so is its whole curve (its
      // control points are its ends'). Fitted, a fan of 9,000 children is that many curves
      // across the view a tenth of a pixel apart, ~140 ms of software rasterising a painting.
      if (px > 0 && sameEnds(ends, x0 / px, y0 / px, x1 / px, y1 / px)) continue;
      path.moveTo(x0, y0);
      path.bezierCurveTo(mx, y0, mx, y1, x1, y1);
      continue;
    }
    // x(t) and y(t) are monotonic on [0, 1]: the part in the box is one parameter interval
    // (inverseX, inverseY)
    let a = 0;
    let b = 1;
    if (!(Math.min(x0, x1) >= left && Math.max(x0, x1) <= right)) {
      const span = x1 - x0;
      if (span === 0) continue; // a vertical link beside the box (one in it is inside in x)
      const ta = inverseX((left - x0) / span);
      const tb = inverseX((right - x0) / span);
      a = span > 0 ? ta : tb;
      b = span > 0 ? tb : ta;
    }
    if (!(Math.min(y0, y1) >= top && Math.max(y0, y1) <= bottom)) {
      const span = y1 - y0;
      if (span === 0) continue; // a horizontal link above or below the box
      const ta = inverseY((top - y0) / span);
      const tb = inverseY((bottom - y0) / span);
      a = Math.max(a, span > 0 ? ta : tb);
      b = Math.min(b, span > 0 ? tb : ta);
    }
    if (!(a < b)) continue;
    // the part between a and b: control points at the blossom's (a,a,a), (a,a,b), (a,b,b),
    // (b,b,b) (de Casteljau with a parameter per level), x on (x0, m, m, x1), y on (y0, y0, y1, y1)
    points[0] = blossom(x0, mx, mx, x1, a, a, a);
    points[1] = blossom(y0, y0, y1, y1, a, a, a);
    points[2] = blossom(x0, mx, mx, x1, a, a, b);
    points[3] = blossom(y0, y0, y1, y1, a, a, b);
    points[4] = blossom(x0, mx, mx, x1, a, b, b);
    points[5] = blossom(y0, y0, y1, y1, a, b, b);
    points[6] = blossom(x0, mx, mx, x1, b, b, b);
    points[7] = blossom(y0, y0, y1, y1, b, b, b);
    if (px > 0) {
      // control points within a pixel of another part's: so is every point of the curve (a
      // weighted mean of its control points, with the same weights)
      let same = true;
      for (let i = 0; i < 8; i++) {
        const q = Math.round(points[i] / px);
        same &&= q === last[i];
        last[i] = q;
      }
      // a fan's links come one after another: most parts repeat the one before (no key to build)
      if (same) continue;
      const key = last.join(",");
      if (cut.has(key)) continue;
      cut.add(key);
    }
    path.moveTo(points[0], points[1]);
    path.bezierCurveTo(points[2], points[3], points[4], points[5], points[6], points[7]);
  }
  return path;
}

/** Whether the four values round as `last` holds, which then holds them rounded.
 * @param {Float64Array} last @param {number} a @param {number} b @param {number} c @param {number} d */
function sameEnds(last, a, b, c, d) {
  const qa = Math.round(a);
  const qb = Math.round(b);
  const qc = Math.round(c);
  const qd = Math.round(d);
  const same = qa === last[0] && qb === last[1] && qc === last[2] && qd === last[3];
  last[0] = qa;
  last[1] = qb;
  last[2] = qc;
  last[3] = qd;
  return same;
}

/**
 * The blossom (polar form) of the cubic with control values v0…v3 at (u, v, w): de Casteljau
 * with u, v and w at its three levels. At (a, a, a) it is the curve's value at a; the part of
 * the curve between a and b has control values at (a,a,a), (a,a,b), (a,b,b) and (b,b,b).
 * @param {number} v0 @param {number} v1 @param {number} v2 @param {number} v3
 * @param {number} u @param {number} v @param {number} w
 */
function blossom(v0, v1, v2, v3, u, v, w) {
  const a0 = v0 + (v1 - v0) * u;
  const a1 = v1 + (v2 - v1) * u;
  const a2 = v2 + (v3 - v2) * u;
  const b0 = a0 + (a1 - a0) * v;
  const b1 = a1 + (a2 - a1) * v;
  return b0 + (b1 - b0) * w;
}

/*
 * Both coordinates of a link are `v0 + (v1 − v0)·g(t)` with g monotonic from 0 to 1, so the
 * parameter interval where a coordinate lies in [lo, hi] is where g lies between the bounds'
 * fractions, found in closed form (this runs for thousands of links a painting):
 * - x, control points (v0, m, m, v1) with m the middle: g(t) = t³ − 1.5t² + 1.5t, whose inverse
 *   is t = ½ − sinh(asinh(2 − 4g) / 3) (Cardano's one real root of a depressed cubic);
 * - y, control points (v0, v0, v1, v1): g(t) = 3t² − 2t³ (smoothstep), whose inverse is
 *   t = ½ − sin(asin(1 − 2g) / 3).
 */

/** t where a link's x has gone the fraction `g` of its way (clamped to [0, 1]) @param {number} g */
export function inverseX(g) {
  const c = g < 0 ? 0 : g > 1 ? 1 : g;
  return 0.5 - Math.sinh(Math.asinh(2 - 4 * c) / 3);
}

/** t where a link's y has gone the fraction `g` of its way (clamped to [0, 1]) @param {number} g */
export function inverseY(g) {
  const c = g < 0 ? 0 : g > 1 ? 1 : g;
  return 0.5 - Math.sin(Math.asin(1 - 2 * c) / 3);
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
