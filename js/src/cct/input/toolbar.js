// The toolbar: one row of the controls used most (the colour and size metric pickers, search,
// undo, redo, fit) and a "⋯" menu of the rest (palette, scale and legend choices, ranks, table,
// roots, tree controls, selection tools, reset, saving, the prune range); narrow views move the
// pickers into the menu. It holds no state of its own: it shows the renderer's view (`update`)
// and reports what the user asks for through `dispatch`.
import { valuesOf } from "../../contract.js";
import { append } from "../base/dom.js";
import { PALETTE_NAMES } from "../picture/scales.js";
import { createMoreMenu } from "./more-menu.js";
import { createPicker } from "./picker.js";
import { createPruneRange } from "./prune-range.js";
import { createRootsMenu } from "./roots-menu.js";
import { createSearchBox } from "./search-box.js";

/** How the metric menus name a kind: "time (exc)", "b ÷ a (ratio)", never "(rat)". */
const KIND_WORD = /** @type {Record<string, string>} */ ({ exclusive: "exc", inclusive: "inc", ratio: "ratio" });

/** @typedef {import("../../contract.js").ViewState} ViewState */
/**
 * What the toolbar shows besides the view state.
 * @typedef {object} ToolbarStatus
 * @property {boolean} canUndo
 * @property {boolean} canRedo
 * @property {boolean} brush brush selection is on
 * @property {number} rootCount trees in the data
 * @property {boolean} incChecked the colour metric is an inclusive one
 */

/**
 * @param {HTMLElement} parent
 * @param {import("../state/commands.js").Dispatch} dispatch what the user asks for
 * @param {{ downloads?: boolean }} [options] `downloads`: buttons that save the view as SVG or PNG
 */
export function createToolbar(parent, dispatch, { downloads = false } = {}) {
  const bar = append(parent, "div", {
    className: "cct-toolbar",
    attrs: { role: "toolbar", "aria-label": "Tree view controls" },
  });
  // one row: the metric pickers, search, history; the rest in the "⋯" menu (more-menu.js);
  // narrow views move the pickers into the menu too
  const row = append(bar, "div", { className: "cct-toolbar-row" });
  const more = createMoreMenu(bar);
  const menu = more.panel;

  /** A labelled group of controls. @param {HTMLElement} row @param {string} label */
  const group = (row, label) => {
    const g = append(row, "span", { className: "cct-group", attrs: { role: "group", "aria-label": label } });
    return g;
  };
  /** @param {HTMLElement} g @param {string} label @param {(value: string) => void} onChange */
  const select = (g, label, onChange) => {
    const wrap = append(g, "label", { className: "cct-field" });
    append(wrap, "span", { text: label });
    const el = /** @type {HTMLSelectElement} */ (append(wrap, "select", { attrs: { "aria-label": label } }));
    el.addEventListener("change", () => onChange(el.value));
    return el;
  };
  /**
   * @param {HTMLElement} g
   * @param {string} text
   * @param {string} label tooltip and accessible name
   * @param {() => void} onClick
   */
  const button = (g, text, label, onClick) => {
    const el = /** @type {HTMLButtonElement} */ (
      append(g, "button", { text, attrs: { type: "button", title: label, "aria-label": label } })
    );
    el.addEventListener("click", onClick);
    return el;
  };
  /**
   * Replaces the options of a menu.
   * @param {HTMLSelectElement} el
   * @param {string[]} values
   * @param {string[]} [labels]
   */
  const options = (el, values, labels = values) => {
    el.replaceChildren();
    values.forEach((v, i) => {
      const o = /** @type {HTMLOptionElement} */ (append(el, "option", { text: labels[i] }));
      o.value = v;
    });
  };

  // metrics and colours
  const metricsGroup = group(row, "Metrics");
  const colorPicker = createPicker(metricsGroup, "colour", (v) => dispatch({ type: "set", state: { colorBy: v } }));
  const sizePicker = createPicker(metricsGroup, "size", (v) => dispatch({ type: "set", state: { sizeBy: v } }));
  const searchGroup = group(row, "Search");
  const historyGroup = group(row, "History");
  row.append(more.button);
  const incWrap = append(group(menu, "Metric kind"), "label", { className: "cct-field" });
  const incBox = /** @type {HTMLInputElement} */ (
    append(incWrap, "input", { attrs: { type: "checkbox", "aria-label": "inclusive metrics" } })
  );
  append(incWrap, "span", { text: "inclusive" });
  incBox.addEventListener("change", () => dispatch({ type: "inclusive", on: incBox.checked }));
  const styleGroup = group(menu, "Colour scale");
  const paletteSelect = select(styleGroup, "palette", (v) => dispatch({ type: "set", state: { palette: v } }));
  options(paletteSelect, PALETTE_NAMES);
  const scaleSelect = select(styleGroup, "scale", (v) =>
    dispatch({ type: "set", state: { colorScale: /** @type {ViewState["colorScale"]} */ (v) } }),
  );
  options(scaleSelect, ["linear", "log"]);
  const legendSelect = select(styleGroup, "legend", (v) =>
    dispatch({ type: "set", state: { legend: /** @type {ViewState["legend"]} */ (v) } }),
  );
  // how a node's rows (ranks, threads, profiles) combine: only for data that has several
  const ranksGroup = group(menu, "Ranks");
  const reducerSelect = select(ranksGroup, "over ranks", (v) => dispatch({ type: "reducer", reducer: v }));
  // "[mean ▾] over rank × thread": the choice first, then what it is over
  const reducerWrap = /** @type {HTMLElement} */ (reducerSelect.parentElement);
  reducerWrap.append(/** @type {Element} */ (reducerWrap.firstElementChild));
  const reducers = valuesOf("reducer");
  options(
    reducerSelect,
    reducers,
    reducers.map((r) => (r === "imbalance" ? "max ÷ mean" : r)),
  );
  options(
    legendSelect,
    ["auto", "shared", "per-root"],
    ["one per tree if far apart", "one for all trees", "one per tree"],
  );
  const shareSelect = select(styleGroup, "legend ends", (v) =>
    dispatch({ type: "set", state: { legendShare: /** @type {ViewState["legendShare"]} */ (v) } }),
  );
  options(shareSelect, ["off", "total", "focus"], ["values", "% of total", "% of focus"]);
  // the table pane beside the tree
  const tableSelect = select(group(menu, "Table"), "table", (v) =>
    dispatch({ type: "set", state: { tableMode: /** @type {ViewState["tableMode"]} */ (v) } }),
  );
  options(tableSelect, valuesOf("table_mode"), [
    "off",
    "calling contexts",
    "functions",
    "callers (bottom-up)",
    "caller/callee",
    "changes (runs)",
  ]);

  // roots
  const rootsMenu = createRootsMenu(group(menu, "Roots"), dispatch);

  // tree
  const treeGroup = group(menu, "Tree");
  button(treeGroup, "Expand all", "Expand every collapsed subtree", () => dispatch({ type: "expandAll" }));
  const depthInput = /** @type {HTMLInputElement} */ (
    append(treeGroup, "input", {
      className: "cct-depth",
      attrs: { type: "number", min: "0", value: "2", "aria-label": "depth" },
    })
  );
  button(treeGroup, "Collapse to depth", "Collapse every subtree below this depth", () =>
    dispatch({ type: "collapseToDepth", depth: Number(depthInput.value) }),
  );
  button(
    treeGroup,
    "Hot path",
    "From the focused node, open the child with the largest inclusive value, repeatedly",
    () => dispatch({ type: "hotPath" }),
  );
  button(treeGroup, "Focus", "Show only the subtree of the keyboard-focused or selected node", () =>
    dispatch({ type: "focus" }),
  );

  // selection
  const selectGroup = group(menu, "Selection");
  const brushButton = button(selectGroup, "Brush", "Select with a rectangle (shift adds)", () =>
    dispatch({ type: "brush" }),
  );
  brushButton.setAttribute("aria-pressed", "false");
  button(selectGroup, "Subtree", "Add the subtrees of the selected nodes to the selection", () =>
    dispatch({ type: "selectSubtree" }),
  );
  button(selectGroup, "Clear", "Clear the selection", () => dispatch({ type: "clearSelection" }));

  // history and view
  const undoButton = button(historyGroup, "↶", "Undo (Ctrl+Z)", () => dispatch({ type: "undo" }));
  const redoButton = button(historyGroup, "↷", "Redo (Ctrl+Shift+Z)", () => dispatch({ type: "redo" }));
  button(historyGroup, "Fit", "Fit the whole tree in view", () => dispatch({ type: "fit" }));
  button(treeGroup, "Reset", "Reset the view: expand all, no prune, focus or search", () =>
    dispatch({ type: "reset" }),
  );
  if (downloads) {
    const saveGroup = group(menu, "Save the view");
    button(saveGroup, "SVG", "Save the view as an SVG file", () => dispatch({ type: "download", format: "svg" }));
    button(saveGroup, "PNG", "Save the view as a PNG file", () => dispatch({ type: "download", format: "png" }));
  }

  // search
  const searchBox = createSearchBox(searchGroup, dispatch, button);

  // prune range over the colour metric
  const pruneRange = createPruneRange(group(menu, "Prune by range"), dispatch);

  return {
    element: bar,
    searchInput: searchBox.input,
    /** The keyboard goes to the search box (the "/" key). */
    focusSearch() {
      searchBox.input.focus();
    },

    /**
     * New data: the metric lists, the roots.
     * @param {import("../data/decode.js").Table} table
     * @param {{ id: import("../data/ids.js").NodeId, name: string }[]} rootNames the trees' root nodes (full-tree ids)
     */
    setData(table, rootNames) {
      const names = table.metrics.map((m) => m.name);
      // "time (exc)", but not "time (inc) (inc)": the kind only where the name does not say it
      const says = (/** @type {import("../data/decode.js").Metric} */ m) =>
        m.kind === "other" || m.name.includes(m.kind) || m.name.includes(`(${m.kind.slice(0, 3)}`);
      const labels = table.metrics.map((m) => (says(m) ? m.name : `${m.name} (${KIND_WORD[m.kind] ?? m.kind})`));
      colorPicker.setOptions(names, labels);
      const reducerField = /** @type {HTMLElement} */ (reducerSelect.parentElement);
      reducerField.hidden = !table.reducer;
      ranksGroup.hidden = !table.reducer;
      const over = table.reducedOver.join(" × ");
      reducerField.title = table.reducer ? `how the values of each node's rows (one per ${over}) combine` : "";
      /** @type {HTMLElement} */ (reducerField.lastElementChild).textContent = `over ${over}`;
      if (table.reducer) reducerSelect.value = table.reducer;
      sizePicker.setOptions(names, labels);
      incBox.disabled = !table.metrics.some((m) => m.partner);
      rootsMenu.setData(table, rootNames);
      // an ensemble's changes along its runs, once Python found them
      /** @type {HTMLOptionElement} */ (tableSelect.querySelector('option[value="changes"]')).hidden = !table.changes;
    },

    /** Narrow views keep search and history in the row; the metric pickers go in the menu. @param {boolean} narrow */
    setNarrow(narrow) {
      if (bar.classList.contains("cct-narrow") === narrow) return;
      bar.classList.toggle("cct-narrow", narrow);
      more.close();
      if (narrow) menu.prepend(metricsGroup);
      else row.prepend(metricsGroup);
    },

    /** Shows the view state. @param {ViewState} view @param {ToolbarStatus} status */
    update(view, { canUndo, canRedo, brush, rootCount, incChecked }) {
      colorPicker.show(view.colorBy);
      sizePicker.show(view.sizeBy);
      incBox.checked = incChecked;
      paletteSelect.value = view.palette;
      scaleSelect.value = view.colorScale;
      legendSelect.value = view.legend;
      shareSelect.value = view.legendShare;
      tableSelect.value = view.tableMode;
      undoButton.disabled = !canUndo;
      redoButton.disabled = !canRedo;
      brushButton.setAttribute("aria-pressed", String(brush));
      searchBox.update(view);
      rootsMenu.update(view, rootCount);
    },

    setSearchInfo: searchBox.setSearchInfo,
    setShowAll: searchBox.setShowAll,
    destroy: searchBox.destroy,

    /** The colour metric's distribution under the prune range sliders (prune-range.js). */
    setHistogram: pruneRange.setHistogram,
  };
}
