// The legends on top keep within the stage (js/src/cct/draw/legend/view-legends.js): in a cell
// whose table pane takes half the width, the grey nodes' key "too small to judge" goes on two
// lines rather than past the stage's right edge. jsdom measures no text: widths are the same
// estimate the legends use where nothing measures (draw/labels/text-measure.js).
import { select } from "d3-selection";
import { describe, expect, test } from "vitest";
import { textMeasure } from "../../../../src/cct/draw/labels/text-measure.js";
import { drawLegends, LEGEND_PX, SMALL_KEY } from "../../../../src/cct/draw/legend/view-legends.js";
import { colorScale, sizeScale } from "../../../../src/cct/picture/scales.js";

const measure = textMeasure(document, LEGEND_PX, "sans-serif");

function legends(width, scale = 1) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  document.body.appendChild(svg);
  const layer = select(svg).append("g");
  drawLegends(layer, {
    legends: [{ tree: null, scale: colorScale(Float64Array.from([1, 1000])) }],
    size: sizeScale(Float64Array.from([1, 1000]), { rMin: 2, rMax: 12 }),
    colorTitle: "time (inc) [s]",
    sizeTitle: "time (inc) [s]",
    onTop: true,
    scale,
    small: "too small to judge: under 1 % of time (inc)",
    width,
  });
  return svg.querySelector(".cct-small-key");
}

/** The lines of the key and the right end of each, in the stage's pixels. */
function lineEnds(key, scale = 1) {
  const x = Number(/translate\(([\d.]+)/.exec(key.getAttribute("transform"))[1]);
  return [...key.querySelectorAll("tspan")].map((t) => ({
    text: t.textContent,
    right: (x + Number(t.getAttribute("x")) + measure(t.textContent)) * scale,
  }));
}

describe("the legends on top within the stage", () => {
  test("beside a wide table pane (a stage about 420 px wide) the key wraps and fits", () => {
    const lines = lineEnds(legends(420));
    expect(lines.length).toBe(2);
    expect(lines.map((l) => l.text).join(" ")).toBe(SMALL_KEY); // all of it, on two lines
    for (const line of lines) expect(line.right).toBeLessThanOrEqual(420);
  });

  test("scaled legends (figures) fit their stage too; a wide stage keeps one line", () => {
    for (const l of lineEnds(legends(560, 1.25), 1.25)) expect(l.right).toBeLessThanOrEqual(560);
    expect(lineEnds(legends(900)).map((l) => l.text)).toEqual([SMALL_KEY]);
    expect(lineEnds(legends(0)).map((l) => l.text)).toEqual([SMALL_KEY]); // width not known
  });

  test("the whole rule stays in the key's hover text", () => {
    expect(legends(420).querySelector("title").textContent).toContain("under 1 % of time (inc)");
  });
});
