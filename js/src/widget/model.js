// The anywidget model as this widget sees it: the synced traits of cctviz.CCT (declared in
// cctviz/contract.json) with their value types, and the messages it exchanges with Python.
// `TRAIT_KINDS` ties the typedef to the contract: the type checker makes it name every trait of
// `Traits` and no other, and a test checks it against contract.json.

/**
 * @typedef {import("../contract.js").ViewState} ViewState
 * @typedef {import("../contract.js").Kind} Kind
 * @typedef {{ x: number, y: number, k: number }} Transform a zoom and pan (layout → screen)
 * @typedef {Record<string, unknown>} Payload the node table as binary columns (cctviz.view.payload),
 *   opaque here: the decoder reads it
 */

/**
 * The traits of cctviz.CCT, by Python name, with the values the front end sees (Python's tuples
 * arrive as arrays). Node ids are full-tree ids everywhere.
 * @typedef {object} Traits
 * @property {ViewState["colorBy"]} color_by
 * @property {ViewState["sizeBy"]} size_by
 * @property {ViewState["colorScale"]} color_scale
 * @property {ViewState["palette"]} palette
 * @property {ViewState["legend"]} legend
 * @property {ViewState["backend"]} backend
 * @property {ViewState["collapsed"]} collapsed
 * @property {ViewState["prune"]} prune_range
 * @property {ViewState["focus"]} focused
 * @property {ViewState["roots"]} visible_roots
 * @property {ViewState["search"]} search
 * @property {ViewState["searchRegex"]} search_regex
 * @property {ViewState["searchCase"]} search_case
 * @property {ViewState["highlighted"]} highlighted
 * @property {ViewState["legendShare"]} legend_share
 * @property {ViewState["judgeBelow"]} judge_below
 * @property {ViewState["tableMode"]} table_mode
 * @property {ViewState["sandwich"]} sandwich
 * @property {string[]} table_metrics the table pane's metric columns ([]: Python's default)
 * @property {ViewState["foldToFit"]} fold_to_fit
 * @property {ViewState["callerEdges"]} caller_edges
 * @property {ViewState["colorDomain"]} color_domain
 * @property {import("../cct/data/ids.js").NodeId[]} selection node ids in selection order
 * @property {"mean" | "median" | "sum" | "min" | "max" | "std" | "imbalance"} reducer
 * @property {"auto" | "mean" | "sum" | "min" | "max"} size_reducer
 * @property {number | null} rank the rank the tree shows (null: every rank)
 * @property {string[]} source_paths folders searched for source files
 * @property {number} height pixels
 * @property {Record<string, string>} units metric name → unit
 * @property {Record<string, { expression: string, kind: string, unit?: string }>} derived derived metrics (w.derive):
 *   their values arrive in the payload as ordinary metrics; written by Python only
 * @property {string} where an Ensemble's profile filter (SQL); Python sets it
 * @property {string} strip_x @property {string} strip_y the profile strip's axes
 * @property {unknown} _strip the profile strip (js/src/cct/strip/profile-strip.js checks it);
 *   written by Python only
 * @property {string} trend_by @property {boolean} trend_log the trend pane's axis and log scales
 * @property {unknown} _trend the trend pane (js/src/cct/trend/trend-pane.js checks it); written by
 *   Python only
 * @property {boolean} _static_follows the view's picture is the next output (Python only)
 * @property {Payload} _payload written by Python only
 * @property {{ search?: string, regex?: boolean, case?: boolean, count?: number }} _search_count
 *   under level of detail, Python's count of the search's matches over the full tree; written by
 *   Python only
 */
/** @typedef {keyof Traits} TraitName */
/** @typedef {`change:${TraitName}`} ChangeEvent */

/**
 * Sent to Python: load more, the next hidden children of `node` (-1: hidden roots).
 * @typedef {{ type: "load_more", id: number, node: number }} LoadMoreMessage
 */
/**
 * Sent to Python: load the search match after (`step` 1) or before (-1) node `node` (-1: none),
 * or (0) the matches, under level of detail.
 * @typedef {{ type: "find", id: number, node: number, step: 1 | -1 | 0 }} FindMessage
 */
/**
 * Sent to Python: the spread of node `node`'s rows of `metric` (for its tooltip).
 * @typedef {{ type: "distribution", id: number, node: number, metric: string }} DistributionMessage
 */
/**
 * Sent to Python: what is on screen (a report, no reply): the drawing's size, or the zoom the
 * user set (null: the view is fitted).
 * @typedef {{ type: "screen", size?: [number, number], transform?: [number, number, number] | null }} ScreenMessage
 * Sent to Python: the view's picture of itself (snapshot.js), for static renderers.
 * @typedef {{ type: "snapshot", png: string, width: number, height: number }} SnapshotMessage
 * Sent to Python: something the view could not do (errors.js).
 * @typedef {{ type: "error", message: string, where: "data" | "trait" | "download" }} ErrorMessage
 */
/** @typedef {import("../cct/draw/tooltip/tooltip-content.js").Spread} Spread */
/**
 * Python's answer to one request, matched by `id`; for a load-more, Python sends the new table
 * before it.
 * @typedef {{ type: "reply", id: number, ok: true, loaded: number, spread: Spread | null,
 *   rows?: unknown, picked?: number, located?: Located | null, where?: string, changes?: unknown,
 *   model?: string, match?: number, source?: unknown, ranks?: unknown }
 *   | { type: "reply", id: number, ok: false, error: string }} ReplyMessage
 */
/**
 * Sent to Python by the table pane: rows of a table (`rows`), a picked row (`pick`), or where the
 * selected nodes are (`locate`). Fields as in contract.json.
 * Or the profile strip's brush (`brush`), an ensemble's changes (`changes`) and the compare view
 * of one (`explain`).
 * @typedef {{ type: "rows" | "pick" | "locate" | "brush" | "changes" | "explain" | "source" | "ranks", id: number } & Record<string, unknown>} PaneMessage
 */
/** @typedef {{ names: string[], paths: number[][] }} Located names and root paths of nodes */

/**
 * Subscribing and unsubscribing: `change:<trait>` (anywidget has no catch-all change event),
 * `msg:custom` (a message from Python; checked by whoever listens) and `comm:close` (Python
 * closed the widget: Jupyter widget models trigger it, anywidget passes it on).
 * @typedef {{
 *   (event: ChangeEvent | "comm:close", listener: () => void): void,
 *   (event: "msg:custom", listener: (message: unknown) => void): void,
 * }} ModelEvents
 */

/**
 * The model of one cctviz.CCT. anywidget's `AnyModel<Traits>` (@anywidget/types) fits it.
 * @typedef {object} CCTModel
 * @property {<K extends TraitName>(name: K) => Traits[K]} get
 * @property {<K extends TraitName>(name: K, value: Traits[K]) => void} set
 * @property {() => void} save_changes sends what `set` changed to Python
 * @property {ModelEvents} on
 * @property {ModelEvents} off
 * @property {(message: LoadMoreMessage | FindMessage | DistributionMessage | PaneMessage | ScreenMessage | SnapshotMessage | ErrorMessage) => void} send
 */

/** @type {Readonly<Record<TraitName, Kind>>} the kind of every trait, as in contract.json */
export const TRAIT_KINDS = Object.freeze({
  color_by: "metric",
  size_by: "metric",
  color_scale: "enum",
  palette: "enum",
  legend: "enum",
  backend: "enum",
  collapsed: "node_ids",
  prune_range: "range",
  focused: "node_id",
  visible_roots: "root_ids",
  search: "string",
  search_regex: "bool",
  search_case: "bool",
  highlighted: "node_ids",
  legend_share: "enum",
  judge_below: "share",
  table_mode: "enum",
  sandwich: "string",
  table_metrics: "metrics",
  fold_to_fit: "bool",
  caller_edges: "bool",
  color_domain: "domain",
  selection: "node_ids",
  reducer: "enum",
  size_reducer: "enum",
  rank: "rank",
  source_paths: "paths",
  height: "int",
  units: "units",
  derived: "derived",
  where: "string",
  strip_x: "string",
  strip_y: "string",
  _strip: "strip",
  trend_by: "string",
  trend_log: "bool",
  _trend: "trend",
  _static_follows: "bool",
  _payload: "payload",
  _search_count: "counted",
});

/**
 * The reply in `message`, or null if it is anything else (Python's messages are checked, not
 * trusted).
 * @param {unknown} message
 * @returns {ReplyMessage | null}
 */
export function asReply(message) {
  if (typeof message !== "object" || message === null) return null;
  const m = /** @type {Record<string, unknown>} */ (message);
  if (m.type !== "reply" || typeof m.id !== "number") return null;
  if (m.ok === true) {
    const loaded = typeof m.loaded === "number" ? m.loaded : 0;
    /** @type {ReplyMessage} */
    const reply = { type: "reply", id: m.id, ok: true, loaded, spread: asSpread(m.spread) };
    // the table pane's answers (checked by whoever asked: js/src/cct/pane/table-rows.js)
    if ("rows" in m) reply.rows = m.rows;
    if (typeof m.picked === "number") reply.picked = m.picked;
    if ("located" in m) reply.located = asLocated(m.located);
    if (typeof m.where === "string") reply.where = m.where;
    // an ensemble's changes (checked by js/src/cct/pane/changes-list.js), a compare view's model
    if ("changes" in m) reply.changes = m.changes;
    if (typeof m.model === "string") reply.model = m.model;
    if (typeof m.match === "number") reply.match = m.match;
    // the Source and Ranks tabs' answers (checked by js/src/cct/pane/source-view.js, rank-strip.js)
    if ("source" in m) reply.source = m.source;
    if ("ranks" in m) reply.ranks = m.ranks;
    return reply;
  }
  if (m.ok === false) return { type: "reply", id: m.id, ok: false, error: String(m.error ?? "unknown error") };
  return null;
}

/**
 * Names and paths from Python, checked: text, and lists of whole numbers.
 * @param {unknown} value
 * @returns {Located | null}
 */
function asLocated(value) {
  if (typeof value !== "object" || value === null) return null;
  const v = /** @type {Record<string, unknown>} */ (value);
  if (!Array.isArray(v.names) || !Array.isArray(v.paths)) return null;
  const paths = v.paths.map((p) => (Array.isArray(p) ? p.filter((x) => Number.isInteger(x)) : []));
  return { names: v.names.map(String), paths };
}

/**
 * A spread from Python, checked: numbers or null, text, sorted quantiles.
 * @param {unknown} value
 * @returns {Spread | null}
 */
function asSpread(value) {
  if (typeof value !== "object" || value === null) return null;
  const v = /** @type {Record<string, unknown>} */ (value);
  const num = (/** @type {unknown} */ x) => (typeof x === "number" && Number.isFinite(x) ? x : null);
  const quantiles = Array.isArray(v.quantiles) ? v.quantiles.filter((x) => typeof x === "number") : [];
  return {
    count: num(v.count) ?? 0,
    min: num(v.min),
    mean: num(v.mean),
    max: num(v.max),
    std: num(v.std),
    atMax: typeof v.at_max === "string" ? v.at_max : null,
    over: typeof v.over === "string" ? v.over : "row",
    quantiles,
  };
}
