import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { columnFormat, fitExponent, formatValue, formatWith } from "../../../src/cct/base/format.js";
import { parseUnit, unitTitle } from "../../../src/cct/base/units.js";

test("values are formatted with three significant digits and SI prefixes", () => {
  expect(formatValue(271.4943)).toBe("271");
  expect(formatValue(16.968)).toBe("17");
  expect(formatValue(0.0123)).toBe("0.0123");
  expect(formatValue(61e-6)).toBe("61µ");
  expect(formatValue(1234567)).toBe("1.23M");
  expect(formatValue(-2500)).toBe("−2.5k");
  expect(formatValue(0)).toBe("0");
  expect(formatValue(Number.NaN)).toBe("missing");
});

test("values beyond the SI prefixes are written with an exponent, not hundreds of digits", () => {
  expect(formatValue(1e308)).toBe("1e+308");
  expect(formatValue(-1.7976931348623157e308)).toBe("−1.8e+308");
  expect(formatValue(5e-324)).toBe("4.94e−324"); // the smallest double
  expect(formatValue(1.5e-30)).toBe("1.5e−30");
  expect(formatValue(2e24)).toBe("2Y"); // the last prefix still applies
  expect(formatValue(3e-24)).toBe("3y");
  for (const v of [1e27, 1e100, 1e-25, 1e-200]) expect(formatValue(v).length).toBeLessThan(10);
});

// ---- units (base/units.js, format.js formatWith / columnFormat) ----------------------------
// tests/conformance/units-cases.json: tests/test_units.py runs the same cases against Python's
// cctviz/core/units.py, so that a legend drawn here and a number printed by Python agree.

const cwd = process.cwd(); // under jsdom import.meta.url is no file URL
const CASES = JSON.parse(
  readFileSync(resolve(cwd, cwd.endsWith("js") ? ".." : ".", "tests/conformance/units-cases.json"), "utf-8"),
);

describe("units: the cases Python agrees on", () => {
  test.each(CASES.parse)("parse %j", (text, expected) => {
    if (typeof expected === "string") {
      expect(() => parseUnit(text)).toThrow(expected);
      expect(() => parseUnit(text)).toThrow("Accepted: a base unit s (sec");
      return;
    }
    const u = parseUnit(text);
    expect([u.symbol, u.per, u.si]).toEqual([expected[0], expected[1], expected[3]]);
    expect(u.scale).toBeCloseTo(expected[2], 12 - Math.max(0, Math.log10(expected[2])));
  });
  test.each(CASES.one)("one value %j %j", (value, unit, text) => {
    expect(formatWith(unit)(value)).toBe(text);
  });
  test.each(CASES.column)("a column %j %j", (values, unit, texts) => {
    const f = columnFormat(values, unit);
    expect(values.map(f)).toEqual(texts);
  });
});

test("the issue's tooltip: a mean and a max of seconds share one prefix and say their unit", () => {
  const f = columnFormat([0.000345, 0.00552], "s");
  expect(`mean ${f(0.000345)} · max ${f(0.00552)}`).toBe("mean 345 µs · max 5520 µs");
  expect(fitExponent([0.000345, 0.00552], "s")).toBe(-6);
  // the same values one at a time: each with its own prefix, the same style
  expect([0.000345, 0.00552].map(formatWith("s"))).toEqual(["345 µs", "5.52 ms"]);
});

test("a unit with a prefix is rescaled to its base; a title names the base", () => {
  expect(formatWith("ms")(1500)).toBe("1.5 s");
  expect(formatWith("usec")(250)).toBe("250 µs");
  expect(unitTitle(parseUnit("usec"))).toBe("s");
  expect(unitTitle(parseUnit("GB/s"))).toBe("B/s");
});

test("negative, zero, NaN and infinite values", () => {
  expect(formatWith("s")(-0.0025)).toBe("−2.5 ms");
  expect(columnFormat([-0.004, 0.002], "s")(-0.004)).toBe("−4 ms");
  expect(formatWith("s")(0)).toBe("0 s");
  expect(formatWith("s")(Number.NaN)).toBe("missing");
  expect(formatWith("s")(Number.POSITIVE_INFINITY)).toBe("∞");
  expect(formatWith("s")(Number.NEGATIVE_INFINITY)).toBe("−∞");
  expect(columnFormat([Number.NaN, 0.002], "s")(Number.NaN)).toBe("missing");
});

test("a label is kept as given, never rescaled; no unit prints the number alone", () => {
  expect(formatWith("samples")(12345)).toBe("12.3k samples");
  expect(formatWith("occ")(0.5)).toBe("0.5 occ");
  expect(formatWith(null)(12345)).toBe("12.3k");
  expect(formatWith("")(0.00552)).toBe("0.00552");
});

test("text that does not parse is shown as a plain-text label, never markup", () => {
  // Python refuses it before it gets here; a hand-made model still draws, as text
  const text = formatWith("<img src=x onerror=alert(1)>")(3);
  expect(text).toBe("3 <img src=x onerror=alert(1)>");
  const cell = document.createElement("td");
  cell.textContent = text;
  expect(cell.querySelector("img")).toBeNull();
  expect(() => parseUnit("<b>s</b>")).toThrow("it holds '<' (U+003C), which is no part of a unit");
});
