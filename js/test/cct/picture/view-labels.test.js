// Which labels a view draws first: selected and searched nodes, then the colour's extremes, then
// the hot path, then the largest marks; and how a cut label keeps what tells the name apart.

import { describe, expect, test } from "vitest";
import { SLICE_ITEMS } from "../../../src/cct/base/steps.js";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { cutText, shortenName } from "../../../src/cct/picture/label-text.js";
import { subtreeStats } from "../../../src/cct/picture/subtree-stats.js";
import { viewLabelSteps, viewLabels } from "../../../src/cct/picture/view-labels.js";
import { payload } from "../../support/fixtures.js";

// main → solve → kernel (the hot path by mark size), main → setup (a leaf larger than kernel)
const NAMES = ["main", "solve", "kernel", "setup"];
const PARENT = [-1, 0, 1, 0];
const RADII = [9, 8, 5, 6];
/** kernel and setup share one spot: only one of their labels fits, the one that comes first */
const AT = [
  { x: 20, y: 100 },
  { x: 120, y: 40 },
  { x: 220, y: 100 },
  { x: 220, y: 100 },
];

/** @param {{ color?: number[], first?: number[], colorBy?: string }} [o] */
function labelsOf({ color = [1, 1, 1, 1], first = [], colorBy } = {}) {
  const table = decodeTable(payload({ parent: PARENT, names: NAMES, metrics: { time: [10, 8, 3, 6], hue: color } }));
  const items = PARENT.map((p, row) => ({ key: row, id: row, kind: "node", parentKey: p, hidden: [] }));
  const tree = { items, byKey: new Map(items.map((it) => [it.key, it])) };
  const marks = items.map((it) => ({ key: it.key, attr: "data-id", ref: it.key, ...AT[it.key], r: RADII[it.key] }));
  const placed = viewLabels({
    table,
    stats: subtreeStats(table),
    // @ts-expect-error the view-tree items the labels read
    tree,
    // @ts-expect-error the marks' fields the labels read
    marks,
    screenOf: (key) => AT[key],
    size: { width: 300, height: 200 },
    sizes: { rMin: 2.5, labelPx: 11, maxLabelCandidates: 800 },
    measure: (text) => [...text].length * 6,
    first: new Set(first),
    colorBy,
  });
  return placed.map((l) => l.text);
}

describe("labels where the eye goes", () => {
  test("the hot path before the largest marks", () => {
    const texts = labelsOf();
    expect(texts).toContain("kernel");
    expect(texts).not.toContain("setup");
  });

  test("the colour's extremes before the hot path: its largest value, and its most negative one", () => {
    expect(labelsOf({ colorBy: "hue", color: [1, 1, 1, 5] })).toContain("setup");
    expect(labelsOf({ colorBy: "hue", color: [1, 1, 1, 5] })).not.toContain("kernel");
    // on a scale through 0 the most negative value is an extreme too
    expect(labelsOf({ colorBy: "hue", color: [9, 1, 1, -5] })).toContain("setup");
    // a scale all above 0: its smallest value is no extreme
    expect(labelsOf({ colorBy: "hue", color: [9, 1, 1, 0.5] })).toContain("kernel");
  });

  test("selected and searched nodes before everything else", () => {
    const texts = labelsOf({ colorBy: "hue", color: [1, 1, 5, 1], first: [3] });
    // placed first, right of its mark; the colour's extreme (a leaf the eye goes to) above it
    expect(texts.slice(0, 2)).toEqual(["setup", "kernel"]);
    expect(labelsOf({ colorBy: "hue", color: [1, 1, 5, 1] }).slice(0, 1)).toEqual(["kernel"]);
  });
});

describe("shortened labels keep what tells the name apart", () => {
  test("a qualified name keeps its last part, not its prefix", () => {
    expect(cutText("MPI_Allreduce", 10)).toBe("…Allreduce");
    expect(cutText("MPI_Allreduce 12%", 10)).toBe("…Allreduce");
    expect(cutText("lulesh.cycle", 8)).toBe("…cycle");
    expect(cutText("Kripke::Kernel_3d_DGZ::SweepSolver", 16)).toBe("…SweepSolver");
    // with room, the start of the name too (five characters or more), the ellipsis in the middle
    expect(cutText("Kripke::Kernel_3d_DGZ::SweepSolver", 24)).toBe("Kripke::Kern…SweepSolver");
    // no part fits whole: the start of the last one
    expect(cutText("997:MPIR_Allgather_impl", 10)).toBe("Allgather…");
    // a name shortened before (its middle elided) is cut with one ellipsis
    expect(cutText(shortenName("MPIR_Reduce_inter_knomial_wrapper_MV2"), 10)).toBe("Reduce_i…");
    expect(cutText("MPI_Allreduce (+4)", 9)).toBe("Allr… (+4)"); // a collapsed count kept
  });

  test("a plain name, or one whose last part is no name, keeps its start", () => {
    expect(cutText("LagrangeLeapFrog", 10)).toBe("LagrangeL…");
    expect(cutText("syscall-template.S:81", 10)).toBe("syscall-t…");
    expect(cutText("TIME_STEPPING", 8)).toBe("TIME_ST…"); // a capital word after "_" is no library prefix
  });

  test("a long C++ name keeps its function rather than its namespaces", () => {
    const name =
      "RAJA::policy::sequential::forall_impl<RAJA::TypedRangeSegment<long, long>>(RAJA::resources::Host, long)";
    const short = shortenName(name);
    expect([...short].length).toBeLessThanOrEqual(32);
    expect(short.endsWith("forall_impl<…>(…)")).toBe(true);
    // separators inside the parameters are no parts of the name
    expect(short).not.toContain("Host");
  });
});

describe("in the live view", () => {
  test("a selected node left unlabelled for want of room takes a label's place where one fits", async () => {
    const { mountRenderer, LABELS_AT_ONCE } = await import("../../support/mount.js");
    const { randomTree } = await import("../../support/fixtures.js");
    const { container, renderer } = mountRenderer(randomTree(300, 7), {
      width: 500,
      height: 300,
      layout: LABELS_AT_ONCE,
    });
    const labelled = () =>
      new Set([...container.querySelectorAll(".cct-labels text[data-id]")].map((t) => t.getAttribute("data-id")));
    const before = labelled();
    const unlabelled = [...container.querySelectorAll(".cct-nodes [data-id]")]
      .map((e) => e.getAttribute("data-id"))
      .filter((id) => !before.has(id));
    expect(unlabelled.length).toBeGreaterThan(2);
    // without the priority, selecting changes no label; with it, some of them (those not boxed
    // in by marks) are labelled, in the place of others
    const named = unlabelled.filter((id) => {
      renderer.setSelection([Number(id)]);
      return labelled().has(id);
    });
    expect(named.length).toBeGreaterThan(0);
    renderer.setSelection([]);
    expect(labelled()).toEqual(before);
    renderer.destroy();
    container.remove();
  });
});

describe("labels of a big view, in slices", () => {
  /** A fan's view: a root and n - 1 children in a column, the first 40 in view. @param {number} n */
  function fan(n) {
    const parent = Array.from({ length: n }, (_, i) => (i === 0 ? -1 : 0));
    const table = decodeTable(
      payload({ parent, names: parent.map((_, i) => `f${i}`), metrics: { time: parent.map((_, i) => 1 + (i % 97)) } }),
    );
    const items = parent.map((p, row) => ({ key: row, id: row, kind: "node", parentKey: p, hidden: [] }));
    const at = (/** @type {number} */ key) => ({ x: key ? 300 : 20, y: 10 + key * 20 });
    const marks = items.map((it) => ({
      key: it.key,
      attr: "data-id",
      ref: it.key,
      ...at(it.key),
      r: 1 + (it.key % 5),
    }));
    return {
      table,
      stats: subtreeStats(table),
      // @ts-expect-error the view-tree items the labels read
      tree: { items, byKey: new Map(items.map((it) => [it.key, it])) },
      // @ts-expect-error the marks' fields the labels read
      marks,
      screenOf: at,
      size: { width: 1000, height: 800 },
      sizes: { rMin: 1, labelPx: 11, maxLabelCandidates: 200 },
      measure: (text) => [...text].length * 6,
      colorBy: "time",
    };
  }
  /** @param {Generator<void, unknown, void>} steps */
  function run(steps) {
    let yields = 0;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return { yields, placed: step.value };
      yields++;
    }
  }

  test("past the candidates' count: where the eye goes, then the largest marks, ties at the cut in tree order", () => {
    // 3,000 marks in a tall frame, 30 px apart (room for every candidate's label): the root (r 9),
    // nine of r 6 (every 300th), a hundred of r 3 (1000-1099), the rest r 1; the colour's
    // largest value at 1550 (r 1)
    const n = 3000;
    const view = fan(n);
    const radius = (/** @type {number} */ k) => (k === 0 ? 9 : k % 300 === 0 ? 6 : k >= 1000 && k < 1100 ? 3 : 1);
    const at = (/** @type {number} */ key) => ({ x: key ? 300 : 20, y: 10 + key * 30 });
    view.marks = view.marks.map((m) => ({ ...m, ...at(m.key), r: radius(m.key) }));
    view.screenOf = at;
    view.size = { width: 1000, height: 10 + n * 30 };
    view.sizes = { ...view.sizes, maxLabelCandidates: 40 };
    view.table.metrics[0].values[1550] = 1000;
    const keys = viewLabels(view).map((l) => l.key);
    // the hot path (the root, its first largest child 300), the extreme (1550), every larger
    // mark (r 6), then the first of the tied at the cut (r 3) in tree order up to 40
    const larger = [300, 600, 900, 1200, 1500, 1800, 2100, 2400, 2700];
    const tied = Array.from({ length: 40 - 2 - larger.length }, (_, i) => 1000 + i);
    expect(keys.sort((a, b) => a - b)).toEqual([0, ...larger, 1550, ...tied].sort((a, b) => a - b));
  });

  test("what is on screen is read SLICE_ITEMS items a slice, and only what is in view is labelled", () => {
    const small = run(viewLabelSteps(fan(20_000)));
    const big = run(viewLabelSteps(fan(60_000)));
    expect(big.yields - small.yields).toBe((60_000 - 20_000) / SLICE_ITEMS); // every SLICE_ITEMS items more
    // read in slices, what is on screen is still the 40 nodes in view, and only they are labelled
    const keys = /** @type {{ key: number }[]} */ (big.placed).map((l) => l.key);
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.every((k) => k < 40)).toBe(true);
    expect(keys).toEqual(/** @type {{ key: number }[]} */ (small.placed).map((l) => l.key));
  });
});
