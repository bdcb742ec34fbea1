// The static picture (js/src/widget/snapshot.js) with fake timers, and its way to Python.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { VIEW_DEFAULTS } from "../../src/contract.js";
import { createSnapshots, SNAPSHOT_DELAY_MS, SNAPSHOT_MAX_ROWS } from "../../src/widget/snapshot.js";
import { fakeDeps, mockModel, mountWidget } from "../support/widget-fakes.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** Timers up to `ms` from now, then the figure's steps (a moment each: timers where, as in jsdom,
 * there is no requestIdleCallback). @param {number} ms */
async function wait(ms) {
  await vi.advanceTimersByTimeAsync(ms);
  for (let i = 0; i < 4; i++) await vi.advanceTimersByTimeAsync(1); // a 0 ms timer is due 1 ms on
}
/** @param {{ take: () => Promise<void> }} s */
async function taken(s) {
  const taking = s.take();
  await wait(0);
  await taking;
}

function figure(rows = 100, state = {}, size = { width: 800, height: 470 }) {
  return {
    table: { size: rows },
    state: { ...VIEW_DEFAULTS, colorBy: "time", ...state },
    options: { ...size, selection: [2], units: {}, transform: null },
  };
}

function snapshots(current = () => figure(), picture = undefined) {
  const deps = fakeDeps();
  const el = document.createElement("div");
  const model = mockModel();
  const s = createSnapshots({ model, el, current, figureSteps: deps.figureSteps, svgToPng: deps.svgToPng, picture });
  return { s, el, deps, model };
}

describe("scheduling", () => {
  test("drawn once, a second after the last change", async () => {
    const { s, el, deps } = snapshots();
    s.schedule();
    await wait(600);
    s.schedule();
    await wait(600);
    s.schedule();
    await vi.advanceTimersByTimeAsync(SNAPSHOT_DELAY_MS - 1);
    expect(deps.figureSteps).not.toHaveBeenCalled();
    await wait(1);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1);
    const f = figure();
    expect(deps.figureSteps).toHaveBeenCalledWith(f.table, f.state, f.options);
    expect(deps.svgToPng).toHaveBeenCalledWith("<svg/>", 800, 470, expect.any(Number));
    expect(s.latest).toEqual({ data: "UE5H", width: 800, height: 470 });
    expect(el.dataset.cctSnapshot).toMatch(/^\d+$/);
  });

  test(`no image above ${SNAPSHOT_MAX_ROWS} rows, without a colour metric, at zero size, with no table`, async () => {
    for (const current of [
      () => figure(SNAPSHOT_MAX_ROWS + 1),
      () => figure(100, { colorBy: "" }),
      () => figure(100, {}, { width: 0, height: 470 }),
      () => null,
    ]) {
      const { s, deps } = snapshots(current);
      s.schedule();
      await wait(SNAPSHOT_DELAY_MS);
      expect(deps.figureSteps).not.toHaveBeenCalled();
      expect(s.latest).toBeNull();
    }
    const { s, deps } = snapshots(() => figure(SNAPSHOT_MAX_ROWS));
    await taken(s);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1);
  });

  test("a view on canvas is pictured from its own drawing, at any number of rows", async () => {
    for (const rows of [100, SNAPSHOT_MAX_ROWS * 10]) {
      const picture = vi.fn(() => Promise.resolve("T1dO"));
      const { s, deps, model } = snapshots(() => figure(rows), picture);
      await taken(s);
      expect(picture).toHaveBeenCalledWith(expect.any(Number));
      expect(deps.figureSteps).not.toHaveBeenCalled();
      expect(s.latest).toEqual({ data: "T1dO", width: 800, height: 470 });
      expect(model.sent.at(-1)).toEqual({ type: "snapshot", png: "T1dO", width: 800, height: 470 });
    }
    // a renderer that cannot picture its drawing (an SVG view): a figure, as before
    const { s, deps } = snapshots(
      () => figure(100),
      () => null,
    );
    await taken(s);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1);
    expect(s.latest?.data).toBe("UE5H");
  });

  test("a failed drawing is a warning; the last image stays", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { s, deps } = snapshots();
    await taken(s);
    deps.svgToPng.mockRejectedValueOnce(new Error("canvas too large"));
    await taken(s);
    expect(warn).toHaveBeenCalledWith("cctviz: no static image of this view", expect.any(Error));
    expect(s.latest?.data).toBe("UE5H");
  });

  test("the figure is drawn a step per idle moment; a view closed between steps ends it, sending nothing", async () => {
    /** @type {(() => void)[]} the page's idle moments, run one at a time below */
    const moments = [];
    vi.stubGlobal("requestIdleCallback", (/** @type {() => void} */ f) => moments.push(f));
    const idle = async () => {
      /** @type {() => void} */ (moments.shift())();
      await vi.advanceTimersByTimeAsync(0); // its promise's continuation
    };
    const steps = [];
    const ended = [];
    const fig = (/** @type {number} */ n) =>
      function* () {
        try {
          for (let i = 0; i < n; i++) {
            steps.push(i);
            yield;
          }
          steps.push("done");
          return { svg: "<svg/>", nodes: 1 };
        } finally {
          ended.push(n);
        }
      };
    const { s, deps, model } = snapshots();
    deps.figureSteps.mockImplementation(fig(3));
    const taking = s.take();
    expect(steps).toEqual([0]); // the first step at once, each other in an idle moment of its own
    await idle();
    expect(steps).toEqual([0, 1]);
    await idle();
    expect(steps).toEqual([0, 1, 2]);
    await idle();
    await taking;
    expect(steps).toEqual([0, 1, 2, "done"]);
    expect(model.sent.map((m) => m.type)).toEqual(["snapshot"]);
    // closed between two steps: the figure ends (its drawing is removed), nothing is sent
    steps.length = 0;
    const second = snapshots();
    second.deps.figureSteps.mockImplementation(fig(4));
    const again = second.s.take();
    await idle();
    second.s.dispose();
    await idle();
    await again;
    expect(steps).toEqual([0, 1]);
    expect(ended).toEqual([3, 4]);
    expect(second.model.sent).toEqual([]);
    expect(second.deps.svgToPng).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  test("dispose cancels the scheduled drawing; later schedules do nothing", async () => {
    const { s, deps } = snapshots();
    s.schedule();
    s.dispose();
    s.schedule();
    await wait(5 * SNAPSHOT_DELAY_MS);
    expect(deps.figureSteps).not.toHaveBeenCalled();
  });
});

describe("in the widget", () => {
  test("every change schedules the image of what is on screen", async () => {
    const model = mockModel({ selection: [1], _static_follows: true });
    const { renderer, deps } = mountWidget(model);
    await wait(SNAPSHOT_DELAY_MS);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1); // the first draw
    renderer.user.change({ collapsed: [2] });
    renderer.user.zoom({ x: 10, y: 20, k: 2 });
    model.python("palette", "magma");
    await wait(SNAPSHOT_DELAY_MS);
    expect(deps.figureSteps).toHaveBeenCalledTimes(2);
    const [table, state, options] = deps.figureSteps.mock.calls[1];
    expect(table.size).toBe(6);
    expect(state).toMatchObject({ collapsed: [2], palette: "magma" });
    expect(options).toEqual({ width: 800, height: 470, selection: [1], units: {}, transform: { x: 10, y: 20, k: 2 } });
  });
});

describe("only where Python shows the picture", () => {
  test("a view no picture output follows draws none; once one does, it marks itself and draws", async () => {
    const model = mockModel({ selection: [1] });
    const { renderer, deps, el } = mountWidget(model);
    await wait(SNAPSHOT_DELAY_MS);
    renderer.user.change({ collapsed: [2] });
    await wait(2 * SNAPSHOT_DELAY_MS);
    expect(deps.figureSteps).not.toHaveBeenCalled();
    expect(el.dataset.cctStatic).toBeUndefined();
    model.python("_static_follows", true); // displayed directly: the picture output follows
    expect(el.dataset.cctStatic).toBe("follows");
    await wait(SNAPSHOT_DELAY_MS);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1);
    expect(model.sent.filter((m) => m.type === "snapshot")).toHaveLength(1);
    model.python("_static_follows", false);
    expect(el.dataset.cctStatic).toBeUndefined();
  });
});

describe("sent to Python", () => {
  test("each new picture goes to Python as a snapshot message; the same picture once", async () => {
    const model = mockModel({ selection: [1], _static_follows: true });
    const { renderer, deps, dispose } = mountWidget(model);
    await wait(SNAPSHOT_DELAY_MS);
    const sent = () => model.sent.filter((m) => m.type === "snapshot");
    expect(sent()).toEqual([{ type: "snapshot", png: "UE5H", width: 800, height: 470 }]);
    renderer.user.zoom({ x: 10, y: 20, k: 2 }); // the fake draws the same PNG: nothing new
    await wait(SNAPSHOT_DELAY_MS);
    expect(sent()).toHaveLength(1);
    deps.svgToPng.mockResolvedValueOnce("T1RIRVI=");
    renderer.user.change({ collapsed: [2] });
    await wait(SNAPSHOT_DELAY_MS);
    expect(sent().map((m) => m.png)).toEqual(["UE5H", "T1RIRVI="]);
    dispose();
  });

  test("a view that shows what its latest picture shows is not drawn again", async () => {
    let f = figure();
    const { s, deps } = snapshots(() => f);
    await taken(s);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1);
    f = { ...figure(), table: f.table }; // equal state and options, the same table
    await taken(s);
    expect(deps.figureSteps).toHaveBeenCalledTimes(1);
    f = { ...f, state: { ...f.state, collapsed: [3] } }; // a change: drawn
    await taken(s);
    expect(deps.figureSteps).toHaveBeenCalledTimes(2);
    f = { ...f, options: { ...f.options, width: 600 } };
    await taken(s);
    f = { ...f, table: { size: 100 } }; // other data of the same size: drawn
    await taken(s);
    expect(deps.figureSteps).toHaveBeenCalledTimes(4);
  });

  test("a closed view sends nothing", async () => {
    const model = mockModel();
    const { dispose } = mountWidget(model, fakeDeps());
    dispose();
    await wait(5 * SNAPSHOT_DELAY_MS);
    expect(model.sent.filter((m) => m.type === "snapshot")).toEqual([]);
  });
});
