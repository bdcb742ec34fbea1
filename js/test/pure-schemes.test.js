// @vitest-environment node
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { expect, test } from "vitest";
import { pureSchemes } from "../pure-schemes.mjs";
import { PALETTES } from "../src/cct/picture/scales.js";

test("the palettes bundled without the unused schemes are d3's, and the unused are gone", async () => {
  const built = await esbuild.build({
    stdin: {
      contents: 'export { PALETTES } from "./src/cct/picture/scales.js";',
      resolveDir: fileURLToPath(new URL("..", import.meta.url)), // js/
      loader: "js",
    },
    bundle: true,
    format: "esm",
    minify: true,
    write: false,
    plugins: [pureSchemes],
  });
  const code = built.outputFiles[0].text;
  const bundled = (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)).PALETTES;
  expect(Object.keys(bundled)).toEqual(Object.keys(PALETTES));
  for (const [name, palette] of Object.entries(PALETTES))
    for (const t of [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) expect(bundled[name](t)).toBe(palette(t));
  // a scheme no palette uses (Spectral's darkest red) is not in the bundle
  expect(code).not.toContain("9e0142d53e4ff46d43");
});
