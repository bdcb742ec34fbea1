// Level-of-detail requests to Python. A click on an "N more" fold asks Python to load more: the
// next hidden children of a node, a `load_more` message with a request id, answered by a `reply`
// with the same id. Python sends the new table (`_payload`) before the reply, so while a request
// waits, the node it loads more of is the anchor that the new table keeps in place on screen. Without
// a kernel (connection.js) a request is refused at once, and those waiting are rejected, with a
// `DisconnectedError`: nothing is sent that cannot arrive, and nothing waits for ever.
import { NO_ID } from "../cct/data/ids.js";
import { MESSAGES } from "../contract.js";
import { DisconnectedError } from "./connection.js";
import { asReply } from "./model.js";

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./model.js").LoadMoreMessage} LoadMoreMessage
 * @typedef {Extract<import("./model.js").ReplyMessage, { ok: true }>} LoadedReply
 */

/**
 * A message kind of the contract (contract.json "messages").
 * @template {string} K
 * @param {K} kind
 * @returns {K}
 */
function messageKind(kind) {
  if (!(kind in MESSAGES)) throw new Error(`the contract has no ${JSON.stringify(kind)} message`);
  return kind;
}
const LOAD_MORE = messageKind("load_more");
const DISTRIBUTION = messageKind("distribution");
const FIND = messageKind("find");
const PANE_KINDS = new Set([
  messageKind("rows"),
  messageKind("source"),
  messageKind("ranks"),
  messageKind("pick"),
  messageKind("locate"),
  messageKind("brush"),
  messageKind("changes"),
  messageKind("explain"),
]);
messageKind("reply"); // what asReply reads

/**
 * @typedef {object} LodClient
 * @property {(node: import("../cct/data/ids.js").NodeId) => Promise<LoadedReply>} loadMore asks for the next hidden children of
 *   `node` (-1: hidden roots); resolves with Python's reply, rejects with its error (which is
 *   also reported on the console) or when the view is closed first
 * @property {(node: import("../cct/data/ids.js").NodeId, metric: string) => Promise<import("./model.js").Spread>} distribution
 *   asks for the spread of a node's rows of a metric (its tooltip); rejects with Python's error
 * @property {(node: import("../cct/data/ids.js").NodeId, step: 1 | -1 | 0) => Promise<import("../cct/data/ids.js").NodeId | null>} find
 *   loads the search match after (`step` 1) or before (-1) node `node` (-1: none), or (0) the
 *   matches; resolves with the match (null: none, or all were asked for) once its table came
 * @property {(type: "rows" | "pick" | "locate" | "brush" | "changes" | "explain" | "source" | "ranks", fields: Record<string, unknown>) => Promise<LoadedReply>} request
 *   a table pane request, the profile strip's brush, or an ensemble's changes (contract.json "messages"); resolves with Python's reply, rejects
 *   with its error
 * @property {import("../cct/data/ids.js").NodeId | null} anchor the node of the latest request still waiting for its reply
 *   (null: none, or the hidden roots, which have no place on screen)
 * @property {number} pending how many requests wait for their reply
 * @property {() => void} cutOff the kernel is gone: waiting requests are rejected with a
 *   `DisconnectedError`
 * @property {() => void} dispose stops listening; waiting requests are rejected
 */

/**
 * @param {CCTModel} model
 * @param {{ warn?: (text: string) => void, live?: () => boolean, refused?: () => void }} [options]
 *   `warn`: where error replies are reported; `live`: whether Python can be reached now;
 *   `refused`: called when a request is refused for want of a kernel
 * @returns {LodClient}
 */
export function createLodClient(
  model,
  { warn = (text) => console.warn(text), live = () => true, refused = () => {} } = {},
) {
  let requests = 0;
  let disposed = false;
  /** @type {Map<number, { node: import("../cct/data/ids.js").NodeId, loadMore: boolean, resolve: (reply: LoadedReply) => void, reject: (error: Error) => void }>} */
  const waiting = new Map();

  /** @param {unknown} message */
  const onMessage = (message) => {
    const reply = asReply(message);
    const request = reply ? waiting.get(reply.id) : undefined;
    if (!reply || !request) return; // not a reply, or one we did not ask for (or got already)
    waiting.delete(reply.id);
    if ("error" in reply) {
      warn(`cctviz: ${reply.error}`);
      request.reject(new Error(reply.error));
    } else {
      request.resolve(reply);
    }
  };
  model.on("msg:custom", onMessage);

  /**
   * Sends a request and waits for its reply; refused without a kernel (a send that fails on the
   * way cuts it off too, see index.js).
   * @param {(id: number) => Parameters<CCTModel["send"]>[0]} message @param {import("../cct/data/ids.js").NodeId} node
   * @param {boolean} loadMore
   * @returns {Promise<LoadedReply>}
   */
  const ask = (message, node, loadMore) => {
    if (disposed) return Promise.reject(new Error("cctviz: this view is closed"));
    if (!live()) {
      refused();
      return Promise.reject(new DisconnectedError());
    }
    const id = ++requests;
    /** @type {Promise<LoadedReply>} */
    const reply = new Promise((resolve, reject) => waiting.set(id, { node, loadMore, resolve, reject }));
    model.send(message(id));
    return reply;
  };

  return {
    loadMore(node) {
      return ask((id) => /** @type {LoadMoreMessage} */ ({ type: LOAD_MORE, id, node }), node, true);
    },
    find(node, step) {
      /** @type {(id: number) => import("./model.js").FindMessage} */
      const message = (id) => ({ type: FIND, id, node, step });
      return ask(message, NO_ID, false).then((r) =>
        typeof r.match === "number" && r.match >= 0
          ? /** @type {import("../cct/data/ids.js").NodeId} */ (r.match)
          : null,
      );
    },
    distribution(node, metric) {
      /** @type {(id: number) => import("./model.js").DistributionMessage} */
      const message = (id) => ({ type: DISTRIBUTION, id, node, metric });
      return ask(message, node, false).then((r) => {
        if (!r.spread) throw new Error("cctviz: Python's reply holds no spread");
        return r.spread;
      });
    },
    request(type, fields) {
      if (!PANE_KINDS.has(type)) return Promise.reject(new Error(`cctviz: no ${type} request`));
      return ask((id) => ({ ...fields, type, id }), NO_ID, false);
    },
    get anchor() {
      const last = [...waiting.values()].filter((w) => w.loadMore).at(-1);
      return last && last.node >= 0 ? last.node : null;
    },
    get pending() {
      return [...waiting.values()].filter((w) => w.loadMore).length;
    },
    cutOff() {
      const left = [...waiting.values()];
      waiting.clear();
      for (const request of left) request.reject(new DisconnectedError());
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      model.off("msg:custom", onMessage);
      const left = [...waiting.values()];
      waiting.clear();
      for (const request of left) request.reject(new Error("cctviz: the view was closed before Python replied"));
    },
  };
}
