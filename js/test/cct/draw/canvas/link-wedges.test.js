// Dense fans of links filled as wedges (js/src/cct/draw/link-wedges.js): a run of links from one
// parent to children at one depth, their ends at most `gap` apart, becomes one filled region and
// its two outer links; everything else is stroked as before.

import { beforeEach, expect, test } from "vitest";
import { SLICE_ITEMS } from "../../../../src/cct/base/steps.js";
import { paintSteps } from "../../../../src/cct/draw/canvas/canvas-paint.js";
import { fanWedgeSteps, fanWedges, wedgesPath } from "../../../../src/cct/draw/canvas/link-wedges.js";
import { WORK } from "../../../../src/cct/draw/canvas/slices.js";
import { allLinks, linksOf } from "../../../../src/cct/picture/links.js";

/** fanWedges over links given as objects, the links left to stroke as those objects. */
function wedgesOf(list, gap) {
  const { wedges, rest } = fanWedges(linksOf(list), gap);
  return { wedges, rest: Array.from(rest, (i) => list[i]) };
}

beforeEach(() => {
  /** Path2D recording its commands */
  globalThis.Path2D = class {
    /** @type {unknown[][]} */
    ops = [];
    /** @type {number[][]} */
    curves = [];
    moveTo(...p) {
      this.ops.push(["M", ...p]);
      this.at = p;
    }
    lineTo(...p) {
      this.ops.push(["L", ...p]);
    }
    bezierCurveTo(...p) {
      this.ops.push(["C", ...p]);
      this.curves.push([...this.at, ...p]);
    }
    closePath() {
      this.ops.push(["Z"]);
    }
  };
});

/** A link's point at t: x on (x0, m, m, x1), y on (y0, y0, y1, y1), as canvas-paint.js draws it. */
function at(s, t) {
  const u = 1 - t;
  const mx = (s.x0 + s.x1) / 2;
  const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
  return [w[0] * s.x0 + w[1] * mx + w[2] * mx + w[3] * s.x1, w[0] * s.y0 + w[1] * s.y0 + w[2] * s.y1 + w[3] * s.y1];
}

/** A shuffled copy (a fixed permutation: the order links come in must not matter). */
const shuffled = (a) =>
  a
    .map((x, i) => [(i * 7919) % a.length, x])
    .sort((p, q) => p[0] - q[0])
    .map((p) => p[1]);

const COLORS = { link: "gray", callerLink: "gray", outline: "black", missing: "white" };

/**
 * A drawing fitted at k = 0.01 (100 px wide, `h` high): a fan of `children` links from one
 * parent to ends `step` apart, and a sparse fan of 10 to ends 1,000 apart.
 * @param {number} children @param {number} step @param {number} h
 */
function fanDrawing(children, step, h) {
  const fan = Array.from({ length: children }, (_, j) => ({ x0: 0, y0: 0, x1: 5000, y1: j * step, p: 0 }));
  const sparse = Array.from({ length: 10 }, (_, j) => ({ x0: 0, y0: 0, x1: 9000, y1: j * 1000, p: 1 }));
  const segments = linksOf([...fan, ...sparse]);
  return { w: 100, h, dpr: 1, t: { x: 0, y: 0, k: 0.01 }, maxR: 1, list: [], segments, callerSegments: linksOf([]) };
}

test("a fitted fan of 9,000 children becomes one wedge and its two outer links", () => {
  const fan = Array.from({ length: 9000 }, (_, j) => ({ x0: 10, y0: 50, x1: 90, y1: j / 100, p: 7 }));
  const { wedges, rest } = wedgesOf(shuffled(fan), 1);
  expect(wedges).toEqual([{ x0: 10, y0: 50, x1: 90, ya: 0, yb: 89.99, links: 9000 }]);
  expect(rest.map((s) => s.y1).sort((a, b) => a - b)).toEqual([0, 89.99]);
  // every link lies in the wedge: at each t on the vertical segment between its outer curves
  const [upper, lower] = [fan[0], fan[fan.length - 1]];
  for (const s of fan.filter((_, j) => j % 37 === 0)) {
    for (const t of [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
      const [x, y] = at(s, t);
      const [xa, ya] = at(upper, t);
      const [xb, yb] = at(lower, t);
      expect(x).toBeCloseTo(xa, 9);
      expect(x).toBeCloseTo(xb, 9);
      expect(y).toBeGreaterThanOrEqual(ya - 1e-9);
      expect(y).toBeLessThanOrEqual(yb + 1e-9);
    }
  }
});

test("only links from one parent to one depth, with ends at most `gap` apart, share a wedge", () => {
  const run = (p, x0, y0, x1, from, n, step) =>
    Array.from({ length: n }, (_, j) => ({ x0, y0, x1, y1: from + j * step, p }));
  const links = shuffled([
    ...run(0, 0, 0, 10, 0, 20, 0.5), // a run
    ...run(0, 0, 0, 10, 30, 20, 0.5), // the same parent after a gap of 20.5: another
    ...run(1, 0, 5, 10, 0, 20, 0.5), // another parent
    ...run(2, 3, 0, 10, 0, 20, 0.5), // and another
    ...run(3, 0, 0, 10, 100, 20, 1.5), // ends 1.5 apart: each stroked
    ...run(4, 0, 0, 10, 200, 3, 0.5), // too few to gain anything
    ...run(5, 0, 0, 10, 0, 20, 0.5), // children at two depths (not in a tidy tree): not merged
    ...run(5, 0, 0, 20, 0.25, 20, 0.5),
  ]);
  const { wedges, rest } = wedgesOf(links, 1);
  const key = (w) => `${w.x0},${w.y0},${w.x1},${w.ya}-${w.yb}×${w.links}`;
  expect(wedges.map(key).sort()).toEqual(
    ["0,0,10,0-9.5×20", "0,0,10,30-39.5×20", "0,5,10,0-9.5×20", "3,0,10,0-9.5×20"].sort(),
  );
  // left to stroke: each wedge's two outer links and the 63 links in no wedge, in their order
  expect(rest.length).toBe(4 * 2 + 20 + 3 + 40);
  expect(rest).toEqual(links.filter((s) => rest.includes(s)));
  // every link left out lies in a wedge of its parent and depth
  for (const s of links.filter((l) => !rest.includes(l))) {
    const w = wedges.find((v) => v.x0 === s.x0 && v.y0 === s.y0 && v.x1 === s.x1 && v.ya < s.y1 && s.y1 < v.yb);
    expect(w).toBeDefined();
  }
  // no wedge when nothing is dense, or when links do not name their parent: the same array
  const apart = run(0, 0, 0, 10, 0, 50, 2);
  expect(wedgesOf(apart, 1)).toEqual({ wedges: [], rest: apart });
  const unnamed = run(0, 0, 0, 10, 0, 50, 0.1).map(({ p, ...s }) => s);
  expect(wedgesOf(unnamed, 1)).toEqual({ wedges: [], rest: unnamed });
});

test("a wedge's region: the curve to its first end, down to its last, and that curve back", () => {
  const path = /** @type {any} */ (wedgesPath([{ x0: 0, y0: 40, x1: 100, ya: 10, yb: 30, links: 9 }]));
  expect(path.ops).toEqual([
    ["M", 0, 40],
    ["C", 50, 40, 50, 10, 100, 10],
    ["L", 100, 30],
    ["C", 50, 30, 50, 40, 0, 40],
    ["Z"],
  ]);
});

test("a painting fills a dense fan once and strokes only its outer links", () => {
  const fills = [];
  let curves = 0;
  const c = {
    setTransform() {},
    clearRect() {},
    beginPath() {},
    save() {},
    restore() {},
    setLineDash() {},
    arc() {},
    fill(/** @type {any} */ path) {
      if (path) fills.push(path);
    },
    stroke(/** @type {any} */ path) {
      curves += path.curves.length;
    },
  };
  // fitted at k = 0.01: 2,000 children 1/20 of a screen pixel apart, and a sparse fan of 10
  const run = paintSteps(/** @type {any} */ (c), /** @type {any} */ (fanDrawing(2000, 5, 100)), COLORS);
  while (!run.next().done);
  expect(fills.length).toBe(1);
  expect(fills[0].curves.length).toBe(2); // one wedge: its two curves
  expect(curves).toBe(2 + 10);
});

test("one fan of 10^5 children is read in slices too, and gives the wedge it gives at once", () => {
  const links = [];
  for (let j = 0; j < 100_000; j++) links.push({ x0: 0, y0: 0, x1: 10, y1: j / 10, p: 0 });
  const columns = linksOf(links);
  const steps = fanWedgeSteps(columns, allLinks(columns), 1);
  let yields = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) yields++;
  // four passes over the links (a yield every SLICE_ITEMS but the first) and the fan read twice
  expect(yields).toBe(4 * (100_000 / SLICE_ITEMS - 1) + Math.floor((2 * 100_000 - 1) / SLICE_ITEMS));
  expect(step.value).toEqual(fanWedges(columns, 1));
  expect(step.value.wedges).toHaveLength(1);
  expect(step.value.rest).toHaveLength(2);
});

test("10^5 links: the wedges are worked out in slices, before the canvas is cleared", () => {
  // 50 fans of 1,000 children a pixel apart (wedges) and 50,000 links to a column each
  const links = [];
  for (let f = 0; f < 50; f++)
    for (let j = 0; j < 1000; j++) links.push({ x0: 0, y0: f, x1: 10, y1: f * 1000 + j / 10, p: f });
  for (let j = 0; j < 50_000; j++) links.push({ x0: 0, y0: 0, x1: 20 + j, y1: j, p: 100 + j });
  const columns = linksOf(links);
  const steps = fanWedgeSteps(columns, allLinks(columns), 1);
  let yields = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) yields++;
  // three passes over 100,000 links and the rest kept (a yield every SLICE_ITEMS but the first),
  // the fans' 50,000 links read twice, their order checked and then their runs (a yield every
  // SLICE_ITEMS reads)
  const passes = 100_000 / SLICE_ITEMS - 1;
  expect(yields).toBe(4 * passes + Math.floor((50 * (999 + 1000)) / SLICE_ITEMS));
  expect(step.value).toEqual(fanWedges(columns, 1));
  expect(step.value.wedges).toHaveLength(50);
  expect(step.value.rest).toHaveLength(50_000 + 2 * 50);
  // a painting of them: nothing cleared nor drawn until they are worked out (a frame in between
  // shows the last painting)
  const calls = [];
  const c = new Proxy(
    {},
    {
      get: (_, name) => () => calls.push(String(name)),
    },
  );
  const drawing = {
    w: 100,
    h: 100,
    dpr: 1,
    t: { x: 0, y: 0, k: 1 },
    maxR: 1,
    list: [],
    segments: columns,
    callerSegments: linksOf([]),
  };
  const colors = { link: "gray", callerLink: "gray", outline: "black", missing: "white" };
  const run = paintSteps(/** @type {any} */ (c), /** @type {any} */ (drawing), colors);
  // the steps before it are work that paints nothing, and say so (slices.js: not read back)
  const before = [];
  for (let step = run.next(); !step.done && !calls.length; step = run.next()) before.push(step.value);
  expect(before.length).toBeGreaterThanOrEqual(5); // testing 10^5 links against the view, and the wedges' passes
  expect(before.every((v) => v === WORK)).toBe(true);
  expect(calls[0]).toBe("setTransform");
  expect(calls[1]).toBe("clearRect");
});

test("the view's picture, painted after the view at the same place, reuses its links' fans", () => {
  // a fitted fan of 12,000 children (wedges worked out over several steps) and a sparse one
  const drawing = fanDrawing(12_000, 1, 130);
  const colors = COLORS;
  /** a painting's WORK steps and the curves it filled and stroked */
  const paint = (/** @type {any} */ d) => {
    const drawn = { work: 0, filled: /** @type {number[][]} */ ([]), stroked: /** @type {number[][]} */ ([]) };
    const c = new Proxy(
      {},
      {
        get: (_, name) => (/** @type {any} */ path) => {
          if (name === "fill" && path) drawn.filled.push(...path.curves);
          if (name === "stroke" && path) drawn.stroked.push(...path.curves);
        },
      },
    );
    const run = paintSteps(/** @type {any} */ (c), d, colors);
    for (let step = run.next(); !step.done; step = run.next()) if (step.value === WORK) drawn.work++;
    return drawn;
  };
  const view = paint(drawing);
  expect(view.work).toBeGreaterThanOrEqual(2);
  expect(view.filled).toHaveLength(2); // one wedge: its two curves
  expect(view.stroked).toHaveLength(2 + 10);
  // the picture: other device pixels, the same links, place and size: no work, the same curves
  const picture = paint({ ...drawing, dpr: 2 });
  expect(picture.work).toBe(0);
  expect(picture).toEqual({ ...view, work: 0 });
  // moved, or other links: worked out again
  expect(paint({ ...drawing, t: { ...drawing.t, y: 40 } }).work).toBeGreaterThanOrEqual(2);
  expect(paint({ ...drawing, segments: fanDrawing(12_000, 1, 130).segments }).work).toBeGreaterThanOrEqual(2);
});
