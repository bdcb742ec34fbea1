// The tree-table figure: the calling contexts Python chose (w.table_figure) as a paper's table —
// names indented by depth, one column per metric with its share of the total where the metric
// adds up — drawn as a standalone SVG (every style a presentation attribute, text measured in the
// page, booktabs rules) with the same title and provenance metadata as the tree's figures. Cells
// say what the table pane's say (pane/cells.js). Names are text, never markup.
import { displayText } from "../base/text.js";
import { textWidth } from "../draw/labels/text-measure.js";
import { figureStyle } from "../draw/legend/figure-style.js";
import { SVG_NS } from "../draw/svg/overlay.js";
import { columnFormats, headerText, shareText, valueText } from "../pane/cells.js";
import { shortenName } from "../picture/label-text.js";
import { describeFigure } from "./figure-metadata.js";

/**
 * Rows as Python sends them (cctviz/figure/table_figure.py).
 * @typedef {object} TableData
 * @property {string[]} columns metric names
 * @property {(number | null)[]} totals per column, what its shares divide by (null: no share)
 * @property {string[]} name per row
 * @property {number[]} depth per row, 0 for the top rows
 * @property {(number | null)[][]} values per column, one per row (null: missing)
 */
/**
 * @typedef {object} TableOptions
 * @property {number | null} [width] CSS pixels the figure is scaled to (null: its natural width)
 * @property {string} [widthAttr] the SVG's width attribute, e.g. "3.5in"
 * @property {"screen" | "paper"} [style]
 * @property {string | null} [fontFamily]
 * @property {number | null} [fontSize] points
 * @property {string | null} [title] drawn above the table, and the SVG's title
 * @property {Record<string, string>} [units] metric name → unit: its values print in it, with one
 *   SI prefix per column, the unit after the column's name ("time (inc) [ms]"), as in the pane
 * @property {Record<string, unknown> | null} [provenance] written as JSON into <metadata>
 */
/** Longest name drawn, in characters (shortened as labels are; the metadata keep the rows). */
const NAME_CHARS = 56;

/**
 * Checks Python's rows. @param {unknown} data @returns {TableData}
 */
export function asTableData(data) {
  const d = /** @type {Partial<TableData>} */ (typeof data === "object" && data !== null ? data : {});
  const n = Array.isArray(d.name) ? d.name.length : -1;
  const ok =
    n >= 0 &&
    Array.isArray(d.columns) &&
    Array.isArray(d.totals) &&
    d.totals.length === d.columns.length &&
    Array.isArray(d.depth) &&
    d.depth.length === n &&
    Array.isArray(d.values) &&
    d.values.length === d.columns.length &&
    d.values.every((v) => Array.isArray(v) && v.length === n);
  if (!ok) throw new Error("cctviz: the tree-table's rows are malformed");
  return /** @type {TableData} */ (d);
}

/**
 * The tree-table as a standalone SVG document.
 * @param {Document} doc a document laid out by a browser (text is measured), or jsdom (estimated)
 * @param {unknown} data @param {TableOptions} options
 * @returns {{ svg: string, width: number, height: number }} the SVG text and its size in CSS pixels
 */
export function tableFigureSVG(doc, data, options = {}) {
  const table = asTableData(data);
  const style = figureStyle(options.style ?? "paper", options);
  const measure = textWidth(doc, style);
  const px = style.fontPx;
  const line = Math.round(px * 1.6);
  const pad = px * 0.9; // between columns
  const indent = px; // per level of depth
  const units = options.units ?? {};
  const names = table.name.map((n) => shortenName(displayText(String(n)), NAME_CHARS));
  const formats = columnFormats(
    table.columns.map((_, i) => [table.totals[i], ...table.values[i]]),
    table.columns.map((c) => (Object.hasOwn(units, c) ? units[c] : null)),
  );
  const heads = table.columns.map((c, i) => displayText(headerText(c, formats[i])));
  const cells = table.columns.map((_, i) => table.values[i].map((v) => valueText(v, formats[i])));
  const shares = table.columns.map((_, i) => table.values[i].map((v) => shareText(v, table.totals[i])));
  // widths: the name column, then per metric its values and (where it has them) its shares
  const nameWidth = Math.max(measure("name", true), ...names.map((n, r) => table.depth[r] * indent + measure(n)));
  const valueWidth = cells.map((col) => Math.max(0, ...col.map((t) => measure(t))));
  const shareWidth = shares.map((col) => Math.max(0, ...col.map((t) => measure(t))));
  const spans = table.columns.map((_, i) =>
    Math.max(valueWidth[i] + (shareWidth[i] ? pad * 0.6 + shareWidth[i] : 0), measure(heads[i], true)),
  );
  const width = Math.ceil(pad + nameWidth + spans.reduce((a, w) => a + pad + w, 0) + pad);
  const titled = !!options.title;
  const top = titled ? line * 1.4 : px * 0.5;
  const height = Math.ceil(top + line * (names.length + 1) + px * 0.8);

  const svg = /** @type {SVGSVGElement} */ (doc.createElementNS(SVG_NS, "svg"));
  svg.setAttribute("version", "1.1");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const scaled = options.width && options.width > 0 ? options.width : width;
  svg.setAttribute("width", options.widthAttr ?? String(scaled));
  svg.setAttribute("height", heightAttr(options.widthAttr ?? String(scaled), height / width));
  /** @param {string} tag @param {Record<string, string | number>} attrs @param {string | null} [text] */
  const add = (tag, attrs, text = null) => {
    const el = doc.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== null) el.textContent = text; // text, never markup
    svg.appendChild(el);
    return el;
  };
  add("rect", { class: "cct-background", x: 0, y: 0, width, height, fill: style.background });
  const font = { "font-family": style.fontFamily, "font-size": px, fill: style.text };
  if (titled) add("text", { ...font, "font-weight": 600, x: pad, y: line }, displayText(String(options.title)));
  /** @param {number} y @param {number} w */
  const rule = (y, w) =>
    add("line", { x1: pad / 2, x2: width - pad / 2, y1: y, y2: y, stroke: style.text, "stroke-width": w });
  const baseline = (/** @type {number} */ r) => top + line * (r + 1) - px * 0.45;
  rule(top, 1);
  // the header: "name", then each metric's name over its values and shares
  add("text", { ...font, "font-weight": 600, x: pad, y: baseline(0) }, "name");
  let x = pad + nameWidth;
  const rights = spans.map((w) => {
    x += pad + w;
    return x;
  });
  heads.forEach((h, i) => {
    add("text", { ...font, "font-weight": 600, x: rights[i], y: baseline(0), "text-anchor": "end" }, h);
  });
  rule(top + line, 0.5);
  names.forEach((n, r) => {
    const y = baseline(r + 1);
    add("text", { ...font, x: pad + table.depth[r] * indent, y, class: "cct-table-name" }, n);
    table.columns.forEach((_, i) => {
      const shareAt = rights[i];
      const valueAt = shareWidth[i] ? shareAt - shareWidth[i] - pad * 0.6 : shareAt;
      add("text", { ...font, x: valueAt, y, "text-anchor": "end", class: "cct-table-value" }, cells[i][r]);
      if (shares[i][r]) {
        const muted = { ...font, fill: style.muted };
        add("text", { ...muted, x: shareAt, y, "text-anchor": "end", class: "cct-table-share" }, shares[i][r]);
      }
    });
  });
  rule(top + line * (names.length + 1) + px * 0.3, 1);
  const title =
    options.title ?? `Tree-table (${names.length} row${names.length === 1 ? "" : "s"}: ${table.columns.join(", ")})`;
  describeFigure(svg, title, options.provenance ?? {});
  return { svg: new XMLSerializer().serializeToString(svg), width, height };
}

/**
 * The height attribute of a figure `ratio` times as tall as wide, in the width's unit.
 * @param {string} widthAttr "640", "3.5in", "8cm" @param {number} ratio
 */
export function heightAttr(widthAttr, ratio) {
  const m = /^(\d*\.?\d+)([a-z]*)$/.exec(widthAttr.trim());
  if (!m) throw new RangeError(`figure width ${JSON.stringify(widthAttr)} is not a length`);
  return `${Number((Number(m[1]) * ratio).toFixed(3))}${m[2]}`;
}
