// The small module every view carries as `_esm` (written by js/build.mjs beside the packed
// bundle): a view's model is initialised at once, without waiting for the bundle. anywidget gives
// a model 2 s to initialise and then drops every message Python sends it ("[anywidget] Failed to
// initialize model."); unpacking the bundle on a busy page took longer (issue 59). The bundle's
// own `initialize` runs once it is there. Reads the built loader (`npm run build`).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test, vi } from "vitest";

const LOADER = resolve(import.meta.dirname, "../../cctviz/widget/static/widget-packed.js");

/** The loader as a fresh module (a page imports it once per widget). */
async function loader() {
  const source = readFileSync(LOADER, "utf8");
  return (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(source)}`)).default;
}

/** A view's model whose shared front-end model is `frontEnd` (a promise the test settles). */
function viewModel(frontEnd, key) {
  const values = { _bundle: "", _bundle_key: key, _front_end: "IPY_MODEL_f" };
  return { get: (name) => values[name], widget_manager: { get_model: vi.fn(() => frontEnd) } };
}

test("a view's model is initialised without waiting for the bundle", async () => {
  globalThis.__cctvizBundles = new Map();
  let frontEnd = () => {};
  const model = viewModel(new Promise((resolve) => (frontEnd = resolve)), "k1");
  const { initialize } = await loader();
  const initialized = vi.fn();
  // the bundle is there: its initialize runs with the same context
  globalThis.__cctvizBundles.set("k2", Promise.resolve({ initialize: initialized }));
  const context = { model: viewModel(Promise.resolve(null), "k2") };
  expect(initialize(context)).toBeUndefined(); // not a promise anywidget would wait for
  await new Promise((go) => setTimeout(go, 0));
  expect(initialized).toHaveBeenCalledWith(context);
  // the bundle's front-end model never comes (a page too busy to unpack it): nothing waits for it
  expect(initialize({ model })).toBeUndefined();
  expect(model.widget_manager.get_model).toHaveBeenCalledWith("f");
  frontEnd(null);
  delete globalThis.__cctvizBundles;
});
