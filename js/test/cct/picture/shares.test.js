// Shares ("40 % of total", labels' "40%", the legend's ends): only for metrics Python gives a
// base (share_base in cctviz/view/payload.py), always that base's inclusive value at the roots or at
// the focus, never a sum of exclusive values.
import { afterEach, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { focusTotals, shareBase, totals } from "../../../src/cct/picture/shares.js";
import { payload } from "../../support/fixtures.js";
import { mountRenderer } from "../../support/mount.js";

afterEach(() => document.body.replaceChildren());

/**
 * An HPCToolkit-like tree: a procedure's exclusive time is repeated by its loop and its line
 * (Σ exclusive 18, the program's time 10), beside a compare view's columns: a run's values
 * (shares), a difference (adds up, no share), a ratio and an efficiency (no share).
 */
function hpctoolkitLike() {
  return payload({
    parent: [-1, 0, 1, 2, 3, 1],
    names: ["<program root>", "main", "kernel", "Loop@k.c:9", "k.c:10", "other"],
    metrics: {
      time: [0, 0, 4, 4, 4, 6],
      "time (inc)": [10, 10, 4, 4, 4, 6],
      "a: t": [20, 20, 8, 8, 8, 12],
      "Δ t (b − a)": [-10, -10, 4, 4, 4, -18],
      "b ÷ a": [0.5, 0.5, 1.5, 1.5, 1.5, 0.25],
      "parallel efficiency (1 → 2, strong scaling)": [1, 1, 0.3, 0.3, 0.3, 2],
    },
    kinds: {
      time: "exclusive",
      "time (inc)": "inclusive",
      "a: t": "inclusive",
      "Δ t (b − a)": "inclusive",
      "b ÷ a": "ratio",
      "parallel efficiency (1 → 2, strong scaling)": "ratio",
    },
    partners: { time: "time (inc)", "time (inc)": "time" },
    shares: { "Δ t (b − a)": null }, // as a compare view sends it
  });
}

const mount = (state) => mountRenderer(hpctoolkitLike(), { state });

/** The tooltip's share cell of each metric row, by metric name, after hovering node `id`. */
function tooltipShares(container, id) {
  container.querySelector(`.cct-node[data-id="${id}"]`).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
  const rows = [...container.querySelectorAll(".cct-tooltip .cct-tooltip-metrics tr")];
  return Object.fromEntries(
    rows.map((r) => [
      r.querySelector("th").textContent.replace(/ \((colour|size)(, size)?\)$/, ""),
      r.querySelector(".cct-share").textContent,
    ]),
  );
}

describe("shares", () => {
  test("an exclusive metric's base is its inclusive partner at the roots, not the sum of exclusive values", () => {
    const table = decodeTable(hpctoolkitLike());
    const metric = (name) => table.metrics.find((m) => m.name === name);
    expect(shareBase(table, metric("time"))?.name).toBe("time (inc)");
    expect(totals(table).get("time")).toBe(10); // the program's time; Σ exclusive is 18
    expect(totals(table).get("time (inc)")).toBe(10);
    expect(totals(table).get("a: t")).toBe(20);
    // no share: a difference, a ratio, an efficiency
    for (const name of ["Δ t (b − a)", "b ÷ a", "parallel efficiency (1 → 2, strong scaling)"]) {
      expect(shareBase(table, metric(name))).toBeNull();
      expect(totals(table).has(name)).toBe(false);
    }
    // focused on kernel: its inclusive value, for both of its metrics
    expect(focusTotals(table, 2)?.get("time")).toBe(4);
    expect(focusTotals(table, 2)?.get("time (inc)")).toBe(4);
    expect(focusTotals(table, -1)).toBeNull();
  });

  test("tooltips give shares of what adds up only, exclusive and inclusive alike", () => {
    const { container, renderer } = mount({ colorBy: "Δ t (b − a)", sizeBy: "time (inc)" });
    const shares = tooltipShares(container, 2);
    // kernel: 4 of the program's 10, exclusive as inclusive (not 4 of Σ exclusive 18: 22 %)
    expect(shares.time).toBe("40 % of total");
    expect(shares["time (inc)"]).toBe("40 % of total");
    expect(shares["a: t"]).toBe("40 % of total");
    expect(shares["Δ t (b − a)"]).toBe(""); // not "-40 % of total"
    expect(shares["b ÷ a"]).toBe("");
    expect(shares["parallel efficiency (1 → 2, strong scaling)"]).toBe("");
    renderer.setState({ focus: 1 });
    expect(tooltipShares(container, 3).time).toBe("40 % of total · 40 % of focus");
  });

  test("labels and the legend's ends: a share of the inclusive total, none for a difference", () => {
    const { container, renderer } = mount({ colorBy: "time", sizeBy: "time", legendShare: "total" });
    const labels = () => [...container.querySelectorAll(".cct-labels text")].map((t) => t.textContent);
    expect(labels()).toEqual(expect.arrayContaining(["kernel 40%", "other 60%"]));
    const legend = () => container.querySelector(".cct-color-legend").textContent;
    expect(legend()).toContain("% of total");
    expect(legend()).toContain("60 %"); // the largest exclusive value, 6 of 10 (not 33 %)
    renderer.setState({ colorBy: "Δ t (b − a)", sizeBy: "Δ t (b − a)" });
    expect(legend()).not.toContain("%");
    expect(labels().some((t) => /\d%$/.test(t))).toBe(false);
    renderer.setState({ colorBy: "b ÷ a" });
    expect(legend()).not.toContain("%");
  });
});
