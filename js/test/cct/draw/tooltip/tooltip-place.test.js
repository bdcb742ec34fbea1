// The tooltip stays inside the widget's box: beside the pointer, flipped at the widget's edges,
// scaled down where it is larger than the widget (a compare view's series, long metric names).
import { afterEach, describe, expect, test } from "vitest";
import { decodeTable } from "../../../../src/cct/data/decode.js";
import { placeTooltip } from "../../../../src/cct/draw/tooltip/tooltip.js";
import { payload } from "../../../support/fixtures.js";
import { newRenderer } from "../../../support/mount.js";

afterEach(() => document.body.replaceChildren());

describe("the tooltip's place", () => {
  test("beside the pointer, flipped at the widget's edges, scaled down where the widget is smaller", () => {
    const stage = { W: 600, H: 300 };
    const inside = (p, w, h) =>
      p.left >= 0 && p.top >= 0 && p.left + w * p.scale <= stage.W && p.top + h * p.scale <= stage.H;
    expect(placeTooltip({ x: 10, y: 10, w: 200, h: 100, ...stage })).toEqual({ left: 24, top: 24, scale: 1 });
    // near the right and bottom edges: left of and above the pointer
    expect(placeTooltip({ x: 590, y: 290, w: 200, h: 100, ...stage })).toEqual({ left: 376, top: 176, scale: 1 });
    // wide (a series with long run names) in the middle: no side has room, against the edge
    const wide = placeTooltip({ x: 300, y: 150, w: 420, h: 120, ...stage });
    expect(wide.left).toBe(180);
    expect(inside(wide, 420, 120)).toBe(true);
    // taller than the stage: scaled to fit
    const tall = placeTooltip({ x: 500, y: 280, w: 300, h: 450, ...stage });
    expect(tall.scale).toBeCloseTo(300 / 450);
    expect(inside(tall, 300, 450)).toBe(true);
    for (let x = 0; x <= stage.W; x += 50)
      for (let y = 0; y <= stage.H; y += 50)
        expect(inside(placeTooltip({ x, y, w: 380, h: 260, ...stage }), 380, 260)).toBe(true);
  });

  test("a compare view's series tooltip by the widget's right edge stays inside it", () => {
    const spec = payload({
      parent: [-1, 0],
      names: ["main", "leaf"],
      metrics: { "1: t": [8, 4], "2: t": [4, 3], "4: t": [2, 1], larger: [8, 4] },
      kinds: { "1: t": "inclusive", "2: t": "inclusive", "4: t": "inclusive", larger: "inclusive" },
    });
    const series = {
      ...spec,
      series: [
        ["1", "1: t"],
        ["2", "2: t"],
        ["4", "4: t"],
      ],
    };
    const container = document.body.appendChild(document.createElement("div"));
    const renderer = newRenderer(container, { width: 600, height: 300 });
    renderer.setState({ colorBy: "1: t", sizeBy: "larger" });
    renderer.setData(decodeTable(series));
    // jsdom lays nothing out: the sizes a browser gives (a 400 × 280 tooltip in a 600 × 260 widget)
    const tip = container.querySelector(".cct-tooltip");
    const widget = container.querySelector(".cct-root");
    Object.defineProperties(tip, { offsetWidth: { value: 400 }, offsetHeight: { value: 280 } });
    Object.defineProperties(widget, { clientWidth: { value: 600 }, clientHeight: { value: 260 } });
    const node = container.querySelector('.cct-node[data-id="1"]');
    node.dispatchEvent(new MouseEvent("pointermove", { bubbles: true, clientX: 590, clientY: 250 }));
    expect(tip.hidden).toBe(false);
    expect(tip.querySelector(".cct-tooltip-series")).not.toBeNull();
    const left = Number.parseFloat(tip.style.left);
    const top = Number.parseFloat(tip.style.top);
    const scale = Number(tip.style.transform.match(/scale\(([\d.]+)\)/)?.[1] ?? 1);
    expect(scale).toBeCloseTo(260 / 280);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(left + 400 * scale).toBeLessThanOrEqual(600);
    expect(top + 280 * scale).toBeLessThanOrEqual(260);
  });
});
