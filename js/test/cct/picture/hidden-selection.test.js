// A node selected from Python inside a collapsed subtree, a prune aggregate or outside the view:
// the glyph that hides it is marked and the status line says where it is (issue 29, point 4).
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { hiddenSelectionText, placeSelection } from "../../../src/cct/picture/hidden-selection.js";
import { subtreeStats } from "../../../src/cct/picture/subtree-stats.js";
import { viewTreeOf } from "../../../src/cct/picture/view-tree.js";
import { smallTree } from "../../support/fixtures.js";
import { mountRenderer, TIME } from "../../support/mount.js";

// smallTree: main(0) → solve(1) → kernel_a(2), kernel_b(3); main → io(4); init(5) a second root
const mount = (backend = "svg") => mountRenderer(smallTree(), { state: { ...TIME, backend } });
const status = (c) => c.querySelector(".cct-status").textContent;
const holders = (c) => [...c.querySelectorAll(".cct-holds-selected")];

describe("a selection hidden in a glyph", () => {
  for (const backend of ["svg", "canvas"]) {
    test(`${backend}: the collapsed glyph that holds it is marked, the status line names it`, () => {
      const { container, renderer } = mount(backend);
      expect(renderer.backend).toBe(backend);
      renderer.setState({ collapsed: [1] });
      renderer.setSelection([2]); // kernel_a, inside collapsed solve
      const marked = holders(container);
      expect(marked.map((el) => el.getAttribute("data-id"))).toEqual(["1"]);
      expect(marked[0].getAttribute("data-holds-selected")).toBe("1");
      expect(marked[0].getAttribute("aria-description")).toBe("holds 1 selected node");
      expect(container.querySelectorAll(".cct-selected")).toHaveLength(0);
      expect(status(container)).toContain("1 selected, hidden in solve (collapsed)");
      // expanding shows the node itself as selected; the glyph's mark and the note go
      renderer.setState({ collapsed: [] });
      expect(holders(container)).toHaveLength(0);
      expect(container.querySelector(`.cct-selected[data-id="2"]`)).not.toBeNull();
      expect(status(container)).not.toContain("selected");
      // and collapsing again after the selection brings them back
      renderer.setState({ collapsed: [0] });
      expect(holders(container).map((el) => el.getAttribute("data-id"))).toEqual(["0"]);
      expect(status(container)).toContain("1 selected, hidden in main (collapsed)");
    });
  }

  test("a prune aggregate and a node outside the focus", () => {
    const { container, renderer } = mount();
    // keeps time 30 (kernel_a) and its path; kernel_b and io fold into aggregates
    renderer.setState({ prune: [20, 100] });
    renderer.setSelection([3, 4]);
    const marked = holders(container);
    expect(marked.map((el) => el.getAttribute("data-aggregate")).sort()).toEqual(["0", "1"]);
    expect(status(container)).toContain("2 selected, hidden in the 1 hidden under solve, the 1 hidden under main");
    renderer.setState({ prune: null, focus: 1 });
    renderer.setSelection([4, 2]);
    expect(holders(container)).toHaveLength(0);
    expect(status(container)).toContain("1 selected outside the view");
  });

  test("placeSelection: drawn, held or outside; nodes not loaded are left out", () => {
    const table = decodeTable(smallTree());
    const stats = subtreeStats(table);
    const tree = viewTreeOf(table, stats, { collapsed: [1], roots: [0] });
    const placed = placeSelection(table, tree, [0, 2, 3, 5, 99]);
    expect([...placed.drawn]).toEqual([0]);
    expect([...placed.holders]).toEqual([[1, [2, 3]]]);
    expect(placed.outside).toBe(1);
    expect(hiddenSelectionText(table, stats, tree, placed)).toBe(
      "2 selected, hidden in solve (collapsed) · 1 selected outside the view",
    );
    expect(hiddenSelectionText(table, stats, tree, placeSelection(table, tree, [0]))).toBe("");
  });
});
