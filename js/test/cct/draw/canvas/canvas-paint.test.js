// Links on canvas (js/src/cct/draw/link-path.js, painted by canvas-paint.js): a link reaching far
// out of the view is drawn as the part of its curve inside the view, cut exactly.
import { beforeEach, expect, test } from "vitest";
import { paintSteps } from "../../../../src/cct/draw/canvas/canvas-paint.js";
import { inverseX, inverseY, linksPath } from "../../../../src/cct/draw/canvas/link-path.js";
import { linksOf } from "../../../../src/cct/picture/links.js";

/** The path of links given as objects. */
const pathOf = (list, box, cut) => linksPath(linksOf(list), null, box, cut);

/** Path2D recording its curves as [x0, y0, c1x, c1y, c2x, c2y, x1, y1]. */
beforeEach(() => {
  globalThis.Path2D = class {
    curves = [];
    moveTo(x, y) {
      this.at = [x, y];
    }
    bezierCurveTo(...p) {
      this.curves.push([...this.at, ...p]);
    }
  };
});

/** The point at t of a cubic Bézier curve. */
function at(p, t) {
  const u = 1 - t;
  const w = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
  return [0, 1].map((k) => w.reduce((sum, wi, i) => sum + wi * p[2 * i + k], 0));
}
const curveOf = (s) => {
  const mx = (s.x0 + s.x1) / 2;
  return [s.x0, s.y0, mx, s.y0, mx, s.y1, s.x1, s.y1];
};
/** The parameter where the curve's coordinate k (monotonic along it) passes v: bisection. */
function parameterOf(p, k, v) {
  const up = p[6 + k] >= p[k];
  let [a, b] = [0, 1];
  for (let i = 0; i < 60; i++) {
    const m = (a + b) / 2;
    if (at(p, m)[k] < v === up) a = m;
    else b = m;
  }
  return (a + b) / 2;
}

const box = { x0: 0, x1: 100, y0: 0, y1: 100, far: 400 };

test("short links are drawn whole", () => {
  const s = { x0: -20, y0: 10, x1: 60, y1: 90 };
  expect(pathOf([s], box).curves).toEqual([curveOf(s)]);
});

test("a long link crossing the view is cut to the view, on the same curve", () => {
  for (const s of [
    // each passes through the middle of the view halfway along
    { x0: -50000, y0: -50000, x1: 50100, y1: 50100 },
    { x0: 50050, y0: 50050, x1: -49950, y1: -49950 }, // right to left, bottom to top
    { x0: 40, y0: -99950, x1: 60, y1: 100050 },
  ]) {
    const [cut] = pathOf([s], box).curves;
    const whole = curveOf(s);
    // the cut is the whole curve between the parameters of its ends, re-parametrised
    const k = Math.abs(s.x1 - s.x0) > Math.abs(s.y1 - s.y0) ? 0 : 1;
    const [a, b] = [parameterOf(whole, k, at(cut, 0)[k]), parameterOf(whole, k, at(cut, 1)[k])];
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      const q = at(cut, t);
      const [x, y] = at(whole, a + t * (b - a));
      expect(Math.hypot(q[0] - x, q[1] - y)).toBeLessThan(1e-3);
      expect(q[0]).toBeGreaterThan(box.x0 - 1);
      expect(q[0]).toBeLessThan(box.x1 + 1);
      expect(q[1]).toBeGreaterThan(box.y0 - 1);
      expect(q[1]).toBeLessThan(box.y1 + 1);
    }
    // it spans the view: its ends are on the box's edges
    const ends = [at(cut, 0), at(cut, 1)];
    const onEdge = ([x, y]) => Math.min(Math.abs(x - 0), Math.abs(x - 100), Math.abs(y - 0), Math.abs(y - 100)) < 0.5;
    expect(ends.every(onEdge)).toBe(true);
  }
});

test("a long link that passes beside the view is left out", () => {
  // from far left-above to far right-above: its y stays above the view where x is in it
  const s = { x0: -100000, y0: -5000, x1: 100000, y1: -4000 };
  expect(pathOf([s], box).curves).toEqual([]);
});

test("where a link's coordinate has gone a fraction of its way is found exactly, in closed form", () => {
  // a link's x: control points (0, ½, ½, 1); its y: (0, 0, 1, 1)
  const x = (t) => {
    const u = 1 - t;
    return 3 * u * u * t * 0.5 + 3 * u * t * t * 0.5 + t * t * t;
  };
  const y = (t) => 3 * t * t - 2 * t * t * t;
  for (const g of [0, 1e-9, 0.1, 0.3, 0.5, 0.77, 0.999, 1]) {
    expect(Math.abs(x(inverseX(g)) - g)).toBeLessThan(1e-12);
    expect(Math.abs(y(inverseY(g)) - g)).toBeLessThan(1e-12);
  }
  // beyond the link's ends: its ends
  expect(inverseX(-3)).toBeCloseTo(0, 12);
  expect(inverseX(7)).toBeCloseTo(1, 12);
  expect(inverseY(-3)).toBeCloseTo(0, 12);
  expect(inverseY(7)).toBeCloseTo(1, 12);
});

test("a long straight link is cut where it crosses the view, and left out where it passes beside it", () => {
  const vertical = { x0: 50, y0: -100000, x1: 50, y1: 100000 };
  const horizontal = { x0: -100000, y0: 50, x1: 100000, y1: 50 };
  for (const s of [vertical, horizontal]) {
    const [cut] = pathOf([s], box).curves;
    for (const t of [0, 0.5, 1]) {
      const [px, py] = at(cut, t);
      expect(px).toBeGreaterThan(box.x0 - 1);
      expect(px).toBeLessThan(box.x1 + 1);
      expect(py).toBeGreaterThan(box.y0 - 1);
      expect(py).toBeLessThan(box.y1 + 1);
    }
  }
  expect(pathOf([{ ...vertical, x0: 150, x1: 150 }], box).curves).toEqual([]);
  expect(pathOf([{ ...horizontal, y0: -20, y1: -20 }], box).curves).toEqual([]);
});

test("cut links that fall on the same pixels as one already drawn are drawn once", () => {
  // a node in view with 9,000 children in rows 28 px apart, nearly all far below the view
  const links = Array.from({ length: 9000 }, (_, j) => ({ x0: 50, y0: 50, x1: 150, y1: 50 + 28 * (j + 1) }));
  const pxBox = { ...box, px: 1 };
  const seen = new Set();
  const curves = [
    ...pathOf(links.slice(0, 4500), pxBox, seen).curves,
    ...pathOf(links.slice(4500), pxBox, seen).curves, // batches share what was drawn
  ];
  const all = pathOf(links, box).curves; // px unset: every cut part
  expect(all.length).toBe(9000);
  expect(curves.length).toBeLessThan(300);
  // each part left out is within a pixel of one drawn, everywhere along it
  for (const whole of all.filter((_, i) => i % 97 === 0)) {
    const near = curves.some((kept) =>
      [0, 0.25, 0.5, 0.75, 1].every((t) => {
        const [a, b] = [at(whole, t), at(kept, t)];
        return Math.hypot(a[0] - b[0], a[1] - b[1]) <= Math.SQRT2;
      }),
    );
    expect(near).toBe(true);
  }
});

test("whole links whose ends fall on the same pixels as the link before are drawn once", () => {
  // fitted, a node's 9,000 children a tenth of a pixel apart: a few hundred distinct curves
  const links = Array.from({ length: 9000 }, (_, j) => ({ x0: 10, y0: 50, x1: 90, y1: j / 100 }));
  const curves = pathOf(links, { ...box, px: 1 }).curves;
  expect(pathOf(links, box).curves.length).toBe(9000); // px unset: every link
  expect(curves.length).toBe(91); // rows 0…90 px
  // each link left out is within a pixel of the one drawn before it, everywhere along it
  for (const s of links) {
    const drawn = curves.find((c) => Math.round(c[7]) === Math.round(s.y1));
    const whole = curveOf(s);
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      const [a, b] = [at(whole, t), at(drawn, t)];
      expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeLessThanOrEqual(Math.SQRT2);
    }
  }
  // links apart by a pixel or more are all drawn
  const apart = links.filter((_, j) => j % 100 === 0).map((s, i) => ({ ...s, y1: 2 * i }));
  expect(pathOf(apart, { ...box, px: 1 }).curves.length).toBe(apart.length);
});

test("a painting yields after every few dozen links and marks (one step's raster stays short)", () => {
  // a step is the least a slice of painting can do (slices.js): in a software rasteriser 200
  // curves of a whole-tree view took ~100 ms to rasterise, a picture's task past 100 ms
  let curves = 0;
  let arcs = 0;
  const steps = [];
  const c = {
    setTransform() {},
    clearRect() {},
    beginPath() {},
    save() {},
    restore() {},
    setLineDash() {},
    fill() {},
    arc() {
      arcs++;
    },
    stroke(/** @type {{ curves: unknown[] }} */ path) {
      curves += path.curves.length;
    },
  };
  const links = Array.from({ length: 1000 }, (_, i) => ({ x0: 0, y0: i / 10, x1: 50, y1: i / 10 + 1 }));
  const list = Array.from({ length: 1000 }, (_, i) => ({ x: 50, y: i / 10, r: 1, fill: "red" }));
  const drawing = {
    w: 100,
    h: 100,
    dpr: 1,
    t: { x: 0, y: 0, k: 1 },
    maxR: 1,
    list,
    segments: linksOf(links),
    callerSegments: linksOf([]),
  };
  const colors = { link: "gray", callerLink: "gray", outline: "black", missing: "white" };
  const run = paintSteps(/** @type {any} */ (c), /** @type {any} */ (drawing), colors);
  for (let step = run.next(); ; step = run.next()) {
    steps.push({ curves, arcs });
    curves = arcs = 0;
    if (step.done) break;
  }
  // 1,000 links in steps of at most 50 (of which those on the pixels of the one before are
  // left out), then 1,000 marks in steps of at most 100
  expect(steps.filter((s) => s.curves > 0).length).toBeGreaterThanOrEqual(20);
  expect(Math.max(...steps.map((s) => s.curves))).toBeLessThanOrEqual(50);
  expect(steps.reduce((sum, s) => sum + s.arcs, 0)).toBe(1000);
  expect(Math.max(...steps.map((s) => s.arcs))).toBeLessThanOrEqual(100);
});
