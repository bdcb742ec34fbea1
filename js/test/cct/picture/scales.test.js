import { describe, expect, test } from "vitest";
import { colorScale, sizeScale } from "../../../src/cct/picture/scales.js";

const values = (...v) => Float64Array.from(v);
const rgb = (hex) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
const channelDistance = (a, b) => Math.max(...rgb(a).map((c, i) => Math.abs(c - rgb(b)[i])));

describe("colorScale", () => {
  test("linear: ends of the domain get the ends of the palette, NaN gets no colour", () => {
    const s = colorScale(values(0, 5, 10, Number.NaN));
    expect(s.domain).toEqual([0, 10]);
    expect(s.color(0)).toBe(s.interpolator(0));
    expect(s.color(10)).toBe(s.interpolator(1));
    expect(s.color(Number.NaN)).toBeNull();
    expect(s.why(Number.NaN)).toBe("missing value");
  });

  test("linear handles negative values", () => {
    const s = colorScale(values(-4, 0, 4));
    expect(s.domain).toEqual([-4, 4]);
    expect(s.color(0)).toBe(s.interpolator(0.5));
  });

  test("log: values ≤ 0 are not drawn on the scale and say why", () => {
    const s = colorScale(values(0, -1, 1, 100), { type: "log" });
    expect(s.domain).toEqual([1, 100]);
    // 10 is halfway between 1 and 100 on a log scale (up to rounding of the colour)
    expect(channelDistance(s.color(10), s.interpolator(0.5))).toBeLessThanOrEqual(2);
    expect(channelDistance(s.color(10), s.interpolator(10 / 100))).toBeGreaterThan(20);
    expect(s.color(0)).toBeNull();
    expect(s.why(-1)).toMatch(/log scale/);
  });

  test("a single distinct value gets the middle colour, no NaN", () => {
    const s = colorScale(values(3, 3, 3));
    expect(s.color(3)).toBe(s.interpolator(0.5));
  });

  test("no finite values: every node is missing", () => {
    const s = colorScale(values(Number.NaN));
    expect(s.domain).toBeNull();
    expect(s.color(1)).toBeNull();
  });

  test("an unknown scale type is an error naming it", () => {
    expect(() => colorScale(values(1), { type: "sqrt" })).toThrow(/unknown colour scale "sqrt"/);
  });
});

describe("sizeScale", () => {
  test("0, NaN and negative values give finite radii; area grows with |value|", () => {
    const s = sizeScale(values(0, 25, 100, -100, Number.NaN), { rMin: 2, rMax: 10 });
    for (const v of [0, 25, 100, -100, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(Number.isFinite(s.radius(v))).toBe(true);
    }
    expect(s.radius(0)).toBe(2);
    expect(s.radius(100)).toBe(10);
    expect(s.radius(-100)).toBe(10);
    expect(s.negative(-100)).toBe(true);
    expect(s.radius(Number.NaN)).toBe(2);
    // r² is linear in the value: the area above rMin at 25 is a quarter of that at 100
    expect(s.radius(25) ** 2 - 4).toBeCloseTo((100 - 4) / 4);
  });

  test("all zeros: every node has the minimum radius", () => {
    const s = sizeScale(values(0, 0), { rMin: 3, rMax: 9 });
    expect(s.radius(0)).toBe(3);
  });
});

describe("palettes", () => {
  test("auto picks a diverging palette centred on 0 for signed values", () => {
    const s = colorScale(values(-10, 2, 5));
    expect(s.palette).toBe("rdbu");
    expect(s.domain).toEqual([-10, 10]);
    expect(s.color(0)).toBe(s.interpolator(0.5));
    expect(s.color(-10)).toBe(s.interpolator(0));
  });

  test("auto stays sequential for one-signed values; a named palette is used as asked", () => {
    expect(colorScale(values(1, 2)).palette).toBe("viridis");
    const s = colorScale(values(1, 2), { palette: "cividis" });
    expect(s.palette).toBe("cividis");
    expect(s.color(1)).toBe(s.interpolator(0));
  });

  test("an unknown palette is an error listing the accepted ones", () => {
    expect(() => colorScale(values(1), { palette: "jet" })).toThrow(/unknown palette "jet"; accepted: auto, viridis/);
  });
});
