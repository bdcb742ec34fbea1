// The folders of js/src import only downwards, in the order js/layers.mjs declares: every
// relative import of every source file (JSDoc type imports included) is checked against it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { LAYERS } from "../layers.mjs";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const TEST = resolve(SRC, "../test");
/** Folders of js/test that mirror none of js/src: at its top shared helpers, data and type-level
 * checks; anywhere, the snapshots of the tests beside them. @param {string} path relative to js/test */
const mirrorsNone = (path) =>
  ["support", "data", "types"].includes(path.split("/")[0]) || path.split("/").includes("snapshots");
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)"(\.{1,2}\/[^"]+)"/g;

/** Paths of the source files under `dir`, relative to js/src, with "/". @param {string} dir @returns {string[]} */
const sources = (dir = SRC) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".js")
        ? [relative(SRC, join(dir, e.name)).split(sep).join("/")]
        : [],
  );

/** The layer of a path relative to js/src: its position in LAYERS; -1: in none; below all: outside js/src (Python's JSON). */
function layerOf(/** @type {string} */ path) {
  if (path.startsWith("../")) return Number.NEGATIVE_INFINITY;
  return LAYERS.findIndex(({ folder }) => path === folder || path.startsWith(`${folder}/`));
}

/**
 * The imports of `files` that go up a layer, as sentences.
 * @param {{ path: string, text: string }[]} files paths relative to js/src
 */
function upwardImports(files) {
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(SPECIFIER)].flatMap(([, spec]) => {
      const from = layerOf(path);
      const to = layerOf(posix.normalize(posix.join(posix.dirname(path), spec)));
      return to > from ? [`${path} (${LAYERS[from].folder}) imports ${spec} (${LAYERS[to].folder})`] : [];
    }),
  );
}

describe("layers of the front end", () => {
  test("every source file is in a declared layer", () => {
    expect(sources().length).toBeGreaterThan(50);
    expect(sources().filter((path) => layerOf(path) < 0)).toEqual([]);
  });

  test("no import goes up: each file imports from its own layer or those below it", () => {
    const files = sources().map((path) => ({ path, text: readFileSync(join(SRC, path), "utf8") }));
    expect(upwardImports(files)).toEqual([]);
  });

  test("an import from a higher layer is found, in code and in a JSDoc type", () => {
    const files = [
      { path: "cct/picture/a.js", text: 'import { createPainter } from "../draw/painter.js";' },
      { path: "cct/state/b.js", text: '/** @type {import("../view/renderer.js").Sizes} */' },
      { path: "cct/draw/c.js", text: 'import { x } from "../picture/scene.js";\nimport { y } from "./overlay.js";' },
      { path: "cct/base/d.js", text: 'import contract from "../../../cctviz/contract.json";' },
      // a sub-folder is in its folder's layer: it imports within the layer and below, not above
      { path: "cct/draw/canvas/e.js", text: 'import { x } from "../svg/overlay.js";\nimport "../../input/camera.js";' },
      { path: "cct/draw/labels/f.js", text: '/** @type {import("../../view/renderer.js").Sizes} */' },
      { path: "cct/input/g.js", text: 'import { y } from "../draw/svg/overlay.js";' },
    ];
    expect(upwardImports(files)).toEqual([
      "cct/picture/a.js (cct/picture) imports ../draw/painter.js (cct/draw)",
      "cct/state/b.js (cct/state) imports ../view/renderer.js (cct/view)",
      "cct/draw/labels/f.js (cct/draw) imports ../../view/renderer.js (cct/view)",
      "cct/input/g.js (cct/input) imports ../draw/svg/overlay.js (cct/draw)",
    ]);
  });

  test("the tests mirror the sources: each folder of js/test with tests is a folder of js/src", () => {
    /** Folders under js/test that are to mirror js/src, relative to it. @returns {string[]} */
    const folders = (dir = TEST) =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const path = relative(TEST, join(dir, e.name)).split(sep).join("/");
        return e.isDirectory() && !mirrorsNone(path) ? [path, ...folders(join(dir, e.name))] : [];
      });
    expect(folders().length).toBeGreaterThan(10);
    const missing = folders().filter((f) => !(existsSync(join(SRC, f)) && statSync(join(SRC, f)).isDirectory()));
    expect(missing).toEqual([]);
    // tests only in those folders (and at the top, for the front end as a whole)
    const stray = readdirSync(TEST, { recursive: true, encoding: "utf8" })
      .map((f) => f.split(sep).join("/"))
      .filter((f) => f.endsWith(".test.js") && mirrorsNone(f));
    expect(stray).toEqual([]);
  });
});
