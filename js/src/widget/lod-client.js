// Level-of-detail requests to Python. A click on an "N more" fold asks Python for the next
// hidden children of a node: an `expand` message with a request id, answered by a `reply` with
// the same id. Python sends the new table (`_payload`) before the reply, so while a request
// waits, the node it expands is the anchor that the new table keeps in place on screen.
import { MESSAGES } from "../contract.js";
import { asReply } from "./model.js";

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./model.js").ExpandMessage} ExpandMessage
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
const EXPAND = messageKind("expand");
const DISTRIBUTION = messageKind("distribution");
const PANE_KINDS = new Set([messageKind("rows"), messageKind("pick"), messageKind("locate")]);
messageKind("reply"); // what asReply reads

/**
 * @typedef {object} LodClient
 * @property {(node: number) => Promise<LoadedReply>} expand asks for the next hidden children of
 *   `node` (-1: hidden roots); resolves with Python's reply, rejects with its error (which is
 *   also reported on the console) or when the view is closed first
 * @property {(node: number, metric: string) => Promise<import("./model.js").Spread>} distribution
 *   asks for the spread of a node's rows of a metric (its tooltip); rejects with Python's error
 * @property {(type: "rows" | "pick" | "locate", fields: Record<string, unknown>) => Promise<LoadedReply>} request
 *   a table pane request (contract.json "messages"); resolves with Python's reply, rejects
 *   with its error
 * @property {number | null} anchor the node of the latest request still waiting for its reply
 *   (null: none, or the hidden roots, which have no place on screen)
 * @property {number} pending how many requests wait for their reply
 * @property {() => void} dispose stops listening; waiting requests are rejected
 */

/**
 * @param {CCTModel} model
 * @param {{ warn?: (text: string) => void }} [options] `warn`: where error replies are reported
 * @returns {LodClient}
 */
export function createLodClient(model, { warn = (text) => console.warn(text) } = {}) {
  let requests = 0;
  let disposed = false;
  /** @type {Map<number, { node: number, expand: boolean, resolve: (reply: LoadedReply) => void, reject: (error: Error) => void }>} */
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

  return {
    expand(node) {
      if (disposed) return Promise.reject(new Error("cctviz: this view is closed"));
      const id = ++requests;
      /** @type {ExpandMessage} */
      const message = { type: EXPAND, id, node };
      /** @type {Promise<LoadedReply>} */
      const reply = new Promise((resolve, reject) => waiting.set(id, { node, expand: true, resolve, reject }));
      model.send(message);
      return reply;
    },
    distribution(node, metric) {
      if (disposed) return Promise.reject(new Error("cctviz: this view is closed"));
      const id = ++requests;
      /** @type {import("./model.js").DistributionMessage} */
      const message = { type: DISTRIBUTION, id, node, metric };
      /** @type {Promise<LoadedReply>} */
      const reply = new Promise((resolve, reject) => waiting.set(id, { node, expand: false, resolve, reject }));
      model.send(message);
      return reply.then((r) => {
        if (!r.spread) throw new Error("cctviz: Python's reply holds no spread");
        return r.spread;
      });
    },
    request(type, fields) {
      if (disposed) return Promise.reject(new Error("cctviz: this view is closed"));
      if (!PANE_KINDS.has(type)) return Promise.reject(new Error(`cctviz: no ${type} request`));
      const id = ++requests;
      /** @type {Promise<LoadedReply>} */
      const reply = new Promise((resolve, reject) => waiting.set(id, { node: -1, expand: false, resolve, reject }));
      model.send({ ...fields, type, id });
      return reply;
    },
    get anchor() {
      const last = [...waiting.values()].filter((w) => w.expand).at(-1);
      return last && last.node >= 0 ? last.node : null;
    },
    get pending() {
      return [...waiting.values()].filter((w) => w.expand).length;
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
