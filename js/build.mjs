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

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
