import { describe, expect, test } from "vitest";
import { characters, displayText } from "../../../src/cct/base/text.js";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { figureSVG } from "../../../src/cct/figure/figure.js";
import { cutText, shortenName } from "../../../src/cct/picture/label-text.js";
import { payload } from "../../support/fixtures.js";

const LONE = (s) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe("displayText", () => {
  test("shows control characters as their pictures and lone surrogates as U+FFFD", () => {
    expect(displayText("a\u0000b\u0007c\u001bd\u000ce\u007f")).toBe("a␀b␇c␛d␌e␡");
    expect(displayText("tab\there\nnewline")).toBe("tab␉here␊newline");
    expect(displayText("x\ud800y\udc00z")).toBe("x\ufffdy\ufffdz");
    expect(displayText("كود 🚀 ok")).toBe("كود 🚀 ok"); // RTL and emoji unchanged
  });
});

describe("cutting names", () => {
  const emoji = "🔥".repeat(17);
  const family = "👩‍👩‍👧‍👦";

  test("never halves an emoji or a cluster", () => {
    expect(characters(`a${family}b`)).toEqual(["a", family, "b"]);
    for (const max of [5, 8, 13, 16]) {
      const short = shortenName(emoji, max);
      expect(LONE(short)).toBe(false);
      expect(characters(short)).toHaveLength(max);
    }
    const cut = cutText(`${family.repeat(12)} (+3)`, 7);
    expect(LONE(cut)).toBe(false);
    expect(cut.endsWith("… (+3)")).toBe(true);
    expect(characters(cut.slice(0, -"… (+3)".length)).every((c) => c === family)).toBe(true);
  });
});

describe("hostile names in a figure", () => {
  test("control characters, lone surrogates and long emoji names give valid XML", () => {
    const table = decodeTable(
      payload({
        parent: [-1, 0, 0, 0],
        names: ["main\u0000", "bell\u0007esc\u001b", "🔥".repeat(40), "x\ud800"],
        metrics: { "t\u0001": [4, 1, 2, 1], "t (inc)": [8, 1, 2, 1] },
      }),
    );
    expect(table.names).toEqual(["main␀", "bell␇esc␛", "🔥".repeat(40), "x\ufffd"]);
    const { svg } = figureSVG(table, { colorBy: "t\u0001", sizeBy: "t (inc)" }, { width: 600, height: 400 });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these
    expect(svg).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(LONE(svg)).toBe(false);
    const doc = new DOMParser().parseFromString(svg, "application/xml");
    expect(doc.querySelector("parsererror")).toBeNull();
    const text = doc.documentElement.textContent;
    expect(text).toContain("main␀");
    expect(text).toContain("t␁");
  });
});

describe("sizes that are not numbers", () => {
  test("NaN is the smallest mark, outlined dotted and keyed; ±infinity the largest", async () => {
    const { sizeScale } = await import("../../../src/cct/picture/scales.js");
    const size = sizeScale(Float64Array.from([1, 4, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]));
    expect(size.radius(Number.NaN)).toBe(size.rMin);
    expect(size.radius(Number.POSITIVE_INFINITY)).toBe(size.rMax);
    expect(size.radius(Number.NEGATIVE_INFINITY)).toBe(size.rMax);
    expect(size.radius(4)).toBe(size.rMax);
    expect(size.radius(0)).toBe(size.rMin);
    const table = decodeTable(
      payload({
        parent: [-1, 0, 0, 0],
        names: ["main", "nan", "inf", "zero"],
        metrics: { t: [1, 1, 1, 1], "t (inc)": [8, Number.NaN, Number.POSITIVE_INFINITY, 0] },
      }),
    );
    const { svg } = figureSVG(
      table,
      { colorBy: "t", sizeBy: "t (inc)", foldToFit: false },
      { width: 600, height: 400 },
    );
    const doc = new DOMParser().parseFromString(svg, "application/xml");
    const mark = (/** @type {string} */ id) => doc.querySelector(`.cct-node[data-id="${id}"]`);
    expect(mark("1")?.getAttribute("class")).toContain("cct-no-size");
    expect(mark("3")?.getAttribute("class")).not.toContain("cct-no-size");
    const r = (/** @type {string} */ id) => Number(mark(id)?.getAttribute("r"));
    expect(r("2")).toBeGreaterThan(r("0") - 1e-9); // inf: as large as the largest
    expect(r("1")).toBeCloseTo(r("3")); // NaN: as small as 0, told apart by its outline
    expect(mark("1")?.getAttribute("stroke-dasharray")).toBeTruthy();
    expect([...doc.querySelectorAll(".cct-legend-key")].map((t) => t.textContent)).toContain("no size value");
  });
});
