// Decodes the binary payload written by cctviz/view/payload.py into a columnar table.
// Each column arrives as a DataView (over the comm), an ArrayBuffer or a typed array (in tests).
// Rows of the table are a detail of this module: everything else names nodes by their full-tree
// id (what Python and the traits use) and asks `table.rowOf(id)` / `table.idOf(row)`, the only
// conversions between the two (their types: data/ids.js).

import { contract } from "../../contract.js";
import { displayText } from "../base/text.js";
import { NO_ID, NO_ROW } from "./ids.js";

/** @typedef {import("./ids.js").NodeId} NodeId */
/** @typedef {import("./ids.js").Row} Row */
/** @typedef {import("./ids.js").RowColumn} RowColumn */

/** @typedef {{dtype: string, length: number, buffer: ArrayBufferView | ArrayBuffer}} Column */

/** Node types as words: Hatchet's HPCToolkit XML reader gives its XML tags (other readers, and
 * its v4 reader, words already: function, loop, line, instruction, statement, region...). */
const TYPE_WORDS = new Map([
  ["PF", "procedure frame"],
  ["Pr", "procedure"],
  ["L", "loop"],
  ["S", "statement"],
]);
/**
 * @typedef {object} Metric
 * @property {string} name
 * @property {"exclusive" | "inclusive" | "other" | "ratio" | "max"} kind "ratio" and "max" do
 *   not add up along the tree: a glyph shows the largest value it hides
 * @property {string | null} partner
 * @property {string} rule which rule decided `kind` (cctviz.adapters.semantics.RULES)
 * @property {string} why that rule's reason, a sentence
 * @property {string | null} share the inclusive metric whose value at the roots (or at the focus)
 *   is the base of this metric's shares; null: no share (see share_base in cctviz/view/payload.py)
 * @property {Float64Array} values
 */
/**
 * @typedef {object} Table
 * @property {number} size
 * @property {RowColumn} parent the parent row of each row (-1: a root)
 * @property {Int32Array} depth
 * @property {Int32Array} nameCode
 * @property {string[]} names
 * @property {Int32Array} typeCode
 * @property {string[]} types
 * @property {Metric[]} metrics
 * @property {string | null} reducer
 * @property {string[]} reducedOver
 * @property {number} extraEdges
 * @property {number} cycleEdges
 * @property {number} total nodes in the full tree (more than `size` under level of detail)
 * @property {Map<NodeId, NodeId[]>} callers a DAG's other callers of a node (full-tree ids, the
 *   call edges not drawn; empty for a tree)
 * @property {string | null} tree names the full tree: the same for every table of one tree (a
 *   level-of-detail expansion, another reducer), another one for other data
 * @property {Int32Array | null} nodeId id in the full tree of each row (-1: a fold row); null
 *   when every node is sent (ids are rows)
 * @property {Int32Array | null} folded nodes each fold row stands for (0: a real node)
 * @property {Int32Array | null} presence a compare view's rows: 0 in both runs, 1 only in the
 *   first, 2 only in the second (null: one profile)
 * @property {[string, string] | null} presenceLabels what a square (presence 1) and a hexagon
 *   (presence 2) mean, e.g. "only in before"
 * @property {{ metric: string, cause: Int32Array, within: string } | null} changes an ensemble's
 *   changes along its runs: the metric holding each node's relative change (%), each row's cause
 *   (0: no change, 1: its own, 2: in what it calls), and the configurations they were looked for
 *   in ("within 6 configurations: jobsize, problem_size"; "": one); null: none looked for
 * @property {{ label: string, metric: string }[]} series a compare view's runs in order, with
 *   the metric holding each run's values (empty: one profile)
 * @property {(id: NodeId) => Row} rowOf the row of full-tree node `id`, -1 (NO_ROW) if the table
 *   does not have it (not sent under level of detail, or out of range)
 * @property {(row: Row) => NodeId} idOf the full-tree id of `row`, -1 (NO_ID) for a fold row
 */

export const PAYLOAD_VERSION = contract.payload_version;

const CODECS = {
  int32: Int32Array,
  uint32: Uint32Array,
  float64: Float64Array,
};

/** @param {ArrayBufferView | ArrayBuffer} buf */
function bytesOf(buf) {
  if (buf instanceof ArrayBuffer) return new Uint8Array(buf);
  if (ArrayBuffer.isView(buf)) return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  throw new TypeError(`expected a binary buffer, got ${Object.prototype.toString.call(buf)}`);
}

/**
 * A typed array over one column; copies only when the bytes are not aligned for the type.
 * @param {Column} column
 */
export function decodeColumn(column) {
  const dtype = /** @type {keyof typeof CODECS} */ (column?.dtype);
  const Ctor = Object.hasOwn(CODECS, dtype) ? CODECS[dtype] : null;
  if (!Ctor) throw new TypeError(`unknown column dtype ${JSON.stringify(column?.dtype)}`);
  let bytes = bytesOf(column.buffer);
  const width = Ctor.BYTES_PER_ELEMENT;
  if (bytes.byteLength !== column.length * width) {
    throw new RangeError(`column of ${column.length} ${column.dtype} values has ${bytes.byteLength} bytes`);
  }
  if (bytes.byteOffset % width !== 0) bytes = bytes.slice();
  return new Ctor(/** @type {ArrayBuffer} */ (bytes.buffer), bytes.byteOffset, column.length);
}

/** @param {{count: number, blob: ArrayBufferView | ArrayBuffer, offsets: Column}} table */
export function decodeStrings(table) {
  const offsets = decodeColumn(table.offsets);
  const blob = bytesOf(table.blob);
  const decoder = new TextDecoder("utf-8");
  const out = new Array(table.count);
  for (let i = 0; i < table.count; i++) {
    out[i] = decoder.decode(blob.subarray(offsets[i], offsets[i + 1]));
  }
  return out;
}

/**
 * @param {any} payload the `_payload` trait
 * @returns {Table}
 */
export function decodeTable(payload) {
  if (!payload || payload.version !== PAYLOAD_VERSION) {
    throw new Error(
      `cctviz payload version ${payload?.version} does not match the front end (${PAYLOAD_VERSION}); ` +
        "reinstall cctviz so that Python and the bundle agree",
    );
  }
  const size = payload.size;
  const table = {
    size,
    parent: /** @type {RowColumn} */ (decodeColumn(payload.parent)),
    depth: /** @type {Int32Array} */ (decodeColumn(payload.depth)),
    nameCode: /** @type {Int32Array} */ (decodeColumn(payload.name)),
    names: decodeStrings(payload.names).map(displayText),
    typeCode: /** @type {Int32Array} */ (decodeColumn(payload.type)),
    types: decodeStrings(payload.types).map((type) => displayText(TYPE_WORDS.get(type) ?? type)),
    metrics: payload.metrics.map(
      (
        /** @type {{ name: string, kind: Metric["kind"], partner?: string | null, rule?: string, why?: string, share?: string | null, values: Column }} */ m,
      ) => ({
        name: m.name,
        kind: m.kind,
        partner: m.partner ?? null,
        rule: typeof m.rule === "string" ? m.rule : "reader",
        why: typeof m.why === "string" ? displayText(m.why) : "",
        share: typeof m.share === "string" ? m.share : null,
        values: /** @type {Float64Array} */ (decodeColumn(m.values)),
      }),
    ),
    reducer: payload.reducer ?? null,
    reducedOver: payload.reduced_over ?? [],
    extraEdges: payload.extra_edges ?? 0,
    cycleEdges: payload.cycle_edges ?? 0,
    total: payload.total ?? size,
    tree: typeof payload.tree === "string" ? payload.tree : null,
    callers: decodeCallers(payload.callers),
    nodeId: payload.node_id ? /** @type {Int32Array} */ (decodeColumn(payload.node_id)) : null,
    folded: payload.folded ? /** @type {Int32Array} */ (decodeColumn(payload.folded)) : null,
    presence: payload.presence ? /** @type {Int32Array} */ (decodeColumn(payload.presence)) : null,
    presenceLabels: Array.isArray(payload.presence_labels)
      ? /** @type {[string, string]} */ ([
          displayText(String(payload.presence_labels[0])),
          displayText(String(payload.presence_labels[1])),
        ])
      : null,
    changes: payload.changes
      ? {
          metric: String(payload.changes.metric),
          cause: /** @type {Int32Array} */ (decodeColumn(payload.changes.cause)),
          within: displayText(String(payload.changes.within ?? "")),
        }
      : null,
    series: Array.isArray(payload.series)
      ? payload.series.map((/** @type {unknown[]} */ run) => ({
          label: displayText(String(run[0])),
          metric: String(run[1]),
        }))
      : [],
  };
  for (const key of /** @type {const} */ ([
    "parent",
    "depth",
    "nameCode",
    "typeCode",
    "nodeId",
    "folded",
    "presence",
  ])) {
    const column = table[key];
    if (column && column.length !== size) {
      throw new RangeError(`column ${key} has ${column.length} values for ${size} nodes`);
    }
  }
  if (table.changes) {
    const column = table.changes.cause;
    if (column.length !== size || !table.metrics.some((/** @type {Metric} */ m) => m.name === table.changes?.metric)) {
      throw new RangeError(
        `changes: ${column.length} causes for ${size} nodes, metric ${JSON.stringify(table.changes.metric)}`,
      );
    }
  }
  return withIdMap(table);
}

/**
 * The call edges not drawn, by callee: full-tree ids.
 * @param {{ caller: Column, callee: Column } | undefined} columns
 * @returns {Map<NodeId, NodeId[]>}
 */
function decodeCallers(columns) {
  /** @type {Map<NodeId, NodeId[]>} */
  const out = new Map();
  if (!columns) return out;
  const caller = /** @type {Int32Array & { [i: number]: NodeId }} */ (decodeColumn(columns.caller));
  const callee = /** @type {Int32Array & { [i: number]: NodeId }} */ (decodeColumn(columns.callee));
  if (caller.length !== callee.length) throw new RangeError("callers: the two columns differ in length");
  for (let i = 0; i < callee.length; i++) {
    const list = out.get(callee[i]);
    if (list) list.push(caller[i]);
    else out.set(callee[i], [caller[i]]);
  }
  return out;
}

/**
 * Adds `rowOf` and `idOf`: with every node sent, ids are rows; under level of detail the
 * `nodeId` column maps rows to ids (-1: a fold row).
 * @param {Omit<Table, "rowOf" | "idOf">} table
 * @returns {Table}
 */
function withIdMap(table) {
  const { nodeId, size } = table;
  // the two conversions between ids and rows, and the only ones (see data/ids.js)
  const row = (/** @type {number} */ n) => /** @type {Row} */ (n);
  const id = (/** @type {number} */ n) => /** @type {NodeId} */ (n);
  if (!nodeId) {
    return {
      ...table,
      rowOf: (i) => (Number.isInteger(i) && i >= 0 && i < size ? row(i) : NO_ROW),
      idOf: (r) => id(r),
    };
  }
  /** @type {Map<NodeId, Row>} */
  const rows = new Map();
  for (let r = 0; r < nodeId.length; r++) if (nodeId[r] >= 0) rows.set(id(nodeId[r]), row(r));
  return {
    ...table,
    rowOf: (i) => rows.get(i) ?? NO_ROW,
    idOf: (r) => (r >= 0 && r < size ? id(nodeId[r]) : NO_ID),
  };
}

/** @param {Table} table @param {string} name */
export function metricByName(table, name) {
  return table.metrics.find((m) => m.name === name) ?? null;
}

/** `values` with those of fold rows (sums of nodes not sent, not nodes) missing (NaN).
 * @param {Table} table @param {Float64Array} values */
export function withoutFolds(table, values) {
  const folded = table.folded;
  if (!folded) return values;
  const out = Float64Array.from(values);
  for (let i = 0; i < out.length; i++) if (folded[i] > 0) out[i] = Number.NaN;
  return out;
}
