// The profile strip of an ensemble bound to the model: Python's strip (`_strip`) drawn, the axes
// the user chooses set on `strip_x` and `strip_y`, and a brush sent as a `brush` request, which
// Python answers by setting `where`, reducing the tree again over the profiles that pass and
// sending the new table and strip. Shown only while the widget draws an Ensemble (a `_strip`
// that is not empty), first in the view's body: beside the tree, or above it in narrow cells.
import { isDisconnected } from "./connection.js";

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./lod-client.js").LodClient} LodClient
 * @typedef {import("./renderer-api.js").ProfileStrip} ProfileStrip
 */

/**
 * @param {{ model: CCTModel, body: HTMLElement, client: LodClient,
 *   create: (parent: HTMLElement, handlers: import("./renderer-api.js").StripHandlers) => ProfileStrip }} options
 * @returns {{ strip: ProfileStrip, dispose: () => void }}
 */
export function bindStrip({ model, body, client, create }) {
  const strip = create(body, {
    onAxes(x, y) {
      model.set("strip_x", x);
      model.set("strip_y", y);
      model.save_changes();
    },
    onBrush(ranges) {
      client.request("brush", { x: ranges.x, y: ranges.y }).catch((error) => {
        strip.setError(isDisconnected(error) ? "Not connected to a kernel: run the cell again." : error.message);
      });
    },
  });
  body.prepend(strip.element);
  const show = () => strip.setData(model.get("_strip"));
  model.on("change:_strip", show);
  show();
  return {
    strip,
    dispose() {
      model.off("change:_strip", show);
      strip.destroy();
    },
  };
}
