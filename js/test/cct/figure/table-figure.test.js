// The tree-table figure (js/src/cct/figure/table-figure.js) in jsdom: its rows, columns and
// shares as the pane prints them, names as text, and its size in the width's unit.
import { describe, expect, test } from "vitest";
import { heightAttr, tableFigureSVG } from "../../../src/cct/figure/table-figure.js";

const data = {
  columns: ["time (inc)", "ratio"],
  totals: [200, null],
  name: ["main", '<script>alert("x")</script>', "solve"],
  depth: [0, 1, 1],
  values: [
    [200, 150, null],
    [1.5, 2, 3],
  ],
};

const parse = (svg) => new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
const texts = (root, cls) => [...root.querySelectorAll(`[class~="${cls}"]`)].map((e) => e.textContent);

describe("tree-table figure", () => {
  test("rows indented by depth, values and shares as the pane prints them, names as text", () => {
    const { svg, width, height } = tableFigureSVG(document, data, { provenance: { generator: "cctviz" } });
    const root = parse(svg);
    expect(root.querySelector("parsererror")).toBeNull();
    expect(root.querySelector("script")).toBeNull();
    expect(texts(root, "cct-table-name")).toEqual(["main", '<script>alert("x")</script>', "solve"]);
    expect(texts(root, "cct-table-value")).toEqual(["200", "1.5", "150", "2", "–", "3"]); // row by row
    expect(texts(root, "cct-table-share")).toEqual(["100 %", "75 %"]); // none for the ratio, none missing
    const [main, child] = root.querySelectorAll("[class~='cct-table-name']");
    expect(Number(child.getAttribute("x"))).toBeGreaterThan(Number(main.getAttribute("x")));
    expect(root.getAttribute("viewBox")).toBe(`0 0 ${width} ${height}`);
    expect(root.querySelector("title").textContent).toBe("Tree-table (3 rows: time (inc), ratio)");
    expect(JSON.parse(root.querySelector("metadata > *:last-child").textContent)).toEqual({ generator: "cctviz" });
  });

  test("a column's unit is in its header with the one prefix its values fit, as in the pane", () => {
    const small = {
      ...data,
      values: [
        [0.00552, 0.000345, null],
        [1.5, 2, 3],
      ],
      totals: [0.00552, null],
    };
    const { svg } = tableFigureSVG(document, small, { units: { "time (inc)": "s" } });
    const root = parse(svg);
    const heads = [...root.querySelectorAll("text[font-weight='600']")].map((e) => e.textContent);
    expect(heads).toEqual(["name", "time (inc) [µs]", "ratio"]);
    expect(texts(root, "cct-table-value")).toEqual(["5520", "1.5", "345", "2", "–", "3"]);
    // columns of one unit share the prefix that fits them all
    const shared = tableFigureSVG(document, small, { units: { "time (inc)": "s", ratio: "s" } }).svg;
    const both = [...parse(shared).querySelectorAll("text[font-weight='600']")].map((e) => e.textContent);
    expect(both).toEqual(["name", "time (inc) [ms]", "ratio [ms]"]);
    expect(texts(parse(shared), "cct-table-value")).toEqual(["5.52", "1500", "0.345", "2000", "–", "3000"]);
  });

  test("units follow the column's name; a width keeps the table's proportions in its unit", () => {
    const { svg, width, height } = tableFigureSVG(document, data, {
      units: { "time (inc)": "s" },
      width: 336,
      widthAttr: "3.5in",
      title: "Table 1",
    });
    const root = parse(svg);
    const heads = [...root.querySelectorAll("text[font-weight='600']")].map((e) => e.textContent);
    expect(heads).toEqual(["Table 1", "name", "time (inc) [s]", "ratio"]);
    expect(root.getAttribute("width")).toBe("3.5in");
    expect(root.getAttribute("height")).toBe(heightAttr("3.5in", height / width));
    expect(heightAttr("8cm", 0.5)).toBe("4cm");
    expect(heightAttr("640", 0.25)).toBe("160");
    expect(() => heightAttr("wide", 1)).toThrow(/not a length/);
  });

  test("malformed rows are refused", () => {
    expect(() => tableFigureSVG(document, { ...data, depth: [0] })).toThrow(/malformed/);
    expect(() => tableFigureSVG(document, null)).toThrow(/malformed/);
  });
});
