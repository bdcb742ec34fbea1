// A canvas painting's slices where the canvas is read back (a software rasteriser): each step is
// rasterised in its turn and a frame's slice ends once painting and rasterising took TASK_MS
// (js/src/cct/draw/canvas-backend.js), however differently the painting's parts rasterise.
// A file of its own: the page's slicer (slices.js) learns from every painting of the module.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { TASK_MS } from "../../../../src/cct/draw/canvas/slices.js";
import { randomTree } from "../../../support/fixtures.js";
import { mountRenderer, TIME } from "../../../support/mount.js";

/** the mocked clock, ms */
let clock = 0;
/** what was painted on the view's canvas since it was last rasterised, in ms of rasterising */
let pending = 0;
/** rasterising costs: a mark's fill (100 a step: 6 ms), a batch of links (one stroke: 0.02 ms) */
const MARK_MS = 0.06;
const LINKS_MS = 0.02;

beforeEach(() => {
  clock = 0;
  pending = 0;
  vi.spyOn(performance, "now").mockImplementation(() => (clock += 0.05)); // painting takes time
  HTMLCanvasElement.prototype.getContext = function getContext() {
    const own = this.classList.contains("cct-canvas");
    const noop = () => {};
    return {
      setTransform: noop,
      clearRect: noop,
      beginPath: noop,
      arc: noop,
      moveTo: noop,
      lineTo: noop,
      setLineDash: noop,
      fillRect: noop,
      drawImage: noop,
      createPattern: () => "hatch-pattern",
      fill() {
        if (own) pending += MARK_MS;
      },
      stroke() {
        if (own) pending += LINKS_MS;
      },
      // reading a pixel back rasterises what was painted (slices.js rasteriseNow)
      getImageData() {
        clock += pending;
        pending = 0;
      },
    };
  };
  globalThis.Path2D = class {
    moveTo() {}
    lineTo() {}
    arc() {}
    bezierCurveTo() {}
    closePath() {}
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

test("a frame's slice of painting ends once painting and rasterising took TASK_MS", async () => {
  /** @type {((now: number) => void)[]} */
  let queue = [];
  globalThis.requestAnimationFrame = (f) => queue.push(f);
  /** each frame's time in all: its painting and the rasterising it read back */
  const spans = [];
  const frame = () => {
    const due = queue;
    queue = [];
    const before = clock;
    for (const f of due) f(clock);
    clock += pending; // what the frame's commit rasterises
    pending = 0;
    spans.push(clock - before);
  };
  // 5,000 nodes drawn whole, fitted: links rasterise fast, marks at ~100× their painting
  const { container } = mountRenderer(randomTree(5000), { state: { ...TIME, foldToFit: false } });
  for (let i = 0; i < 400 && !container.querySelector("canvas.cct-canvas[data-node-count]"); i++) {
    frame();
    await new Promise((r) => setTimeout(r, 0)); // tasks between frames (later.js)
  }
  expect(container.querySelector("canvas.cct-canvas")?.getAttribute("data-node-count")).toBe("5000");
  const painting = spans.filter((s) => s > 1);
  expect(painting.length).toBeGreaterThan(3); // over several frames
  // none longer than TASK_MS and one step (100 marks: 6 ms of rasterising) past it
  expect(Math.max(...painting)).toBeLessThanOrEqual(TASK_MS + 100 * MARK_MS + 1);
  expect(pending).toBe(0);
});
