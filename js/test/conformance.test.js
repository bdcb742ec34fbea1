// The conformance cases of what is drawn (tests/conformance/view-cases.json) against the
// browser's view-tree.js, through the real decoder. tests/test_conformance.py runs the same cases
// against cctviz/view/state.py.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { decodeTable, metricByName } from "../src/cct/data/decode.js";
import { subtreeStats } from "../src/cct/picture/subtree-stats.js";
import { buildViewTree, itemsInIds, pruneMask, viewItems, viewTreeOf } from "../src/cct/picture/view-tree.js";
import { payload } from "./support/fixtures.js";

// under jsdom, import.meta.url is not a file URL: resolve from the working directory
const cwd = process.cwd();
const file = resolve(cwd, cwd.endsWith("js") ? ".." : ".", "tests/conformance/view-cases.json");
const spec = JSON.parse(readFileSync(file, "utf-8"));
const treeOf = (c) => (typeof c.tree === "string" ? spec.trees[c.tree] : c.tree);

/** The case's tree as Python sends it, decoded by the real decoder. */
function tableOf(tree) {
  return decodeTable(
    payload({
      parent: tree.parent,
      names: tree.names,
      metrics: { value: tree.values.map((v) => (v === null ? Number.NaN : v)) },
      kinds: { value: "exclusive" },
      nodeId: tree.node_id ?? null,
      folded: tree.folded ?? null,
      total: tree.total ?? null,
    }),
  );
}

/** The case's state as the front end's view state holds it (full-tree ids), plus the colour values. */
function stateOf(c, table) {
  const { collapsed = [], prune = null, focus = null, roots = null } = c.state;
  return { collapsed, prune, focus, roots, values: metricByName(table, "value")?.values ?? null };
}

describe.each(spec.cases.map((c) => [c.name, c]))("conformance: %s", (_name, c) => {
  test("viewItems draws what the case says", () => {
    const table = tableOf(treeOf(c));
    const { items, hiddenCount } = viewItems(table, stateOf(c, table));
    expect(items, c.why).toEqual(c.items);
    expect(hiddenCount).toBe(c.hidden);
  });

  test("the row-keyed view tree behind it is consistent", () => {
    const table = tableOf(treeOf(c));
    const stats = subtreeStats(table);
    const tree = viewTreeOf(table, stats, stateOf(c, table));
    // keys are unique; every parent key is a drawn node that comes before its children
    const seen = new Set();
    for (const item of tree.items) {
      expect(seen.has(item.key)).toBe(false);
      if (item.parentKey >= 0) expect(tree.byKey.get(item.parentKey)?.kind).toBe("node");
      seen.add(item.key);
    }
    expect(itemsInIds(table, stats, tree)).toEqual(c.items);
  });
});

describe("conformance: the cases", () => {
  test("are well formed", () => {
    const names = spec.cases.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of spec.cases) {
      expect(c.why.trim()).not.toBe("");
      const hidden = c.items.filter((it) => it.kind !== "node").reduce((s, it) => s + it.hidden, 0);
      expect(hidden, c.name).toBe(c.hidden);
    }
  });

  test("buildViewTree with rows gives the same tree as viewTreeOf with ids when rows are ids", () => {
    for (const c of spec.cases.filter((k) => !treeOf(k).node_id)) {
      const table = tableOf(treeOf(c));
      const stats = subtreeStats(table);
      const { collapsed = [], prune = null, focus = null, roots = null } = c.state;
      const values = metricByName(table, "value").values;
      const inTable = (id) => id >= 0 && id < table.size;
      const rootRows =
        roots && [...new Set(roots)].filter((r) => inTable(r) && table.parent[r] < 0).sort((a, b) => a - b);
      const byRows = buildViewTree(table, stats, {
        collapsed: new Set(collapsed.filter(inTable)),
        keep: prune ? pruneMask(values, table.parent, prune) : null,
        focus: focus !== null && inTable(focus) ? focus : null,
        roots: rootRows,
      });
      expect(itemsInIds(table, stats, byRows), c.name).toEqual(c.items);
    }
  });
});
