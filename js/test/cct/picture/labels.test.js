import { describe, expect, test } from "vitest";
import { placeLabels } from "../../../src/cct/picture/label-layout.js";
import { shortenName } from "../../../src/cct/picture/label-text.js";

describe("shortenName", () => {
  test("keeps short names as they are", () => {
    expect(shortenName("<unknown procedure>")).toBe("<unknown procedure>");
    expect(shortenName("MPI_Allreduce")).toBe("MPI_Allreduce");
  });

  test("collapses template arguments and parameter lists of long C++ names", () => {
    const name = "std::vector<std::pair<int, double>, std::allocator<int>>::push_back(const value_type&)";
    const short = shortenName(name, 60);
    expect(short).toBe("std::vector<…>::push_back(…)");
  });

  test("elides the middle of what is still too long, within the limit", () => {
    const short = shortenName("a_really_long_function_name_without_any_brackets_at_all", 20);
    expect(short.length).toBe(20);
    expect(short).toContain("…");
    expect(short.startsWith("a_really")).toBe(true);
    expect(short.endsWith("at_all")).toBe(true);
  });

  test("does not collapse a bracket that opens the name", () => {
    expect(shortenName("<program root> of a very long application name here", 60)).toBe(
      "<program root> of a very long application name here",
    );
  });
});

describe("placeLabels", () => {
  test("keeps the first of two overlapping labels, and both when apart", () => {
    const kept = placeLabels(
      [
        { id: 1, x: 0, y: 0, text: "alpha" },
        { id: 2, x: 5, y: 3, text: "beta" },
        { id: 3, x: 0, y: 40, text: "gamma" },
      ],
      { fontSize: 11 },
    );
    expect([...kept].sort()).toEqual([1, 3]);
  });

  test("labels on the same row but far apart horizontally both fit", () => {
    const kept = placeLabels(
      [
        { id: 1, x: 0, y: 0, text: "abc" },
        { id: 2, x: 300, y: 0, text: "def" },
      ],
      { fontSize: 11 },
    );
    expect(kept.size).toBe(2);
  });
});
