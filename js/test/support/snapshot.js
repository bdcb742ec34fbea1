// Comparing a test's text output with a committed snapshot file, in the manner of Observable
// Plot's snapshot tests. A missing snapshot is written (and the case passes) outside CI and fails
// in CI (`CI` set, as CI services set it): a snapshot is reviewed and committed, never made up by
// the run that checks it. Output that differs from its snapshot is written beside it as
// `<name>-changed.<ext>` (git-ignored) and fails naming both files; a later run that matches
// removes it. To accept changes on purpose, write every snapshot again and review the diff:
//
//     UPDATE_SNAPSHOTS=1 npx vitest run --root js
//     git diff js/test/
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, extname } from "node:path";
import { expect } from "vitest";

/** Whether the run is a CI run: `CI` set to anything but "", "0" or "false". */
export const IN_CI = !["", "0", "false"].includes(process.env.CI ?? "");

/** The file a differing output is written to: `<name>-changed.<ext>` beside the snapshot. @param {string} file */
export const changedFile = (file) => {
  const ext = extname(file);
  return `${file.slice(0, file.length - ext.length)}-changed${ext}`;
};

/**
 * Checks `actual` against the snapshot `file` (see above).
 * @param {string} actual @param {string} file
 * @param {{ ci?: boolean, update?: boolean }} [how] defaults: `IN_CI`; `UPDATE_SNAPSHOTS` set
 */
export function matchSnapshot(actual, file, { ci = IN_CI, update = !!process.env.UPDATE_SNAPSHOTS } = {}) {
  const changed = changedFile(file);
  if (update || !existsSync(file)) {
    if (!update && ci) {
      throw new Error(`missing snapshot ${file}: write it outside CI (a plain \`npm test\`), review it and commit it`);
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    rmSync(changed, { force: true });
    return;
  }
  const expected = readFileSync(file, "utf8");
  if (actual === expected) {
    if (!ci) rmSync(changed, { force: true });
    return;
  }
  writeFileSync(changed, actual);
  // compared as text: the failure shows the lines that differ
  expect(actual, `${file} differs: the output is in ${changed}`).toBe(expected);
}
