// A model anywidget gave up on, and how the view recovers it. anywidget (0.11) gives a model 2 s
// from its creation to initialise; past that it rejects the model's `ready` ("[anywidget] Failed
// to initialize model." in the console) and from then on drops every message Python sends the
// model, while the model's views still draw, from the state the model was made with. On a busy
// page (a first view while JupyterLab loads, several views at once, a loaded machine) the view
// thereby missed `_static_follows`, so the static picture's note stayed beside it, and nothing
// Python changed later reached it (issue 59).
//
// `watchDeafness` finds out exactly: it hands the ipywidgets model behind anywidget's proxy (found
// by connection.js) a message with a method nobody knows, which ipywidgets ignores and anywidget's
// wrapper rejects with its error when it gave up. Then it routes the model's messages past that
// wrapper to ipywidgets' own handler and asks Python for the whole state again (ipywidgets'
// `request_state`, answered by `send_state`), so what was lost arrives; where the model is not
// built that way, `lost` says what happened and what to do.

/** anywidget's error when it gave up on a model (anywidget/src/runtime.ts). */
const GAVE_UP = "Failed to initialize model";

/**
 * @typedef {{ on_msg?: (handler: (msg: unknown) => unknown) => void,
 *   send?: (data: unknown, callbacks?: unknown, metadata?: unknown, buffers?: unknown) => unknown }} Comm
 * @typedef {{ comm?: Comm, _handle_comm_msg?: (msg: unknown) => unknown }} InnerModel
 *   what is read of an ipywidgets model
 */

/** The models being recovered: each one's whole state, asked of Python, applied (another view of
 * one finds it deaf still, as the wrapper stays, and waits for the same state). */
const recovering = new WeakMap();

/** What the view says when it could not recover its model. */
export const DEAF_NOTE =
  "this view gets no messages from Python: anywidget gave up on its model on a busy page " +
  "('Failed to initialize model' in the console). Run the cell again to see Python's changes.";

/**
 * @param {Promise<unknown>} found the ipywidgets model behind the proxy, or null (connection.js)
 * @param {{ deaf: () => void, recovered: () => void, lost: () => void }} on `deaf` as soon as it
 *   is known; then `recovered` once Python's whole state has come again and is in the model (a
 *   table equal to the one drawn comes as a new object without a change event: the view draws
 *   the model's table again), or `lost`
 * @returns {Promise<boolean>} whether the model was deaf
 */
export async function watchDeafness(found, on) {
  const inner = /** @type {InnerModel | null} */ (await found.catch(() => null));
  if (!inner || typeof inner._handle_comm_msg !== "function") return false;
  try {
    await inner._handle_comm_msg({ content: { data: { method: "cctviz-probe" } }, buffers: [] });
    return false;
  } catch (error) {
    if (!String(/** @type {Error} */ (error)?.message ?? error).includes(GAVE_UP)) return false;
  }
  on.deaf();
  if (!recovering.has(inner)) recovering.set(inner, recover(inner));
  if (await recovering.get(inner)) on.recovered();
  else on.lost();
  return true;
}

/**
 * Messages of `inner` go to the handler anywidget's wrapper overrides (ipywidgets' own), and
 * Python is asked for the whole state. @param {InnerModel} inner
 * @returns {Promise<boolean>} once Python's state is applied (true), or at once (false) where
 *   the model is not built as ipywidgets builds it
 */
function recover(inner) {
  const wrapper = inner._handle_comm_msg;
  let proto = Object.getPrototypeOf(inner);
  while (proto && proto._handle_comm_msg === wrapper) proto = Object.getPrototypeOf(proto);
  const handle = proto?._handle_comm_msg;
  const comm = inner.comm;
  const listen = comm?.on_msg;
  const send = comm?.send;
  if (typeof handle !== "function" || typeof listen !== "function" || typeof send !== "function") {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    /** @type {unknown} the request's message id (ipywidgets' comm returns it) */
    let asked = null;
    const onMsg = (/** @type {unknown} */ msg) => {
      const handled = handle.call(inner, msg);
      const parent = /** @type {{ parent_header?: { msg_id?: unknown } } | undefined} */ (msg)?.parent_header;
      // the reply to the request (or, where the comm names no id, the first message)
      if (asked === undefined || (asked !== null && parent?.msg_id === asked)) {
        Promise.resolve(handled).then(
          () => resolve(true),
          () => resolve(true),
        );
      }
      return handled;
    };
    try {
      listen.call(comm, onMsg);
      asked = send.call(comm, { method: "request_state" }, {}, {}, []);
    } catch {
      resolve(false);
      return;
    }
    console.warn("cctviz: anywidget gave up on a view's model; its messages are taken back");
  });
}
