import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { expandedTree, lodTree, payload } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

const mount = (expanded = []) => mountRenderer(lodTree(), { onLoadMore: (node) => expanded.push(node) });

const click = (el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
const fire = (el, type, init = {}) => el.dispatchEvent(new MouseEvent(type, { bubbles: true, ...init }));
const key = (c, k, init = {}) =>
  c.querySelector(".cct-stage").dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, ...init }));
const fold = (c, parent) => c.querySelector(`.cct-node[data-fold="${parent}"]`);

describe("level of detail in the renderer", () => {
  test("decodes the id map, the fold counts and the full tree's size", () => {
    const table = decodeTable(lodTree());
    expect([...table.nodeId]).toEqual([0, 4, 9, -1, -1]);
    expect([...table.folded]).toEqual([0, 0, 0, 5, 990]);
    expect(table.total).toBe(1000);
    expect(decodeTable(payload({ parent: [-1], names: ["a"], metrics: { t: [1] } })).nodeId).toBeNull();
  });

  test("draws fold rows as aggregate glyphs named by their parent, labelled with what they hold", () => {
    const { container } = mount();
    const folds = [...container.querySelectorAll(".cct-node.cct-aggregate")];
    expect(folds.map((e) => e.getAttribute("data-fold")).sort()).toEqual(["0", "4"]);
    expect(folds.every((e) => e.tagName === "path" && !e.hasAttribute("data-id"))).toBe(true);
    const labels = [...container.querySelectorAll(".cct-label")].map((e) => e.textContent);
    expect(labels).toEqual(expect.arrayContaining(["990 more", "5 more"]));
    expect(container.querySelector(".cct-status").textContent).toContain("1,000 nodes · 3 loaded");
  });

  test("nodes are named by their full-tree ids in the DOM, the selection and the search", () => {
    const expanded = [];
    const { container, renderer, selections: selected } = mount(expanded);
    click(fold(container, 0));
    expect(expanded).toEqual([0]); // main's hidden children are to be loaded
    expect(selected).toEqual([]);
    click(container.querySelector('.cct-node[data-id="9"]'));
    expect(selected).toEqual([[9]]);
    expect(renderer.selection).toEqual([9]);
    renderer.setState({ search: "kern" });
    expect(renderer.matches).toEqual([9]);
  });

  test("fold sums neither set the size scale nor match a search", () => {
    const { container, renderer } = mount();
    // the largest real node (main, 360 inclusive) gets the largest radius, not the 300-sum fold
    const r = (id) => Number(container.querySelector(`circle.cct-node[data-id="${id}"]`).getAttribute("r"));
    const radii = [0, 4, 9].map(r);
    expect(radii[0]).toBe(Math.max(...radii));
    renderer.setState({ search: "more" });
    expect(renderer.matches).toEqual([]);
  });

  test("hover on a fold says what is not loaded, with its sums", () => {
    const { container } = mount();
    fold(container, 0).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    const tip = container.querySelector(".cct-tooltip").textContent;
    expect(tip).toContain("990 nodes not loaded");
    expect(tip).toContain("Σ time");
    expect(tip).toContain("300");
  });

  test("undo and redo change the right node after an expansion renumbers the rows", () => {
    const { container, renderer, changes } = mount();
    fire(container.querySelector('.cct-node[data-id="4"]'), "dblclick"); // collapse solve (row 1 now)
    expect(changes.at(-1)).toEqual({ collapsed: [4] });
    // the fold under main is opened: solve moves to row 2, row 1 is the new leaf `init`
    renderer.setData(decodeTable(expandedTree()), { collapsed: [4] }, { anchor: 0 });
    expect(container.querySelector('path.cct-collapsed[data-id="4"]')).not.toBeNull();
    key(container, "z", { ctrlKey: true });
    expect(changes.at(-1)).toEqual({ collapsed: [] });
    expect(container.querySelector('.cct-node[data-id="9"]')).not.toBeNull();
    key(container, "z", { ctrlKey: true, shiftKey: true });
    expect(changes.at(-1)).toEqual({ collapsed: [4] });
    expect(container.querySelector('path.cct-collapsed[data-id="4"]')).not.toBeNull();
    expect(container.querySelector('circle.cct-node[data-id="1"]')).not.toBeNull(); // init untouched
    fire(container.querySelector('.cct-node[data-id="4"]'), "dblclick");
    expect(renderer.state.collapsed).toEqual([]);
    key(container, "z", { ctrlKey: true });
    expect(renderer.state.collapsed).toEqual([4]);
  });

  test("other data starts a new history: its steps would name nodes of another tree", () => {
    const { container, renderer } = mount();
    fire(container.querySelector('.cct-node[data-id="4"]'), "dblclick");
    renderer.setData(decodeTable(expandedTree()), {}, { anchor: 0 }); // the same tree, expanded
    expect(container.querySelector('.cct-toolbar button[aria-label^="Undo"]').disabled).toBe(false);
    const other = payload({
      parent: [-1, 0, 0],
      names: ["a", "b", "c"],
      metrics: { time: [1, 2, 3], "time (inc)": [6, 2, 3] },
      tree: "other run",
    });
    renderer.setData(decodeTable(other), { collapsed: [] });
    expect(container.querySelector('.cct-toolbar button[aria-label^="Undo"]').disabled).toBe(true);
    key(container, "z", { ctrlKey: true });
    expect(renderer.state.collapsed).toEqual([]);
  });

  test("an expansion keeps the expanded node where it was on screen, its new children in view", () => {
    const { renderer } = mount();
    renderer.setTransform({ x: 300, y: 200, k: 0.8 });
    const before = renderer.screenPosition(0);
    renderer.setData(decodeTable(expandedTree()), {}, { anchor: 0 });
    const after = renderer.screenPosition(0);
    expect(after.x).toBeCloseTo(before.x, 6);
    expect(after.y).toBeCloseTo(before.y, 6);
    expect(renderer.transform.k).toBeCloseTo(0.8, 6);
    const init = renderer.screenPosition(1); // the node the expansion loaded
    expect(init.x > 0 && init.x < 900 && init.y > 0 && init.y < 500).toBe(true);
  });

  test("an expansion off screen brings the expanded node and what it loaded into view", () => {
    const { renderer } = mount();
    renderer.setTransform({ x: -5000, y: 4000, k: 0.8 });
    renderer.setData(decodeTable(expandedTree()), {}, { anchor: 0 });
    for (const id of [0, 1, 4]) {
      const p = renderer.screenPosition(id);
      expect(p.x > 0 && p.x < 900 && p.y > 0 && p.y < 500).toBe(true);
    }
  });

  test("state naming nodes that are not loaded is kept, and applies once they arrive", () => {
    const { container, renderer } = mount();
    renderer.setState({ collapsed: [1], highlighted: [1] });
    expect(renderer.state.collapsed).toEqual([1]);
    renderer.setData(decodeTable(expandedTree()));
    expect(container.querySelector('.cct-node.cct-highlight[data-id="1"]')).not.toBeNull();
    expect(renderer.state.collapsed).toEqual([1]);
  });
});

describe("rows are the decoder's detail", () => {
  test("rowOf and idOf map full-tree ids to rows and back; ids not sent have no row", () => {
    const table = decodeTable(lodTree());
    expect([0, 4, 9, 77, -1, 2.5].map(table.rowOf)).toEqual([0, 1, 2, -1, -1, -1]);
    expect([0, 1, 2, 3, 4, 5].map(table.idOf)).toEqual([0, 4, 9, -1, -1, -1]);
  });

  test("without level of detail ids are rows", () => {
    const table = decodeTable(payload({ parent: [-1, 0], names: ["a", "b"], metrics: { t: [1, 2] } }));
    expect([0, 1, 2, -1].map(table.rowOf)).toEqual([0, 1, -1, -1]);
    expect([0, 1].map(table.idOf)).toEqual([0, 1]);
  });
});
