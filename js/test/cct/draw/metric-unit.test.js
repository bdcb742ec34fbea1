// Which unit a metric's values print with (js/src/cct/draw/legend/view-legends.js metricUnit):
// the reducer's ratios have none; a derived metric (w.derive) keeps the unit Python gives it.
import { describe, expect, test } from "vitest";
import { metricUnit } from "../../../src/cct/draw/legend/view-legends.js";

const metric = (name, kind, rule) => ({ name, kind, rule, values: new Float64Array(0) });

describe("a metric's unit", () => {
  const units = { time: "s", "per call": "ms" };
  test("its unit in w.units; none where it has none", () => {
    expect(metricUnit(metric("time", "exclusive", "reader"), units)).toBe("s");
    expect(metricUnit(metric("calls", "exclusive", "reader"), units)).toBeNull();
  });
  test("the reducer's ratio (an imbalance of a time) has no unit, a derived ratio keeps its own", () => {
    expect(metricUnit(metric("time", "ratio", "reducer"), units)).toBeNull();
    expect(metricUnit(metric("per call", "ratio", "expression"), units)).toBe("ms");
  });
});
