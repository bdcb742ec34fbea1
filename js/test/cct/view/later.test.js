import { describe, expect, test, vi } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { createLater, flushedFirst } from "../../../src/cct/view/later.js";
import { randomTree } from "../../support/fixtures.js";
import { DRAWN_AT_ONCE, LABELS_AT_ONCE, mountRenderer, newRenderer } from "../../support/mount.js";

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const settled = () => new Promise((resolve) => setTimeout(resolve, 40));

describe("steps put off to later tasks", () => {
  test("each step runs in a task of its own, in order", async () => {
    const later = createLater(window);
    const ran = [];
    later.schedule([() => ran.push("a"), () => ran.push("b")]);
    expect(ran).toEqual([]);
    expect(later.pending).toBe(true);
    await nextTask();
    expect(ran).toEqual(["a"]);
    await nextTask();
    expect(ran).toEqual(["a", "b"]);
    expect(later.pending).toBe(false);
  });

  test("flush runs what waits at once, but not from inside a step; a new schedule replaces", async () => {
    const later = createLater(window);
    const ran = [];
    later.schedule([() => ran.push("old")]);
    later.schedule([
      () => {
        later.flush(); // a step that reads the view: the next step keeps its own task
        ran.push("a");
      },
      () => ran.push("b"),
      () => ran.push("c"),
    ]);
    await nextTask();
    expect(ran).toEqual(["a"]);
    later.flush();
    expect(ran).toEqual(["a", "b", "c"]);
    await settled();
    expect(ran).toEqual(["a", "b", "c"]);
    later.schedule([() => ran.push("dropped")]);
    later.cancel();
    await settled();
    expect(ran).toEqual(["a", "b", "c"]);
    createLater(null).schedule([() => ran.push("now")]); // no window: at once
    expect(ran.at(-1)).toBe("now");
  });

  test("a resumable step runs a slice a task with no budget, and holds back the steps after it", async () => {
    const later = createLater(window, 0);
    const ran = [];
    function* walk() {
      for (const part of ["w1", "w2", "w3"]) {
        ran.push(part);
        yield;
      }
      ran.push("w-end");
    }
    later.schedule([() => ran.push("a"), walk, () => ran.push("b")]);
    await nextTask();
    expect(ran).toEqual(["a"]);
    await nextTask();
    expect(ran).toEqual(["a", "w1"]);
    await nextTask();
    expect(ran).toEqual(["a", "w1", "w2"]);
    expect(later.pending).toBe(true);
    await nextTask();
    await nextTask(); // the generator ends in this task; the next step waits for its own
    expect(ran).toEqual(["a", "w1", "w2", "w3", "w-end"]);
    await nextTask();
    expect(ran.at(-1)).toBe("b");
    expect(later.pending).toBe(false);
  });

  test("a budget runs slices of a resumable step until it is spent", async () => {
    const later = createLater(window, 1000);
    let slices = 0;
    later.schedule([
      function* () {
        for (; slices < 50; slices++) yield;
      },
    ]);
    await nextTask();
    expect(slices).toBe(50); // 50 cheap slices: far within 1000 ms, one task
    expect(later.pending).toBe(false);
  });

  test("flush in the middle of a resumable step finishes it and what follows; cancel drops it", async () => {
    const later = createLater(window, 0);
    const ran = [];
    const walk = function* () {
      for (let i = 0; i < 5; i++) {
        later.flush(); // from inside a step: nothing
        ran.push(i);
        yield;
      }
    };
    later.schedule([walk, () => ran.push("after")]);
    await nextTask();
    await nextTask();
    expect(ran).toEqual([0, 1]);
    later.flush();
    expect(ran).toEqual([0, 1, 2, 3, 4, "after"]);
    expect(later.pending).toBe(false);
    ran.length = 0;
    later.schedule([walk, () => ran.push("after")]);
    await nextTask();
    expect(ran).toEqual([0]);
    later.cancel();
    expect(later.pending).toBe(false);
    await settled();
    expect(ran).toEqual([0]);
  });

  test("a resumable step that throws is dropped; the steps after it still run", async () => {
    const later = createLater(null);
    const ran = [];
    const broken = function* () {
      yield;
      throw new Error("broken step");
    };
    expect(() => later.schedule([broken, () => ran.push("after")])).toThrow("broken step");
    later.flush();
    expect(ran).toEqual(["after"]);
  });

  test("an api flushes before its methods and getters, not before the immediate ones", () => {
    const calls = [];
    const api = flushedFirst(
      {
        read: () => calls.push("read"),
        get value() {
          calls.push("value");
          return 1;
        },
        keep: () => calls.push("keep"),
      },
      () => calls.push("flush"),
      new Set(["keep"]),
    );
    api.read();
    expect(api.value).toBe(1);
    api.keep();
    expect(calls).toEqual(["flush", "read", "flush", "value", "keep"]);
  });
});

/** A renderer drawing tables of more than `drawLaterAbove` rows in later tasks (a slice of
 * their layout a task). */
function mount(drawLaterAbove) {
  const layout = { drawLaterAbove, firstDrawLaterAbove: drawLaterAbove, sliceMs: 0 };
  const mounted = mountRenderer(null, { height: 400, layout });
  return { ...mounted, nodes: () => mounted.container.querySelectorAll(".cct-node").length };
}
const state = { colorBy: "time", sizeBy: "time (inc)" };

describe("a big table's first picture", () => {
  test("is folded and drawn in the tasks after setData, as it would be at once", async () => {
    const table = decodeTable(randomTree(600));
    const now = mount(100_000);
    now.renderer.setData(table, state);
    expect(now.nodes()).toBeGreaterThan(0);
    const folds = now.renderer.state.collapsed;
    expect(folds.length).toBeGreaterThan(0); // 600 nodes in 400 px: the first picture folds

    const big = mount(100);
    big.renderer.setData(table, state);
    expect(big.nodes()).toBe(0);
    expect(big.changes).toEqual([]);
    await nextTask(); // the folds
    expect(big.nodes()).toBe(0);
    expect(big.changes.at(-1)?.collapsed).toEqual(folds);
    let tasks = 0;
    for (; big.nodes() === 0 && tasks < 50; tasks++) await nextTask(); // view tree, layout, scene, drawing
    expect(tasks).toBeGreaterThan(2);
    expect(big.nodes()).toBe(now.nodes());
    expect(big.renderer.state.collapsed).toEqual(folds);
  });

  test("a view's first table of more than firstDrawLaterAbove rows is drawn later; its next tables at once", async () => {
    const view = (/** @type {number} */ firstDrawLaterAbove) => {
      const m = mountRenderer(null, { height: 400, layout: { firstDrawLaterAbove } });
      return { ...m, nodes: () => m.container.querySelectorAll(".cct-node").length };
    };
    const small = view(1000); // 600 rows: at once
    small.renderer.setData(decodeTable(randomTree(600)), state);
    expect(small.nodes()).toBeGreaterThan(0);
    const first = view(500); // 600 rows: in the tasks after
    first.renderer.setData(decodeTable(randomTree(600)), state);
    expect(first.nodes()).toBe(0);
    await vi.waitFor(() => expect(first.nodes()).toBe(small.nodes()));
    // another tree of that size in the same view: drawn at once (the rule is the first picture's)
    first.renderer.setData(decodeTable(randomTree(600, 9)), state);
    expect(first.nodes()).toBeGreaterThan(0);
  });

  test("a command between the slices of its layout finds the whole picture drawn", async () => {
    const table = decodeTable(randomTree(3000, 3));
    const whole = { ...state, foldToFit: false, backend: "svg" };
    const now = mountRenderer(null, { height: 400, layout: { drawLaterAbove: 100_000, canvasAbove: 5000 } });
    now.renderer.setData(table, whole);
    const big = mountRenderer(null, { height: 400, layout: { drawLaterAbove: 100, canvasAbove: 5000, sliceMs: 0 } });
    big.renderer.setData(table, whole);
    const nodes = (/** @type {HTMLElement} */ c) => c.querySelectorAll(".cct-node").length;
    await nextTask(); // the folds (none: drawn whole)
    await nextTask(); // the view tree
    await nextTask(); // a slice of the layout
    expect(nodes(big.container)).toBe(0);
    big.renderer.command("fit"); // needs the picture: the rest of the layout and the drawing, now
    expect(nodes(big.container)).toBe(3000);
    expect(big.renderer.screenPosition(2999)).not.toBeNull();
    expect(big.renderer.screenPosition(2999)).toEqual(now.renderer.screenPosition(2999));
    const drawn = big.container.querySelector(".cct-nodes")?.innerHTML;
    await settled();
    expect(big.container.querySelector(".cct-nodes")?.innerHTML).toBe(drawn); // drawn once
  });

  test("a table drawn whole (foldToFit off) of more nodes than canvasAbove is drawn later too", async () => {
    const table = decodeTable(randomTree(600));
    const mountWith = (/** @type {boolean} */ foldToFit) => {
      const container = document.createElement("div");
      document.body.appendChild(container);
      // the prepared parts in one task
      const layout = { drawLaterAbove: 100_000, ...DRAWN_AT_ONCE, canvasAbove: 200, sliceMs: 10_000 };
      const r = newRenderer(container, { width: 900, height: 400, layout });
      r.setData(table, { ...state, foldToFit, backend: "svg" });
      return () => container.querySelectorAll(".cct-node").length;
    };
    expect(mountWith(true)()).toBeGreaterThan(0); // folded to fit: few nodes laid out, at once
    const whole = mountWith(false);
    expect(whole()).toBe(0);
    await nextTask(); // the folds (none)
    await nextTask(); // the view tree, layout, scene and histogram (slices of up to 10 s a task)
    await nextTask(); // the drawing
    expect(whole()).toBe(600);
  });

  test("whatever needs the picture before then draws it at once; a selection waits for it", () => {
    const table = decodeTable(randomTree(600));
    const big = mount(100);
    big.renderer.setData(table, state);
    big.renderer.setSelection([0]);
    expect(big.nodes()).toBe(0);
    expect(big.renderer.selection).toEqual([0]);
    expect(big.renderer.screenPosition(0)).not.toBeNull(); // asked: folded and drawn now
    expect(big.nodes()).toBeGreaterThan(0);
    expect(big.renderer.state.collapsed.length).toBeGreaterThan(0);
    expect(big.container.querySelectorAll(".cct-node.selected, .cct-node[aria-selected='true']").length).toBe(1);
  });

  test("a user's change before the picture is applied to it, not lost", () => {
    const big = mount(100);
    big.renderer.setData(decodeTable(randomTree(600)), state);
    big.renderer.setState({ colorBy: "time (inc)" });
    expect(big.nodes()).toBeGreaterThan(0);
    expect(big.renderer.state.colorBy).toBe("time (inc)");
    expect(big.renderer.state.collapsed.length).toBeGreaterThan(0);
  });

  test("labels come after a big table is laid out again, even with few nodes drawn; stale ones go at once", async () => {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const r = newRenderer(container, { width: 900, height: 400, layout: { drawLaterAbove: 100 } });
    r.setData(decodeTable(randomTree(600)), { ...state, foldToFit: false });
    const texts = () => [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(1)); // tasks and a frame later
    r.setState({ collapsed: [0] }); // one node drawn: 1 ≤ labelsLaterAbove, but the table has 600 rows
    expect(texts()).toEqual([]); // the old structure's labels would name the wrong places
    await vi.waitFor(() => expect(texts().length).toBe(1));
    r.destroy();
  });
});

describe("a big view's labels", () => {
  /** Label texts and where they are. @param {HTMLElement} c */
  const labels = (c) =>
    [...c.querySelectorAll(".cct-labels text")].map(
      (t) => `${t.textContent}@${t.getAttribute("x")},${t.getAttribute("y")}`,
    );
  const whole = { ...state, foldToFit: false, backend: "svg" };

  test("are placed in slices over several tasks, as they would be at once; a move between restarts them", async () => {
    const table = decodeTable(randomTree(800, 5));
    const now = mountRenderer(null, {
      height: 400,
      layout: { labelsLaterAbove: 100_000, ...LABELS_AT_ONCE, ...DRAWN_AT_ONCE },
    });
    now.renderer.setData(table, whole);
    const big = mountRenderer(null, { height: 400, layout: { labelsLaterAbove: 100, sliceMs: 0 } });
    big.renderer.setData(table, whole);
    expect(labels(now.container).length).toBeGreaterThan(3);
    await vi.waitFor(() => expect(labels(big.container)).toEqual(labels(now.container)));

    const moved = { k: 2, x: -300, y: -200 };
    now.renderer.setTransform(moved);
    big.renderer.setTransform(moved);
    const before = labels(big.container);
    await vi.waitFor(() => expect(labels(big.container)).not.toEqual(before));
    big.renderer.setTransform({ k: 1.5, x: -100, y: -50 }); // a move while they are placed
    now.renderer.setTransform({ k: 1.5, x: -100, y: -50 });
    await vi.waitFor(() => expect(labels(big.container)).toEqual(labels(now.container)));
    await settled();
    expect(labels(big.container)).toEqual(labels(now.container)); // and nothing stale after
  });
});
