// The pure commands, search and scene: functions of (table, state) in full-tree ids, no DOM.
import { describe, expect, test } from "vitest";
import { decodeTable } from "../src/cct/data/decode.js";
import { itemHierarchy, layoutTree, placeLevels } from "../src/cct/picture/layout.js";
import { computeMarks, linkSegments, statusText } from "../src/cct/picture/scene.js";
import { buildViewTree, subtreeStats } from "../src/cct/picture/view-tree.js";
import * as commands from "../src/cct/state/changes.js";
import { findMatches, matcher, matchSummary, revealMatches } from "../src/cct/state/search.js";
import { VIEW_DEFAULTS } from "../src/contract.js";
import { payload, smallTree } from "./fixtures.js";

const view = (state = {}) => ({ ...VIEW_DEFAULTS, colorBy: "time", sizeBy: "time (inc)", ...state });

/** main(0) → solve(4) → kernel(9), main → io(12); a fold "30 more" under main; ids ≠ rows. */
function sparse() {
  const table = decodeTable(
    payload({
      parent: [-1, 0, 1, 0, 0],
      names: ["main", "solve", "kernel", "io", "30 more"],
      metrics: { time: [1, 2, 50, 4, 300], "time (inc)": [400, 52, 50, 4, 300] },
      kinds: { time: "exclusive", "time (inc)": "inclusive" },
      partners: { time: "time (inc)", "time (inc)": "time" },
      nodeId: [0, 4, 9, 12, -1],
      folded: [0, 0, 0, 0, 30],
      total: 40,
    }),
  );
  return { table, stats: subtreeStats(table) };
}

describe("commands speak full-tree ids", () => {
  test("children, roots and collapse to depth skip fold rows", () => {
    const { table, stats } = sparse();
    expect(commands.childIds(table, stats, 0)).toEqual([4, 12]);
    expect(commands.childIds(table, stats, 77)).toEqual([]);
    expect(commands.rootIds(table, stats)).toEqual([0]);
    expect(commands.collapseToDepth(table, stats, 1)).toEqual({ collapsed: [4] });
    expect(commands.collapseToDepth(table, stats, 0)).toEqual({ collapsed: [0] });
    expect(() => commands.collapseToDepth(table, stats, -1)).toThrow(/whole number ≥ 0/);
  });

  test("toggle collapse: a leaf has nothing to collapse; other collapsed ids are kept", () => {
    const { table, stats } = sparse();
    expect(commands.toggleCollapse(table, stats, view(), 9)).toBeNull();
    expect(commands.toggleCollapse(table, stats, view({ collapsed: [77] }), 4)).toEqual({ collapsed: [77, 4] });
    expect(commands.toggleCollapse(table, stats, view({ collapsed: [4, 77] }), 4)).toEqual({ collapsed: [77] });
  });

  test("the hot path follows inclusive values, never a fold's sum", () => {
    const { table, stats } = sparse();
    const { change, path } = commands.hotPath(table, stats, view(), 0);
    expect(path).toEqual([0, 4, 9]); // the 300 of the fold does not win
    expect(change).toEqual({ collapsed: [] }); // io is a leaf: nothing to fold
  });

  test("roots menu, inclusive switch, descendants, reset", () => {
    const table = decodeTable(smallTree());
    const stats = subtreeStats(table);
    expect(commands.toggleRoot(table, stats, view(), 5)).toEqual({ roots: [0] });
    expect(commands.toggleRoot(table, stats, view({ roots: [0] }), 5)).toEqual({ roots: null });
    expect(commands.toggleRoot(table, stats, view({ roots: [0] }), 0)).toEqual({ roots: [] });
    expect(commands.inclusiveMetrics(table, view(), true)).toEqual({ colorBy: "time (inc)", sizeBy: "time (inc)" });
    expect(commands.inclusiveMetrics(table, view(), false)).toEqual({ colorBy: "time", sizeBy: "time" });
    expect(commands.withDescendants(table, stats, [1]).sort()).toEqual([1, 2, 3]);
    expect(commands.RESET).toEqual({ collapsed: [], prune: null, focus: null, roots: null, search: "" });
  });
});

describe("search", () => {
  test("matchers: substring, case, regular expressions, invalid ones", () => {
    expect(matcher("", { regex: false, caseSensitive: false })).toBeNull();
    expect(matcher("KER", { regex: false, caseSensitive: false })("kernel")).toBe(true);
    expect(matcher("KER", { regex: false, caseSensitive: true })("kernel")).toBe(false);
    expect(matcher("^k.*l$", { regex: true, caseSensitive: false })("kernel")).toBe(true);
    expect(matcher("(", { regex: true, caseSensitive: false })).toBeInstanceOf(Error);
  });

  test("revealing opens collapsed ancestors of matches, in ids; matches are counted drawn or not", () => {
    const { table } = sparse();
    const test_ = /** @type {(s: string) => boolean} */ (matcher("kern", { regex: false, caseSensitive: false }));
    expect(revealMatches(table, [4, 77], test_)).toEqual([77]);
    expect(revealMatches(table, [12], test_)).toBeNull();
    expect(findMatches(table, test_, () => true)).toEqual({ shown: [9], hidden: 0 });
    expect(findMatches(table, test_, () => false)).toEqual({ shown: [], hidden: 1 });
    expect(matchSummary(1, 2)).toBe("1 match (+2 not shown)");
  });
});

describe("scene", () => {
  /** the scene of `state`, over a new table or the given one */
  function sceneOf(state = {}, { table, stats } = sparse()) {
    const v = view(state);
    const tree = buildViewTree(table, stats, {
      collapsed: new Set(v.collapsed.map(table.rowOf).filter((r) => r >= 0)),
    });
    const keys = tree.items.reduce((m, it) => Math.max(m, it.key), 0) + 1;
    const layout = layoutTree(itemHierarchy(tree.items), { rowHeight: 28 }, keys);
    placeLevels(layout, 100);
    const scene = computeMarks({
      table,
      stats,
      tree,
      layout,
      view: v,
      sizes: { rMin: 2.5, rMax: 12, aggregateFill: "#999" },
    });
    return { table, stats, tree, layout, scene, v };
  }

  test("a collapse draws on the same scales and colours; colours over the view are made again", () => {
    const base = sparse();
    const { table } = base;
    const marksOf = (state) => sceneOf(state, base).scene;
    const whole = marksOf({});
    const folded = marksOf({ collapsed: [4] }); // solve: kernel is hidden
    expect(folded.color).toBe(whole.color);
    expect(folded.size).toBe(whole.size);
    const io = table.rowOf(12);
    expect(folded.marks[io].fill).toBe(whole.marks[io].fill);
    expect(folded.marks[table.rowOf(4)].shape).toBe("triangle"); // the glyph's own colour
    // another palette: other scales and colours
    const magma = marksOf({ collapsed: [4], palette: "magma" });
    expect(magma.color).not.toBe(whole.color);
    expect(magma.marks[io].fill).not.toBe(whole.marks[io].fill);
    // over the nodes in view the domain follows what is drawn
    const viewWhole = marksOf({ colorDomain: "view" });
    const viewFolded = marksOf({ colorDomain: "view", collapsed: [4] });
    expect(viewWhole.color.domain).toEqual([1, 50]);
    expect(viewFolded.color.domain).not.toEqual(viewWhole.color.domain);
  });

  test("marks name nodes by full-tree id and folds by their parent; folds do not set the size scale", () => {
    const { tree, scene } = sceneOf();
    const marks = tree.items.map((it) => scene.marks[it.key]);
    expect(marks.filter((m) => m.attr === "data-id").map((m) => m.ref)).toEqual([0, 4, 9, 12]);
    const fold = marks.find((m) => m.attr === "data-fold");
    expect(fold).toMatchObject({ ref: 0, shape: "diamond", id: -1 });
    expect(marks.find((m) => m.ref === 0 && m.attr === "data-id").r).toBe(12); // main (400), not the fold
    expect(scene.color.domain).toEqual([1, 50]); // over the drawn nodes: a fold is not one
  });

  test("a collapsed node is a triangle; links join drawn items; the status line counts", () => {
    const { table, stats, tree, layout, scene, v } = sceneOf({ collapsed: [4] });
    expect(scene.marks[1]).toMatchObject({ shape: "triangle", ref: 4 });
    expect(linkSegments(tree, layout)).toHaveLength(tree.items.length - 1);
    expect(statusText(table, stats, tree, v).text).toBe(
      "40 nodes · 4 loaded · 3 shown, 31 hidden · 1 root · kinds: reader's lists",
    );
  });

  test("the status line says which rule decided the kinds of the colour and size metrics", () => {
    const { table, stats, tree, v } = sceneOf();
    const ruled = {
      ...table,
      metrics: table.metrics.map((m) => ({ ...m, rule: "spot", why: `${m.name} is Caliper's x` })),
    };
    const status = statusText(ruled, stats, tree, v);
    expect(status.text).toMatch(/ · kinds: Caliper spot\.metrics$/);
    expect(status.title).toContain(`${v.colorBy}: ${table.metrics.find((m) => m.name === v.colorBy).kind}`);
    expect(status.title).toContain("is Caliper's x");
    const mixed = {
      ...ruled,
      metrics: ruled.metrics.map((m) => (m.name === v.sizeBy ? { ...m, rule: "derived" } : m)),
    };
    expect(statusText(mixed, stats, tree, v).text).toMatch(
      v.colorBy === v.sizeBy ? /kinds: derived sums$/ : /kinds: Caliper spot\.metrics \+ derived sums$/,
    );
  });

  test("the status line says whether a DAG's other call edges are drawn", () => {
    const dag = decodeTable({
      ...payload({
        parent: [-1, 0, 0, 1],
        names: ["main", "a", "b", "c"],
        metrics: { time: [1, 1, 1, 1] },
        callers: [[2, 3]], // b calls c too
      }),
      extra_edges: 1,
    });
    const stats = subtreeStats(dag);
    const { tree, v } = sceneOf({ colorBy: "time", sizeBy: "time" }, { table: dag, stats });
    expect(statusText(dag, stats, tree, v).text).toBe(
      "4 nodes · 1 root · 1 extra call edge not drawn (DAG) · kinds: reader's lists",
    );
    const drawn = statusText(dag, stats, tree, { ...v, callerEdges: true });
    expect(drawn.text).toBe("4 nodes · 1 root · 1 extra call edge drawn dashed (DAG) · kinds: reader's lists");
    expect(drawn.title).toMatch(/dashed/);
  });

  test("an unknown metric is an error naming it", () => {
    expect(() => sceneOf({ colorBy: "nope" })).toThrow(/unknown colour metric "nope"/);
  });
});
