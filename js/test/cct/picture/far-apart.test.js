// Roots of very different scale (RAJAPerf's `Base_Seq` ≈ 2e3 beside `RAJAPerf` ≈ 1.9e12): on one
// linear colour scale the small root's nodes are all one colour. `legend: "auto"` (the default)
// gives each tree its own scale and legend when their values are more than 1000× apart; "shared"
// keeps one, and so does a log scale (which spans both).
import { afterEach, describe, expect, test } from "vitest";
import { FAR_APART } from "../../../src/cct/picture/scene.js";
import { payload } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

afterEach(() => document.body.replaceChildren());

/** Two roots: big → (b1, b2) and small → (s1, s2), the small tree `ratio` times smaller. */
function twoRoots(ratio) {
  const big = [1.9e12, 1.2e12, 0.4e12];
  return payload({
    parent: [-1, 0, 0, -1, 3, 3],
    names: ["RAJAPerf", "Stream_ADD", "Basic_DAXPY", "Base_Seq", "s1", "s2"],
    metrics: {
      time: [...big, ...big.map((v) => v / ratio)],
      "time (inc)": [...big, ...big.map((v) => v / ratio)],
    },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
  });
}

const fill = (container, id) => container.querySelector(`.cct-node[data-id="${id}"]`).getAttribute("fill");
const titles = (container) =>
  [...container.querySelectorAll(".cct-color-legend .cct-legend-title")].map((t) => t.textContent);

describe("roots of very different scale", () => {
  test("by default each gets its own colour scale and legend, named for its root", () => {
    const { container, renderer } = mountRenderer(twoRoots(1e9));
    expect(renderer.state.legend).toBe("auto");
    expect(titles(container)).toEqual(["RAJAPerf: colour: time (exclusive)", "Base_Seq: colour: time (exclusive)"]);
    // the small tree's nodes differ in colour, as the big tree's do, at the same places
    expect(fill(container, 4)).not.toBe(fill(container, 5));
    expect(fill(container, 4)).toBe(fill(container, 1));
    expect(fill(container, 5)).toBe(fill(container, 2));
    // each legend's ends are its own tree's
    const ends = [...container.querySelectorAll(".cct-color-legend")].map((g) =>
      [...g.querySelectorAll(".cct-legend-tick")].map((t) => t.textContent).filter(Boolean),
    );
    expect(ends[0]).not.toEqual(ends[1]);
  });

  test("'shared' keeps one scale: the small tree is one colour, as before", () => {
    const { container } = mountRenderer(twoRoots(1e9), {
      state: { colorBy: "time", sizeBy: "time (inc)", legend: "shared" },
    });
    expect(titles(container)).toEqual(["colour: time (exclusive)"]);
    expect(fill(container, 4)).toBe(fill(container, 5));
  });

  test("trees less than FAR_APART apart, or on a log scale, share one scale", () => {
    const near = mountRenderer(twoRoots(FAR_APART / 2));
    expect(titles(near.container)).toEqual(["colour: time (exclusive)"]);
    const far = mountRenderer(twoRoots(FAR_APART * 2));
    expect(titles(far.container)).toHaveLength(2);
    far.renderer.setState({ colorScale: "log" });
    expect(titles(far.container)).toEqual(["colour: time (exclusive)"]);
  });
});

test("one- and two-node roots beside a big tree (MPI_Initialized beside main) do not count", () => {
  const spec = payload({
    parent: [-1, 0, 0, -1, -1, 4],
    names: ["main", "solve", "io", "MPI_Initialized", "MPI_Finalized", "PMPI_Finalize"],
    metrics: { time: [100, 60, 30, 1e-5, 2e-5, 1e-5], "time (inc)": [190, 60, 30, 1e-5, 3e-5, 1e-5] },
    kinds: { time: "exclusive", "time (inc)": "inclusive" },
  });
  const { container } = mountRenderer(spec);
  expect(titles(container)).toEqual(["colour: time (exclusive)"]);
});
