// The view of an explained change (`ens.explain`): a compare view whose runs are keyed by long
// labels ("launchdate 2025-06-11 … 2025-06-18 (median of 5)") and whose changed node is selected.
// The legends' column shows the colour title and both run keys whole, on as many lines as they
// need, and what follows them moves down; the selected node keeps its own colour, its ring drawn
// around the mark (canvas: js/test/cct/draw/canvas/canvas.test.js).
import { afterEach, describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { textMeasure } from "../../../src/cct/draw/labels/text-measure.js";
import { payload } from "../../support/fixtures.js";
import { newRenderer } from "../../support/mount.js";

afterEach(() => document.body.replaceChildren());

const BEFORE = "launchdate 2025-06-11 … 2025-06-18 (median of 5)";
const AFTER = "launchdate 2025-06-21 … 2025-06-29 (median of 5)";
const DIFF = `Δ time (inc) (${AFTER} − ${BEFORE})`;

/** main → (Pack → (Gather, Unpack), only-before, only-after): Unpack grew most. */
function explained() {
  const base = payload({
    parent: [-1, 0, 1, 1, 0, 0],
    names: ["main", "Pack", "Gather", "Unpack", "gone", "new"],
    metrics: { [DIFF]: [2.4, 2.3, 0.05, 2.25, Number.NaN, Number.NaN], larger: [40, 20, 8, 10, 3, 3] },
    kinds: { [DIFF]: "inclusive", larger: "inclusive" },
  });
  return decodeTable({
    ...base,
    series: [
      [BEFORE, "larger"],
      [AFTER, DIFF],
    ],
    presence: { dtype: "int32", length: 6, buffer: new DataView(new Int32Array([0, 0, 0, 0, 1, 2]).buffer) },
    presence_labels: [`only in ${BEFORE}`, `only in ${AFTER}`],
  });
}

/** @param {HTMLElement} container @param {string} selector */
const translateY = (container, selector) =>
  Number(/translate\([\d.]+, ([\d.]+)\)/.exec(container.querySelector(selector).getAttribute("transform"))[1]);

function mount() {
  const container = document.body.appendChild(document.createElement("div"));
  const renderer = newRenderer(container, { width: 900, height: 500 });
  renderer.setState({ colorBy: DIFF, sizeBy: "larger" });
  renderer.setData(explained());
  return { container, renderer };
}

describe("the view of an explained change", () => {
  test("the colour title and the run keys are whole, wrapped within the legends' column", () => {
    const { container } = mount();
    const title = container.querySelector(".cct-color-legend .cct-legend-title");
    expect(title.textContent).toBe(`colour: ${DIFF}`); // every character, none cut
    expect(title.textContent).not.toContain("…launch");
    const lines = [...title.querySelectorAll("tspan")];
    expect(lines.length).toBeGreaterThan(2);
    const measure = textMeasure(document, 11, "sans-serif");
    for (const line of lines) expect(measure(line.textContent.trimEnd()) * 1.05).toBeLessThanOrEqual(176);
    expect(title.querySelector("title")).toBeNull(); // nothing cut: no tooltip needed
    // the bar below the title's last line, the size legend below the bar
    const bar = container.querySelector(".cct-color-legend .cct-legend-bar");
    expect(Number(bar.getAttribute("y"))).toBe(6 + 13 * (lines.length - 1));
    const sizeTop = translateY(container, ".cct-size-legend");
    expect(sizeTop).toBe(16 + 46 + 13 * (lines.length - 1));
    // each run key whole, on lines of the column, the second below the first's last line
    const keys = [...container.querySelectorAll(".cct-presence-key text")];
    expect(keys.map((k) => k.textContent)).toEqual([`only in ${BEFORE}`, `only in ${AFTER}`]);
    for (const key of keys) {
      const parts = [...key.querySelectorAll("tspan")];
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect(measure(part.textContent.trimEnd())).toBeLessThanOrEqual(156);
    }
    const firstLines = keys[0].querySelectorAll("tspan").length;
    expect(Number(keys[1].getAttribute("y"))).toBe(Number(keys[0].getAttribute("y")) + 16 + 13 * (firstLines - 1));
    // labels keep out of the legends as drawn: their end is known to the view
    const bottom = Number(container.querySelector(".cct-legends").getAttribute("data-bottom"));
    expect(bottom).toBeGreaterThan(translateY(container, ".cct-presence-key") + Number(keys[1].getAttribute("y")));
  });

  test("in a narrow view the keys are cut on one line, whole in their tooltips", () => {
    const { container, renderer } = mount();
    renderer.resize(450, 500);
    const keys = [...container.querySelectorAll(".cct-presence-key text")];
    expect(keys.map((k) => k.querySelectorAll("tspan").length)).toEqual([1, 1]);
    expect(keys[0].querySelector("tspan").textContent).toContain("…");
    expect(keys.map((k) => k.querySelector("title")?.textContent)).toEqual([`only in ${BEFORE}`, `only in ${AFTER}`]);
  });

  test("the selected node keeps its own colour, its ring drawn around the mark (SVG)", () => {
    const { container, renderer } = mount();
    const node = () => container.querySelector('.cct-node[data-id="3"]');
    const fill = node().getAttribute("fill");
    expect(fill).toMatch(/^#[0-9a-f]{6}$|^rgb/);
    renderer.setSelection([3]);
    expect(node().classList.contains("cct-selected")).toBe(true);
    expect(node().getAttribute("fill")).toBe(fill); // the data colour, not the selection's
    expect(node().getAttribute("paint-order")).toBe("stroke"); // the fill over the ring's inner half
    renderer.setSelection([2]);
    expect(node().getAttribute("paint-order")).toBeNull(); // an unselected node: its outline as before
  });
});
