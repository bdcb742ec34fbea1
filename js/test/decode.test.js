import { describe, expect, test } from "vitest";
import { decodeColumn, decodeStrings, decodeTable } from "../src/cct/decode.js";
import { smallTree } from "./fixtures.js";

describe("decode", () => {
  test("columns decode to typed arrays, NaN kept", () => {
    const t = decodeTable(smallTree());
    expect(t.size).toBe(6);
    expect([...t.parent]).toEqual([-1, 0, 1, 1, 0, -1]);
    expect(t.metrics[0].values).toBeInstanceOf(Float64Array);
    expect(Number.isNaN(t.metrics[0].values[5])).toBe(true);
    expect(t.names[t.nameCode[2]]).toBe("kernel_a");
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
