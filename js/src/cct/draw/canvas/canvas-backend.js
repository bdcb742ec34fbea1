// The canvas drawing backend, for large trees: nodes and links are painted on one <canvas>
// (10^4–10^5 SVG elements take seconds to create and paint), hit-testing goes through a
// quadtree, and the few marks that change on hover and selection (rings, canvas-rings.js) are SVG
// circles on the shared overlay, so hovering never repaints the canvas. Same interface as
// svg-backend.js.

import { quadtree } from "d3-quadtree";
import { NO_LINKS } from "../../picture/links.js";
import { createOverlay } from "../svg/overlay.js";
import { hatchPattern, paintSteps } from "./canvas-paint.js";
import { createCanvasRings } from "./canvas-rings.js";
import { createFrameCache } from "./frame-cache.js";
import { paintSlice, viewSlicer } from "./slices.js";

/** How far the zoom of a painting may be from the last one's for what the rasteriser cost then
 * to size its first slice (slices.js): zoomed in on a node a few dozen marks are in view, and the
 * glide that shows its 9,110 children ends at a view of all 10,000, whose rasterising took ~4×
 * its painting where the slice had been sized for ~1.2× (a 45–50 ms frame). */
const ZOOM_APART = 4;

/** @typedef {import("../svg/svg-backend.js").NodeMark} NodeMark */
/** @typedef {import("../../picture/links.js").Links} Links */
/** @typedef {import("./canvas-paint.js").Colors} Colors */

/**
 * @param {HTMLElement} container
 * @param {{ labelPx: number }} options
 */
export function createCanvasBackend(container, { labelPx }) {
  const doc = container.ownerDocument;
  const win = /** @type {Window} */ (doc.defaultView); // the container is in a page
  const canvas = doc.createElement("canvas");
  canvas.className = "cct-canvas";
  container.appendChild(canvas);
  const overlay = createOverlay(container, { labelPx, className: "cct-overlay" });
  const rings = createCanvasRings(overlay, { doc, markOf: (key) => byId[key], zoom: () => t.k });

  /** @type {CanvasRenderingContext2D | null} */
  let ctx = null;
  try {
    ctx = canvas.getContext("2d");
  } catch {
    ctx = null; // no canvas support (jsdom): marks are kept and hit-tested, not painted
  }

  /** @type {NodeMark[]} */
  let list = [];
  /** @type {(NodeMark | undefined)[]} by mark key */
  let byId = [];
  /** @type {Links} */
  let segments = NO_LINKS;
  /** @type {Links} */
  let callerSegments = NO_LINKS;
  /** @type {import("d3-quadtree").Quadtree<NodeMark>} */
  let index = quadtree();
  let maxR = 0;
  let t = { x: 0, y: 0, k: 1 };
  let width = 0;
  let height = 0;
  let frame = 0;
  /** @type {CanvasPattern | string | null} */
  let missingFill = null;
  // while a zoom or pan is under way, frames show the last full painting moved and scaled
  const cache = createFrameCache(doc);
  let moving = false;
  /** @type {{ x: number, y: number, k: number } | null} the transform of the last full painting,
   * null when the canvas no longer shows one (new marks, links or size) */
  let painted = null;
  /** What the canvas shows is no longer the view (new marks, links or size). */
  function stale() {
    cache.drop();
    painted = null;
    fresh = true;
  }
  /** the next painting is of new content: its first slice is the shortest (viewSlicer.first) */
  let fresh = true;
  /** the zoom of the last painting: one at a zoom ZOOM_APART away counts as new content too */
  let paintedK = 0;

  /** @type {boolean} the quadtree is built on the first hit test after new marks (a redraw of
   * 10^4 marks does not wait for it) */
  let indexed = false;
  function marksChanged() {
    indexed = false;
    maxR = 0;
    for (let ix = 0; ix < list.length; ix++) {
      const m = list[ix];
      if (m.r > maxR) maxR = m.r;
    }
  }
  function indexOf() {
    if (!indexed) {
      index = /** @type {import("d3-quadtree").Quadtree<NodeMark>} */ (quadtree())
        .x((m) => m.x)
        .y((m) => m.y)
        .addAll(list);
      indexed = true;
    }
    return index;
  }

  function schedule() {
    if (frame) return;
    const raf = win.requestAnimationFrame ?? ((f) => win.setTimeout(f, 16));
    frame = raf((/** @type {number | undefined} */ now) => {
      frame = 0;
      paint(now);
    });
  }

  /** A colour of the JupyterLab theme. @param {string} name a CSS custom property @param {string} fallback */
  function themeColor(name, fallback) {
    const value = win.getComputedStyle(container).getPropertyValue(name).trim();
    return value || fallback;
  }

  /** What is drawn, for paintSteps. */
  const drawing = () => ({ w: width, h: height, t, maxR, list, segments, callerSegments });

  /** @type {Generator<void | "work", number, void> | null} a painting under way, continued each frame */
  let steps = null;

  /** @param {number} [now] the frame's time (requestAnimationFrame's argument) */
  function paint(now) {
    const dpr = win.devicePixelRatio || 1;
    steps = null; // a new painting replaces one under way
    if (ctx && moving) {
      // the canvas still shows the last full painting (at `painted`): kept at a move's first frame
      if (!cache.kept && painted) cache.keep(canvas, painted);
      if (cache.show(ctx, t, dpr, canvas.width, canvas.height)) return;
    }
    if (!ctx) {
      canvas.setAttribute("data-node-count", String(list.length));
      return;
    }
    missingFill ??= hatchPattern(
      doc,
      ctx,
      themeColor("--jp-layout-color3", "#bdbdbd"),
      themeColor("--jp-ui-font-color2", "#616161"),
    );
    painted = null;
    if (paintedK > 0 && Math.max(t.k / paintedK, paintedK / t.k) > ZOOM_APART) fresh = true;
    paintedK = t.k;
    steps = paintSteps(
      ctx,
      { ...drawing(), dpr },
      {
        link: themeColor("--jp-border-color1", "#b0b0b0"),
        callerLink: themeColor("--jp-ui-font-color2", "#616161"),
        outline: themeColor("--jp-ui-font-color2", "#444"),
        missing: missingFill,
      },
    );
    proceed(now);
  }

  /** Paints on for a slice (slices.js: what the frame's task can take, rasterising included),
   * then hands the rest to the next frame: 10^4–10^5 marks paint over a few frames, and no frame
   * is a long task, not even where the rasteriser is slow. One slice a frame: a glide's new
   * painting and the continuation of the one it replaces both ran in one frame (58 + 70 ms).
   * @param {number} [now] the frame's time (requestAnimationFrame's argument) */
  function proceed(now) {
    const current = steps;
    if (!current || !ctx) return;
    const raf = win.requestAnimationFrame ?? ((f) => win.setTimeout(f, 16));
    const next = () =>
      raf((/** @type {number | undefined} */ at) => {
        if (steps === current) proceed(at);
      });
    if (now !== undefined && now === slicedAt) return next();
    slicedAt = now;
    const slice = fresh ? viewSlicer.first() : viewSlicer.slice();
    fresh = false;
    const step = paintSlice(current, ctx, viewSlicer, slice);
    if (!step.done) return next();
    steps = null;
    canvas.dataset.painted = String(step.value);
    cache.drop(); // the next move keeps this painting
    painted = { ...t };
    // every node has been drawn (or is out of view and would be if scrolled to)
    canvas.setAttribute("data-node-count", String(list.length));
  }
  /** @type {number | undefined} the frame of the last slice */
  let slicedAt;

  return {
    kind: "canvas",
    svg: /** @type {SVGSVGElement} */ (overlay.svg.node()),
    legendLayer: overlay.legendLayer,
    drawLabels: overlay.drawLabels,
    drawBands: overlay.drawBands,
    drawHoverLabel: overlay.drawHoverLabel,

    /**
     * Paints what is in view onto another canvas, in other colours (a picture of the view), in
     * steps (see paintSteps): what is drawn now, however the view changes meanwhile.
     * @param {CanvasRenderingContext2D} c sized as the view, times `dpr`
     * @param {number} dpr @param {Colors} colors
     */
    paintOn(c, dpr, colors) {
      return paintSteps(c, { ...drawing(), dpr }, colors);
    },

    /** @param {Links} next parent → child */
    drawLinks(next) {
      segments = next;
      stale();
      schedule();
    },

    /** @param {Links} next a DAG's other callers → callee, dashed */
    drawCallerLinks(next) {
      callerSegments = next;
      stale();
      schedule();
    },

    /** Replaces all node marks. @param {NodeMark[]} marks */
    drawNodes(marks) {
      missingFill = null; // in the page's colours now (the theme may have changed)
      stale();
      list = marks;
      byId = [];
      for (let ix = 0; ix < marks.length; ix++) {
        const m = marks[ix];
        byId[m.key] = m;
      }
      marksChanged();
      rings.drawAll();
      schedule();
    },

    /** @param {NodeMark[]} marks */
    moveNodes(marks) {
      this.drawNodes(marks);
    },

    /** @param {NodeMark[]} marks */
    styleNodes(marks) {
      this.drawNodes(marks);
    },

    setSelected: rings.setSelected,
    setHolding: rings.setHolding,
    setHovered: rings.setHovered,
    setMatches: rings.setMatches,
    setHighlighted: rings.setHighlighted,
    setCursor: rings.setCursor,

    /**
     * @param {{ x: number, y: number, k: number }} next
     * @param {boolean} [move] a step of a zoom or pan under way (`settle` ends it)
     */
    setTransform(next, move = false) {
      t = { x: next.x, y: next.y, k: next.k };
      moving = move;
      overlay.setTransform(t);
      rings.rescale(t.k);
      schedule();
    },

    /**
     * The node under the pointer: nearest centre within its radius (plus 3 screen pixels).
     * @param {MouseEvent} event
     * @returns {import("../../data/ids.js").ItemKey | null} its mark key
     */
    nodeAt(event) {
      const box = canvas.getBoundingClientRect();
      const x = (event.clientX - box.left - t.x) / t.k;
      const y = (event.clientY - box.top - t.y) / t.k;
      const slack = 3 / t.k;
      const m = indexOf().find(x, y, maxR / t.k + slack);
      if (!m) return null;
      return Math.hypot(m.x - x, m.y - y) <= m.r / t.k + slack ? m.key : null;
    },

    /** A zoom or pan ended: paint the view fully. */
    settle() {
      if (!moving) return;
      moving = false;
      schedule();
    },

    /** @param {number} w CSS pixels @param {number} h */
    resize(w, h) {
      stale();
      width = w;
      height = h;
      const dpr = win.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
      overlay.resize(w, h);
      schedule();
    },

    destroy() {
      if (frame) (win.cancelAnimationFrame ?? win.clearTimeout)(frame);
      steps = null;
      overlay.destroy();
      canvas.remove();
      list = [];
      byId = [];
    },
  };
}
