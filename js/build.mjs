// Bundles the anywidget front end into cctviz/widget/static/ (git-ignored; built at install time).
// `node js/build.mjs` builds a minified release bundle; `--watch` rebuilds on change with
// sourcemaps for the two-terminal dev loop (see README "Development").
import * as esbuild from "esbuild";

const watch = process.argv.includes("--watch");

/** @type {import("esbuild").BuildOptions} */
const options = {
  entryPoints: { widget: "js/src/index.js" },
  bundle: true,
  format: "esm",
  target: ["es2020"],
  outdir: "cctviz/widget/static",
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  loader: { ".css": "css" },
  logLevel: "info",
};

// the headless figure page of cctviz.export: a classic script that sets `cctvizFigure`
/** @type {import("esbuild").BuildOptions} */
const figure = { ...options, entryPoints: { figure: "js/src/figure-page.js" }, format: "iife" };

if (watch) {
  for (const o of [options, figure]) await (await esbuild.context(o)).watch();
} else {
  await Promise.all([esbuild.build(options), esbuild.build(figure)]);
}
