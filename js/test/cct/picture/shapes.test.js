// A compare view's squares and hexagons (contexts only one run has) keep a size at which they
// can be told from circles, however small their node's value (js/src/cct/picture/shapes.js, scene.js).
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { forestOf, layoutTree, placeLevels } from "../../../src/cct/picture/layout.js";
import { computeMarks } from "../../../src/cct/picture/scene.js";
import { glyphRadius, SHAPED_MIN_R, shapePath } from "../../../src/cct/picture/shapes.js";
import { subtreeStats } from "../../../src/cct/picture/subtree-stats.js";
import { buildViewTree } from "../../../src/cct/picture/view-tree.js";
import { VIEW_DEFAULTS } from "../../../src/contract.js";
import { payload } from "../../support/fixtures.js";

/** main → (kept, removed, added, tiny): all but main with the smallest size there is. */
function compared() {
  const base = payload({
    parent: [-1, 0, 0, 0, 0],
    names: ["main", "kept", "removed", "added", "tiny"],
    metrics: { larger: [1000, 0, 0, Number.NaN, 0] },
    kinds: { larger: "inclusive" },
  });
  const presence = new Int32Array([0, 0, 1, 2, 0]);
  return {
    ...base,
    presence: { dtype: "int32", length: 5, buffer: new DataView(presence.buffer) },
    presence_labels: ["only in before", "only in after"],
  };
}

/** The bounding box of an SVG path made of absolute M, L, H, V and Z commands. */
function box(d) {
  const xs = [];
  const ys = [];
  let x = 0;
  let y = 0;
  for (const [, cmd, args] of d.matchAll(/([MLHVZ])([^MLHVZ]*)/g)) {
    const n = args.split(/[ ,]/).filter(Boolean).map(Number);
    if (cmd === "H") x = n[0];
    else if (cmd === "V") y = n[0];
    else if (cmd !== "Z") [x, y] = n;
    xs.push(x);
    ys.push(y);
  }
  return { width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
}

describe("shaped marks", () => {
  test("a square or a hexagon of a 5 px node is drawn at the smallest size that shows its shape", () => {
    const table = decodeTable(compared());
    const stats = subtreeStats(table);
    const view = { ...VIEW_DEFAULTS, colorBy: "larger", sizeBy: "larger" };
    const tree = buildViewTree(table, stats, { collapsed: new Set() });
    const layout = layoutTree(forestOf(tree.items), { rowHeight: 28 }, tree.items.length);
    placeLevels(layout, 100);
    const sizes = { rMin: 2.5, rMax: 12, aggregateFill: "#999" };
    const { marks } = computeMarks({ table, stats, tree, layout, view, sizes });
    const byName = Object.fromEntries(marks.map((m) => [m.label, m]));
    // circles keep their size (a value's area); the shapes of one run's contexts do not shrink
    expect(byName.kept).toMatchObject({ shape: "circle", r: 2.5 });
    expect(byName.tiny.r).toBe(2.5);
    expect(byName.removed).toMatchObject({ shape: "square", r: SHAPED_MIN_R });
    expect(byName.added).toMatchObject({ shape: "hexagon", r: SHAPED_MIN_R });
    expect(byName.main.r).toBeGreaterThan(SHAPED_MIN_R); // a large one keeps its own size
    // at that size a square's sides and a hexagon's span several pixels (seen on a 1x picture)
    const square = box(shapePath("square", 0, 0, byName.removed.r));
    expect(square.width).toBeGreaterThanOrEqual(10);
    expect(square.height).toBe(square.width);
    const hexagon = box(shapePath("hexagon", 0, 0, byName.added.r));
    expect(hexagon.height).toBeGreaterThanOrEqual(12);
  });

  test("the smallest radius holds for shaped marks only", () => {
    expect(glyphRadius("circle", 1)).toBe(1);
    expect(glyphRadius("triangle", 1)).toBe(1);
    expect(glyphRadius("diamond", 1)).toBe(1);
    expect(glyphRadius("square", 1)).toBe(SHAPED_MIN_R);
    expect(glyphRadius("hexagon", 9)).toBe(9);
  });
});
