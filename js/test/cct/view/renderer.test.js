import { describe, expect, test, vi } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { payload, randomTree, smallTree } from "../../support/fixtures.js";
import { DRAWN_AT_ONCE, LABELS_AT_ONCE, mountRenderer, newRenderer, TIME } from "../../support/mount.js";

const mount = (spec = smallTree(), state = TIME) => mountRenderer(spec, { state });

const circles = (c) => [...c.querySelectorAll("circle.cct-node")];
const circle = (c, id) => c.querySelector(`circle.cct-node[data-id="${id}"]`);

/** A label without the share it ends with ("solve 88%" → "solve"). @param {string} text */
const withoutShare = (text) => text.replace(/ [\d.]+%$/, "");

describe("renderer", () => {
  test("draws one circle per node, all roots included", () => {
    const { container } = mount();
    expect(
      circles(container)
        .map((e) => Number(e.getAttribute("data-id")))
        .sort(),
    ).toEqual([0, 1, 2, 3, 4, 5]);
    expect(container.querySelector(".cct-status").textContent).toContain("6 nodes · 2 roots · mean over rank");
  });

  test("lays out left to right: children right of parents, siblings apart", () => {
    const { container } = mount();
    const cx = (id) => Number(circle(container, id).getAttribute("cx"));
    const cy = (id) => Number(circle(container, id).getAttribute("cy"));
    expect(cx(1)).toBeGreaterThan(cx(0));
    expect(cx(2)).toBeGreaterThan(cx(1));
    expect(cx(2)).toBe(cx(3));
    expect(cy(2)).not.toBe(cy(3));
    expect(cx(5)).toBe(cx(0)); // both roots at depth 0
  });

  test("missing colour values get the hatched fill, never a NaN colour", () => {
    const { container } = mount();
    expect(circle(container, 5).getAttribute("fill")).toMatch(/^url\(#cct-[a-z0-9]+-missing-\d+\)$/);
    expect(circle(container, 5).classList.contains("cct-missing")).toBe(true);
    for (const el of circles(container)) {
      expect(el.getAttribute("r")).not.toContain("NaN");
      expect(el.getAttribute("fill")).not.toContain("NaN");
    }
  });

  test("area follows the size metric", () => {
    const { container } = mount();
    const r = (id) => Number(circle(container, id).getAttribute("r"));
    expect(r(0)).toBeGreaterThan(r(2));
    expect(r(2)).toBeGreaterThan(r(3));
  });

  test("leaves and internal nodes are labelled with their names and shares of the total", () => {
    const { container } = mount();
    const texts = [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    const labels = texts.map(withoutShare);
    expect(labels).toEqual(expect.arrayContaining(["main", "solve", "kernel_a", "kernel_b", "io", "init"]));
    // the size metric's share of the total (roots' time (inc): 48): 42 → 88 %, 10 → 21 %
    expect(texts).toEqual(expect.arrayContaining(["solve 88%", "kernel_b 21%", "io 10%"]));
    expect(texts).toContain("init"); // 0 % is not written
    // a leaf's label starts right of its mark; an internal node's is above it
    const at = (name) =>
      [...container.querySelectorAll(".cct-labels text")].find((t) => withoutShare(t.textContent) === name);
    const circle = (id) => container.querySelector(`circle.cct-node[data-id="${id}"]`);
    expect(Number(at("io").getAttribute("x"))).toBeGreaterThan(Number(circle(4).getAttribute("cx")));
    expect(Number(at("io").getAttribute("y"))).toBeCloseTo(Number(circle(4).getAttribute("cy")), 6);
    expect(Number(at("solve").getAttribute("y"))).toBeLessThan(Number(circle(1).getAttribute("cy")));
  });

  test("legends are titled with the metric names and kinds", () => {
    const { container } = mount();
    const titles = [...container.querySelectorAll(".cct-legend-title")].map((t) => t.textContent);
    expect(titles).toEqual(["colour: time (exclusive)", "size: time (inc)"]); // not "(inc) (inclusive)"
  });

  test("changing the colour metric restyles without new elements", () => {
    const { container, renderer } = mount();
    const before = circle(container, 2);
    const fill = before.getAttribute("fill");
    renderer.setState({ colorBy: "time (inc)" });
    expect(circle(container, 2)).toBe(before);
    expect(circle(container, 5).getAttribute("fill")).not.toMatch(/^url/);
    expect(circle(container, 2).getAttribute("fill")).not.toBe(fill);
  });

  test("click selects, shift-click toggles, background click clears", () => {
    const { container, selections } = mount();
    const click = (el, init = {}) => el.dispatchEvent(new MouseEvent("click", { bubbles: true, ...init }));
    click(circle(container, 2));
    click(circle(container, 3), { shiftKey: true });
    click(circle(container, 2), { shiftKey: true });
    expect(selections).toEqual([[2], [2, 3], [3]]);
    expect(circle(container, 3).classList.contains("cct-selected")).toBe(true);
    expect(circle(container, 2).classList.contains("cct-selected")).toBe(false);
    click(container.querySelector("svg.cct-svg"));
    expect(selections.at(-1)).toEqual([]);
  });

  test("setSelection marks nodes without emitting an event", () => {
    const { container, renderer, selections } = mount();
    renderer.setSelection([1, 4]);
    expect(container.querySelectorAll(".cct-selected").length).toBe(2);
    expect(selections).toEqual([]);
  });

  test("hover shows a tooltip with every metric and the reducer, and no re-render", () => {
    const { container } = mount();
    const nodesBefore = circles(container);
    circle(container, 1).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    const tip = container.querySelector(".cct-tooltip");
    expect(tip.hidden).toBe(false);
    expect(tip.querySelector(".cct-tooltip-name").textContent).toBe("solve");
    expect(tip.textContent).toContain("time (colour)");
    expect(tip.textContent).toContain("time (inc) (size)");
    expect(tip.textContent).toContain("values: mean over rank");
    // solve is labelled already: no second label on hover
    expect([...container.querySelectorAll(".cct-labels text")].map((t) => withoutShare(t.textContent))).toContain(
      "solve",
    );
    expect(container.querySelector(".cct-hover-label text")).toBeNull();
    expect(circles(container)).toEqual(nodesBefore);
    container.querySelector("svg.cct-svg").dispatchEvent(new MouseEvent("pointerleave"));
    expect(tip.hidden).toBe(true);
  });

  test("tooltip gives a node's share of the total and of the focus", () => {
    const { container, renderer } = mount();
    const shares = () => [...container.querySelectorAll(".cct-tooltip .cct-share")].map((e) => e.textContent);
    circle(container, 3).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    // kernel_b: time 10 of 48 (every node's exclusive time); time (inc) 10 of 48 (the roots')
    expect(shares()).toEqual(["21 % of total", "21 % of total"]);
    renderer.setState({ focus: 1 }); // solve: 2 + 30 + 10 = 42 below it
    circle(container, 3).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(shares()).toEqual(["21 % of total · 24 % of focus", "21 % of total · 24 % of focus"]);
    // the labels give the share of the focus then (kernel_a: 30 of 42)
    const texts = [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    expect(texts).toEqual(expect.arrayContaining(["kernel_a 71%", "kernel_b 24%"]));
  });

  test("tooltip says a missing value is missing", () => {
    const { container } = mount();
    circle(container, 5).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(container.querySelector(".cct-tooltip").textContent).toContain("missing");
  });

  test("names are text, never HTML", () => {
    const evil = "<img src=x onerror=alert(1)>";
    const { container } = mount(payload({ parent: [-1, 0], names: ["main", evil], metrics: { t: [1, 2] } }), {
      colorBy: "t",
      sizeBy: "t",
    });
    circle(container, 1).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector(".cct-tooltip-name").textContent).toBe(evil);
    const label = container.querySelector('.cct-labels text[data-id="1"]');
    expect(label.textContent).toBe(evil);
    expect(label.children.length).toBe(0);
  });

  test("unknown metric names are rejected with the name in the message", () => {
    const { renderer } = mount();
    expect(() => renderer.setState({ colorBy: "nope" })).toThrow(/unknown colour metric "nope"/);
  });

  test("with fold_to_fit off, a 2,000-node tree draws every node", () => {
    const state = { colorBy: "time", sizeBy: "time (inc)", foldToFit: false };
    const { container } = mountRenderer(randomTree(2000), { state, layout: DRAWN_AT_ONCE });
    expect(circles(container).length).toBe(2000);
  });

  test("destroy removes the view", () => {
    const { container, renderer } = mount();
    renderer.destroy();
    expect(container.children.length).toBe(0);
  });
});

describe("narrow views", () => {
  const sizeLegend = (c) => c.querySelector(".cct-legends > g:last-child").getAttribute("transform");

  test("below 600 px the toolbar folds into one row with a menu, and the legends go on top", () => {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500 });
    renderer.setState({ colorBy: "time", sizeBy: "time (inc)" });
    renderer.setData(decodeTable(smallTree()));
    const bar = container.querySelector(".cct-toolbar");
    expect(bar.classList.contains("cct-narrow")).toBe(false);
    expect(sizeLegend(container)).toBe("translate(12, 62)"); // a column on the left
    renderer.resize(450, 500);
    expect(bar.classList.contains("cct-narrow")).toBe(true);
    expect(sizeLegend(container)).toBe("translate(162, 16)"); // a row on top
    // the primary controls stay in the row: search and history; the metric pickers join the rest behind "⋯"
    const row = () =>
      [...bar.querySelectorAll(".cct-toolbar-row > .cct-group")].map((g) => g.getAttribute("aria-label"));
    expect(row()).toEqual(["Search", "History"]);
    expect(bar.querySelector(".cct-menu [data-picker=colour]")).not.toBeNull();
    const more = bar.querySelector(".cct-more");
    const menu = bar.querySelector(".cct-menu");
    more.click();
    expect(menu.hidden).toBe(false);
    expect(more.getAttribute("aria-expanded")).toBe("true");
    renderer.resize(900, 500);
    expect(bar.classList.contains("cct-narrow")).toBe(false);
    expect(menu.hidden).toBe(true);
    expect(row()).toEqual(["Metrics", "Search", "History"]);
    expect(sizeLegend(container)).toBe("translate(12, 62)");
  });
});

describe("tooltip", () => {
  test("near the bottom of the widget it opens above the pointer, never cut off", () => {
    const { container } = mount();
    const widget = container.querySelector(".cct-root");
    const tip = container.querySelector(".cct-tooltip");
    Object.defineProperty(widget, "clientHeight", { value: 500, configurable: true });
    Object.defineProperty(tip, "offsetHeight", { value: 120, configurable: true });
    circle(container, 1).dispatchEvent(new MouseEvent("pointermove", { bubbles: true, clientX: 100, clientY: 480 }));
    expect(tip.style.top).toBe(`${480 - 14 - 120}px`);
    circle(container, 2).dispatchEvent(new MouseEvent("pointermove", { bubbles: true, clientX: 100, clientY: 40 }));
    expect(tip.style.top).toBe(`${40 + 14}px`);
  });
});

describe("a DAG's other callers", () => {
  test("the tooltip lists the callers a node is not drawn under; those not loaded are counted", () => {
    // main → (a → shared, b); b also calls shared (the edge not drawn); 99 calls it too, not loaded
    const spec = payload({
      parent: [-1, 0, 1, 0],
      names: ["main", "a", "shared", "b"],
      metrics: { t: [1, 2, 3, 4] },
      callers: [
        [3, 2],
        [99, 2],
      ],
      nodeId: [0, 1, 2, 3],
      folded: [0, 0, 0, 0],
      total: 100,
    });
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500 });
    renderer.setState({ colorBy: "t", sizeBy: "t" });
    renderer.setData(decodeTable(spec));
    circle(container, 2).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(container.querySelector(".cct-tooltip-callers").textContent).toBe("also called from b (+1 not loaded)");
    circle(container, 1).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(container.querySelector(".cct-tooltip-callers")).toBeNull();
  });

  test("caller edges: dashed curves from each other drawn caller, on demand, undoable, from the toolbar", () => {
    // main → (a → shared, b → c); b and c also call shared; 99 (not loaded) too
    const spec = payload({
      parent: [-1, 0, 1, 0, 3],
      names: ["main", "a", "shared", "b", "c"],
      metrics: { t: [1, 2, 3, 4, 5] },
      callers: [
        [3, 2],
        [4, 2],
        [99, 2],
      ],
      nodeId: [0, 1, 2, 3, 4],
      folded: [0, 0, 0, 0, 0],
      total: 100,
    });
    spec.extra_edges = 3;
    const container = document.createElement("div");
    document.body.appendChild(container);
    const changes = [];
    const renderer = newRenderer(container, { width: 900, height: 500, onChange: (s) => changes.push(s) });
    renderer.setState({ colorBy: "t", sizeBy: "t" });
    renderer.setData(decodeTable(spec));
    const path = () => container.querySelector(".cct-caller-links").getAttribute("d");
    expect(path()).toBeNull(); // off by default
    renderer.setState({ callerEdges: true });
    const curves = (d) => (d ?? "").split("M").filter(Boolean);
    expect(curves(path())).toHaveLength(2); // b → shared, c → shared; 99 is not drawn
    // from b's position to shared's
    const at = (id) => {
      const c = circle(container, id);
      return [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))];
    };
    expect(curves(path())[0].startsWith(`${at(3)[0]},${at(3)[1]}C`)).toBe(true);
    expect(curves(path())[0].endsWith(`${at(2)[0]},${at(2)[1]}`)).toBe(true);
    // collapsing b hides c, and c's edge with it; b's glyph keeps its own
    renderer.setState({ collapsed: [3] });
    expect(curves(path())).toHaveLength(1);
    renderer.setState({ collapsed: [] });
    // the toolbar's checkbox turns them off, as a change of the user's
    const box = container.querySelector("input[data-caller-edges]");
    expect(box.checked).toBe(true);
    box.checked = false;
    box.dispatchEvent(new Event("change"));
    expect(path()).toBeNull();
    expect(changes.at(-1)).toMatchObject({ callerEdges: false });
  });
});

describe("the reducer menu", () => {
  test("shown for data with several rows per node; a choice goes to Python, not to the view state", () => {
    const chosen = [];
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500, onReducer: (r) => chosen.push(r) });
    renderer.setState({ colorBy: "time", sizeBy: "time (inc)" });
    renderer.setData(decodeTable(smallTree())); // reduced: "mean" over rank
    const menu = container.querySelector('select[aria-label="over ranks"]');
    expect(menu.parentElement.hidden).toBe(false);
    expect(menu.parentElement.textContent).toContain("over rank");
    expect(menu.value).toBe("mean");
    expect([...menu.options].map((o) => o.value)).toEqual(["mean", "median", "sum", "min", "max", "std", "imbalance"]);
    menu.value = "imbalance";
    menu.dispatchEvent(new Event("change"));
    expect(chosen).toEqual(["imbalance"]);
    expect(renderer.state).not.toHaveProperty("reducer");
    // one row per node: nothing to choose
    const single = payload({ parent: [-1, 0], names: ["a", "b"], metrics: { t: [1, 2] } });
    renderer.setData(decodeTable(single), { colorBy: "t", sizeBy: "t" });
    expect(menu.parentElement.hidden).toBe(true);
  });
});

describe("the spread of a node's rows in its tooltip", () => {
  test("asked once per node and metric, shown with a strip of sorted values while still hovered", async () => {
    const asked = [];
    const spread = {
      count: 4,
      min: 1,
      mean: 2.5,
      max: 4,
      std: 1.29,
      atMax: "rank 3",
      over: "rank",
      quantiles: [1, 2, 3, 4],
    };
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, {
      width: 900,
      height: 500,
      onSpread: (node, metric) => {
        asked.push([node, metric]);
        return Promise.resolve(spread);
      },
    });
    renderer.setState({ colorBy: "time", sizeBy: "time (inc)" });
    renderer.setData(decodeTable(smallTree()));
    circle(container, 2).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    await Promise.resolve();
    await Promise.resolve();
    const tip = container.querySelector(".cct-tooltip");
    expect(tip.querySelector(".cct-tooltip-spread").textContent).toContain(
      "min 1 · mean 2.5 · max 4 (rank 3) · std 1.29",
    );
    expect(tip.querySelector(".cct-tooltip-spread").textContent).toContain("over 4 ranks");
    expect(tip.querySelectorAll(".cct-strip .cct-strip-bar")).toHaveLength(4);
    // heights follow the values: the largest bar is the last
    const heights = [...tip.querySelectorAll(".cct-strip-bar")].map((r) => Number(r.getAttribute("height")));
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
    // hovering it again asks nothing more; another node is asked; leaving before the answer shows nothing
    circle(container, 3).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    circle(container, 2).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(asked).toEqual([
      [2, "time"],
      [3, "time"],
    ]);
    container.querySelector("svg.cct-svg").dispatchEvent(new MouseEvent("pointerleave"));
    circle(container, 4).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    circle(container, 1).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    await Promise.resolve();
    await Promise.resolve();
    expect(container.querySelector(".cct-tooltip").querySelector(".cct-tooltip-name").textContent).toBe("solve");
    expect(container.querySelectorAll(".cct-tooltip .cct-tooltip-spread")).toHaveLength(1); // solve's, not io's
  });
});

describe("a ratio metric", () => {
  test("a collapsed glyph is coloured and described by the largest ratio it hides, never a sum", () => {
    // main → solve → (a, b); imbalance 4.0, 1.2, 2.0, 1.5: solve's subtree max 2.0, its sum 4.7
    const spec = payload({
      parent: [-1, 0, 1, 1],
      names: ["main", "solve", "a", "b"],
      metrics: { imbalance: [4.0, 1.2, 2.0, 1.5], time: [1, 2, 3, 4] },
      kinds: { imbalance: "ratio", time: "exclusive" },
    });
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500 });
    renderer.setState({ colorBy: "imbalance", sizeBy: "time" });
    renderer.setData(decodeTable(spec));
    const fill = (id) => container.querySelector(`.cct-node[data-id="${id}"]`).getAttribute("fill");
    const ofA = fill(2); // 2.0
    const ofMain = fill(0); // 4.0, the top: where a sum (4.7) would land
    expect(ofA).not.toBe(ofMain);
    renderer.setState({ collapsed: [1] });
    expect(fill(1)).toBe(ofA);
    container
      .querySelector('path.cct-collapsed[data-id="1"]')
      .dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    const tip = container.querySelector(".cct-tooltip .cct-tooltip-aggregate").textContent;
    expect(tip).toContain("max imbalance");
    expect(tip).not.toContain("Σ imbalance");
    expect(tip).toContain("Σ time");
    expect(container.querySelector(".cct-color-legend").textContent).toContain("imbalance (ratio; glyphs: max)");
  });
});

describe("pinning a selected node's spread", () => {
  test("the last selected node's strip stays in the corner while it is selected", async () => {
    const spread = { count: 2, min: 1, mean: 1.5, max: 2, std: 0.7, atMax: "rank 1", over: "rank", quantiles: [1, 2] };
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500, onSpread: () => Promise.resolve(spread) });
    renderer.setState({ colorBy: "time", sizeBy: "time (inc)" });
    renderer.setData(decodeTable(smallTree()));
    const pinned = container.querySelector(".cct-pinned");
    expect(pinned.hidden).toBe(true);
    circle(container, 2).dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await Promise.resolve();
    await Promise.resolve();
    expect(pinned.hidden).toBe(false);
    expect(pinned.querySelector(".cct-tooltip-name").textContent).toBe("kernel_a");
    expect(pinned.querySelectorAll(".cct-strip-bar")).toHaveLength(2);
    renderer.setSelection([]);
    expect(pinned.hidden).toBe(true);
  });
});

describe("the colour legend as a share", () => {
  test("ends as a percentage of the total or of the focus, from the toolbar; values again when off", () => {
    const { container, renderer } = mount();
    const legend = () => container.querySelector(".cct-color-legend").textContent;
    expect(legend()).not.toContain("%");
    const menu = container.querySelector('select[aria-label="legend ends"]');
    menu.value = "total";
    menu.dispatchEvent(new Event("change"));
    expect(renderer.state.legendShare).toBe("total");
    // time: every node's 1…30 of a total 48 (the tree's domain): 2.1 % … 63 %
    expect(legend()).toContain("% of total");
    expect(legend()).toContain("2.1 %");
    expect(legend()).toContain("63 %");
    renderer.setState({ legendShare: "focus", focus: 1 }); // solve: 42 below it
    expect(legend()).toContain("% of the focus");
    expect(legend()).toContain("71 %"); // 30 of 42
    renderer.setState({ legendShare: "off" });
    expect(legend()).not.toContain("%");
  });
});

describe("a derived inclusive metric's title", () => {
  test("says its kind once: 'x (inc, derived)', not 'x (inc, derived) (inclusive)'", () => {
    const spec = payload({
      parent: [-1, 0],
      names: ["main", "k"],
      metrics: { x: [1, 2], "x (inc, derived)": [3, 2] },
      kinds: { x: "exclusive", "x (inc, derived)": "inclusive" },
      partners: { x: "x (inc, derived)", "x (inc, derived)": "x" },
    });
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500 });
    renderer.setState({ colorBy: "x", sizeBy: "x (inc, derived)" });
    renderer.setData(decodeTable(spec));
    const size = container.querySelector(".cct-size-legend").textContent;
    expect(size).toContain("size: x (inc, derived)");
    expect(size).not.toContain("(inclusive)");
    const option = [...container.querySelectorAll('[role=listbox][aria-label="size"] [role=option]')].map(
      (o) => o.textContent,
    );
    expect(option).toEqual(["x (exc)", "x (inc, derived)"]);
  });
});

describe("labels of big views", () => {
  /** A view of 500 nodes drawn whole, labels put off above `labelsLaterAbove` drawn nodes. */
  function bigView(/** @type {number} */ labelsLaterAbove) {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, {
      width: 900,
      height: 500,
      layout: { labelsLaterAbove, firstLabelsLaterAbove: labelsLaterAbove },
    });
    const table = decodeTable(randomTree(500));
    renderer.setData(table, { colorBy: "time", sizeBy: "time (inc)", foldToFit: false });
    const texts = () => [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    return { container, renderer, table, texts };
  }

  test("above labelsLaterAbove drawn nodes the labels come in a task after the drawing's frame", async () => {
    for (const [limit, later] of [
      [100, true],
      [20_000, false],
    ]) {
      const { renderer, texts } = bigView(limit);
      expect(texts().length === 0).toBe(later);
      await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
      renderer.destroy();
    }
  });

  test("the labels of a big view are not placed in the frame that paints its nodes", async () => {
    const { renderer, texts } = bigView(100);
    const raf = window.requestAnimationFrame?.bind(window) ?? ((/** @type {() => void} */ f) => setTimeout(f, 16));
    // a frame callback asked for after the drawing's: the frame's painting is done, no labels yet
    const inFrame = await new Promise((resolve) => raf(() => resolve(texts().length)));
    expect(inFrame).toBe(0);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
    renderer.destroy();
  });

  test("a new structure of a big view takes its stale labels off at once; the new ones follow", async () => {
    const { container, renderer, table, texts } = bigView(100);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
    // the last node's parent collapsed: a small subtree, the view stays over labelsLaterAbove
    // nodes (and the table is small: no label is put off for its size)
    const parent = table.idOf(table.parent[table.size - 1]);
    renderer.setState({ collapsed: [parent] });
    expect(renderer.state.collapsed).toEqual([parent]);
    expect(container.querySelectorAll(".cct-node").length).toBeGreaterThan(100);
    expect(texts()).toEqual([]);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
    renderer.destroy();
  });
});

describe("the labels of a view's first picture", () => {
  /** A first picture (folded to fit, as by default) of a table of `rows` rows. @param {number} rows */
  function first(/** @type {number} */ rows) {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500, layout: DRAWN_AT_ONCE });
    const table = decodeTable(randomTree(rows));
    renderer.setData(table, { colorBy: "time", sizeBy: "time (inc)" });
    const texts = () => [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    const waiting = () => container.querySelector("[data-labels='later']") !== null;
    return { container, renderer, table, texts, waiting };
  }

  test("over firstLabelsLaterAbove rows they come after its frame, marked data-labels=later meanwhile", async () => {
    const { container, renderer, table, texts, waiting } = first(1000);
    expect(container.querySelectorAll(".cct-node").length).toBeGreaterThan(20); // the marks are drawn
    expect(texts()).toEqual([]);
    expect(waiting()).toBe(true);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
    expect(waiting()).toBe(false);
    // the next picture of the same table (the first root collapsed) has them at once
    renderer.setState({ collapsed: [table.idOf(0)] });
    expect(texts().length).toBeGreaterThan(0);
    expect(waiting()).toBe(false);
    renderer.destroy();
  });

  test("at firstLabelsLaterAbove rows or fewer they are drawn with the marks", () => {
    const { renderer, texts, waiting } = first(50);
    expect(texts().length).toBeGreaterThan(0);
    expect(waiting()).toBe(false);
    renderer.destroy();
  });
});

describe("labels after a big picture", () => {
  test("a collapse that leaves a small picture of a big one places its labels after the frame", async () => {
    const container = document.createElement("div");
    document.body.appendChild(container);
    const renderer = newRenderer(container, { width: 900, height: 500, layout: { labelsLaterAbove: 100 } });
    const table = decodeTable(randomTree(500));
    renderer.setData(table, { colorBy: "time", sizeBy: "time (inc)", foldToFit: false });
    const texts = () => [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
    // every root's children collapsed: a few nodes drawn, under labelsLaterAbove, but the
    // picture before had 500: the collapse's task laid out and drew those, its labels wait
    const roots = [];
    for (let row = 0; row < table.size; row++) if (table.parent[row] < 0) roots.push(table.idOf(row));
    const kids = [];
    for (let row = 0; row < table.size; row++) {
      if (table.parent[row] >= 0 && table.parent[table.parent[row]] < 0) kids.push(table.idOf(row));
    }
    renderer.setState({ collapsed: kids });
    const drawn = container.querySelectorAll(".cct-node").length;
    expect(drawn).toBeLessThanOrEqual(100);
    expect(drawn).toBeGreaterThan(roots.length);
    expect(texts()).toEqual([]);
    await vi.waitFor(() => expect(texts().length).toBeGreaterThan(0));
    // a small picture from a small one: labels at once, as before
    renderer.setState({ collapsed: roots });
    expect(texts().length).toBeGreaterThan(0);
    renderer.destroy();
  });
});

test("setting the selection it has already places no labels again; a new one does", async () => {
  const container = document.createElement("div");
  document.body.appendChild(container);
  const renderer = newRenderer(container, { width: 900, height: 500, layout: LABELS_AT_ONCE });
  const table = decodeTable(randomTree(120));
  renderer.setData(table, { colorBy: "time", sizeBy: "time (inc)", foldToFit: false });
  renderer.setSelection([table.idOf(3)]);
  const layer = /** @type {Element} */ (container.querySelector(".cct-labels"));
  expect(layer.querySelectorAll("text").length).toBeGreaterThan(0);
  const records = [];
  const watch = new MutationObserver((list) => records.push(...list));
  watch.observe(layer, { subtree: true, childList: true, attributes: true, characterData: true });
  renderer.setSelection([table.idOf(3)]); // what the widget does after each new table
  await Promise.resolve();
  expect(watch.takeRecords().concat(records)).toEqual([]);
  renderer.setSelection([table.idOf(5)]);
  await Promise.resolve();
  expect(watch.takeRecords().concat(records).length).toBeGreaterThan(0);
  watch.disconnect();
  renderer.destroy();
});

test("a destroyed renderer keeps nothing of its tree", () => {
  const container = document.createElement("div");
  document.body.appendChild(container);
  const renderer = newRenderer(container, { width: 900, height: 500 });
  renderer.setData(decodeTable(randomTree(300)), { colorBy: "time", sizeBy: "time (inc)", foldToFit: false });
  expect(renderer.screenPosition(0)).not.toBeNull();
  renderer.destroy();
  expect(renderer.screenPosition(0)).toBeNull(); // the painter dropped table, tree and layout
  expect(container.childElementCount).toBe(0);
});
