// Tooltip content for one node: built from text nodes only (names are untrusted text).

import { columnFormat, formatWith } from "../../base/format.js";
import { judgedText } from "../../picture/judge.js";
import { shareText, totals } from "../../picture/shares.js";
import { metricUnit } from "../legend/view-legends.js";
import { seriesContent } from "./sparkline.js";

/** "60 profiles", "4 ranks", "8 rows (rank × thread)": what a node's values are over. */
const rowsOf = (/** @type {number} */ n, /** @type {string} */ over) => {
  const count = n.toLocaleString("en-US");
  if (over.includes("×")) return `${count} rows (${over})`;
  return `${count} ${over}${n === 1 ? "" : "s"}`;
};

const KIND_MARK = { exclusive: "exc", inclusive: "inc", other: "", ratio: "ratio", max: "max" };

/**
 * @param {Document} doc
 * @param {import("../../data/decode.js").Table} table
 * @param {import("../../data/ids.js").Row} row the node's row
 * @param {{ colorBy: string, sizeBy: string, colorWhy?: (v: number) => string | null,
 *   focus?: Map<string, number> | null, judged?: import("../../picture/judge.js").Judged | null,
 *   units?: Record<string, string> }} view
 *   `focus`: each additive metric's total under the focused node, for the share of the focus;
 *   `judged`: the nodes too small to judge (judge.js); `units`: the metrics' units (w.units): each
 *   value printed with its unit and the SI prefix that fits it
 * @returns {HTMLElement}
 */
export function tooltipContent(doc, table, row, view) {
  const root = doc.createElement("div");
  const title = root.appendChild(doc.createElement("div"));
  title.className = "cct-tooltip-name";
  title.textContent = table.names[table.nameCode[row]];
  const type = table.types[table.typeCode[row]];
  if (type) {
    const sub = root.appendChild(doc.createElement("div"));
    sub.className = "cct-tooltip-type";
    sub.textContent = type;
  }
  // a compare view: a context that not every run has
  const only = table.presence?.[row] ?? 0;
  if (only && table.presenceLabels) {
    const sub = root.appendChild(doc.createElement("div"));
    sub.className = "cct-tooltip-presence";
    sub.textContent = table.presenceLabels[only - 1];
  }
  const grid = root.appendChild(doc.createElement("table"));
  grid.className = "cct-tooltip-metrics";
  for (const m of table.metrics) {
    const line = grid.appendChild(doc.createElement("tr"));
    if (m.name === view.colorBy) line.classList.add("cct-color-metric");
    if (m.name === view.sizeBy) line.classList.add("cct-size-metric");
    const role = [m.name === view.colorBy ? "colour" : "", m.name === view.sizeBy ? "size" : ""]
      .filter(Boolean)
      .join(", ");
    cell(doc, line, "th", m.name + (role ? ` (${role})` : ""));
    cell(doc, line, "td", KIND_MARK[m.kind] ?? "").className = "cct-kind";
    const v = m.values[row];
    let text = formatWith(metricUnit(m, view.units ?? {}))(v);
    if (m.name === view.colorBy && view.colorWhy) {
      const why = view.colorWhy(v);
      if (why && !Number.isNaN(v)) text += ` (${why})`;
    }
    // a spread or an imbalance of values that are all 0 has none (0 ÷ 0): not a missing value
    if (Number.isNaN(v))
      text =
        table.reducer && (m.kind === "ratio" || m.kind === "max")
          ? `none (${table.reducer} of zeros, or of no values)`
          : "missing (no value in the profile)";
    cell(doc, line, "td", text).className = "cct-value";
    cell(doc, line, "td", shareText(v, totals(table).get(m.name), view.focus?.get(m.name))).className = "cct-share";
  }
  const small = judgedText(view.judged ?? null, row);
  if (small) {
    const note = root.appendChild(doc.createElement("div"));
    note.className = "cct-tooltip-small";
    note.textContent = `${small}: grey, not on the colour scale`;
  }
  const series = seriesContent(doc, table, row);
  if (series) root.append(series);
  const callers = otherCallers(table, row);
  if (callers) {
    const note = root.appendChild(doc.createElement("div"));
    note.className = "cct-tooltip-callers";
    note.textContent = callers; // text, never HTML: names are untrusted
  }
  if (table.reducer) {
    const foot = root.appendChild(doc.createElement("div"));
    foot.className = "cct-tooltip-reducer";
    foot.textContent = `values: ${table.reducer} over ${table.reducedOver.join(", ")}`;
  }
  return root;
}

/**
 * "also called from a, b (+2 not loaded)": the callers of a DAG node other than the one it is
 * drawn under, or null for a node with one caller.
 * @param {import("../../data/decode.js").Table} table @param {import("../../data/ids.js").Row} row
 */
export function otherCallers(table, row) {
  const list = table.callers?.get(table.idOf(row));
  if (!list?.length) return null;
  const names = [];
  let hidden = 0;
  for (const id of [...new Set(list)]) {
    const r = table.rowOf(id);
    if (r >= 0) names.push(table.names[table.nameCode[r]]);
    else hidden++;
  }
  const shown = names.slice(0, 5);
  const more = names.length - shown.length + hidden;
  const rest = more ? `${shown.length ? " " : ""}(+${more}${hidden ? " not loaded" : ""})` : "";
  return `also called from ${shown.join(", ")}${rest}`;
}

/**
 * Appends a cell holding `text` (as text) to `row`.
 * @param {Document} doc
 * @param {HTMLTableRowElement} row
 * @param {"th" | "td"} tag
 * @param {string} text
 */
function cell(doc, row, tag, text) {
  const el = row.appendChild(doc.createElement(tag));
  el.textContent = text;
  return el;
}

/** How far a subtree's sum may pass its root's inclusive value (rounding in the profile) before
 * the tooltip says the profile counts time twice. */
const OVER_TOLERANCE = 0.001;

/**
 * Tooltip for a collapsed subtree or an aggregate of pruned nodes: how many nodes it hides and the
 * sums of their exclusive metrics; for a collapsed node also the node's own tooltip and inclusive
 * values. Text nodes only.
 * @param {Document} doc
 * @param {import("../../data/decode.js").Table} table
 * @param {{ kind: string, id: import("../../data/ids.js").Row, hidden: import("../../data/ids.js").Row[], fold?: boolean }} item
 * @param {{ count: number, sums: { name: string, kind: string, value: number,
 *   over?: { name: string, value: number } | null, unit?: string | null }[] }} hidden rows named "Σ time" (what adds
 *   up) or "max imbalance" (a ratio or a maximum); `over`: a collapsed node's inclusive value of
 *   the same quantity, which the sum should not exceed
 * @param {Parameters<typeof tooltipContent>[3]} view
 */
export function aggregateContent(doc, table, item, hidden, view) {
  const root = item.kind === "collapsed" ? tooltipContent(doc, table, item.id, view) : doc.createElement("div");
  const box = root.appendChild(doc.createElement("div"));
  box.className = "cct-tooltip-aggregate";
  const head = box.appendChild(doc.createElement("div"));
  head.className = "cct-tooltip-name";
  const nodes = `${hidden.count.toLocaleString("en-US")} node${hidden.count === 1 ? "" : "s"}`;
  if (item.kind === "collapsed")
    head.textContent = `collapsed: ${hidden.count} hidden node${hidden.count === 1 ? "" : "s"}`;
  else if (item.fold) head.textContent = `${nodes} not loaded (level of detail)`;
  else head.textContent = `${nodes} outside the prune range`;
  const grid = box.appendChild(doc.createElement("table"));
  grid.className = "cct-tooltip-metrics";
  for (const s of hidden.sums) {
    const row = grid.appendChild(doc.createElement("tr"));
    cell(doc, row, "th", s.name);
    cell(doc, row, "td", KIND_MARK[/** @type {keyof typeof KIND_MARK} */ (s.kind)] ?? "").className = "cct-kind";
    cell(doc, row, "td", formatWith(s.unit)(s.value)).className = "cct-value";
  }
  // a sum over the node's inclusive value: the profile counts some time in two nodes. Said, as
  // the analyst would otherwise take one of the two numbers for wrong
  for (const s of hidden.sums) {
    if (!s.over || !(s.value > s.over.value * (1 + OVER_TOLERANCE))) continue;
    const warn = box.appendChild(doc.createElement("div"));
    warn.className = "cct-tooltip-note";
    warn.textContent =
      `${s.name} is more than this node's ${s.over.name} (${formatWith(s.unit)(s.over.value)}): the profile ` +
      "counts some of this time in two nodes (HPCToolkit: a procedure's, again in its loops and lines)";
  }
  const note = box.appendChild(doc.createElement("div"));
  note.className = "cct-tooltip-reducer";
  const how = hidden.sums.some((s) => s.name.startsWith("max ")) ? "Σ, max" : "Σ";
  if (item.kind === "collapsed") note.textContent = `${how}: over the whole subtree; double-click to expand`;
  else if (item.fold) note.textContent = `${how}: over the nodes not loaded; click to load the largest`;
  else note.textContent = `${how}: over the hidden subtrees`;
  return root;
}

/**
 * The spread of a node's rows (ranks, threads, profiles) of one metric, from Python.
 * @typedef {object} Spread
 * @property {number} count rows with a value
 * @property {number | null} min
 * @property {number | null} mean
 * @property {number | null} max
 * @property {number | null} std ddof=1; null with one row
 * @property {string | null} atMax the row holding the max, e.g. "rank 3"
 * @property {string} over what a row is ("rank", "rank × thread", "profile")
 * @property {number[]} quantiles sorted values (at most 64) for the strip
 */

const STRIP = { width: 180, height: 26 };

/**
 * "min … · mean … · max … (rank 3) · std …" and a strip of the sorted values as bars (text
 * nodes and SVG only). The four numbers share one SI prefix, with the rows' `unit`: "min 0.345 ms
 * · mean 1.2 ms · max 5.52 ms".
 * @param {Document} doc @param {Spread} s @param {string} metric @param {string | null} [unit]
 */
export function spreadContent(doc, s, metric, unit = null) {
  const box = doc.createElement("div");
  box.className = "cct-tooltip-spread";
  const head = box.appendChild(doc.createElement("div"));
  head.className = "cct-tooltip-reducer";
  head.textContent = `${metric} over ${rowsOf(s.count, s.over)}`;
  const line = box.appendChild(doc.createElement("div"));
  const column = columnFormat(
    [s.min, s.mean, s.max, s.std].filter((v) => v !== null),
    unit,
  );
  const f = (/** @type {number | null} */ v) => (v === null ? "–" : column(v));
  const where = s.atMax ? ` (${s.atMax})` : "";
  line.textContent = `min ${f(s.min)} · mean ${f(s.mean)} · max ${f(s.max)}${where} · std ${f(s.std)}`;
  const values = s.quantiles;
  if (values.length > 1) {
    const svg = box.appendChild(doc.createElementNS("http://www.w3.org/2000/svg", "svg"));
    svg.setAttribute("class", "cct-strip");
    svg.setAttribute("width", String(STRIP.width));
    svg.setAttribute("height", String(STRIP.height));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `sorted values of ${metric} across ${s.over}`);
    const lo = Math.min(0, values[0]);
    const hi = Math.max(0, values[values.length - 1]);
    const span = hi - lo || 1;
    const w = STRIP.width / values.length;
    values.forEach((v, i) => {
      const rect = svg.appendChild(doc.createElementNS("http://www.w3.org/2000/svg", "rect"));
      const top = STRIP.height * (1 - (Math.max(v, 0) - lo) / span);
      const bottom = STRIP.height * (1 - (Math.min(v, 0) - lo) / span);
      rect.setAttribute("x", String(i * w));
      rect.setAttribute("width", String(Math.max(1, w - 1)));
      rect.setAttribute("y", String(top));
      rect.setAttribute("height", String(Math.max(1, bottom - top)));
      rect.setAttribute("class", "cct-strip-bar");
    });
  }
  return box;
}
