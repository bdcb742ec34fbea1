import { select } from "d3-selection";
import { describe, expect, test } from "vitest";
import {
  drawColorLegend,
  drawSizeLegend,
  figureLegends,
  kindOnce,
  wrapText,
} from "../../../../src/cct/draw/legend/legend.js";
import { colorScale, sizeScale } from "../../../../src/cct/picture/scales.js";

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
    expect(ticks).toEqual(["2", "2000", ""]); // one prefix for both ends (base/format.js columnFormat)
  });

  test("both ends share the larger end's prefix: a far smaller low end is no power of ten", () => {
    const ends = (/** @type {number[]} */ values, /** @type {any} */ options) => {
      const g = group();
      drawColorLegend(g, colorScale(Float64Array.from(values), options), { title: "c", unit: "s" });
      return [...g.node().querySelectorAll(".cct-legend-tick")].map((t) => t.textContent).slice(0, 2);
    };
    // the case seen on a real profile: 4 µs beside 52.6 s printed "4e−6 s"
    expect(ends([4e-6, 3, 52.6], { type: "log" })).toEqual(["<0.001 s", "52.6 s"]);
    expect(ends([4e-6, 3, 52.6])).toEqual(["<0.001 s", "52.6 s"]);
    expect(ends([0, 52.6])).toEqual(["0 s", "52.6 s"]);
    // in microseconds (w.units "usec"): one prefix, the larger end's
    const g = group();
    drawColorLegend(g, colorScale(Float64Array.from([0.002, 52_600])), { title: "c", unit: "usec" });
    const ticks = [...g.node().querySelectorAll(".cct-legend-tick")].map((t) => t.textContent);
    expect(ticks.slice(0, 2)).toEqual(["<0.001 ms", "52.6 ms"]);
    // the size legend's circles too
    const s = group();
    drawSizeLegend(s, sizeScale(Float64Array.from([4e-6, 52.6])), { title: "size", unit: "s" });
    const sizes = [...s.node().querySelectorAll(".cct-legend-tick")].map((t) => t.textContent);
    expect(sizes.every((t) => t.endsWith(" s") && !/e/.test(t))).toBe(true);
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
    expect(labels).toEqual(["100", "400", "1600"]); // one prefix for all circles
  });
});

describe("ids on a page with several widgets", () => {
  test("two copies of the module (one per widget bundle) never give the same gradient id", async () => {
    const { vi } = await import("vitest");
    const { select } = await import("d3-selection");
    const { colorScale } = await import("../../../../src/cct/picture/scales.js");
    const ids = [];
    for (const palette of ["viridis", "magma"]) {
      vi.resetModules(); // a fresh copy of legend.js, its counter at 0 again
      const { drawColorLegend } = await import("../../../../src/cct/draw/legend/legend.js");
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
    const { drawSizeLegend } = await import("../../../../src/cct/draw/legend/legend.js");
    const { sizeScale } = await import("../../../../src/cct/picture/scales.js");
    const svg = document.body.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "svg"));
    const long = "size: inclusive#scale#sum#cupti.host.duration";
    drawSizeLegend(select(svg).append("g"), sizeScale(Float64Array.from([1, 2])), { title: long, titleWidth: 140 });
    const title = svg.querySelector(".cct-legend-title");
    expect(title.firstChild.textContent).toBe("size: inclusive#sca…");
    expect(title.querySelector("title").textContent).toBe(long);
  });
});

test("a metric's kind is said once in a title", () => {
  expect(kindOnce("size: t (inc, derived) (inclusive) [s]")).toBe("size: t (inc, derived) [s]");
  expect(kindOnce("colour: time (exc) (exclusive)")).toBe("colour: time (exc)");
  expect(kindOnce("colour: time (exclusive)")).toBe("colour: time (exclusive)");
  const g = group();
  drawSizeLegend(g, sizeScale(Float64Array.from([1])), { title: "size: t (inc, derived) (inclusive)" });
  expect(g.node()?.querySelector(".cct-legend-title")?.textContent).toBe("size: t (inc, derived)");
});

describe("figure legends", () => {
  const measure = (/** @type {string} */ text) => [...text].length * 6;

  test("wrapText: lines fit, break after spaces and # . / : _, and keep every character", () => {
    const text = "colour: inclusive#scale#sum#cupti.host.duration [s]";
    const { lines, cut } = wrapText(text, 120, measure);
    expect(cut).toBe(false);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(measure(line)).toBeLessThanOrEqual(120);
    expect(lines.join("").replaceAll(" ", "")).toBe(text.replaceAll(" ", ""));
    expect(lines[0]).toMatch(/[#.:]$|\w$/);
  });

  test("wrapText: a part wider than a line, or a fourth line, is cut with an ellipsis", () => {
    const wide = wrapText("a_very_very_long_name_without_breaks", 60, (t) => [...t].length * 6, 3);
    expect(wide.cut).toBe(true);
    for (const line of wide.lines) expect(measure(line)).toBeLessThanOrEqual(60);
    const many = wrapText("one two three four five six", 30, measure, 3);
    expect(many.lines).toHaveLength(3);
    expect(many.cut).toBe(true);
    expect(many.lines[2].endsWith("…")).toBe(true);
  });

  /** The legends drawn by the widget into a layer, then laid out again for a figure. */
  function figure(/** @type {number} */ width) {
    const layer = group();
    drawColorLegend(layer.append("g"), colorScale(Float64Array.from([2, 2000])), { title: "colour: time (exclusive)" });
    const size = sizeScale(Float64Array.from([0, 1_234_567]), { rMin: 2.5, rMax: 9 });
    drawSizeLegend(layer.append("g"), size, { title: "size: time (inc) [µs]" });
    const height = figureLegends(layer, { width, onTop: true, fontPx: 10, measure });
    return { layer: /** @type {SVGGElement} */ (layer.node()), height, size };
  }
  const ticks = (/** @type {Element} */ g) =>
    [...g.querySelectorAll(".cct-legend-tick")].map((t) => {
      const w = measure(t.textContent ?? "");
      const x = Number(t.getAttribute("x"));
      const anchor = t.getAttribute("text-anchor");
      const x0 = anchor === "middle" ? x - w / 2 : anchor === "end" ? x - w : x;
      return { x0, x1: x0 + w };
    });

  test("side by side where they fit; ticks and circles apart; titles whole", () => {
    const { layer, height, size } = figure(336);
    const [colour, sized] = [...layer.querySelectorAll(":scope > g")];
    expect(colour.getAttribute("transform")).toMatch(/translate\(8, 8\)/);
    expect(sized.getAttribute("transform")).not.toMatch(/translate\(8,/);
    expect([...sized.querySelectorAll(".cct-legend-title")].map((t) => t.textContent).join(" ")).toBe(
      "size: time (inc) [µs]",
    );
    for (const g of [colour, sized]) {
      const boxes = ticks(g).sort((a, b) => a.x0 - b.x0);
      for (let i = 1; i < boxes.length; i++) expect(boxes[i].x0).toBeGreaterThanOrEqual(boxes[i - 1].x1);
    }
    const circles = [...sized.querySelectorAll("circle")].map((c) => ({
      x: Number(c.getAttribute("cx")),
      r: Number(c.getAttribute("r")),
    }));
    expect(circles.at(-1)?.r).toBe(size.radius(size.max)); // the node marks' size
    for (let i = 1; i < circles.length; i++)
      expect(circles[i].x - circles[i].r).toBeGreaterThan(circles[i - 1].x + circles[i - 1].r);
    expect(height).toBeGreaterThan(30);
  });

  test("a narrow room stacks them and keeps fewer circles", () => {
    const wide = figure(336).height;
    const { layer, height } = figure(90);
    const groups = [...layer.querySelectorAll(":scope > g")];
    expect(groups).toHaveLength(2);
    expect(groups[1].getAttribute("transform")).toMatch(/translate\(8, /);
    expect(groups[1].querySelectorAll("circle").length).toBeLessThan(3);
    expect(height).toBeGreaterThan(wide);
  });
});
