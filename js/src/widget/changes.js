// An ensemble's changes in the view. Finding them reads every node's series of the store
// (seconds on a store of thousands of runs), so the view asks Python for them (a `changes`
// request) only once a tree is drawn, after the frame that shows it: Python answers by sending
// the table again with the change rings and the change colour metric. The table pane's Changes
// tab lists them (the same request: by then an answer Python keeps).
//
// "Compare runs" on a change (an `explain` request): Python builds the compare view of the
// runs just before and just after it (`w.explain`, kept in `w.explained`) and replies with that
// widget's model; this view shows it in place of the tree, with "← back to the ensemble". Why
// here rather than in a new output: a click runs no cell, and only a cell's output can add an
// output; the view can show another widget's model itself (anywidget hands it the host's
// `widget_manager`: JupyterLab, Notebook 7, Voilà), so the compare view is live (its own
// selection, tooltips, Python state in `w.explained`) without the user running anything. A host
// without a widget manager (marimo) says to display `w.explained` in a cell.
import { isDisconnected } from "./connection.js";

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./lod-client.js").LodClient} LodClient
 * @typedef {{ get_model: (id: string) => Promise<unknown>,
 *   create_view: (model: unknown) => Promise<{ el: HTMLElement, remove: () => void }> }} WidgetManager
 */

/** How long the view waits for the compare view's model to reach the page. */
const MODEL_WAIT_MS = 10000;

/**
 * @param {{ model: CCTModel, el: HTMLElement, body: HTMLElement, client: LodClient,
 *   later: (f: () => void) => void }} options `model`: the widget's own model (its host's
 *   widget manager); `body`: what the compare view stands in for; `later`: runs after the next
 *   frame
 */
export function bindChanges({ model, el, body, client, later }) {
  /** @type {unknown} the payload changes were last asked for */
  let asked = null;
  /** @type {Set<unknown>} trees whose changes could not be found (not asked again) */
  const failed = new Set();
  /** @type {{ panel: HTMLElement, view: { remove: () => void } | null } | null} */
  let shown = null;
  let disposed = false;

  const isEnsemble = () => Object.keys(model.get("_strip") ?? {}).length > 0;

  /** @param {unknown} error */
  const message = (error) =>
    isDisconnected(error)
      ? "Not connected to a kernel: run the cell again."
      : error instanceof Error
        ? error.message
        : String(error);

  /** Python's changes (it finds them on first need). */
  const fetch = () => client.request("changes", {}).then((reply) => reply.changes);

  /** A tree was drawn: its changes are asked for, once, after the frame that shows it. */
  function drawn() {
    const payload = /** @type {Record<string, unknown>} */ (model.get("_payload") ?? {});
    if (!isEnsemble() || payload.changes || payload === asked || failed.has(payload.tree)) return;
    asked = payload;
    later(() => {
      if (disposed || model.get("_payload") !== payload) return;
      fetch().catch(() => failed.add(payload.tree)); // Python's error is on the console
    });
  }

  /** @returns {HTMLElement} the panel that stands in for the tree */
  function open() {
    close();
    const doc = el.ownerDocument;
    const panel = doc.createElement("div");
    panel.className = "cct-compare-panel";
    const bar = panel.appendChild(doc.createElement("div"));
    bar.className = "cct-compare-bar";
    const back = bar.appendChild(doc.createElement("button"));
    back.type = "button";
    back.className = "cct-compare-back";
    back.textContent = "← back to the ensemble";
    back.addEventListener("click", close);
    const note = bar.appendChild(doc.createElement("span"));
    note.className = "cct-compare-note";
    note.textContent = "Comparing the runs around the change…";
    body.hidden = true;
    el.append(panel);
    shown = { panel, view: null };
    return panel;
  }

  function close() {
    if (!shown) return;
    shown.view?.remove();
    shown.panel.remove();
    shown = null;
    body.hidden = false;
  }

  /** "Compare runs" on change `index` of w.changes. @param {number} index */
  async function compare(index) {
    const panel = open();
    const mine = /** @type {NonNullable<typeof shown>} */ (shown);
    const note = /** @type {HTMLElement} */ (panel.querySelector(".cct-compare-note"));
    try {
      const reply = await client.request("explain", { index });
      const manager = /** @type {WidgetManager | undefined} */ (
        /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (model)).widget_manager
      );
      if (typeof reply.model !== "string" || !reply.model.startsWith("IPY_MODEL_")) {
        throw new Error("no compare view in Python's reply");
      }
      if (!manager || typeof manager.create_view !== "function") {
        throw new Error("this page cannot show it here: display w.explained in a cell");
      }
      const child = await modelOf(manager, reply.model.slice("IPY_MODEL_".length));
      const view = await manager.create_view(child);
      if (disposed || shown !== mine) {
        view.remove();
        return;
      }
      mine.view = view;
      note.textContent = "The runs just before and after the change (w.explained)";
      panel.dataset.model = reply.model.slice("IPY_MODEL_".length);
      panel.append(view.el);
    } catch (error) {
      if (shown === mine) note.textContent = message(error);
    }
  }

  return {
    drawn,
    fetch,
    compare,
    /** The compare view on show, if any (tests, the console). */
    get comparing() {
      return shown !== null;
    },
    close,
    dispose() {
      disposed = true;
      close();
    },
  };
}

/**
 * Whether payload `next` is `previous` with the changes Python found added (the same tree): the
 * view keeps the zoom the user set meanwhile rather than fitting the tree again.
 * @param {unknown} previous @param {unknown} next
 */
export function ringsAdded(previous, next) {
  const [a, b] = /** @type {Record<string, unknown>[]} */ ([previous ?? {}, next ?? {}]);
  return a.tree !== undefined && a.tree === b.tree && a.size === b.size && !a.changes && !!b.changes;
}

/**
 * The model `id`, once the page has it: the comm that opened it came before the reply, but a
 * widget manager may register it a moment later.
 * @param {WidgetManager} manager @param {string} id
 */
async function modelOf(manager, id) {
  const until = Date.now() + MODEL_WAIT_MS;
  for (;;) {
    try {
      return await manager.get_model(id);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
