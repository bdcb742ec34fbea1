import { expect, test } from "vitest";
import { formatValue } from "../src/cct/format.js";

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
