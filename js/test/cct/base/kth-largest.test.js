import { expect, test } from "vitest";
import { kthLargest } from "../../../src/cct/base/kth-largest.js";

/** A seeded random number in [0, 1). @param {number} seed */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("the k-th largest is a sorted copy's, for ties, runs and random values", () => {
  const next = random(3);
  const cases = [
    Float64Array.from({ length: 10_000 }, () => Math.floor(next() * 50)), // many ties
    Float64Array.from({ length: 5_000 }, (_, i) => i), // ascending: every value enters the heap
    Float64Array.from({ length: 5_000 }, (_, i) => -i), // descending: none after the first k
    Float64Array.from({ length: 3_000 }, () => next() * 1e6 - 5e5),
  ];
  for (const values of cases)
    for (const k of [1, 2, 7, 40, 200, values.length]) {
      const sorted = Float64Array.from(values).sort();
      expect(kthLargest(values, k)).toBe(sorted[values.length - k]);
    }
});

test("fewer values than k: -Infinity; NaN is passed over", () => {
  expect(kthLargest([3, 1], 3)).toBe(Number.NEGATIVE_INFINITY);
  expect(kthLargest([], 1)).toBe(Number.NEGATIVE_INFINITY);
  expect(kthLargest([5, Number.NaN, 9, 1], 2)).toBe(5);
  expect(kthLargest([Number.NaN, Number.NaN, 2], 1)).toBe(2);
});
