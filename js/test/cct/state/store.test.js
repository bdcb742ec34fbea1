// The state store and the camera, without a DOM: what is recorded, reported and undone; fitting
// and keeping a point in place.

import { describe, expect, test } from "vitest";
import { createCamera } from "../../../src/cct/input/camera.js";
import { forestOf, layoutTree, placeLevels } from "../../../src/cct/picture/layout.js";
import { createStore } from "../../../src/cct/state/store.js";

describe("store", () => {
  test("user changes are reported and undoable; Python's are undoable, not reported", () => {
    const reported = [];
    const store = createStore({ onChange: (c) => reported.push(c) });
    store.apply({ collapsed: [7, 3, 7] }, { source: "python" });
    expect(store.view.collapsed).toEqual([3, 7]);
    expect(reported).toEqual([]);
    store.apply({ collapsed: [3], focus: 5 });
    expect(reported).toEqual([{ collapsed: [3], focus: 5 }]);
    expect(store.canUndo()).toBe(true);
    const back = store.undo();
    expect(back).toMatchObject({ collapsed: [3, 7], focus: null });
    store.apply(/** @type {any} */ (back), { source: "history" });
    expect(reported.at(-1)).toEqual({ collapsed: [3, 7], focus: null });
    expect(store.canRedo()).toBe(true);
  });

  test("bad values are refused with what is accepted; nothing changes then", () => {
    const store = createStore();
    expect(() => store.apply({ palette: "jet" })).toThrow(/unknown palette "jet"; accepted: auto, viridis/);
    expect(() => store.apply({ prune: [3, 1] })).toThrow(/low ≤ high/);
    expect(() => store.apply({ collapsed: [-1] })).toThrow(/collapsed must be a list of node ids/);
    expect(() => store.apply({ colour: "x" })).toThrow(/unknown view state "colour"/);
    expect(store.view.palette).toBe("auto");
  });

  test("selection keeps its order, reports only the user's, says whether it changed", () => {
    const selections = [];
    const store = createStore({ onSelect: (ids) => selections.push(ids) });
    expect(store.select([5, 2, 5])).toBe(true);
    expect(store.selection).toEqual([5, 2]);
    expect(store.select([5, 2], { source: "python" })).toBe(false);
    expect(selections).toEqual([[5, 2]]);
  });
});

describe("camera", () => {
  const frame = {
    margin: 10,
    legendRoom: 100,
    labelRoom: 50,
    topRoom: 0,
    legendsOnTop: false,
    maxFitScale: 2,
    minLevelWidth: 60,
    maxLevelWidth: 160,
  };
  function laidOut() {
    const items = [
      { key: 0, parentKey: -1 },
      { key: 1, parentKey: 0 },
      { key: 2, parentKey: 0 },
    ];
    const layout = layoutTree(forestOf(items), { rowHeight: 28 }, 3);
    placeLevels(layout, 100);
    return layout;
  }

  test("fit puts every node inside the room left by legends and labels", () => {
    const ends = [];
    const camera = createCamera(frame, { onMove() {}, onEnd: (t) => ends.push(t), allow: () => true });
    camera.setSize(600, 400);
    const layout = laidOut();
    camera.fit(layout);
    for (const key of [0, 1, 2]) {
      const x = camera.toScreenX(layout.x[key]);
      const y = camera.toScreenY(layout.y[key]);
      expect(x).toBeGreaterThanOrEqual(100 - 1e-9);
      expect(x).toBeLessThanOrEqual(600 - 10 - 50 + 1e-9);
      expect(y).toBeGreaterThanOrEqual(10 - 1e-9);
      expect(y).toBeLessThanOrEqual(390 + 1e-9);
    }
    expect(camera.userMoved).toBe(false);
  });

  test("keep puts a layout point back where it was on screen; set counts as the user's", () => {
    const camera = createCamera(frame, { onMove() {}, onEnd() {}, allow: () => true });
    camera.setSize(600, 400);
    camera.set({ x: 5, y: 7, k: 0.5 });
    expect(camera.userMoved).toBe(true);
    camera.keep({ x: 300, y: 200 }, 40, 60);
    expect(camera.toScreenX(40)).toBeCloseTo(300);
    expect(camera.toScreenY(60)).toBeCloseTo(200);
    expect(camera.transform.k).toBe(0.5);
  });
});
