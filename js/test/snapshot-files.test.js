// The snapshot files' rules (js/test/support/snapshot.js), in a temporary folder: a missing
// snapshot is written outside CI and fails in CI; a difference is written to `<name>-changed.svg`
// beside the snapshot and fails naming both files; a match removes a stale `-changed` file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { changedFile, matchSnapshot } from "./support/snapshot.js";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cctviz-snapshots-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("a missing snapshot is written outside CI, and fails in CI without being written", () => {
  const file = join(dir, "a.svg");
  expect(() => matchSnapshot("<svg/>", file, { ci: true, update: false })).toThrow(/missing snapshot .*a\.svg/);
  expect(existsSync(file)).toBe(false);
  matchSnapshot("<svg/>", file, { ci: false, update: false });
  expect(readFileSync(file, "utf8")).toBe("<svg/>");
});

test("a difference is written beside the snapshot as -changed and fails naming both", () => {
  const file = join(dir, "b.svg");
  writeFileSync(file, "<svg>\n<g/>\n</svg>");
  for (const ci of [false, true]) {
    expect(() => matchSnapshot("<svg>\n<rect/>\n</svg>", file, { ci, update: false })).toThrow(
      `${file} differs: the output is in ${join(dir, "b-changed.svg")}`,
    );
    expect(changedFile(file)).toBe(join(dir, "b-changed.svg"));
    expect(readFileSync(changedFile(file), "utf8")).toBe("<svg>\n<rect/>\n</svg>");
    expect(readFileSync(file, "utf8")).toBe("<svg>\n<g/>\n</svg>"); // the snapshot is kept
  }
  // a match outside CI takes the stale -changed file away; an update writes the snapshot
  matchSnapshot("<svg>\n<g/>\n</svg>", file, { ci: false, update: false });
  expect(existsSync(changedFile(file))).toBe(false);
  matchSnapshot("<svg/>", file, { ci: true, update: true });
  expect(readFileSync(file, "utf8")).toBe("<svg/>");
});

test("CI is read from the environment as CI services set it", async () => {
  for (const [value, ci] of /** @type {const} */ ([
    ["true", true],
    ["1", true],
    ["", false],
    ["false", false],
    ["0", false],
  ])) {
    vi.stubEnv("CI", value);
    vi.resetModules();
    expect((await import("./support/snapshot.js")).IN_CI).toBe(ci);
  }
  vi.unstubAllEnvs();
});
