// A compare view in the renderer: contexts only one run has are their own glyphs (square: only
// the first run, hexagon: only the second), keyed in the legend and named in the tooltip, on
// screen and in figures.
import { afterEach, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { figureSVG } from "../../../src/cct/figure/figure.js";
import { payload } from "../../support/fixtures.js";
import { newRenderer } from "../../support/mount.js";

afterEach(() => document.body.replaceChildren());

/** main → (kept, removed, added): `removed` only in "before", `added` only in "after". */
function compared() {
  const base = payload({
    parent: [-1, 0, 0, 0],
    names: ["main", "kept", "removed", "added"],
    metrics: { diff: [1, 2, Number.NaN, Number.NaN], larger: [10, 4, 3, 3] },
    kinds: { diff: "inclusive", larger: "inclusive" },
  });
  const presence = new Int32Array([0, 0, 1, 2]);
  return {
    ...base,
    series: [
      ["before", "diff"],
      ["after", "larger"],
    ],
    presence: { dtype: "int32", length: 4, buffer: new DataView(presence.buffer) },
    presence_labels: ["only in before", "only in after"],
  };
}

const STATE = { colorBy: "diff", sizeBy: "larger" };

/** Three runs of main → leaf: leaf is missing from the second run. */
function series() {
  const spec = payload({
    parent: [-1, 0],
    names: ["main", "leaf"],
    metrics: { "1: t": [8, 4], "2: t": [4, Number.NaN], "4: t": [2, 1], larger: [8, 4] },
    kinds: { "1: t": "inclusive", "2: t": "inclusive", "4: t": "inclusive", larger: "inclusive" },
  });
  return {
    ...spec,
    series: [
      ["1", "1: t"],
      ["2", "2: t"],
      ["4", "4: t"],
    ],
  };
}

describe("a compare view", () => {
  test("the payload's presence decodes, checked against the table's size", () => {
    const table = decodeTable(compared());
    expect([...(table.presence ?? [])]).toEqual([0, 0, 1, 2]);
    expect(table.presenceLabels).toEqual(["only in before", "only in after"]);
    const short = { ...compared(), presence: { dtype: "int32", length: 2, buffer: new DataView(new ArrayBuffer(8)) } };
    expect(() => decodeTable(short)).toThrow(/presence has 2 values for 4 nodes/);
    expect(decodeTable({ ...compared(), presence: undefined, presence_labels: undefined }).presence).toBeNull();
  });

  test("contexts of one run are squares and hexagons, keyed and named in the tooltip", () => {
    const container = document.body.appendChild(document.createElement("div"));
    const renderer = newRenderer(container, { width: 900, height: 500 });
    renderer.setState(STATE);
    renderer.setData(decodeTable(compared()));
    const node = (id) => container.querySelector(`.cct-node[data-id="${id}"]`);
    expect(node(1).tagName).toBe("circle");
    expect(node(2).classList.contains("cct-only-a")).toBe(true);
    expect(node(3).classList.contains("cct-only-b")).toBe(true);
    expect(node(2).getAttribute("d")).toMatch(/^M.*H.*V.*H.*Z$/); // a square
    expect(node(3).getAttribute("d").match(/L/g)).toHaveLength(5); // six corners
    const key = [...container.querySelectorAll(".cct-presence-key text")].map((t) => t.textContent);
    expect(key).toEqual(["only in before", "only in after"]);
    node(3).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(container.querySelector(".cct-tooltip-presence").textContent).toBe("only in after");
    node(1).dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    expect(container.querySelector(".cct-tooltip-presence")).toBeNull();
    // two runs: their values are rows of the tooltip, no series is drawn
    expect(container.querySelector(".cct-tooltip-series")).toBeNull();
  });

  test("the largest differences either way are labelled, each with its difference in the unit", () => {
    // main with eight children, all the same size: the hot path is main → c0; c5 grew most, c2
    // and c7 shrank most; only the hot path and the largest marks would be labelled otherwise
    const diff = [0.5, 0.01, 0.02, -3, 0.03, 0.04, 8.56, 0.05, -2];
    const spec = payload({
      parent: [-1, 0, 0, 0, 0, 0, 0, 0, 0],
      names: ["main", ...Array.from({ length: 8 }, (_, i) => `c${i}`)],
      metrics: { diff, larger: [90, 10, 10, 10, 10, 10, 10, 10, 10] },
      kinds: { diff: "inclusive", larger: "inclusive" },
    });
    const table = decodeTable({
      ...spec,
      series: [
        ["27", "larger"],
        ["512", "diff"],
      ],
    });
    const container = document.body.appendChild(document.createElement("div"));
    const renderer = newRenderer(container, { width: 900, height: 500, layout: { firstLabelsLaterAbove: Infinity } });
    renderer.setUnits({ diff: "s" });
    renderer.setState(STATE);
    renderer.setData(table);
    const labels = [...container.querySelectorAll(".cct-label")].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(["c5 +8.56 s", "c2 −3 s", "c7 −2 s"]));
    // the small differences are no finding: their labels, if any, carry no value
    expect(labels.filter((t) => /[+−]\d/.test(t))).toHaveLength(3);
    // a view that is no compare view keeps its labels' shares
    const plain = decodeTable(spec);
    renderer.setData(plain);
    expect([...container.querySelectorAll(".cct-label")].some((t) => /[+−]\d/.test(t.textContent ?? ""))).toBe(false);
  });

  test("a figure keys the two glyphs with the other glyphs, once", () => {
    const { svg } = figureSVG(decodeTable(compared()), STATE, { width: 600, height: 400 });
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const keys = [...doc.querySelectorAll(".cct-glyph-key text")].map((t) => t.textContent);
    expect(keys).toEqual(expect.arrayContaining(["only in before", "only in after"]));
    expect(doc.querySelectorAll(".cct-presence-key")).toHaveLength(0);
  });

  test("the tooltip draws a node's series across the runs, with a gap where a run lacks it", () => {
    const table = decodeTable(series());
    expect(table.series).toEqual([
      { label: "1", metric: "1: t" },
      { label: "2", metric: "2: t" },
      { label: "4", metric: "4: t" },
    ]);
    const container = document.body.appendChild(document.createElement("div"));
    const renderer = newRenderer(container, { width: 600, height: 400 });
    renderer.setState({ colorBy: "1: t", sizeBy: "larger" });
    renderer.setData(table);
    const hover = (id) =>
      container
        .querySelector(`.cct-node[data-id="${id}"]`)
        .dispatchEvent(new MouseEvent("pointermove", { bubbles: true }));
    hover(0);
    const box = container.querySelector(".cct-tooltip .cct-tooltip-series");
    expect(box.querySelectorAll(".cct-series-dot")).toHaveLength(3);
    expect(box.querySelector("svg").getAttribute("aria-label")).toBe("1: 8, 2: 4, 4: 2");
    expect(box.querySelector(".cct-tooltip-series-ends").textContent).toBe("1: 8 … 4: 2 (3 runs)");
    // falling values: each dot lower on screen than the one before
    const ys = [...box.querySelectorAll(".cct-series-dot")].map((d) => Number(d.getAttribute("cy")));
    expect(ys[0]).toBeLessThan(ys[1]);
    expect(ys[1]).toBeLessThan(ys[2]);
    hover(1);
    const gap = container.querySelector(".cct-tooltip .cct-tooltip-series");
    expect(gap.querySelectorAll(".cct-series-dot")).toHaveLength(2);
    expect(gap.querySelector(".cct-series-line").getAttribute("d").match(/M/g)).toHaveLength(2);
    // one profile: no series
    expect(decodeTable({ ...compared(), series: undefined }).series).toEqual([]);
  });
});
