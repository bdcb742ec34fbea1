// Whether the view can reach Python. A view outlives its kernel: after a restart, `os._exit` in
// the kernel, or in a notebook reopened from its saved widget state, it still draws, but nothing
// it sends arrives. ipywidgets knows (its model's `comm_live`, false from the kernel's
// "restarting" on, or for a model restored without a kernel) and marks its own views with the
// `jupyter-widgets-disconnected` class; anywidget clears that listener when it renders our view
// and hands us a proxy without `comm_live`, so the view finds the model behind the proxy through
// the widget manager, listens to its `comm_live_update` itself, and also counts a send that
// throws ("Cannot send" from JupyterLab's closed comm) as disconnected.
//
// `watchConnection` wraps the model: a message or a save made while disconnected is dropped (it
// could never be delivered, and nothing waits to send it later), a send that throws is caught.
// Requests are refused before they are sent (lod-client.js), with a `DisconnectedError`.

/** @typedef {import("./model.js").CCTModel} CCTModel */

/** What a request gets when there is no kernel to answer it. */
export class DisconnectedError extends Error {
  constructor() {
    super("cctviz: the view is not connected to a kernel");
    this.name = "DisconnectedError";
  }
}

/** @param {unknown} error */
export const isDisconnected = (error) => error instanceof DisconnectedError;

/** The event ipywidgets models trigger when `comm_live` changes. */
const LIVE_EVENT = "comm_live_update";
/** A custom event the view triggers on each model of the manager to find its own. */
const PROBE_EVENT = "cctviz:probe";

/**
 * @typedef {{ comm_live?: unknown, trigger?: (event: string, arg: unknown) => void }} WidgetModel
 *   what is read of an ipywidgets model
 * @typedef {(event: string, listener: (arg?: unknown) => void) => void} Listen
 */

/**
 * @typedef {object} Connection
 * @property {boolean} live false once the kernel is gone (a send failed, or ipywidgets says so)
 * @property {CCTModel} model the model, whose `send` and `save_changes` do nothing while not live
 *   and never throw
 * @property {Promise<WidgetModel | null>} found the ipywidgets model behind the proxy, once found
 *   (null where there is none: marimo); deafness.js reads it
 * @property {() => void} dispose
 */

/**
 * @param {CCTModel} model anywidget's model (proxy)
 * @param {(live: boolean) => void} onChange called when `live` changes
 * @returns {Connection}
 */
export function watchConnection(model, onChange) {
  let live = true;
  let disposed = false;
  /** @type {WidgetModel | null} the ipywidgets model behind anywidget's proxy, once found */
  let inner = null;
  /** @param {boolean} next */
  const set = (next) => {
    if (next === live || disposed) return;
    live = next;
    onChange(live);
  };
  // no value comes with the event: read it off the model if it was found, else it went false
  // (ipywidgets sets it true only on a new model)
  const onLive = () => set(inner ? inner.comm_live !== false : false);
  const on = /** @type {Listen} */ (/** @type {unknown} */ (model.on));
  const off = /** @type {Listen} */ (/** @type {unknown} */ (model.off));
  on(LIVE_EVENT, onLive);
  const found = findModel(model, on, off);
  found.then((found) => {
    if (disposed || !found) return;
    inner = found;
    onLive();
  });

  const guarded = /** @type {CCTModel} */ (
    new Proxy(model, {
      get(target, key) {
        if (key === "send") {
          return (/** @type {Parameters<CCTModel["send"]>} */ ...args) => {
            if (!live) return;
            try {
              target.send(...args);
            } catch {
              set(false); // JupyterLab's comm is closed: "Cannot send"
            }
          };
        }
        if (key === "save_changes") {
          return () => {
            if (!live) return;
            try {
              target.save_changes();
            } catch {
              set(false);
            }
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    })
  );
  return {
    get live() {
      return live;
    },
    model: guarded,
    found,
    dispose() {
      disposed = true;
      off(LIVE_EVENT, onLive);
    },
  };
}

/**
 * The ipywidgets model behind anywidget's proxy `model`: each model the widget manager holds
 * is sent a custom event that only the proxy's own model passes to our listener. Null where the
 * host has no such manager (marimo): there a failed send is what tells.
 * @param {CCTModel} model @param {Listen} on @param {Listen} off
 * @returns {Promise<WidgetModel | null>}
 */
async function findModel(model, on, off) {
  const manager = /** @type {{ _models?: Record<string, Promise<WidgetModel>> } | undefined} */ (
    /** @type {Record<string, unknown>} */ (model).widget_manager
  );
  const models = manager?._models;
  if (!models || typeof models !== "object") return null;
  /** @type {WidgetModel | null} */
  let found = null;
  /** @param {unknown} arg */
  const probe = (arg) => {
    found = /** @type {WidgetModel} */ (arg);
  };
  on(PROBE_EVENT, probe);
  try {
    const all = await Promise.allSettled(Object.values(models));
    for (const result of all) {
      if (found) break;
      const m = result.status === "fulfilled" ? result.value : null;
      if (m && typeof m.trigger === "function") m.trigger(PROBE_EVENT, m);
    }
  } catch {
    // a manager unlike ipywidgets': failed sends still tell
  } finally {
    off(PROBE_EVENT, probe);
  }
  return found;
}
