// The table pane's rows, virtualised: the body scrolls over a spacer as tall as every row, and only
// the rows in view are in the page (so 100,000 rows scroll like 100). It knows rows by index; what
// a row looks like and whether it is marked come from the pane.
import { append } from "../base/dom.js";
import { ROW_HEIGHT } from "./table-lines.js";
import { windowOf } from "./table-rows.js";

/** @typedef {import("./table-rows.js").Row} Row */

/**
 * @typedef {object} BodyParts
 * @property {(row: Row, index: number) => HTMLElement} line a row's element
 * @property {(element: HTMLElement, row: Row) => void} mark marks a drawn row again (selection, search)
 */

/** @param {HTMLElement} element the pane @param {BodyParts} parts */
export function createTableBody(element, { line, mark }) {
  const body = append(element, "div", {
    className: "cct-pane-body",
    attrs: { role: "treegrid", tabindex: "0", "aria-label": "Rows" },
  });
  const spacer = append(body, "div", { className: "cct-pane-spacer" });
  /** @type {Row[]} rows that show, in order */
  let shown = [];
  let frame = 0;
  const height = () => body.clientHeight || 480;

  function paint() {
    const [start, end] = windowOf(body.scrollTop, height(), ROW_HEIGHT, shown.length);
    const lines = [];
    for (let i = start; i < end; i += 1) lines.push(line(shown[i], i));
    spacer.replaceChildren(...lines);
  }
  body.addEventListener("scroll", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(paint);
  });

  return {
    body,
    /** The rows that show, top to bottom. */
    get shown() {
      return shown;
    },
    /** How many rows are in the page now. */
    get drawn() {
      return spacer.childElementCount;
    },
    /** Shows these rows (the spacer takes their height). @param {Row[]} rows */
    show(rows) {
      shown = rows;
      spacer.style.height = `${shown.length * ROW_HEIGHT}px`;
      paint();
    },
    /** Marks the drawn rows again without replacing them: a double click spans a selection's
     * round trip to Python, and must land on the row it began on. */
    refresh() {
      for (const el of /** @type {HTMLElement[]} */ ([...spacer.children])) {
        const row = shown[Number(el.dataset.index)];
        if (row) mark(el, row);
      }
    },
    /** Whether row `index` is in view (no margin). @param {number} index */
    inView(index) {
      const [start, end] = windowOf(body.scrollTop, height(), ROW_HEIGHT, shown.length, 0);
      return index >= start && index < end;
    },
    /** Scrolls row `index` into view. @param {number} index */
    scrollTo(index) {
      const top = index * ROW_HEIGHT;
      if (top < body.scrollTop || top + ROW_HEIGHT > body.scrollTop + height())
        body.scrollTop = Math.max(0, top - height() / 3);
      paint();
    },
    destroy() {
      cancelAnimationFrame(frame);
    },
  };
}
