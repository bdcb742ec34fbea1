import { describe, expect, test } from "vitest";
import { decodeColumn, decodeStrings, decodeTable } from "../../../src/cct/data/decode.js";
import { tooltipContent } from "../../../src/cct/draw/tooltip/tooltip-content.js";
import { payload, smallTree } from "../../support/fixtures.js";

describe("decode", () => {
  test("columns decode to typed arrays, NaN kept", () => {
    const t = decodeTable(smallTree());
    expect(t.size).toBe(6);
    expect([...t.parent]).toEqual([-1, 0, 1, 1, 0, -1]);
    expect(t.metrics[0].values).toBeInstanceOf(Float64Array);
    expect(Number.isNaN(t.metrics[0].values[5])).toBe(true);
    expect(t.names[t.nameCode[2]]).toBe("kernel_a");
  });

  test("HPCToolkit's type codes read as words, in the table and in tooltips", () => {
    // what Hatchet's XML reader gives (PF, Pr, L, S), its v4 reader and others (words)
    const types = ["PF", "Pr", "L", "S", "line", "function"];
    const t = decodeTable(
      payload({
        parent: [-1, 0, 1, 2, 2, 0],
        names: ["main", "a", "Loop@a.c:3", "a.c:4", "b.c:1", "b"],
        metrics: { time: [1, 1, 1, 1, 1, 1] },
        types,
      }),
    );
    const words = ["procedure frame", "procedure", "loop", "statement", "line", "function"];
    expect(types.map((_, id) => t.types[t.typeCode[id]])).toEqual(words);
    const shown = types.map(
      (_, id) =>
        tooltipContent(document, t, id, { colorBy: "time", sizeBy: "time" }).querySelector(".cct-tooltip-type")
          ?.textContent,
    );
    expect(shown).toEqual(words);
  });

  test("unaligned buffers (as the comm delivers them) are copied, not misread", () => {
    const bytes = new Uint8Array(8 * 2 + 3);
    const view = new DataView(bytes.buffer, 3, 16);
    view.setFloat64(0, 1.5, true);
    view.setFloat64(8, -2, true);
    expect([...decodeColumn({ dtype: "float64", length: 2, buffer: view })]).toEqual([1.5, -2]);
  });

  test("UTF-8 names survive", () => {
    const enc = new TextEncoder().encode('αβ<&>"x');
    const offsets = Uint32Array.from([0, 4, enc.length]);
    const out = decodeStrings({
      count: 2,
      blob: new DataView(enc.buffer),
      offsets: { dtype: "uint32", length: 3, buffer: new DataView(offsets.buffer) },
    });
    expect(out).toEqual(["αβ", '<&>"x']);
  });

  test("wrong lengths, dtypes and versions are clear errors", () => {
    expect(() => decodeColumn({ dtype: "int8", length: 1, buffer: new ArrayBuffer(1) })).toThrow(
      /unknown column dtype "int8"/,
    );
    expect(() => decodeColumn({ dtype: "int32", length: 3, buffer: new ArrayBuffer(4) })).toThrow(
      /3 int32 values has 4 bytes/,
    );
    expect(() => decodeTable({ ...smallTree(), version: 99 })).toThrow(/version 99/);
  });
});
