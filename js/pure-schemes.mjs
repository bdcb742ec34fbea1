// An esbuild plugin for the release bundle (js/build.mjs). d3-scale-chromatic ships one file
// whose every scheme is a top-level call (`var Blues = ramp(scheme)`, each scheme a
// `new Array(3).concat(...)`); a bundler keeps calls it cannot prove free of effects, so all
// ~50 schemes were bundled for the 9 palettes we use (16.9 KB of the minified bundle; 8.3 KB
// without the unused). Each such initialiser is marked pure — they only make colours — so that
// the unused ones are dropped. js/test/pure-schemes.test.js checks the palettes bundled this way
// against d3's own.
import { readFileSync } from "node:fs";

/** a top-level scheme's initialiser: a call of the file's own helpers, or a scheme's array */
const SCHEME_CALL =
  /^(var \w[\w$]* = )(?=(?:colors|ramp\$?1?|interpolateCubehelixLong|cubehelix\$1|rgb)\(|new Array\(3\))/gm;

/** @type {import("esbuild").Plugin} */
export const pureSchemes = {
  name: "pure-schemes",
  setup(build) {
    build.onLoad({ filter: /d3-scale-chromatic[\\/]dist[\\/].*\.mjs$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replace(SCHEME_CALL, "$1/* @__PURE__ */ "),
      loader: "js",
    }));
  },
};
