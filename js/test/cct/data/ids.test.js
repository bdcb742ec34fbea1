// The node numbers of src/cct/data/ids.js at run time (the brands are types only), and that the
// type check covers the type-level test of the brands (js/test/types/ids.check.js).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { asRow, NO_ID, NO_KEY, NO_ROW } from "../../../src/cct/data/ids.js";
import { keyOfRow, rowOfKey } from "../../../src/cct/picture/view-tree.js";
import { payload, smallTree } from "../../support/fixtures.js";

const HERE = dirname(fileURLToPath(import.meta.url));

describe("node ids, rows and item keys", () => {
  test("the brands cost nothing at run time: the same numbers", () => {
    expect([NO_ID, NO_ROW, NO_KEY]).toEqual([-1, -1, -1]);
    expect(asRow(7)).toBe(7);
    expect(rowOfKey(keyOfRow(asRow(4)))).toBe(4);
  });

  test("`npm run typecheck` checks the type-level test of the brands", () => {
    const config = JSON.parse(readFileSync(resolve(HERE, "../../../jsconfig.json"), "utf8"));
    expect(config.include).toContain("test/types/**/*.js");
    expect(config.compilerOptions.strict).toBe(true);
    const check = readFileSync(resolve(HERE, "../../types/ids.check.js"), "utf8");
    expect(check.match(/@ts-expect-error/g)?.length).toBeGreaterThanOrEqual(8);
  });

  test("the decoder is where ids become rows and back", () => {
    const whole = decodeTable(smallTree());
    expect(whole.rowOf(/** @type {any} */ (2))).toBe(2);
    expect(whole.rowOf(/** @type {any} */ (9))).toBe(NO_ROW);
    expect(whole.idOf(asRow(1))).toBe(1);
    // level of detail: rows 0, 1, 2 are nodes 0, 4 and a fold
    const part = decodeTable(
      payload({
        parent: [-1, 0, 0],
        names: ["a", "b", "c"],
        metrics: { t: [1, 2, 3] },
        nodeId: [0, 4, -1],
        folded: [0, 0, 2],
        total: 6,
      }),
    );
    expect(part.rowOf(/** @type {any} */ (4))).toBe(1);
    expect(part.idOf(asRow(1))).toBe(4);
    expect(part.idOf(asRow(2))).toBe(NO_ID);
  });
});
