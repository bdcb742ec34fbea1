// What the headless figure page calls: cctviz.export imports the widget's own bundle (widget.js,
// which exports these beside the anywidget module) into a blank page of headless Chromium
// and calls `cctvizFigure`: the same renderer as the widget draws the view, so a figure made from
// Python looks as the widget does; `cctvizTableFigure` draws the tree-table (w.table_figure). (It used to be a second bundle, figure.js, holding most of
// widget.js again.)
import { decodeTable } from "./cct/data/decode.js";
import { figureSVG } from "./cct/figure/figure.js";
import { tableFigureSVG } from "./cct/figure/table-figure.js";
import { bytesOf } from "./widget/download.js";

/**
 * Binary columns cross from Python as `{ $b64: "..." }` (page.evaluate takes JSON only).
 * @param {unknown} value JSON data
 * @returns {unknown} the same, each `{ $b64 }` object decoded to a Uint8Array
 */
export function fromBase64(value) {
  if (Array.isArray(value)) return value.map(fromBase64);
  if (value && typeof value === "object") {
    if ("$b64" in value && typeof value.$b64 === "string") return bytesOf(value.$b64);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromBase64(v)]));
  }
  return value;
}

/**
 * @param {object} payload cctviz.view.payload.encode(table), buffers in base64
 * @param {Partial<import("./contract.js").ViewState>} state the renderer's view state (full-tree node ids)
 * @param {import("./cct/figure/figure.js").FigureOptions} options
 */
export function cctvizFigure(payload, state, options) {
  // state and selection in full-tree node ids, as the renderer takes them
  return figureSVG(decodeTable(fromBase64(payload)), state, options);
}

/**
 * The tree-table figure (w.table_figure) of Python's rows, laid out in this page.
 * @param {unknown} rows cctviz/figure/table_figure.py's rows
 * @param {import("./cct/figure/table-figure.js").TableOptions} options
 */
export function cctvizTableFigure(rows, options) {
  return tableFigureSVG(document, rows, options);
}
