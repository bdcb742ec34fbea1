// Canvas paintings in slices sized by what a whole task costs, rasterising included
// (js/src/cct/draw/slices.js).
import { expect, test, vi } from "vitest";
import { createSlicer, paintSlice, rasteriseNow, TASK_MS, WORK } from "../../../../src/cct/draw/canvas/slices.js";

test("a slow rasteriser gets short slices that keep each task under TASK_MS", () => {
  const slicer = createSlicer();
  expect(slicer.readBack()).toBe(true); // not known yet: the first slice is read back
  const first = slicer.slice();
  expect(first).toBeLessThan(TASK_MS / 2); // a first guess of a slow rasteriser
  for (let i = 0; i < 6; i++) {
    const paint = slicer.slice();
    slicer.done(paint, 5 * paint); // rasterising takes five times the painting
  }
  expect(slicer.readBack()).toBe(true);
  const slice = slicer.slice();
  expect(slice * 6).toBeLessThanOrEqual(TASK_MS + 1e-9);
  expect(slice * 6).toBeGreaterThan(TASK_MS * 0.9);
});

test("a fast rasteriser is read back a few times, then painted in long slices", () => {
  const slicer = createSlicer();
  for (let i = 0; i < 3; i++) {
    slicer.done(7, 1);
    expect(slicer.readBack()).toBe(true); // one fast slice may be cold painting code
  }
  slicer.done(7, 1);
  expect(slicer.readBack()).toBe(false); // reading a GPU canvas back costs more than it tells
  expect(slicer.slice()).toBe(24);
  slicer.done(0.1, 50); // too short to tell anything
  expect(slicer.slice()).toBe(24);
});

test("a painting of new content starts with the shortest slice, read back, which sizes the next", () => {
  const slicer = createSlicer();
  for (let i = 0; i < 6; i++) slicer.done(slicer.slice(), 2 * slicer.slice()); // marks: 2× their painting
  const usual = slicer.slice();
  expect(slicer.first()).toBeLessThan(usual / 2);
  expect(slicer.first()).toBeGreaterThan(0);
  // the new content rasterises at 13× its painting: the first slice's task stays short, and the
  // next slice is sized by it
  const first = slicer.first();
  expect(first * 14).toBeLessThan(50);
  slicer.done(first, 13 * first);
  expect(slicer.slice() * 14).toBeLessThan(50);
  expect(slicer.slice()).toBeLessThan(usual);
  // a rasteriser not worth reading back (a GPU): no short first slices
  const fast = createSlicer();
  for (let i = 0; i < 4; i++) fast.done(7, 1);
  expect(fast.first()).toBe(fast.slice());
});

test("cheap slices after a costly one shorten the next slice only a little", () => {
  // a painting's links (a fitted fan's wedges) rasterise at a tenth of their painting, its marks
  // at 6×: a slice sized from the links must not make a long task of the marks after them
  const slicer = createSlicer();
  for (let i = 0; i < 4; i++) slicer.done(slicer.slice(), 6 * slicer.slice());
  slicer.done(2, 0.2);
  slicer.done(2, 0.2);
  expect(slicer.slice() * 7).toBeLessThan(50);
  // and many cheap slices do bring it down: a painting of cheap content gets long slices again
  for (let i = 0; i < 20; i++) slicer.done(slicer.slice(), 0.1 * slicer.slice());
  expect(slicer.slice()).toBeGreaterThan(TASK_MS * 0.8);
});

test("a first slice of cold painting code that rasterised fast does not stop the reading back", () => {
  const slicer = createSlicer();
  slicer.done(10, 8); // the page's first painting: its code not yet compiled
  slicer.done(3, 30); // then a fan's curves: ten times the painting
  expect(slicer.readBack()).toBe(true);
  for (let i = 0; i < 8; i++) slicer.done(2, 1);
  expect(slicer.readBack()).toBe(true); // once seen slow, read back for good
  expect(slicer.slice()).toBeLessThan(24);
});

test("a canvas that cannot be read says so", () => {
  expect(rasteriseNow(/** @type {any} */ ({ getImageData: () => ({}) }))).toBe(true);
  const tainted = {
    getImageData() {
      throw new DOMException("tainted", "SecurityError");
    },
  };
  expect(rasteriseNow(/** @type {any} */ (tainted))).toBe(false);
});

test("a slice read back step by step ends once painting and rasterising took TASK_MS", () => {
  // 40 cheap steps (links: rasterised at a tenth of their painting), then costly ones (marks: 6×)
  let clock = 0;
  let pending = 0;
  const spy = vi.spyOn(performance, "now").mockImplementation(() => clock);
  const c = /** @type {any} */ ({
    getImageData() {
      clock += pending;
      pending = 0;
    },
  });
  function* painting() {
    for (let i = 0; i < 40; i++) {
      clock += 0.5;
      pending += 0.05;
      yield;
    }
    for (let i = 0; i < 200; i++) {
      clock += 0.5;
      pending += 3;
      yield;
    }
    return 240;
  }
  const slicer = createSlicer();
  for (let i = 0; i < 6; i++) slicer.done(10, 11); // learnt before: rasterising as long as painting
  const steps = painting();
  const tasks = [];
  for (let step = { done: false }; !step.done; ) {
    const before = clock;
    step = paintSlice(steps, c, slicer, slicer.slice());
    tasks.push(clock - before);
  }
  spy.mockRestore();
  expect(pending).toBe(0);
  expect(tasks.length).toBeGreaterThan(10);
  // each at most TASK_MS and one costly step (3.5 ms) past it
  expect(Math.max(...tasks)).toBeLessThanOrEqual(TASK_MS + 3.5);
});

test("a painting's work that paints nothing is neither read back nor learnt from", () => {
  // a 10^5-link painting first works out what is in view and its fans (slices of work alone),
  // then paints links that rasterise at 5× their painting
  let clock = 0;
  let pending = 0;
  let reads = 0;
  let readsInWork = 0;
  const spy = vi.spyOn(performance, "now").mockImplementation(() => clock);
  const c = /** @type {any} */ ({
    getImageData() {
      reads++;
      clock += pending;
      pending = 0;
    },
  });
  /** @param {unknown} marker what a step of work yields */
  function* painting(marker) {
    for (let i = 0; i < 40; i++) {
      clock += 5; // 200 ms of work in all
      yield marker;
    }
    readsInWork = reads;
    for (let i = 0; i < 100; i++) {
      clock += 0.5;
      pending += 2.5;
      yield;
    }
    return 100;
  }
  /** the tasks of a painting on a fresh slicer (rasterising included), and the reads back
   * before its first painting (`readsInWork`) */
  const run = (/** @type {unknown} */ marker) => {
    const slicer = createSlicer();
    const steps = painting(marker);
    const tasks = [];
    reads = 0;
    for (let step = { done: false }; !step.done; ) {
      const before = clock;
      step = paintSlice(/** @type {any} */ (steps), c, slicer, slicer.slice());
      clock += pending; // what was not read back is rasterised at the frame's commit
      pending = 0;
      tasks.push(clock - before);
    }
    return { tasks, readsInWork, slicer };
  };
  const marked = run(WORK);
  // the work's steps read back nothing (only each slice's end), and fill tasks of TASK_MS (not
  // the short slices of painting a slow rasteriser gets); the painting still is read back
  expect(marked.readsInWork).toBeLessThanOrEqual(Math.ceil(200 / TASK_MS) + 1);
  expect(marked.slicer.readBack()).toBe(true);
  expect(Math.max(...marked.tasks)).toBeLessThanOrEqual(TASK_MS + 5 + 3 + 1e-9); // a step over
  // unmarked, the same work taught the slicer a fast rasteriser: no more reading back, long tasks
  const unmarked = run(undefined);
  spy.mockRestore();
  expect(unmarked.slicer.readBack()).toBe(false);
  expect(Math.max(...unmarked.tasks)).toBeGreaterThan(50);
});
