// The table pane's rows under the pointer and the keyboard (table-pane.js): a click picks a
// row (shift, ctrl or cmd adds it) or opens and closes it, a double click or Enter focuses a
// calling context or shows a function's callers and callees, the arrows move the pick up and
// down and open and close rows.
import { partOf } from "./table-rows.js";

/** @typedef {import("./table-rows.js").Row} Row */

/** The function a row's sandwich is of: a loop's or a line's is its function's. @param {Row} row */
const functionOf = (row) => (row.part ? row.path[0] : row.label);

/**
 * @param {HTMLElement} body the pane's scrolled rows
 * @param {{ shown: () => Row[], picked: { key: string },
 *   handlers: Pick<import("./table-pane.js").PaneHandlers, "pick" | "focus" | "sandwich">,
 *   toggle: (row: Row, open?: boolean) => void, refresh: () => void, scrollTo: (index: number) => void }} parts
 *   `shown`: the rows that show, top to bottom; `picked.key`: the picked row's key ("" none);
 *   `toggle`: opens (loading its children) or closes a row; `refresh`: marks the drawn rows again
 */
export function bindRowInput(body, { shown, picked, handlers, toggle, refresh, scrollTo }) {
  /** @param {Event} event */
  const rowOf = (event) => {
    const el = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest?.(".cct-pane-row"));
    return el?.dataset.index === undefined ? null : (shown()[Number(el.dataset.index)] ?? null);
  };
  body.addEventListener("click", (event) => {
    const row = rowOf(event);
    if (!row) return;
    const onToggle = /** @type {HTMLElement} */ (event.target).classList.contains("cct-pane-toggle");
    if (onToggle || row.section !== null) {
      toggle(row);
      return;
    }
    picked.key = row.key;
    handlers.pick({
      mode: row.mode,
      node: row.node,
      path: row.path,
      ...partOf(row),
      add: event.shiftKey || event.metaKey || event.ctrlKey,
    });
    refresh();
  });
  body.addEventListener("dblclick", (event) => {
    const row = rowOf(event);
    if (!row || row.section !== null) return;
    if (row.mode === "contexts") handlers.focus(row.node);
    else handlers.sandwich(functionOf(row));
  });
  body.addEventListener("keydown", (event) => {
    const rows = shown();
    const at = rows.findIndex((r) => r.key === picked.key);
    const row = rows[at];
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const next = rows[Math.max(0, Math.min(rows.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)))];
      if (!next) return;
      event.preventDefault();
      picked.key = next.key;
      if (next.section === null)
        handlers.pick({ mode: next.mode, node: next.node, path: next.path, ...partOf(next), add: false });
      scrollTo(rows.indexOf(next));
    } else if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && row) {
      event.preventDefault();
      toggle(row, event.key === "ArrowRight");
    } else if (event.key === "Enter" && row) {
      event.preventDefault();
      if (row.mode === "contexts") handlers.focus(row.node);
      else handlers.sandwich(functionOf(row));
    }
  });
}
