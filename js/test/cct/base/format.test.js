import { expect, test } from "vitest";
import { formatValue } from "../../../src/cct/base/format.js";

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
