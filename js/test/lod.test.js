import { describe, expect, test } from "vitest";
import { decodeTable } from "../src/cct/decode.js";
import { createRenderer } from "../src/cct/renderer.js";
import { changeToIds, idMapping, rowsOf, stateToRows } from "../src/ids.js";
import { payload } from "./fixtures.js";

/**
 * What Python sends for a 1,000-node tree under level of detail: main (id 0) → solve (id 4) →
 * kernel (id 9), and two fold rows: "990 more" under main, "5 more" under solve.
 */
function lodTree() {
  return payload({
    parent: [-1, 0, 1, 1, 0],
    names: ["main", "solve", "kernel", "5 more", "990 more"],
    metrics: { time: [1, 2, 50, 7, 300], "time (inc)": [360, 59, 50, 7, 300] },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
    partners: { time: "time (inc)", "time (inc)": "time" },
    nodeId: [0, 4, 9, -1, -1],
    folded: [0, 0, 0, 5, 990],
    total: 1000,
  });
}

function mount(expanded = []) {
  const container = document.createElement("div");
  document.body.appendChild(container);
  const selected = [];
  const renderer = createRenderer(container, {
    width: 900,
    height: 500,
    onSelect: (rows) => selected.push(rows),
    onExpand: (row) => expanded.push(row),
  });
  renderer.setState({ colorBy: "time", sizeBy: "time (inc)" });
  renderer.setData(decodeTable(lodTree()));
  return { container, renderer, selected };
}

const click = (el) => el.dispatchEvent(new MouseEvent("click", { bubbles: true }));

describe("level of detail in the renderer", () => {
  test("decodes the id map, the fold counts and the full tree's size", () => {
    const table = decodeTable(lodTree());
    expect([...table.nodeId]).toEqual([0, 4, 9, -1, -1]);
    expect([...table.folded]).toEqual([0, 0, 0, 5, 990]);
    expect(table.total).toBe(1000);
    expect(decodeTable(payload({ parent: [-1], names: ["a"], metrics: { t: [1] } })).nodeId).toBeNull();
  });

  test("draws fold rows as aggregate glyphs labelled with what they hold", () => {
    const { container } = mount();
    const folds = [...container.querySelectorAll(".cct-node.cct-aggregate")];
    expect(folds.map((e) => e.getAttribute("data-id")).sort()).toEqual(["3", "4"]);
    expect(folds.every((e) => e.tagName === "path")).toBe(true);
    const labels = [...container.querySelectorAll(".cct-label")].map((e) => e.textContent);
    expect(labels).toEqual(expect.arrayContaining(["990 more", "5 more"]));
    expect(container.querySelector(".cct-status").textContent).toContain("1,000 nodes · 3 loaded");
  });

  test("clicking a fold asks for its nodes and selects nothing", () => {
    const expanded = [];
    const { container, selected } = mount(expanded);
    click(container.querySelector('.cct-node[data-id="4"]'));
    expect(expanded).toEqual([4]);
    expect(selected).toEqual([]);
    click(container.querySelector('.cct-node[data-id="2"]'));
    expect(selected).toEqual([[2]]);
  });

  test("fold sums neither set the size scale nor match a search", () => {
    const { container, renderer } = mount();
    // the largest real node (main, 360 inclusive) gets the largest radius, not the 300-sum fold
    const r = (row) => Number(container.querySelector(`circle.cct-node[data-id="${row}"]`).getAttribute("r"));
    expect(r(0)).toBe(12);
    renderer.setState({ search: "more" });
    expect(renderer.matches).toEqual([]);
    renderer.setState({ search: "kern" });
    expect(renderer.matches).toEqual([2]);
  });

  test("hover on a fold says what is not loaded, with its sums", () => {
    const { container } = mount();
    container.querySelector('.cct-node[data-id="4"]').dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    const tip = container.querySelector(".cct-tooltip").textContent;
    expect(tip).toContain("990 nodes not loaded");
    expect(tip).toContain("Σ time");
    expect(tip).toContain("300");
  });
});

describe("ids ⇄ rows", () => {
  const mapping = idMapping(decodeTable(lodTree()));

  test("maps full-tree ids to rows and back; ids not sent have no row", () => {
    expect(mapping.sparse).toBe(true);
    expect([0, 4, 9, 77].map(mapping.toRow)).toEqual([0, 1, 2, -1]);
    expect([0, 1, 2].map(mapping.toId)).toEqual([0, 4, 9]);
    expect(rowsOf(mapping, [9, 77, 0])).toEqual([2, 0]);
  });

  test("view state goes to rows, changes come back as ids, unseen collapsed ids kept", () => {
    expect(stateToRows(mapping, { collapsed: [4, 77], focus: 9, roots: [0], highlighted: [], colorBy: "time" })).toEqual({
      collapsed: [1],
      focus: 2,
      roots: [0],
      highlighted: [],
      colorBy: "time",
    });
    expect(stateToRows(mapping, { focus: 77 }).focus).toBeNull();
    const change = changeToIds(mapping, { collapsed: [2], focus: 1 }, () => [4, 77]);
    expect(change).toEqual({ collapsed: [77, 9], focus: 4 });
  });

  test("without level of detail ids are rows", () => {
    const dense = idMapping(decodeTable(payload({ parent: [-1, 0], names: ["a", "b"], metrics: { t: [1, 2] } })));
    expect(dense.sparse).toBe(false);
    expect([0, 1, 2].map(dense.toRow)).toEqual([0, 1, -1]);
  });
});
