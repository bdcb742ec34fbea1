// The canvas backend's frame cache (canvas-backend.js): while a zoom or pan is under way, frames
// show the last full painting moved and scaled instead of painting every mark again.

/**
 * The last full painting of a view, shown moved and scaled while a zoom or pan is under way: a
 * wheel step over 10,000 marks in view then costs one copy of the picture, not their painting
 * again (~60 ms in Chromium's software rasteriser). The view is painted fully when the move ends.
 * @param {Document} doc
 */
export function createFrameCache(doc) {
  /** @type {HTMLCanvasElement | null} */
  let copy = null;
  /** @type {{ x: number, y: number, k: number } | null} the transform it was painted at */
  let at = null;
  return {
    /**
     * Keeps what `canvas` shows, painted at transform `t` (at the first frame of a move: a full
     * painting that no move follows costs no copy).
     * @param {HTMLCanvasElement} canvas @param {{ x: number, y: number, k: number }} t
     */
    keep(canvas, t) {
      copy ??= doc.createElement("canvas");
      if (copy.width !== canvas.width || copy.height !== canvas.height) {
        copy.width = canvas.width;
        copy.height = canvas.height;
      }
      const c = copy.getContext("2d");
      at = null;
      if (!c) return;
      c.clearRect(0, 0, copy.width, copy.height);
      c.drawImage(canvas, 0, 0);
      at = { ...t };
    },
    /** What was kept no longer shows the view (new marks, links or size). */
    drop() {
      at = null;
    },
    get kept() {
      return at !== null;
    },
    /**
     * Paints the kept picture onto `c` as transform `t` shows it; false when none is kept.
     * @param {CanvasRenderingContext2D} c @param {{ x: number, y: number, k: number }} t
     * @param {number} dpr @param {number} w @param {number} h device pixels
     */
    show(c, t, dpr, w, h) {
      if (!at || !copy) return false;
      const s = t.k / at.k;
      c.setTransform(1, 0, 0, 1, 0, 0);
      c.clearRect(0, 0, w, h);
      // a point at p (device pixels) under `at` is at s·p + dpr·(t − s·at) under `t`
      c.setTransform(s, 0, 0, s, dpr * (t.x - s * at.x), dpr * (t.y - s * at.y));
      c.drawImage(copy, 0, 0);
      return true;
    },
  };
}
