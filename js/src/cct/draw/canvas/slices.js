// How much canvas painting fits in one task. Painting onto a 2D canvas records drawing commands;
// the browser rasterises them later: at the frame's commit for the view's canvas, at the first
// read for an offscreen one. On a GPU that costs little, but Chromium's software rasteriser
// (no GPU, as on this project's test machine and many remote desktops) takes several times the
// painting: the last 9 ms of painting 10,000 marks and links was followed by a 50 ms commit.
// The browser says nothing of what its rasteriser will cost, so a painting in slices has the
// canvas rasterise each slice in the slice's own task (reading one pixel back makes it), times
// the two, and sizes the next slice so that the whole task stays short. Where reading back costs
// more than it tells (a GPU canvas: the read waits for the GPU, and Chromium moves a canvas that
// is read often off the GPU), a first read shows rasterising is cheap and no more are made.

/** What one task may take in all: painting and rasterising (a long task is over 50 ms). */
export const TASK_MS = 25;
/** The longest slice of painting, whatever the rasteriser (a frame is 16.7 ms). */
const MAX_SLICE_MS = 24;
/** The shortest: a few hundred marks. */
const MIN_SLICE_MS = 2;
/** Slices read back, all rasterised faster than painted, before reading back stops. */
const FAST_SAMPLES = 4;

/**
 * A slicer: how long the next slice of painting may be, learnt from the slices before it.
 * @returns {{ slice: () => number, first: () => number, readBack: () => boolean,
 *   done: (paintMs: number, rasterMs: number) => void }}
 *   `slice()`: the next slice's painting time; `first()`: the first slice's of a painting of new
 *   content (new marks or links), the shortest: what the rasteriser learnt of other content says
 *   little of this one's (a fitted fan's long curves cost ~13× their painting, small marks ~3×;
 *   a first slice sized by the marks was followed by a 75 ms commit); `readBack()`: whether to rasterise a slice in
 *   its task by reading a pixel (then report the time it took with `done`); `done(paintMs,
 *   rasterMs)`: a slice painted for `paintMs`, and rasterising it took `rasterMs`.
 */
export function createSlicer() {
  /** rasterising time per painting time, as seen so far; at first the guess of a slow
   * rasteriser (a first slice of 7 ms), which a fast one soon corrects */
  let ratio = 4;
  /** @type {boolean | null} whether reading back is worth it (null: not known yet) */
  let reads = null;
  /** slices read back so far, and the most rasterising per painting any of them took */
  let samples = 0;
  let most = 0;
  return {
    slice: () => Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, TASK_MS / (1 + ratio))),
    first: () => (reads === false ? MAX_SLICE_MS : MIN_SLICE_MS),
    readBack: () => reads !== false,
    done(paintMs, rasterMs) {
      if (paintMs < 0.5) return; // too short to tell
      const seen = rasterMs / paintMs;
      // up at once, down slowly: one painting's parts rasterise at very different costs (see
      // paintSlice), and the next painting's first slices are sized from what came last
      ratio = samples === 0 || seen > ratio ? seen : (3 * ratio + seen) / 4;
      samples++;
      most = Math.max(most, seen);
      // a rasteriser faster than the painting in every one of the first slices: the frame's own
      // commit will do. Not from one slice: a page's first paintings run its painting code
      // before the JIT has compiled it (a 10k view's first slice read 0.8, its next ones 3–13)
      if (reads === null && (most > 1 || samples >= FAST_SAMPLES)) reads = most > 1;
      if (reads === false) ratio = 0;
    },
  };
}

/** What a painting's step yields after work that paints nothing (what is in view, its links'
 * fans): counted in the task's time (TASK_MS), not in the slice of painting, not read back nor
 * learnt from (slices of work alone
 * "rasterised" at no cost, and after four of them the slicer took the rasteriser for a fast one:
 * unbounded slices of 100-200 ms followed). */
export const WORK = "work";

/** One slicer a page for the views' canvases, one for their pictures (offscreen canvases): the
 * rasteriser is the page's. */
export const viewSlicer = createSlicer();
export const pictureSlicer = createSlicer();

/**
 * Has `c` rasterise what was painted on it, now (reading a pixel back makes it).
 * @param {CanvasRenderingContext2D} c
 * @returns {boolean} false if the canvas cannot be read (a tainted one)
 */
export function rasteriseNow(c) {
  try {
    c.getImageData(0, 0, 1, 1);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `steps` (a painting on `c`) for one slice: until `slice` ms of painting, and, where
 * `slicer` reads back, until painting and rasterising took TASK_MS, each step rasterised in its
 * turn: one painting's parts rasterise at very different costs (a fitted fan's wedges at ~0.1×
 * their painting, its 10^4 marks at ~6×), and a slice sized from the first was followed by a
 * 41 ms read-back of the second. Reading back a step at a time costs no more in all. Tells
 * `slicer` what the slice cost.
 * @template T
 * @param {Generator<void | typeof WORK, T, void>} steps
 * @param {CanvasRenderingContext2D} c
 * @param {ReturnType<typeof createSlicer>} slicer
 * @param {number} slice ms of painting
 * @returns {IteratorResult<void | typeof WORK, T>} the last step's (done: the painting is over)
 */
export function paintSlice(steps, c, slicer, slice) {
  const start = performance.now();
  let each = slicer.readBack();
  let rasterMs = 0;
  let workMs = 0;
  let last = start; // when the step under way began
  for (;;) {
    const step = steps.next();
    const work = !step.done && step.value === WORK;
    if (work || (!step.done && each)) {
      const at = performance.now();
      if (work) workMs += at - last;
      else {
        each = rasteriseNow(c);
        rasterMs += performance.now() - at;
      }
    }
    const spent = performance.now() - start;
    last = start + spent;
    if (step.done || spent - rasterMs - workMs >= slice || spent >= TASK_MS) {
      if (slicer.readBack()) {
        const paintedAt = performance.now();
        const paintMs = paintedAt - start - rasterMs - workMs;
        if (rasteriseNow(c)) slicer.done(paintMs, rasterMs + performance.now() - paintedAt);
      }
      return step;
    }
  }
}
