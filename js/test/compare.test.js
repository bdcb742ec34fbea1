// A compare view in the renderer: contexts only one run has are their own glyphs (square: only
// the first run, hexagon: only the second), keyed in the legend and named in the tooltip, on
// screen and in figures.
import { afterEach, describe, expect, test } from "vitest";
import { decodeTable } from "../src/cct/decode.js";
import { figureSVG } from "../src/cct/figure.js";
import { createRenderer } from "../src/cct/renderer.js";
import { payload } from "./fixtures.js";

afterEach(() => document.body.replaceChildren());

/** main → (kept, removed, added): `removed` only in "before", `added` only in "after". */
function compared() {
  const spec = payload({
    parent: [-1, 0, 0, 0],
    names: ["main", "kept", "removed", "added"],
    metrics: { diff: [1, 2, Number.NaN, Number.NaN], larger: [10, 4, 3, 3] },
    kinds: { diff: "inclusive", larger: "inclusive" },
  });
  const presence = new Int32Array([0, 0, 1, 2]);
  return {
    ...spec,
    presence: { dtype: "int32", length: 4, buffer: new DataView(presence.buffer) },
    presence_labels: ["before", "after"],
  };
}

const STATE = { colorBy: "diff", sizeBy: "larger" };

describe("a compare view", () => {
  test("the payload's presence decodes, checked against the table's size", () => {
    const table = decodeTable(compared());
    expect([...(table.presence ?? [])]).toEqual([0, 0, 1, 2]);
    expect(table.presenceLabels).toEqual(["before", "after"]);
    const short = { ...compared(), presence: { dtype: "int32", length: 2, buffer: new DataView(new ArrayBuffer(8)) } };
    expect(() => decodeTable(short)).toThrow(/presence has 2 values for 4 nodes/);
    expect(decodeTable({ ...compared(), presence: undefined, presence_labels: undefined }).presence).toBeNull();
  });

  test("contexts of one run are squares and hexagons, keyed and named in the tooltip", () => {
    const container = document.body.appendChild(document.createElement("div"));
    const renderer = createRenderer(container, { width: 900, height: 500 });
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
  });

  test("a figure keys the two glyphs with the other glyphs, once", () => {
    const { svg } = figureSVG(decodeTable(compared()), STATE, { width: 600, height: 400 });
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const keys = [...doc.querySelectorAll(".cct-glyph-key text")].map((t) => t.textContent);
    expect(keys).toEqual(expect.arrayContaining(["only in before", "only in after"]));
    expect(doc.querySelectorAll(".cct-presence-key")).toHaveLength(0);
  });
});
