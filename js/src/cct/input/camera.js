// The camera: the zoom and pan from layout units to screen pixels (d3-zoom on the drawing's
// surface), fitting the tree into the room the legends and labels leave, keeping a node where
// it was on screen across a new layout, and the room a picture's levels are spread over.
import { select } from "d3-selection";
import "d3-transition"; // selection.transition(): navigation glides to its target
import { zoom, zoomIdentity } from "d3-zoom";

/** @typedef {{ x: number, y: number, k: number }} Transform */
/**
 * @typedef {object} Frame sizes in screen pixels
 * @property {number} margin
 * @property {number} legendRoom left of the tree, for the legends (when they are on the left)
 * @property {number} labelRoom right of the deepest nodes, for their labels
 * @property {number} topRoom above the tree (legends on top)
 * @property {boolean} legendsOnTop
 * @property {number} maxFitScale
 * @property {number} minLevelWidth
 * @property {number} maxLevelWidth
 * @property {number} motionMs how long navigation glides (0: it jumps)
 */
/** @typedef {ReturnType<typeof import("../picture/layout.js").layoutTree>} Layout */

/**
 * @param {Frame} frame
 * @param {{ onMove: (t: Transform, moving: boolean) => void, onEnd: (userSet: Transform | null) => void,
 *   allow: (event: any) => boolean }} hooks
 *   `onMove` on every step (backends follow), `onEnd` when a gesture or a jump ends (`null`:
 *   the view is fitted, not moved by hand); `allow` filters the events d3-zoom acts on
 */
export function createCamera(frame, { onMove, onEnd, allow }) {
  let transform = zoomIdentity;
  let userMoved = false;
  let moving = false; // between a zoom's start and end events
  let size = { width: 0, height: 0 };
  /** @type {import("d3-selection").Selection<SVGSVGElement, unknown, null, undefined> | null} */
  let surface = null;

  const zoomer = zoom()
    .scaleExtent([1e-4, 16])
    .filter((event) => allow(event) && (!event.ctrlKey || event.type === "wheel") && !event.button)
    .on("start", () => {
      moving = true;
    })
    .on("zoom", (event) => {
      transform = event.transform;
      onMove(current(), moving);
      if (event.sourceEvent) userMoved = true;
    })
    .on("end", () => {
      moving = false;
      onEnd(userMoved ? current() : null);
    });

  const current = () => ({ x: transform.x, y: transform.y, k: transform.k });

  /** Whether moves may be animated: a duration is set and the user has not asked for reduced motion. */
  function motion() {
    const win = surface?.node()?.ownerDocument.defaultView;
    if (!frame.motionMs || !win || typeof win.matchMedia !== "function") return false;
    return !win.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  /** @param {import("d3-zoom").ZoomTransform} t @param {boolean} [glide] animated (navigation) */
  function jump(t, glide = false) {
    if (surface) {
      surface.interrupt(); // a new move replaces a glide under way
      if (glide && motion()) {
        surface
          .transition()
          .duration(frame.motionMs)
          .call(/** @type {any} */ (zoomer).transform, t);
      } else surface.call(/** @type {any} */ (zoomer).transform, t);
    } else {
      transform = t;
      onMove(current(), false);
    }
  }

  // the side margins of a narrow view shrink with it (5% each), so the tree keeps the room
  const side = () => Math.min(frame.margin, 0.05 * size.width);
  const leftRoom = () => (frame.legendsOnTop ? side() : frame.legendRoom);

  /** Room for the tree in screen pixels (legends on the left or on top, labels on the right). */
  function room() {
    return {
      // labels take at most 30% of a narrow view
      width: Math.max(50, size.width - leftRoom() - side() - Math.min(frame.labelRoom, 0.3 * size.width)),
      height: Math.max(50, size.height - 2 * frame.margin - frame.topRoom),
    };
  }

  return {
    /** The drawing's surface (a backend's SVG): zoom gestures act on it. @param {SVGSVGElement} svg */
    attach(svg) {
      surface?.on(".zoom", null);
      surface = select(svg);
      surface.call(/** @type {any} */ (zoomer)).on("dblclick.zoom", null);
      surface.property("__zoom", transform);
    },
    detach() {
      surface?.on(".zoom", null);
      surface = null;
    },
    /** @param {number} width @param {number} height */
    setSize(width, height) {
      size = { width, height };
    },
    get size() {
      return { ...size };
    },
    get transform() {
      return current();
    },
    /** Room for the tree in screen pixels (legends on the left or on top, labels on the right). */
    room,
    /** Whether the user moved the view by hand (else it is fitted again on changes). */
    get userMoved() {
      return userMoved;
    },
    /** @param {number} x layout units @returns {number} screen pixels */
    toScreenX: (x) => transform.applyX(x),
    /** @param {number} y */
    toScreenY: (y) => transform.applyY(y),

    /**
     * Zooms and pans so that every node of `layout` is in the room left for the tree.
     * @param {Layout} layout @param {boolean} [glide] animated, as navigation (a collapse refits)
     */
    fit(layout, glide = false) {
      if (layout.keys.length === 0) return;
      let x0 = Infinity;
      let x1 = -Infinity;
      let y0 = Infinity;
      let y1 = -Infinity;
      for (let ix = 0; ix < layout.keys.length; ix++) {
        const key = layout.keys[ix];
        x0 = Math.min(x0, layout.x[key]);
        x1 = Math.max(x1, layout.x[key]);
        y0 = Math.min(y0, layout.y[key]);
        y1 = Math.max(y1, layout.y[key]);
      }
      y0 -= layout.headRoom; // the first band's header
      const { width: w, height: h } = room();
      const k = Math.min(w / Math.max(1, x1 - x0), h / Math.max(1, y1 - y0), frame.maxFitScale);
      const tx = leftRoom() + (w - k * (x1 - x0)) / 2 - k * x0;
      const ty = frame.margin + frame.topRoom + (h - k * (y1 - y0)) / 2 - k * y0;
      userMoved = false;
      jump(zoomIdentity.translate(tx, ty).scale(k), glide);
    },

    /** Zooms and pans to `t` as if the user had. @param {Transform} t */
    set(t) {
      userMoved = true;
      jump(zoomIdentity.translate(t.x, t.y).scale(t.k));
    },

    /**
     * Pans (same zoom) so that the layout point (x, y) is in the middle of the view; with
     * `onlyIfOutside`, only when it is near or past the edges.
     * @param {number} x @param {number} y @param {boolean} [onlyIfOutside]
     */
    centerOn(x, y, onlyIfOutside = false) {
      const sx = transform.applyX(x);
      const sy = transform.applyY(y);
      const inside = sx > 40 && sx < size.width - 40 && sy > 20 && sy < size.height - 20;
      if (onlyIfOutside && inside) return;
      userMoved = true;
      // a jump, not a glide: callers (the renderer's API, search) read positions right after it
      jump(transform.translate((size.width / 2 - sx) / transform.k, (size.height / 2 - sy) / transform.k));
    },

    /**
     * Brings layout points into view: at least zoom `minK` (a readable scale), zoomed out only
     * as far as they need, panned as little as it takes (a margin of `pad` pixels).
     * @param {{ x: number, y: number }[]} points layout units
     * @param {{ minK?: number, pad?: number }} [how]
     */
    reveal(points, { minK = 0, pad = 30 } = {}) {
      if (!points.length) return;
      let x0 = Infinity;
      let x1 = -Infinity;
      let y0 = Infinity;
      let y1 = -Infinity;
      for (const p of points) {
        x0 = Math.min(x0, p.x);
        x1 = Math.max(x1, p.x);
        y0 = Math.min(y0, p.y);
        y1 = Math.max(y1, p.y);
      }
      const w = Math.max(1, size.width - 2 * pad);
      const h = Math.max(1, size.height - 2 * pad - frame.topRoom);
      const fits = Math.min(w / Math.max(1e-9, x1 - x0), h / Math.max(1e-9, y1 - y0));
      const k = Math.max(1e-4, Math.min(Math.max(transform.k, minK), fits));
      // where the points are at that zoom, with today's centre kept; then the least pan
      const cx = (size.width / 2 - transform.x) / transform.k;
      const cy = (size.height / 2 - transform.y) / transform.k;
      let tx = size.width / 2 - k * cx;
      let ty = size.height / 2 - k * cy;
      const left = pad;
      const top = pad + frame.topRoom;
      if (tx + k * x0 < left) tx = left - k * x0;
      else if (tx + k * x1 > size.width - pad) tx = size.width - pad - k * x1;
      if (ty + k * y0 < top) ty = top - k * y0;
      else if (ty + k * y1 > size.height - pad) ty = size.height - pad - k * y1;
      if (Math.abs(tx - transform.x) < 0.5 && Math.abs(ty - transform.y) < 0.5 && k === transform.k) return;
      // a pan at the same zoom (a keyboard cursor near an edge) leaves a fitted view fitted: it
      // still follows the container's size; a zoom to a readable scale takes the camera
      if (k !== transform.k) userMoved = true;
      jump(zoomIdentity.translate(tx, ty).scale(k), true);
    },

    /**
     * Pans so that a point that was at screen position `before` is there again (a node the user
     * acted on stays under the pointer across a new layout).
     * @param {{ x: number, y: number }} before screen pixels
     * @param {number} x layout units now @param {number} y
     */
    keep(before, x, y) {
      const dx = before.x - transform.applyX(x);
      const dy = before.y - transform.applyY(y);
      jump(transform.translate(dx / transform.k, dy / transform.k));
    },
  };
}

/** @typedef {ReturnType<typeof createCamera>} Camera */
