// The commands as one union: `commandOf` (the renderer's `command(name, value)`) turns names and
// values into typed commands or refuses them, and the type check covers the type-level test.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { commandOf } from "../src/cct/state/commands.js";

const HERE = dirname(fileURLToPath(import.meta.url));

describe("commands", () => {
  test("a name and a value become a typed command", () => {
    expect(commandOf("expandAll")).toEqual({ type: "expandAll" });
    expect(commandOf("undo", 7)).toEqual({ type: "undo" });
    expect(commandOf("collapseToDepth", 2)).toEqual({ type: "collapseToDepth", depth: 2 });
    expect(commandOf("toggleRoot", 5)).toEqual({ type: "toggleRoot", id: 5 });
    expect(commandOf("inclusive", true)).toEqual({ type: "inclusive", on: true });
    expect(commandOf("search", "solve")).toEqual({ type: "search", pattern: "solve" });
    expect(commandOf("match", -1)).toEqual({ type: "match", step: -1 });
    expect(commandOf("reducer", "max")).toEqual({ type: "reducer", reducer: "max" });
    expect(commandOf("download", "png")).toEqual({ type: "download", format: "png" });
  });

  test("an unknown name or a wrong value is refused", () => {
    expect(() => commandOf("colapse")).toThrow(/unknown command "colapse"/);
    expect(() => commandOf("match", 2)).toThrow(/command "match" takes no 2/);
    expect(() => commandOf("toggleRoot", "5")).toThrow(RangeError);
  });

  test("`npm run typecheck` checks the type-level test of the command union", () => {
    const config = JSON.parse(readFileSync(resolve(HERE, "../jsconfig.json"), "utf8"));
    expect(config.include).toContain("test/types/**/*.js");
    const check = readFileSync(resolve(HERE, "types/commands.check.js"), "utf8");
    expect(check.match(/@ts-expect-error/g)?.length).toBeGreaterThanOrEqual(9);
  });
});
