// Whole figures against committed SVG files (js/test/cct/figure/snapshots/*.svg), in the manner
// of Observable Plot's snapshot tests: each case draws a figure of a fixture, normalises what may
// vary without the picture changing (numbers past two decimals, generated ids, the generator's
// metadata), puts one element on a line and compares the text with its file
// (js/test/support/snapshot.js: a missing file is written outside CI and fails in CI; a
// difference is written to `<name>-changed.svg` beside it and fails). To accept a change on
// purpose, write them all again and review the diff:
//
//     UPDATE_SNAPSHOTS=1 npx vitest run --root js test/cct/figure/snapshots.test.js
//     git diff js/test/cct/figure/snapshots/
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { decodeTable } from "../../../src/cct/data/decode.js";
import { figureSteps, figureSVG } from "../../../src/cct/figure/figure.js";
import { lodTree, payload, randomTree, smallTree } from "../../support/fixtures.js";
import { matchSnapshot } from "../../support/snapshot.js";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "snapshots");
const TIME = { colorBy: "time", sizeBy: "time (inc)" };

/**
 * The figure's text as compared: ids as they come (id-1, id-2…: generated ids differ per page),
 * numbers rounded to two decimals (layout arithmetic may differ in its last bits), the
 * provenance left out, one element per line.
 * @param {string} svg
 */
function normalise(svg) {
  const ids = new Map();
  const idOf = (/** @type {string} */ id) => {
    if (!ids.has(id)) ids.set(id, `id-${ids.size + 1}`);
    return ids.get(id);
  };
  svg = svg
    .replace(/(?<![-\w])id="([^"]+)"/g, (_, id) => `id="${idOf(id)}"`)
    .replace(/url\(#([^)]+)\)/g, (_, id) => `url(#${idOf(id)})`);
  return `${svg
    .replace(/<metadata>[\s\S]*?<\/metadata>/g, "<metadata/>")
    .replace(/-?\d+\.\d{3,}(e-?\d+)?/g, (n) => {
      const rounded = Number(Number(n).toFixed(2));
      return String(Object.is(rounded, -0) ? 0 : rounded);
    })
    .replace(/>\s*</g, ">\n<")}\n`;
}

/** Three roots and a metric that changes sign (a diverging palette), as a comparison has. */
const threeRootsSigned = () =>
  payload({
    parent: [-1, 0, 0, 1, -1, 4, -1],
    names: ["main", "solve", "io", "kernel", "init", "setup", "finalize"],
    metrics: { diff: [5, -3, 2, -1, 4, -2, 0.5], "time (inc)": [60, 40, 10, 25, 20, 12, 3] },
    kinds: { diff: "other", "time (inc)": "inclusive" },
  });

const CASES = [
  { name: "small-screen", data: smallTree, state: TIME, options: { width: 600, height: 400 } },
  {
    name: "small-paper-collapsed-selected",
    data: smallTree,
    state: { ...TIME, collapsed: [1], search: "init" },
    options: { width: 800, height: 500, style: "paper", selection: [4], title: "solve collapsed" },
  },
  {
    name: "random-120-folded-narrow",
    data: () => randomTree(120),
    state: TIME,
    options: { width: 420, height: 320, style: "paper" },
  },
  { name: "level-of-detail-folds", data: lodTree, state: TIME, options: { width: 600, height: 400 } },
  {
    name: "three-roots-diverging",
    data: threeRootsSigned,
    state: { colorBy: "diff", sizeBy: "time (inc)" },
    options: { width: 700, height: 450, units: { "time (inc)": "s" } },
  },
];

describe("figure snapshots", () => {
  test("normalising rounds numbers, drops the provenance and puts an element on a line", () => {
    const svg =
      '<svg><metadata><x>2026</x></metadata><pattern id="cct-x7-missing-1"/>' +
      '<g transform="translate(1.23456, -0.0001)"><circle r="4" fill="url(#cct-x7-missing-1)"/></g></svg>';
    expect(normalise(svg)).toBe(
      '<svg>\n<metadata/>\n<pattern id="id-1"/>\n<g transform="translate(1.23, 0)">\n<circle r="4" fill="url(#id-1)"/>\n</g>\n</svg>\n',
    );
  });

  test("figureSteps draws the same figure in steps; ended early, it leaves nothing in the page", () => {
    const { data, state, options } = CASES[0];
    const table = decodeTable(data());
    const steps = figureSteps(table, state, options);
    let step = steps.next();
    let pauses = 0;
    for (; !step.done; step = steps.next()) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(1);
    expect(normalise(step.value.svg)).toBe(normalise(figureSVG(table, state, options).svg));
    const before = document.body.childElementCount;
    const early = figureSteps(table, state, options);
    early.next(); // drawn off screen, paused
    expect(document.body.childElementCount).toBe(before + 1);
    early.return(/** @type {never} */ (undefined));
    expect(document.body.childElementCount).toBe(before);
  });

  for (const { name, data, state, options } of CASES) {
    test(name, () => {
      const { svg } = figureSVG(decodeTable(data()), state, options);
      matchSnapshot(normalise(svg), join(DIR, `${name}.svg`));
    });
  }
});
