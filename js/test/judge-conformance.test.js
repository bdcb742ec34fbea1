// The cases of tests/conformance/judge-cases.json (which nodes are too small to judge) against
// js/src/cct/picture/judge.js, through the real decoder; tests/test_judge.py runs the same cases against
// cctviz/core/judge.py (the compare view's colour domain).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { decodeTable } from "../src/cct/data/decode.js";
import { judged } from "../src/cct/picture/judge.js";
import { payload } from "./support/fixtures.js";

// under jsdom, import.meta.url is not a file URL: resolve from the working directory
const cwd = process.cwd();
const file = resolve(cwd, cwd.endsWith("js") ? ".." : ".", "tests/conformance/judge-cases.json");
const SPEC = JSON.parse(readFileSync(file, "utf8"));

/** @param {{ parent: number[], names: string[], metrics: Record<string, { kind: string, partner: string | null, values: (number | null)[] }> }} tree */
function table(tree) {
  const entries = Object.entries(tree.metrics);
  return decodeTable(
    payload({
      parent: tree.parent,
      names: tree.names,
      metrics: Object.fromEntries(entries.map(([n, m]) => [n, m.values.map((v) => (v === null ? Number.NaN : v))])),
      kinds: Object.fromEntries(entries.map(([n, m]) => [n, m.kind])),
      partners: Object.fromEntries(entries.filter(([, m]) => m.partner).map(([n, m]) => [n, m.partner])),
    }),
  );
}

describe("too small to judge: the shared cases", () => {
  for (const c of SPEC.cases) {
    test(c.why, () => {
      const t = table(typeof c.tree === "string" ? SPEC.trees[c.tree] : c.tree);
      const j = judged(t, { colorBy: c.view.color, sizeBy: c.view.size, judgeBelow: c.view.below });
      const got = j ? [...j.small.keys()].filter((r) => j.small[r]) : null;
      expect(got).toEqual(c.small);
    });
  }
});
