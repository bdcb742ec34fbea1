// The static fallback image: a PNG of the view stored in the notebook beside the widget's
// output, so that GitHub, nbviewer and nbconvert (which cannot run the widget) show the figure.
//
// The kernel cannot update an output once its cell has finished, so the front end writes the
// image: each view keeps a PNG of itself (refreshed a moment after the view last changed), and
// when JupyterLab saves the notebook, the PNG goes into every output that shows the widget, next
// to the widget's own data. This needs JupyterLab's widget manager (it gives the notebook being
// saved); in other front ends the widget works the same, without a fallback image.

export const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";
export const IMAGE_MIME = "image/png";

/**
 * @typedef {{ data: string, width: number, height: number }} Snapshot a PNG (base64) and its
 *   size in CSS pixels
 * @typedef {object} FallbackView
 * @property {any} model the anywidget model of the view
 * @property {() => Snapshot | null} png the latest image of the view, if any
 */

/** @type {Set<FallbackView>} */
const views = new Set();
const hooked = new WeakSet();

/**
 * Registers a view whose image goes into the notebook when it is saved.
 * @param {FallbackView} view
 * @returns {{ refreshed: () => void, unregister: () => void }} call `refreshed` when the view
 *   has a new image
 */
export function registerFallback(view) {
  const manager = view.model.widget_manager;
  const context = manager?.context;
  const none = { refreshed() {}, unregister() {} };
  if (!context?.saveState || !context.model?.cells) return none;
  views.add(view);
  if (!hooked.has(context)) {
    hooked.add(context);
    context.saveState.connect((_, state) => {
      if (state === "started") writeFallbacks(context.model, manager);
    });
  }
  return {
    refreshed: () => void resolveModelId(view, context.model, manager),
    unregister: () => views.delete(view),
  };
}

/** Model ids of the widget outputs of a notebook, resolved to our views once (async). */
const idOf = new WeakMap();

/**
 * Finds the comm id of `view`'s model among the notebook's widget outputs: the model proxy
 * that anywidget gives a view does not carry it, but the manager's models hand out the same
 * trait objects, so the payload's identity tells which model is the view's.
 */
export async function resolveModelId(view, notebook, manager) {
  if (idOf.has(view)) return idOf.get(view);
  for (const { data } of widgetOutputs(notebook)) {
    const id = data[WIDGET_MIME].model_id;
    try {
      const model = await manager.get_model(id);
      if (model?.get("_payload") === view.model.get("_payload")) {
        idOf.set(view, id);
        return id;
      }
    } catch {
      // a model of an earlier kernel session: not ours
    }
  }
  return null;
}

function* widgetOutputs(notebook) {
  const cells = notebook.cells;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells.get(c);
    if (cell.type !== "code") continue;
    const outputs = cell.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs.get(i);
      const data = output.data;
      if (data?.[WIDGET_MIME]?.model_id) yield { output, data };
    }
  }
}

/** At save time (synchronous: what is written is what the model holds when this returns). */
export function writeFallbacks(notebook, manager) {
  const images = new Map();
  for (const view of views) {
    const id = idOf.get(view);
    const png = view.png();
    if (id && png) images.set(id, png);
    else void resolveModelId(view, notebook, manager); // ready for the next save
  }
  for (const { output, data } of widgetOutputs(notebook)) {
    const png = images.get(data[WIDGET_MIME].model_id);
    if (!png || data[IMAGE_MIME] === png.data) continue;
    // shown at its CSS size wherever the notebook is rendered, however many device pixels
    const metadata = { ...output.metadata, [IMAGE_MIME]: { width: png.width, height: png.height } };
    output.setData({ data: { ...data, [IMAGE_MIME]: png.data }, metadata });
  }
}
