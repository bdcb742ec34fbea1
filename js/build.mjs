// Bundles the anywidget front end into cctviz/widget/static/ (git-ignored; built at install time).
// `node js/build.mjs` builds a minified release bundle; `--watch` rebuilds on change with
// sourcemaps for the two-terminal dev loop (see README "Development").

import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { pureSchemes } from "./pure-schemes.mjs";

const watch = process.argv.includes("--watch");
// `--names`: a release build that keeps function names, for reading a CPU profile
const names = process.argv.includes("--names");
// `--analyze`: print what each module adds to the minified bundle (esbuild's metafile)
const analyze = process.argv.includes("--analyze");

// The contract's prose (help texts, field descriptions, comments) is for people and
// docs/view-state.md; the bundle carries only what the code reads.
const PROSE = new Set(["$comment", "help", "kinds", "redraws"]);
/** @type {import("esbuild").Plugin} */
const contractWithoutProse = {
  name: "contract-without-prose",
  setup(build) {
    build.onLoad({ filter: /contract\.json$/ }, (args) => {
      const contract = JSON.parse(readFileSync(args.path, "utf8"), (key, value) =>
        PROSE.has(key) ? undefined : value,
      );
      for (const message of Object.values(contract.messages)) message.fields = {};
      return { contents: JSON.stringify(contract), loader: "json" };
    });
  },
};

// What a saved notebook carries: the release bundle gzipped and base64-encoded
// (widget-packed.b64, a third of the size) in the `_bundle` trait of one model per kernel
// (cctviz.widget.bundle.FrontEnd), which every view names in its `_front_end` trait (marimo,
// which closes a cell's models when it runs again, gives each view its own `_bundle`); and as
// `_esm` a small module that unpacks and imports it once per page (DecompressionStream:
// Chromium 80, Firefox 113, Safari 16.4). The bundle is a trait rather than part of `_esm`
// because a page keeps the source of every module it imported for as long as it lives:
// anywidget imports `_esm` once per widget, so each re-run of a cell kept another 110 KB; and a
// shared model rather than a trait of each view because a page keeps every model's state, and a
// saved notebook stores it, once per view. `--watch` keeps widget.js plain for hot reload.
// esbuild cannot emit such a pair itself, and no bundler plugin we found does this for
// anywidget, so these few lines are ours.
const PACKED = "cctviz/widget/static/widget-packed.js";
const PACKED_DATA = "cctviz/widget/static/widget-packed.b64";
function pack() {
  const code = readFileSync("cctviz/widget/static/widget.js");
  const data = gzipSync(code, { level: 9 }).toString("base64");
  // One unpacking per page and bundle, however many views (and module copies) load it; a
  // failed one is tried again by the next view. Base64 is decoded natively where the browser
  // can (Uint8Array.fromBase64: Chromium 140+, Firefox 133+, Safari 18.2+; 10 ms less on a
  // fresh page), else by a loop (~30x faster than Uint8Array.from). A view's bundle is its own
  // or the FrontEnd model's; the FrontEnd model (no _front_end) unpacks it before the views'
  // models are made; evaluating the bundle and making the view are two tasks. A view's model
  // does not wait for the bundle in `initialize`: anywidget gives a model 2 s from its creation
  // to initialise, then drops every message Python sends it ("[anywidget] Failed to initialize
  // model."); unpacking and importing the bundle on a busy page took longer (issue 59), so the
  // bundle's own `initialize` runs once it is there, before any view renders. (These notes are
  // here, not in the loader: a page keeps the loader's source once per widget.)
  const key = `cctviz-${createHash("sha256").update(code).digest("hex").slice(0, 16)}`;
  const loader = `// cctviz: unpacks the _bundle trait (gzip, base64), imports it once per page
const bundles = (globalThis.__cctvizBundles ??= new Map());
const fromBase64 = (data) => {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
};
const unpack = async (data) => {
  if (typeof DecompressionStream === "undefined") {
    throw new Error("cctviz needs DecompressionStream (Chromium 80+, Firefox 113+, Safari 16.4+)");
  }
  const bytes = Uint8Array.fromBase64?.(data) ?? fromBase64(data);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const blob = await new Response(stream, { headers: { "content-type": "text/javascript" } }).blob();
  const url = URL.createObjectURL(blob);
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
};
const bundleOf = async (model) => {
  const own = model.get("_bundle");
  if (own) return own;
  const ref = String(model.get("_front_end") ?? "");
  if (!ref.startsWith("IPY_MODEL_")) throw new Error("cctviz: this view names no front-end bundle");
  return (await model.widget_manager.get_model(ref.slice(10))).get("_bundle");
};
const load = (model) => {
  const key = model.get("_bundle_key");
  if (!bundles.has(key)) {
    const loading = bundleOf(model).then(unpack);
    loading.catch(() => bundles.delete(key));
    bundles.set(key, loading);
  }
  return bundles.get(key);
};
export default {
  initialize(context) {
    const loading = load(context.model);
    if (context.model.get("_front_end") === undefined) return void loading.catch(() => {});
    loading.then((bundle) => bundle.initialize?.(context), () => {});
  },
  async render(context) {
    const bundle = await load(context.model);
    await new Promise((go) => setTimeout(go));
    return bundle.render(context);
  },
};
`;
  writeFileSync(PACKED, loader);
  writeFileSync(PACKED_DATA, `${key}\n${data}`);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`  ${PACKED_DATA}  ${kb(data.length)} (widget.js ${kb(code.length)} unpacked)`);
}

/** @type {import("esbuild").BuildOptions} */
const options = {
  entryPoints: { widget: "js/src/index.js" },
  bundle: true,
  format: "esm",
  target: ["es2020"],
  outdir: "cctviz/widget/static",
  minify: !watch && !names,
  minifyWhitespace: !watch,
  minifySyntax: !watch,
  sourcemap: watch ? "inline" : false,
  loader: { ".css": "css" },
  logLevel: "info",
  plugins: watch ? [] : [contractWithoutProse, pureSchemes],
  metafile: analyze,
  // V8's explicit compile hint (Chromium 136+; other engines read a comment): compile every
  // function while the module is loaded, off the main thread, rather than each on its first call.
  // A fresh page's first picture ran ~25 ms of such compiling inside the task that draws it (a
  // 100-node view: a 51-71 ms task before the picture, none with the hint; the picture no later).
  banner: watch ? {} : { js: "//# allFunctionsCalledOnLoad" },
};

if (watch) {
  // a stale packed bundle would hide the rebuilt one
  for (const stale of [PACKED, PACKED_DATA]) rmSync(stale, { force: true });
  await (await esbuild.context(options)).watch();
} else {
  // the headless figure page of cctviz.export imports widget.js as well (its named exports)
  rmSync("cctviz/widget/static/figure.js", { force: true }); // left by builds before 0.1
  const result = await esbuild.build(options);
  if (analyze && result.metafile) console.log(await esbuild.analyzeMetafile(result.metafile));
  pack();
}
