import { bin } from "d3-array";
import { describe, expect, test } from "vitest";
import { createToolbar } from "../../../src/cct/input/toolbar.js";

// The prune histogram counts each slider step once (no list of values): its bars must be the
// ones d3's own bins of the values give.
const STEPS = 1000;
const HEIGHT = 22;

/** Bar heights as d3 bins every drawable value, mapped to its slider step. */
function reference(values, type) {
  const ok = [...values].filter((v) => Number.isFinite(v) && (type !== "log" || v > 0));
  const lo = Math.min(...ok);
  const hi = Math.max(...ok);
  const t = (v) =>
    type === "log" ? (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : (v - lo) / (hi - lo);
  const steps = ok.map((v) => Math.round(Math.max(0, Math.min(1, t(v))) * STEPS));
  const bins = bin().domain([0, STEPS]).thresholds(40)(steps);
  const top = Math.max(...bins.map((b) => b.length));
  return bins.map((b) => (b.length ? Math.max(1, (Math.log1p(b.length) / Math.log1p(top)) * HEIGHT) : 0));
}

function bars(values, type) {
  const parent = document.createElement("div");
  const toolbar = createToolbar(parent, () => {});
  toolbar.setHistogram(values, type, null, 0);
  return [...parent.querySelectorAll(".cct-histogram rect")].map((r) => Number(r.getAttribute("height")));
}

describe("prune histogram", () => {
  // values on bin edges (0, 25, 1000 steps…), NaN, infinities and, for log, values ≤ 0
  const values = new Float64Array([0, 0.025, 0.025, 0.05, 0.5, 0.5, 0.5, 0.975, 1, 1, NaN, Infinity, -Infinity]);
  const spread = Float64Array.from({ length: 5000 }, (_, i) => Math.exp(Math.sin(i) * 6) - (i % 97 === 0 ? 50 : 0));

  test.each([
    ["linear", values],
    ["linear", spread],
    ["log", spread],
  ])("%s scale: the bars are d3's bins of the values", (type, v) => {
    const drawn = bars(v, type);
    expect(drawn.length).toBeGreaterThan(30);
    expect(drawn).toEqual(reference(v, type));
    expect(drawn.filter((h) => h > 0).length).toBeGreaterThan(2);
  });
});
