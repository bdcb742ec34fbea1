import { select } from "d3-selection";
import { describe, expect, test } from "vitest";
import { drawColorLegend, drawSizeLegend } from "../src/cct/legend.js";
import { colorScale, sizeScale } from "../src/cct/scales.js";

function group() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  document.body.appendChild(svg);
  return select(svg).append("g");
}

describe("legends", () => {
  test("colour legend: gradient of the palette from the domain's low to high end", () => {
    const g = group();
    const scale = colorScale(Float64Array.from([2, 4, 2000]));
    drawColorLegend(g, scale, { title: "colour: time (exclusive)" });
    const node = g.node();
    expect(node.querySelector(".cct-legend-title").textContent).toBe("colour: time (exclusive)");
    const stops = [...node.querySelectorAll("stop")];
    expect(stops[0].getAttribute("stop-color")).toBe(scale.interpolator(0));
    expect(stops.at(-1).getAttribute("stop-color")).toBe(scale.interpolator(1));
    const bar = node.querySelector(".cct-legend-bar");
    const gradientId = node.querySelector("linearGradient").id;
    expect(bar.getAttribute("fill")).toBe(`url(#${gradientId})`);
    const ticks = [...node.querySelectorAll(".cct-legend-tick")].map((t) => t.textContent);
    expect(ticks).toEqual(["2", "2k", ""]);
  });

  test("log colour legend says so", () => {
    const g = group();
    drawColorLegend(g, colorScale(Float64Array.from([1, 1000]), { type: "log" }), { title: "c" });
    expect(g.node().textContent).toContain("log");
  });

  test("colour legend with nothing to colour says so instead of a bar", () => {
    const g = group();
    drawColorLegend(g, colorScale(Float64Array.from([Number.NaN])), { title: "c" });
    expect(g.node().querySelector(".cct-legend-bar")).toBeNull();
    expect(g.node().textContent).toContain("no values to colour");
  });

  test("two legends on one page get distinct gradient ids", () => {
    const a = group();
    const b = group();
    const s = colorScale(Float64Array.from([0, 1]));
    drawColorLegend(a, s, { title: "a" });
    drawColorLegend(b, s, { title: "b" });
    expect(a.node().querySelector("linearGradient").id).not.toBe(b.node().querySelector("linearGradient").id);
  });

  test("size legend: circles for a sixteenth, a quarter and all of the maximum", () => {
    const g = group();
    const scale = sizeScale(Float64Array.from([0, 1600]), { rMin: 2, rMax: 12 });
    drawSizeLegend(g, scale, { title: "size: time (inc) (inclusive)" });
    const radii = [...g.node().querySelectorAll("circle")].map((c) => Number(c.getAttribute("r")));
    expect(radii).toEqual([scale.radius(100), scale.radius(400), scale.radius(1600)]);
    const labels = [...g.node().querySelectorAll(".cct-legend-tick")].map((t) => t.textContent);
    expect(labels).toEqual(["100", "400", "1.6k"]);
  });
});

describe("ids on a page with several widgets", () => {
  test("two copies of the module (one per widget bundle) never give the same gradient id", async () => {
    const { vi } = await import("vitest");
    const { select } = await import("d3-selection");
    const { colorScale } = await import("../src/cct/scales.js");
    const ids = [];
    for (const palette of ["viridis", "magma"]) {
      vi.resetModules(); // a fresh copy of legend.js, its counter at 0 again
      const { drawColorLegend } = await import("../src/cct/legend.js");
      const svg = document.body.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "svg"));
      drawColorLegend(select(svg).append("g"), colorScale(Float64Array.from([1, 2]), { palette }), { title: "t" });
      const gradient = svg.querySelector("linearGradient");
      ids.push(gradient.id);
      // the bar paints with its own gradient, whose first stop is its own palette's
      expect(svg.querySelector(".cct-legend-bar").getAttribute("fill")).toBe(`url(#${gradient.id})`);
    }
    expect(ids[0]).not.toBe(ids[1]);
    expect(document.querySelectorAll(`[id="${ids[1]}"]`)).toHaveLength(1);
  });
});

describe("legend titles", () => {
  test("a title longer than its room is cut at the end, whole in its tooltip", async () => {
    const { select } = await import("d3-selection");
    const { drawSizeLegend } = await import("../src/cct/legend.js");
    const { sizeScale } = await import("../src/cct/scales.js");
    const svg = document.body.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "svg"));
    const long = "size: inclusive#scale#sum#cupti.host.duration";
    drawSizeLegend(select(svg).append("g"), sizeScale(Float64Array.from([1, 2])), { title: long, titleWidth: 140 });
    const title = svg.querySelector(".cct-legend-title");
    expect(title.firstChild.textContent).toBe("size: inclusive#sca…");
    expect(title.querySelector("title").textContent).toBe(long);
  });
});
