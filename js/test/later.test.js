import { describe, expect, test, vi } from "vitest";
import { decodeTable } from "../src/cct/data/decode.js";
import { createLater, flushedFirst } from "../src/cct/view/later.js";
import { createRenderer } from "../src/cct/view/renderer.js";
import { randomTree } from "./fixtures.js";
import { mountRenderer } from "./mount.js";

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

/** A renderer drawing tables of more than `drawLaterAbove` rows in later tasks. */
function mount(drawLaterAbove) {
  const mounted = mountRenderer(null, { height: 400, layout: { drawLaterAbove } });
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
    await nextTask(); // the drawing
    expect(big.nodes()).toBe(now.nodes());
    expect(big.renderer.state.collapsed).toEqual(folds);
  });

  test("a table drawn whole (foldToFit off) of more nodes than canvasAbove is drawn later too", async () => {
    const table = decodeTable(randomTree(600));
    const mountWith = (/** @type {boolean} */ foldToFit) => {
      const container = document.createElement("div");
      document.body.appendChild(container);
      const layout = { drawLaterAbove: 100_000, canvasAbove: 200 };
      const r = createRenderer(container, { width: 900, height: 400, layout });
      r.setData(table, { ...state, foldToFit, backend: "svg" });
      return () => container.querySelectorAll(".cct-node").length;
    };
    expect(mountWith(true)()).toBeGreaterThan(0); // folded to fit: few nodes laid out, at once
    const whole = mountWith(false);
    expect(whole()).toBe(0);
    await nextTask(); // the view tree
    await nextTask(); // layout and scene
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
    const r = createRenderer(container, { width: 900, height: 400, layout: { drawLaterAbove: 100 } });
    r.setData(decodeTable(randomTree(600)), { ...state, foldToFit: false });
    const texts = () => [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(1)); // tasks and a frame later
    r.setState({ collapsed: [0] }); // one node drawn: 1 ≤ labelsLaterAbove, but the table has 600 rows
    expect(texts()).toEqual([]); // the old structure's labels would name the wrong places
    await vi.waitFor(() => expect(texts().length).toBe(1));
    r.destroy();
  });
});
