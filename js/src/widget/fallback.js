// The static fallback image: a PNG of the view stored in the notebook beside the widget's
// output, so that GitHub, nbviewer and nbconvert (which cannot run the widget) show the figure.
//
// The kernel cannot update an output once its cell has finished, so the front end writes the
// image: each view keeps a PNG of itself (snapshot.js: refreshed a moment after the view last
// changed), and when JupyterLab saves the notebook, the PNG goes into every output that shows
// the widget, next to the widget's own data. This needs JupyterLab's widget manager (it gives the
// notebook being saved); in other front ends the widget works the same, without a fallback image.

export const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";
export const IMAGE_MIME = "image/png";

/**
 * @typedef {{ data: string, width: number, height: number }} Snapshot a PNG (base64) and its
 *   size in CSS pixels
 * @typedef {object} FallbackView
 * @property {{ get(name: "_payload"): unknown, widget_manager?: unknown }} model the view's model
 * @property {() => Snapshot | null} png the latest image of the view, if any
 */
/**
 * What is used of JupyterLab's widget manager (@jupyter-widgets/jupyterlab-manager) and of the
 * notebook model it gives: checked at run time by `labManager`.
 * @template V
 * @typedef {{ readonly length: number, get(index: number): V }} LabList
 */
/**
 * @typedef {{ data?: Record<string, unknown>, metadata?: Record<string, unknown>,
 *   setData(options: { data: Record<string, unknown>, metadata: Record<string, unknown> }): void }} LabOutput
 * @typedef {{ type: string, outputs: LabList<LabOutput> }} LabCell
 * @typedef {{ cells: LabList<LabCell> }} LabNotebook
 * @typedef {{ saveState: { connect(slot: (sender: unknown, state: string) => void): void },
 *   model: LabNotebook }} LabContext
 * @typedef {{ context: LabContext, get_model(id: string): Promise<{ get(name: string): unknown } | undefined> }} LabManager
 */

/** @type {Set<FallbackView>} */
const views = new Set();
/** @type {WeakSet<LabContext>} */
const hooked = new WeakSet();

/**
 * JupyterLab's widget manager, if `manager` is one (it has the notebook's context).
 * @param {unknown} manager
 * @returns {LabManager | null}
 */
function labManager(manager) {
  const m =
    /** @type {{ context?: { saveState?: { connect?: unknown }, model?: { cells?: unknown } } } | null | undefined} */ (
      manager
    );
  const context = m?.context;
  return typeof context?.saveState?.connect === "function" && context.model?.cells
    ? /** @type {LabManager} */ (m)
    : null;
}

/**
 * Registers a view whose image goes into the notebook when it is saved.
 * @param {FallbackView} view
 * @returns {{ refreshed: () => void, unregister: () => void }} call `refreshed` when the view
 *   has a new image
 */
export function registerFallback(view) {
  const manager = labManager(view.model.widget_manager);
  if (!manager) return { refreshed() {}, unregister() {} };
  const context = manager.context;
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

/** @type {WeakMap<FallbackView, string>} model ids of the views, resolved once (async) */
const idOf = new WeakMap();

/**
 * Finds the comm id of `view`'s model among the notebook's widget outputs: the model proxy
 * that anywidget gives a view does not carry it, but the manager's models hand out the same
 * trait objects, so the payload's identity tells which model is the view's.
 * @param {FallbackView} view @param {LabNotebook} notebook @param {LabManager} manager
 * @returns {Promise<string | null>}
 */
export async function resolveModelId(view, notebook, manager) {
  const known = idOf.get(view);
  if (known) return known;
  for (const { id } of widgetOutputs(notebook)) {
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

/**
 * The outputs of `notebook` that show a widget, with their data and model id.
 * @param {LabNotebook} notebook
 * @returns {Generator<{ output: LabOutput, data: Record<string, unknown>, id: string }>}
 */
function* widgetOutputs(notebook) {
  const cells = notebook.cells;
  for (let c = 0; c < cells.length; c++) {
    const cell = cells.get(c);
    if (cell.type !== "code") continue;
    const outputs = cell.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs.get(i);
      const data = output.data;
      const view = /** @type {{ model_id?: unknown } | undefined} */ (data?.[WIDGET_MIME]);
      if (data && typeof view?.model_id === "string" && view.model_id) yield { output, data, id: view.model_id };
    }
  }
}

/**
 * At save time (synchronous: what is written is what the model holds when this returns).
 * @param {LabNotebook} notebook @param {LabManager} manager
 */
export function writeFallbacks(notebook, manager) {
  /** @type {Map<string, Snapshot>} */
  const images = new Map();
  for (const view of views) {
    const id = idOf.get(view);
    const png = view.png();
    if (id && png) images.set(id, png);
    else void resolveModelId(view, notebook, manager); // ready for the next save
  }
  for (const { output, data, id } of widgetOutputs(notebook)) {
    const png = images.get(id);
    if (!png || data[IMAGE_MIME] === png.data) continue;
    // shown at its CSS size wherever the notebook is rendered, however many device pixels
    const metadata = { ...output.metadata, [IMAGE_MIME]: { width: png.width, height: png.height } };
    output.setData({ data: { ...data, [IMAGE_MIME]: png.data }, metadata });
  }
}
