import { beforeAll, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { payload, smallTree } from "../../support/fixtures.js";
import { mountRenderer, TIME } from "../../support/mount.js";

// jsdom has no canvas; say so quietly (its default reports "not implemented" on the console)
beforeAll(() => {
  HTMLCanvasElement.prototype.getContext = () => null;
});

const mount = (spec = smallTree(), state = {}) => mountRenderer(spec, { state: { ...TIME, ...state } });

const node = (c, id) => c.querySelector(`.cct-node[data-id="${id}"]`);
const fire = (el, type, init = {}) => el.dispatchEvent(new MouseEvent(type, { bubbles: true, ...init }));
const key = (c, k, init = {}) =>
  c.querySelector(".cct-stage").dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, ...init }));
const button = (c, label) =>
  [...c.querySelectorAll(".cct-toolbar button")].find((b) => b.getAttribute("aria-label") === label);
const drawnIds = (c) =>
  [...c.querySelectorAll(".cct-nodes .cct-node[data-id]")].map((e) => Number(e.getAttribute("data-id")));

describe("collapse and expand", () => {
  test("double-click folds a subtree into one triangle glyph that reports what it hides", () => {
    const { container, changes } = mount();
    fire(node(container, 1), "dblclick");
    expect(changes.at(-1)).toEqual({ collapsed: [1] });
    expect(drawnIds(container).sort()).toEqual([0, 1, 4, 5]);
    const glyph = node(container, 1);
    expect(glyph.tagName).toBe("path");
    expect(glyph.classList.contains("cct-collapsed")).toBe(true);
    fire(glyph, "pointermove");
    const tip = container.querySelector(".cct-tooltip").textContent;
    expect(tip).toContain("collapsed: 2 hidden nodes");
    expect(tip).toContain("Σ time"); // 2 + 30 + 10 over the subtree
    expect(tip).toContain("42");
    expect(container.querySelector(".cct-status").textContent).toContain("4 shown, 2 hidden");
    fire(glyph, "dblclick");
    expect(changes.at(-1)).toEqual({ collapsed: [] });
    expect(drawnIds(container).length).toBe(6);
  });

  test("a collapsed node whose sum of exclusive time passes its inclusive time says the profile counts it twice", () => {
    // as HPCToolkit's: node 1's exclusive time again in its line, node 2 (1 + 5 + 5 > 8)
    const spec = payload({
      parent: [-1, 0, 1, 0, 3],
      names: ["main", "solve", "solve.c:12", "init", "mesh"],
      metrics: { time: [1, 5, 5, 2, 3], "time (inc)": [14, 8, 5, 5, 3] },
      kinds: { time: "exclusive", "time (inc)": "inclusive" },
      partners: { time: "time (inc)", "time (inc)": "time" },
    });
    const { container, renderer } = mount(spec);
    renderer.setState({ collapsed: [1] });
    fire(node(container, 1), "pointermove");
    const note = container.querySelector(".cct-tooltip .cct-tooltip-note");
    expect(note?.textContent).toBe(
      "Σ time is more than this node's time (inc) (8): the profile counts some of this time in two nodes " +
        "(HPCToolkit: a procedure's, again in its loops and lines)",
    );
    expect(container.querySelector(".cct-tooltip").textContent).toContain("Σ time");
    // a subtree whose sum is its inclusive time: no note
    renderer.setState({ collapsed: [3] });
    fire(node(container, 3), "pointermove");
    expect(container.querySelector(".cct-tooltip").textContent).toContain("collapsed: 1 hidden node");
    expect(container.querySelector(".cct-tooltip .cct-tooltip-note")).toBeNull();
  });

  test("a double-click is the view's: it does not reach the notebook around it", () => {
    const { container } = mount();
    let reached = 0;
    const outer = () => reached++;
    document.body.addEventListener("dblclick", outer);
    fire(node(container, 1), "dblclick");
    document.body.removeEventListener("dblclick", outer);
    expect(reached).toBe(0);
  });

  test("a collapse keeps the prune histogram's bars; a new range or metric draws them again", () => {
    const { container, renderer } = mount();
    const bars = () => [...container.querySelectorAll(".cct-histogram rect")];
    const before = bars();
    expect(before.length).toBeGreaterThan(0);
    renderer.setState({ prune: [5, 100] });
    const pruned = bars();
    expect(pruned[0]).not.toBe(before[0]); // the range is drawn on the bars
    const info = () => container.querySelector(".cct-prune-info").textContent;
    const hidden = info();
    fire(node(container, 1), "dblclick");
    expect(bars()).toEqual(pruned); // the same elements: nothing drawn again
    expect(bars()[0]).toBe(pruned[0]);
    expect(info()).toMatch(/hidden$/);
    renderer.setState({ collapsed: [], prune: null });
    renderer.setState({ colorBy: "time (inc)" });
    expect(bars()[0]).not.toBe(pruned[0]);
    expect(hidden).toMatch(/· \d+ hidden$/);
  });

  test("a collapse keeps the legends; a new metric, units or share draws them again", () => {
    const { container, renderer } = mount();
    const first = () => container.querySelector(".cct-legends > g");
    const before = first();
    expect(before).not.toBeNull();
    fire(node(container, 1), "dblclick");
    expect(renderer.state.collapsed).toContain(1);
    expect(first()).toBe(before); // the same element: nothing drawn again
    renderer.setState({ colorBy: "time (inc)" });
    const recoloured = first();
    expect(recoloured).not.toBe(before);
    expect(container.querySelector(".cct-legends").textContent).toContain("time (inc)");
    renderer.setUnits({ "time (inc)": "s" });
    expect(first()).not.toBe(recoloured);
    const withUnits = first();
    renderer.setState({ legendShare: "total" });
    expect(first()).not.toBe(withUnits);
    expect(container.querySelector(".cct-legends").textContent).toContain("% of total");
  });

  test("toolbar: collapse to depth, expand all, hot path", () => {
    const { container, renderer } = mount();
    container.querySelector(".cct-depth").value = "1";
    button(container, "Collapse every subtree below this depth").click();
    expect(renderer.state.collapsed).toEqual([1]);
    button(container, "Expand every collapsed subtree").click();
    expect(renderer.state.collapsed).toEqual([]);
    button(container, "From the focused node, open the child with the largest inclusive value, repeatedly").click();
    // from root 0 the hot path is 0 → 1 → 2: nothing off the path has children, so nothing folds
    expect(renderer.cursor).toBe(2);
  });
});

describe("prune", () => {
  test("nodes outside the range fold into aggregates; ancestors of kept nodes stay", () => {
    const { container, renderer } = mount();
    renderer.setState({ prune: [20, 100] }); // only kernel_a (30) is in range
    expect(drawnIds(container).sort()).toEqual([0, 1, 2]);
    const diamonds = [...container.querySelectorAll(".cct-aggregate")];
    expect(diamonds.length).toBe(3); // under solve (kernel_b), under main (io), and root init
    expect(container.querySelector(".cct-status").textContent).toContain("3 hidden");
    renderer.setState({ prune: null });
    expect(drawnIds(container).length).toBe(6);
  });

  test("an inverted range is refused with a message", () => {
    const { renderer } = mount();
    expect(() => renderer.setState({ prune: [5, 1] })).toThrow(/low ≤ high/);
  });
});

describe("search", () => {
  // typing, stepping and showing all: search.test.js
  test("case option", () => {
    const { renderer } = mount(smallTree(), { search: "MAIN" });
    expect(renderer.matches).toEqual([0]);
    renderer.setState({ searchCase: true });
    expect(renderer.matches).toEqual([]);
  });
});

describe("focus and roots", () => {
  test("focus re-roots the view; the breadcrumb leads back", () => {
    const { container, renderer, changes } = mount();
    renderer.setState({ focus: 1 });
    expect(drawnIds(container).sort()).toEqual([1, 2, 3]);
    const crumbs = [...container.querySelectorAll(".cct-crumb")].map((b) => b.textContent);
    expect(crumbs).toEqual(["All", "main", "solve"]);
    container.querySelectorAll(".cct-crumb")[1].click();
    expect(changes.at(-1)).toEqual({ focus: 0 });
    container.querySelector(".cct-crumb").click();
    expect(renderer.state.focus).toBeNull();
    expect(drawnIds(container).length).toBe(6);
  });

  test("a deep focus path shows its root and nearest ancestors; a menu lists the rest", () => {
    const parent = [-1, 0, 1, 2, 3, 4, 5, 6, 7];
    const spec = payload({
      parent,
      names: parent.map((_, i) => (i === 3 ? "<b>x</b>" : `f${i}`)),
      metrics: { time: parent.map(() => 1), "time (inc)": parent.map((_, i) => 9 - i) },
    });
    const { container, renderer, changes } = mount(spec);
    renderer.setState({ focus: 8 });
    const nav = container.querySelector(".cct-breadcrumb");
    const crumbs = [...nav.querySelectorAll(".cct-crumb")].map((b) => b.textContent);
    expect(crumbs).toEqual(["All", "f0", "f6", "f7", "f8"]);
    const menu = nav.querySelector("select.cct-crumb-more");
    expect(menu.getAttribute("aria-label")).toBe("Focus on one of 5 more ancestors");
    const options = [...menu.options];
    expect(options.map((o) => o.textContent)).toEqual(["…", "f1", "f2", "<b>x</b>", "f4", "f5"]);
    expect(menu.querySelector("b")).toBeNull(); // names stay text
    // every ancestor is one choice away: the menu focuses the one chosen
    menu.value = "3";
    menu.dispatchEvent(new Event("change"));
    expect(changes.at(-1)).toEqual({ focus: 3 });
    expect(renderer.state.focus).toBe(3);
    // a path that fits has no menu
    expect([...container.querySelectorAll(".cct-crumb")].map((b) => b.textContent)).toEqual([
      "All",
      "f0",
      "f1",
      "f2",
      "<b>x</b>",
    ]);
    expect(container.querySelector("select.cct-crumb-more")).toBeNull();
  });

  test("50 roots: show some, and 'All' is always reachable", () => {
    const parent = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? -1 : i - 1));
    const spec = payload({
      parent,
      names: parent.map((_, i) => `f${i}`),
      metrics: { time: parent.map((_, i) => i), "time (inc)": parent.map((_, i) => i) },
    });
    const { container, renderer } = mount(spec);
    expect(container.querySelector(".cct-status").textContent).toContain("50 roots");
    const box = (id) => container.querySelector(`.cct-roots-list input[data-root="${id}"]`);
    box(0).click(); // hide root 0
    expect(renderer.state.roots.length).toBe(49);
    expect(drawnIds(container)).not.toContain(0);
    expect(container.querySelector(".cct-status").textContent).toContain("49 of 50 roots");
    box("all").click();
    expect(renderer.state.roots).toBeNull();
    expect(drawnIds(container).length).toBe(100);
    // "only" isolates one tree in one click
    container.querySelector('.cct-roots-list button[data-only-root="42"]').click();
    expect(renderer.state.roots).toEqual([42]);
    expect(drawnIds(container).sort((a, b) => a - b)).toEqual([42, 43]);
    expect(container.querySelector(".cct-status").textContent).toContain("1 of 50 roots");
  });
});

describe("selection", () => {
  test("brush mode selects the nodes inside the rectangle; select subtree; clear", () => {
    const { container, renderer, selections } = mount();
    button(container, "Select with a rectangle (shift adds)").click();
    const svg = container.querySelector("svg.cct-svg");
    const p = (id) => renderer.screenPosition(id);
    const [a, b] = [p(2), p(3)];
    fire(svg, "pointerdown", { clientX: a.x - 5, clientY: Math.min(a.y, b.y) - 5 });
    fire(svg, "pointermove", { clientX: b.x + 5, clientY: Math.max(a.y, b.y) + 5 });
    fire(svg, "pointerup", { clientX: b.x + 5, clientY: Math.max(a.y, b.y) + 5 });
    expect(selections.at(-1).sort()).toEqual([2, 3]);
    renderer.setSelection([1]);
    button(container, "Add the subtrees of the selected nodes to the selection").click();
    expect(selections.at(-1).sort()).toEqual([1, 2, 3]);
    button(container, "Clear the selection").click();
    expect(selections.at(-1)).toEqual([]);
  });
});

describe("keyboard", () => {
  test("arrows move the cursor, Enter collapses, Space selects, / searches, Esc clears", () => {
    const { container, renderer, selections } = mount();
    key(container, "ArrowDown"); // first key: cursor on the first node
    expect(renderer.cursor).toBe(0);
    key(container, "ArrowRight");
    expect(renderer.cursor).toBe(1);
    key(container, "ArrowRight");
    key(container, "ArrowDown");
    expect(renderer.cursor).toBe(3);
    key(container, "ArrowLeft");
    expect(renderer.cursor).toBe(1);
    key(container, "Enter");
    expect(renderer.state.collapsed).toEqual([1]);
    key(container, " ");
    expect(selections.at(-1)).toEqual([1]);
    key(container, "/");
    expect(document.activeElement).toBe(container.querySelector(".cct-search"));
    key(container, "Escape");
    expect(selections.at(-1)).toEqual([]);
    expect(container.querySelector(".cct-cursor").getAttribute("data-id")).toBe("1");
  });

  test("Escape clears first, then leaves the view for the host's own keys", () => {
    const { container, selections } = mount();
    const stage = container.querySelector(".cct-stage");
    stage.focus();
    fire(node(container, 2), "click");
    expect(selections.at(-1)).toEqual([2]);
    key(container, "Escape");
    expect(selections.at(-1)).toEqual([]);
    expect(document.activeElement).toBe(stage); // still in the view
    key(container, "Escape");
    expect(document.activeElement).not.toBe(stage); // nothing left to clear: focus leaves
  });
});

describe("undo and redo", () => {
  test("view operations undo and redo, by keyboard and buttons", () => {
    const { container, renderer, changes } = mount();
    fire(node(container, 1), "dblclick");
    renderer.setState({ colorBy: "time (inc)" });
    key(container, "z", { ctrlKey: true });
    expect(renderer.state.colorBy).toBe("time");
    expect(changes.at(-1)).toEqual({ colorBy: "time" });
    key(container, "z", { ctrlKey: true });
    expect(renderer.state.collapsed).toEqual([]);
    key(container, "z", { ctrlKey: true, shiftKey: true });
    expect(renderer.state.collapsed).toEqual([1]);
    button(container, "Redo (Ctrl+Shift+Z)").click();
    expect(renderer.state.colorBy).toBe("time (inc)");
    expect(button(container, "Redo (Ctrl+Shift+Z)").disabled).toBe(true);
    button(container, "Undo (Ctrl+Z)").click();
    expect(renderer.state.colorBy).toBe("time");
  });
});

describe("reset and fit", () => {
  test("Reset returns to the whole tree, reported and undoable; Fit brings a moved view back", () => {
    const { container, renderer, changes } = mount();
    renderer.setState({ collapsed: [1], focus: 1, prune: [20, 100], search: "kern" });
    renderer.setTransform({ x: -500, y: -500, k: 3 });
    button(container, "Reset the view: expand all, no prune, focus or search").click();
    expect(changes.at(-1)).toEqual({ collapsed: [], prune: null, focus: null, search: "" });
    expect(drawnIds(container).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const fitted = renderer.transform;
    expect(fitted.k).not.toBe(3);
    key(container, "z", { ctrlKey: true });
    expect(renderer.state).toMatchObject({ collapsed: [1], focus: 1, search: "kern" });
    key(container, "z", { ctrlKey: true, shiftKey: true });
    expect(renderer.state).toMatchObject({ collapsed: [], focus: null, search: "" });
    renderer.setTransform({ x: -500, y: -500, k: 3 });
    button(container, "Fit the whole tree in view").click();
    expect(renderer.transform).toEqual(fitted);
  });
});

describe("honest colour", () => {
  const ticks = (c) => [...c.querySelectorAll(".cct-color-legend .cct-legend-tick")].map((t) => t.textContent);

  test("the colour domain is the whole tree's: collapse and focus keep it; 'view' follows the drawn nodes", () => {
    const { container, renderer } = mount();
    const whole = ticks(container);
    renderer.setState({ collapsed: [1] });
    expect(ticks(container)).toEqual(whole);
    renderer.setState({ collapsed: [], focus: 4 }); // io alone: value 5
    expect(ticks(container)).toEqual(whole);
    renderer.setState({ colorDomain: "view" });
    expect(ticks(container)).not.toEqual(whole);
    renderer.setState({ colorDomain: [0, 100], focus: null });
    expect(ticks(container).slice(0, 2)).toEqual(["0", "100"]);
    expect(() => renderer.setState({ colorDomain: [3, 3] })).toThrow(/low < high/);
  });

  test("a collapsed glyph is coloured by its subtree's sum, on the same scale, not by its own value", () => {
    const { container, renderer } = mount(smallTree(), { colorDomain: [0, 42] });
    const fill = (id) => node(container, id).getAttribute("fill");
    const before = fill(1); // solve's own exclusive value: 2
    renderer.setState({ collapsed: [1] }); // 2 + 30 + 10 = 42: the top of the scale
    expect(fill(1)).not.toBe(before);
    const top = [...container.querySelectorAll(".cct-color-legend linearGradient stop")]
      .at(-1)
      .getAttribute("stop-color");
    expect(fill(1)).toBe(top);
  });
});

describe("toolbar styles", () => {
  test("palette, scale and legend mode", () => {
    const parent = [-1, 0, -1, 2];
    const spec = payload({
      parent,
      names: ["a", "b", "c", "d"],
      metrics: { time: [1, 2, 100, 200], "time (inc)": [3, 2, 300, 200] },
    });
    const { container, renderer } = mount(spec);
    const fill = () => node(container, 1).getAttribute("fill");
    const before = fill();
    renderer.setState({ palette: "cividis" });
    expect(fill()).not.toBe(before);
    renderer.setState({ legend: "per-root" });
    expect(container.querySelectorAll(".cct-color-legend").length).toBe(2);
    // per tree: each root's largest value gets the top colour
    expect(node(container, 1).getAttribute("fill")).toBe(node(container, 3).getAttribute("fill"));
    renderer.setState({ colorScale: "log" });
    expect(container.querySelector(".cct-color-legend").textContent).toContain("log");
  });

  test("inclusive switch swaps both metrics for their partners", () => {
    const { container, renderer } = mount();
    const box = container.querySelector('input[aria-label="inclusive metrics"]');
    box.click();
    expect(renderer.state.colorBy).toBe("time (inc)");
    expect(renderer.state.sizeBy).toBe("time (inc)");
    box.click();
    expect(renderer.state.colorBy).toBe("time");
  });

  test("the toolbar shows state set from outside", () => {
    const { container, renderer } = mount();
    renderer.setState({ colorBy: "time (inc)", palette: "magma", search: "io" });
    expect(container.querySelector('[data-picker="colour"]').dataset.value).toBe("time (inc)");
    expect(container.querySelector('select[aria-label="palette"]').value).toBe("magma");
    expect(container.querySelector(".cct-search").value).toBe("io");
  });
});

test("nodes are tree items named after their functions; controls are labelled", () => {
  const { container } = mount(smallTree(), { collapsed: [1] });
  const main = node(container, 0);
  expect(main.getAttribute("role")).toBe("treeitem");
  expect(main.getAttribute("aria-label")).toBe("main");
  expect(node(container, 1).getAttribute("aria-label")).toBe("solve (collapsed)");
  expect(container.querySelector(".cct-stage").getAttribute("role")).toBe("tree");
  expect(container.querySelector(".cct-toolbar").getAttribute("role")).toBe("toolbar");
  for (const b of container.querySelectorAll(".cct-toolbar button")) expect(b.getAttribute("aria-label")).toBeTruthy();
});

test("highlighted nodes are marked from outside, on both backends, and are not undone", () => {
  const { container, renderer } = mount();
  renderer.setState({ highlighted: [2, 4] });
  const marked = [...container.querySelectorAll(".cct-highlight")].map((e) => e.getAttribute("data-id")).sort();
  expect(marked).toEqual(["2", "4"]);
  expect(container.querySelectorAll(".cct-selected").length).toBe(0);
  renderer.setState({ backend: "canvas" });
  expect([...container.querySelectorAll("circle.cct-highlight")].length).toBe(2);
  key(container, "z", { ctrlKey: true });
  expect(renderer.state.highlighted).toEqual([2, 4]);
});

test("new data arrives with its own metric names", () => {
  const { container, renderer } = mount();
  const other = payload({ parent: [-1, 0], names: ["a", "b"], metrics: { wall: [1, 2] } });
  expect(() => renderer.setData(decodeTable(other), { colorBy: "wall", sizeBy: "wall", collapsed: [] })).not.toThrow();
  expect(drawnIds(container)).toEqual([0, 1]);
  expect(renderer.state.colorBy).toBe("wall");
});

test("metric menus name the kind once", () => {
  const { container } = mount();
  const labels = [...container.querySelectorAll('[role=listbox][aria-label="colour"] [role=option]')].map(
    (o) => o.textContent,
  );
  expect(labels).toEqual(["time (exc)", "time (inc)"]);
});

test("hot path opens the heaviest children and folds the siblings along it", () => {
  const spec = payload({
    parent: [-1, 0, 1, 1, 0, 4],
    names: ["main", "solve", "a", "b", "io", "write"],
    metrics: { time: [1, 2, 30, 10, 3, 2], "time (inc)": [48, 42, 30, 10, 5, 2] },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
    partners: { time: "time (inc)", "time (inc)": "time" },
  });
  const { container, renderer } = mount(spec, { collapsed: [1] });
  button(container, "From the focused node, open the child with the largest inclusive value, repeatedly").click();
  expect(renderer.state.collapsed).toEqual([4]); // solve opened, io (off the path) folded
  expect(renderer.cursor).toBe(2);
});
