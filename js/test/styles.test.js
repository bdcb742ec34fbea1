// The styles: one CSS file per folder of js/src, each imported by the entry point (js/src/index.js)
// in the folders' layer order (js/layers.mjs), which is the cascade's: a folder's rules come after
// those of the folders below it, the widget's last.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { LAYERS } from "../layers.mjs";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Paths of the CSS files under `dir`, relative to js/src, with "/". @param {string} dir @returns {string[]} */
const styles = (dir = SRC) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? styles(join(dir, e.name))
      : e.name.endsWith(".css")
        ? [relative(SRC, join(dir, e.name)).split(sep).join("/")]
        : [],
  );

const layerOf = (/** @type {string} */ path) => LAYERS.findIndex(({ folder }) => path.startsWith(`${folder}/`));

test("every folder's styles are imported by the entry point, in layer order", () => {
  const imported = [...readFileSync(join(SRC, "index.js"), "utf8").matchAll(/^import "\.\/([^"]+\.css)";$/gm)].map(
    ([, path]) => path,
  );
  expect([...imported].sort()).toEqual(styles().sort());
  expect(imported.every((path) => layerOf(path) >= 0)).toBe(true);
  const layers = imported.map(layerOf);
  expect(layers).toEqual([...layers].sort((a, b) => a - b));
});
