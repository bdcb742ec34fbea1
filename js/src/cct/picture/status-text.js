// The status line under the toolbar, as text: how many nodes, what is loaded and shown, roots,
// the reducer, a DAG's extra edges, and which rules decided the metrics' kinds (with each one's
// reason in its title). Pure: no DOM.
import { metricByName } from "../data/decode.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {ReturnType<typeof import("./view-tree.js").buildViewTree>} ViewTree */
/** @typedef {ReturnType<typeof import("./subtree-stats.js").subtreeStats>} Stats */

/** Counts as the status line writes them (one formatter: making one per number is slow). */
const COUNT = new Intl.NumberFormat("en-US");

/**
 * The status line: nodes, what is loaded and shown, selected nodes not drawn as themselves
 * (`hidden`, see hidden-selection.js), roots, the reducer, edges left out of a DAG.
 * @param {Table} table @param {Stats} stats @param {ViewTree} tree @param {ViewState} view
 * @param {string} [hidden]
 */
export function statusText(table, stats, tree, view, hidden = "") {
  const n = (/** @type {number} */ v) => COUNT.format(v);
  const parts = [`${n(table.total)} nodes`];
  if (table.nodeId) {
    let loaded = 0;
    for (let ix = 0; ix < table.nodeId.length; ix++) {
      const id = table.nodeId[ix];
      if (id >= 0) loaded++;
    }
    parts.push(`${n(loaded)} loaded`);
  }
  // counted, not filtered into lists: this runs on every collapse and expand
  let drawn = 0;
  for (let ix = 0; ix < tree.items.length; ix++) {
    const it = tree.items[ix];
    if (it.kind !== "aggregate") drawn++;
  }
  if (tree.hiddenCount) parts.push(`${n(drawn)} shown, ${n(tree.hiddenCount)} hidden`);
  if (hidden) parts.push(hidden);
  const roots = stats.roots.filter((r) => table.idOf(r) >= 0).length;
  const shown = view.roots ? view.roots.length : roots;
  parts.push(shown === roots ? `${roots} root${roots === 1 ? "" : "s"}` : `${shown} of ${roots} roots`);
  if (table.reducer) parts.push(`${table.reducer} over ${table.reducedOver.join(", ")}`);
  if (table.extraEdges) {
    const cyc = table.cycleEdges ? `, ${table.cycleEdges} closing a cycle` : "";
    const how = view.callerEdges ? "drawn dashed" : "not drawn";
    parts.push(`${table.extraEdges} extra call edge${table.extraEdges === 1 ? "" : "s"} ${how} (DAG${cyc})`);
  }
  const kinds = kindsText(table, view); // last: how the metrics' kinds were decided
  if (kinds.text) parts.push(kinds.text);
  const dag =
    table.extraEdges > 0
      ? "Nodes with several callers are drawn once, under the first caller reached depth-first" +
        (view.callerEdges ? "; their other callers' edges are the dashed ones." : ".")
      : "";
  return { text: parts.join(" · "), title: [dag, kinds.title].filter(Boolean).join("\n") };
}

/** How the status line names the rules that decide a metric's kind (semantics.py's RULES). */
const RULE_LABELS = /** @type {Record<string, string>} */ ({
  declared: "metric_kinds=",
  pinned: "to_code's view",
  identifier: "identifiers",
  caliper: "Caliper names",
  spot: "Caliper spot.metrics",
  parameter: "parameters",
  fraction: "top-down fractions",
  store: "the store's kinds",
  timeseries: "timeseries",
  pair: "name pairs",
  tree: "tree check",
  reader: "reader's lists",
  derived: "derived sums",
  expression: "w.derive()",
  reducer: "the reducer",
  compare: "compare",
});

/**
 * "kinds: Caliper spot.metrics": which rules decided the kinds of the colour and size metrics,
 * with each one's reason in the title.
 * @param {Table} table @param {ViewState} view
 */
export function kindsText(table, view) {
  const shown = [view.colorBy, view.sizeBy].filter((name, i, all) => name && all.indexOf(name) === i);
  const metrics = shown.map((name) => metricByName(table, name)).filter((m) => m !== null);
  if (!metrics.length) return { text: "", title: "" };
  const labels = [...new Set(metrics.map((m) => RULE_LABELS[m.rule] ?? m.rule))];
  return {
    text: `kinds: ${labels.join(" + ")}`,
    title: metrics.map((m) => `${m.name}: ${m.kind}${m.why ? ` (${m.why})` : ""}`).join("\n"),
  };
}
