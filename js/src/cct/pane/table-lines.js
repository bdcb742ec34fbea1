// The table pane's lines: the sortable column headers and one row's element (its name indented
// by depth, with a toggle where it has child rows, and its values). Names are text, never markup.
import { append } from "../base/dom.js";
import { shareText, valueText } from "./cells.js";

/** @typedef {import("./table-rows.js").Row} Row */
/** @typedef {import("./table-rows.js").Sort} Sort */

/** Height of a row in pixels: the pane places row `i` at `i * ROW_HEIGHT`. */
export const ROW_HEIGHT = 22;

/**
 * The column headers: a button per column that sorts by it (again: the other way). Names are
 * text: a metric's name is the profile's, never markup.
 * @param {HTMLElement} into @param {string[]} names "name" first, then the value columns
 * @param {Sort} sort @param {(sort: Sort) => void} onSort
 * @param {boolean[]} [shared] per value column: its cells show a share of the total
 */
export function drawHeaders(into, names, sort, onSort, shared = []) {
  into.replaceChildren();
  names.forEach((name, i) => {
    const column = i - 1;
    const active = sort.column === column;
    const b = append(into, "button", {
      className: column >= 0 ? "cct-pane-cell cct-pane-num" : "cct-pane-cell",
      attrs: {
        type: "button",
        role: "columnheader",
        title: `sort by ${name}${shared[column] ? " (values, and their share of the whole profile's total)" : ""}`,
        "aria-sort": active ? (sort.descending ? "descending" : "ascending") : "none",
      },
    });
    appendBreakable(b, `${name}${active ? (sort.descending ? " ▼" : " ▲") : ""}`);
    // numbers sort largest first, names A to Z
    b.addEventListener("click", () => onSort({ column, descending: active ? !sort.descending : column >= 0 }));
  });
}

/** Where a metric's name may break besides its spaces: after the separators of Caliper's and
 * HPCToolkit's names ("max#sum#time.duration", "mem.bytes.read/mrb.time", "PAPI_TOT_CYC"). */
const BREAK_AFTER = /(?<=[#./_:])(?=[^\s])/;

/**
 * `text` into `el`, as text, with a line break opportunity (<wbr>) after each separator: a narrow
 * column's header wraps "max#sum#" / "time.duration [s]", not "max#s" / "um#tim" / "e.durati".
 * @param {HTMLElement} el @param {string} text
 */
export function appendBreakable(el, text) {
  text.split(BREAK_AFTER).forEach((piece, i) => {
    if (i > 0) el.append(el.ownerDocument.createElement("wbr"));
    el.append(el.ownerDocument.createTextNode(piece));
  });
}

/**
 * One row's element, placed at line `index`.
 * @param {Document} doc @param {Row} row @param {number} index
 * @param {{ selected: boolean, match: boolean, count: boolean, formats?: import("./cells.js").ColumnFormat[],
 *   totals?: (number | null)[] }} how
 *   `count`: a contexts column; `formats`, `totals`: the value columns' formats (cells.js) and totals (a
 *   share shows where a column has a total)
 */
export function rowElement(doc, row, index, { selected, match, count, formats = [], totals = [] }) {
  const el = doc.createElement("div");
  el.className = row.part ? "cct-pane-row cct-pane-part" : "cct-pane-row";
  el.classList.toggle("cct-row-selected", selected);
  el.classList.toggle("cct-row-match", match);
  el.style.top = `${index * ROW_HEIGHT}px`;
  el.dataset.index = String(index);
  el.setAttribute("role", "row");
  el.setAttribute("aria-level", String(row.depth + 1));
  if (row.more) el.setAttribute("aria-expanded", String(row.open));
  const name = append(el, "div", { className: "cct-pane-cell cct-pane-name", attrs: { role: "gridcell" } });
  name.style.paddingLeft = `${4 + Math.min(row.depth, 24) * 8}px`;
  append(name, "span", {
    className: "cct-pane-toggle",
    text: row.more ? (row.open ? "▾" : "▸") : "",
    attrs: { "aria-hidden": "true" },
  });
  append(name, "span", { className: "cct-pane-label", text: row.section ?? row.label });
  if (row.where && row.section === null) append(name, "span", { className: "cct-pane-where", text: row.where });
  // the whole call path on hover: callers read upwards, callees downwards
  // a loop or a line: in its function (function › loop › line)
  const title = row.part
    ? row.path.join(" › ")
    : row.path.length > 1
      ? row.path.join(row.mode === "callees" ? " → " : " ← ")
      : (row.section ?? row.label);
  name.title = row.where && row.section === null ? `${title}\n${row.where}` : title;
  row.values.forEach((v, i) => {
    const cell = append(el, "div", { className: "cct-pane-cell cct-pane-num", attrs: { role: "gridcell" } });
    append(cell, "span", { className: "cct-pane-value", text: valueText(v, formats[i]) });
    const share = shareText(v, totals[i] ?? null);
    if (!share) return;
    cell.append(doc.createTextNode(" ")); // read as "150 75 %", not "15075 %"
    append(cell, "span", { className: "cct-pane-share", text: share });
  });
  if (count)
    append(el, "div", {
      className: "cct-pane-cell cct-pane-num",
      text: String(row.count),
      attrs: { role: "gridcell" },
    });
  return el;
}
