// The table pane's head: a tab per table, then the tools as one group (the filter box, the
// Columns menu, the close button), so that a narrow pane wraps the group whole onto a row of its
// own, never the close button alone. It reports what the user does; it holds no state.
import { append } from "../base/dom.js";
import { createColumnChooser } from "./column-chooser.js";

/** @typedef {"off" | "contexts" | "functions" | "callers" | "sandwich" | "changes" | "source" | "ranks"} PaneMode */

/** The tabs, in order, with their text. */
export const MODES = /** @type {const} */ ([
  ["contexts", "Calling contexts"],
  ["functions", "Functions"],
  ["callers", "Callers (bottom-up)"],
  ["sandwich", "Caller/callee"],
  ["changes", "Changes"],
  ["source", "Source"],
  ["ranks", "Ranks"],
]);

/**
 * @typedef {object} HeadHandlers
 * @property {(mode: PaneMode) => void} setMode a tab (or "off": the close button)
 * @property {(text: string) => void} search the user typed in the filter box
 * @property {(names: string[]) => void} choose the user chose the value columns
 */

/** @param {HTMLElement} element the pane @param {HeadHandlers} handlers */
export function createPaneHead(element, handlers) {
  const head = append(element, "div", { className: "cct-pane-head" });
  const tabList = append(head, "div", { className: "cct-pane-tabs", attrs: { role: "tablist" } });
  const tools = append(head, "div", { className: "cct-pane-tools" });
  /** @type {Map<PaneMode, HTMLButtonElement>} */
  const tabs = new Map();
  for (const [mode, text] of MODES) {
    const b = /** @type {HTMLButtonElement} */ (
      append(tabList, "button", { text, attrs: { type: "button", role: "tab" } })
    );
    b.addEventListener("click", () => handlers.setMode(mode));
    tabs.set(mode, b);
  }
  const filter = /** @type {HTMLInputElement} */ (
    append(tools, "input", {
      className: "cct-pane-filter",
      attrs: { type: "search", placeholder: "filter", "aria-label": "Filter by name (the tree's search)" },
    })
  );
  filter.addEventListener("input", () => handlers.search(filter.value));
  const chooser = createColumnChooser(tools, { choose: handlers.choose });
  const close = append(tools, "button", {
    text: "×",
    attrs: { type: "button", title: "Close the table", "aria-label": "Close the table" },
  });
  close.addEventListener("click", () => handlers.setMode("off"));
  return {
    filter,
    chooser,
    /** Marks the tab of `mode` as the one shown. @param {PaneMode} mode */
    select(mode) {
      for (const [m, b] of tabs) b.setAttribute("aria-selected", String(m === mode));
    },
    /** Shows or hides a tab (the Changes tab is an ensemble's only). @param {PaneMode} mode @param {boolean} on */
    showTab(mode, on) {
      /** @type {HTMLElement} */ (tabs.get(mode)).hidden = !on;
    },
  };
}
