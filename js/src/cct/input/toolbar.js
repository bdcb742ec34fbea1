// The toolbar: metric, palette, scale and legend choices, tree controls, selection tools,
// history, search and the prune range. It holds no state of its own: it shows the renderer's
// view (`update`) and reports what the user asks for through `dispatch`.
import { bin } from "d3-array";
import { valuesOf } from "../../contract.js";
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";
import { PALETTE_NAMES } from "../picture/scales.js";

/** How the metric menus name a kind: "time (exc)", "b ÷ a (ratio)", never "(rat)". */
const KIND_WORD = /** @type {Record<string, string>} */ ({ exclusive: "exc", inclusive: "inc", ratio: "ratio" });

const SLIDER_STEPS = 1000;
const BINS = 40;

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../state/commands.js").Command} Command */
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
  // narrow views: one row of the controls used most (history, search) and a menu for the rest
  const more = /** @type {HTMLButtonElement} */ (
    append(bar, "button", {
      className: "cct-more",
      text: "⋯",
      attrs: { type: "button", title: "More controls", "aria-label": "More controls", "aria-expanded": "false" },
    })
  );
  more.addEventListener("click", () => {
    const open = !bar.classList.contains("cct-open");
    bar.classList.toggle("cct-open", open);
    more.setAttribute("aria-expanded", String(open));
  });
  const row1 = append(bar, "div", { className: "cct-toolbar-row" });
  const row2 = append(bar, "div", { className: "cct-toolbar-row" });

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
  const metricsGroup = group(row1, "Metrics");
  const colorSelect = select(metricsGroup, "colour", (v) => dispatch({ type: "set", state: { colorBy: v } }));
  const sizeSelect = select(metricsGroup, "size", (v) => dispatch({ type: "set", state: { sizeBy: v } }));
  const incWrap = append(metricsGroup, "label", { className: "cct-field" });
  const incBox = /** @type {HTMLInputElement} */ (
    append(incWrap, "input", { attrs: { type: "checkbox", "aria-label": "inclusive metrics" } })
  );
  append(incWrap, "span", { text: "inclusive" });
  incBox.addEventListener("change", () => dispatch({ type: "inclusive", on: incBox.checked }));
  const styleGroup = group(row1, "Colour scale");
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
  const ranksGroup = group(row1, "Ranks");
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
  options(legendSelect, ["shared", "per-root"], ["one for all trees", "one per tree"]);
  const shareSelect = select(styleGroup, "legend ends", (v) =>
    dispatch({ type: "set", state: { legendShare: /** @type {ViewState["legendShare"]} */ (v) } }),
  );
  options(shareSelect, ["off", "total", "focus"], ["values", "% of total", "% of focus"]);
  // the table pane beside the tree
  const tableSelect = select(group(row1, "Table"), "table", (v) =>
    dispatch({ type: "set", state: { tableMode: /** @type {ViewState["tableMode"]} */ (v) } }),
  );
  options(tableSelect, valuesOf("table_mode"), [
    "off",
    "calling contexts",
    "functions",
    "callers (bottom-up)",
    "caller/callee",
  ]);

  // roots
  const rootsGroup = group(row1, "Roots");
  const rootsMenu = append(rootsGroup, "details", { className: "cct-roots" });
  const rootsSummary = append(rootsMenu, "summary", {
    text: "roots: all",
    attrs: { "aria-label": "Choose the trees to show" },
  });
  const rootsList = append(rootsMenu, "div", { className: "cct-roots-list" });

  // tree
  const treeGroup = group(row1, "Tree");
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
  const selectGroup = group(row1, "Selection");
  const brushButton = button(selectGroup, "Brush", "Select with a rectangle (shift adds)", () =>
    dispatch({ type: "brush" }),
  );
  brushButton.setAttribute("aria-pressed", "false");
  button(selectGroup, "Subtree", "Add the subtrees of the selected nodes to the selection", () =>
    dispatch({ type: "selectSubtree" }),
  );
  button(selectGroup, "Clear", "Clear the selection", () => dispatch({ type: "clearSelection" }));

  // history and view
  const historyGroup = group(row1, "History");
  historyGroup.classList.add("cct-primary");
  const undoButton = button(historyGroup, "↶", "Undo (Ctrl+Z)", () => dispatch({ type: "undo" }));
  const redoButton = button(historyGroup, "↷", "Redo (Ctrl+Shift+Z)", () => dispatch({ type: "redo" }));
  button(historyGroup, "Reset", "Reset the view: expand all, no prune, focus or search", () =>
    dispatch({ type: "reset" }),
  );
  button(historyGroup, "Fit", "Fit the whole tree in view", () => dispatch({ type: "fit" }));
  if (downloads) {
    const saveGroup = group(row1, "Save the view");
    button(saveGroup, "SVG", "Save the view as an SVG file", () => dispatch({ type: "download", format: "svg" }));
    button(saveGroup, "PNG", "Save the view as a PNG file", () => dispatch({ type: "download", format: "png" }));
  }

  // search
  const searchGroup = group(row2, "Search");
  searchGroup.classList.add("cct-primary");
  const searchInput = /** @type {HTMLInputElement} */ (
    append(searchGroup, "input", {
      className: "cct-search",
      attrs: { type: "search", placeholder: "search names  ( / )", "aria-label": "Search node names" },
    })
  );
  searchInput.addEventListener("input", () => dispatch({ type: "search", pattern: searchInput.value }));
  /**
   * A button that flips a boolean of the view state.
   * @param {string} text
   * @param {string} label
   * @param {"searchRegex" | "searchCase"} key
   */
  const toggle = (text, label, key) => {
    const b = button(searchGroup, text, label, () =>
      dispatch({ type: "set", state: { [key]: b.getAttribute("aria-pressed") !== "true" } }),
    );
    b.setAttribute("aria-pressed", "false");
    return b;
  };
  const regexButton = toggle(".*", "Regular expression", "searchRegex");
  const caseButton = toggle("Aa", "Match case", "searchCase");
  button(searchGroup, "◀", "Previous match", () => dispatch({ type: "match", step: -1 }));
  button(searchGroup, "▶", "Next match", () => dispatch({ type: "match", step: 1 }));
  const searchInfo = append(searchGroup, "span", { className: "cct-search-info", attrs: { "aria-live": "polite" } });

  // prune range over the colour metric
  const pruneGroup = group(row2, "Prune by range");
  append(pruneGroup, "span", { text: "range" });
  const scented = append(pruneGroup, "span", { className: "cct-prune" });
  const histogram = scented.appendChild(parent.ownerDocument.createElementNS("http://www.w3.org/2000/svg", "svg"));
  histogram.setAttribute("class", "cct-histogram");
  histogram.setAttribute("aria-hidden", "true");
  const lowInput = /** @type {HTMLInputElement} */ (
    append(scented, "input", {
      attrs: { type: "range", min: "0", max: String(SLIDER_STEPS), value: "0", "aria-label": "lowest value kept" },
    })
  );
  const highInput = /** @type {HTMLInputElement} */ (
    append(scented, "input", {
      attrs: {
        type: "range",
        min: "0",
        max: String(SLIDER_STEPS),
        value: String(SLIDER_STEPS),
        "aria-label": "highest value kept",
      },
    })
  );
  const pruneInfo = append(pruneGroup, "span", { className: "cct-prune-info" });
  button(pruneGroup, "All", "Clear the prune range", () => dispatch({ type: "set", state: { prune: null } }));

  /** @type {{ lo: number, hi: number, log: boolean } | null} */
  let domain = null;
  /** @type {{ values: Float64Array, type: string, range: ViewState["prune"] } | null} what the
   * histogram shows */
  let drawnHistogram = null;
  /** The metric value at a slider position. @param {number} step */
  const toValue = (step) => {
    const t = Number(step) / SLIDER_STEPS;
    if (!domain) return 0;
    if (domain.log) return Math.exp(Math.log(domain.lo) + t * (Math.log(domain.hi) - Math.log(domain.lo)));
    return domain.lo + t * (domain.hi - domain.lo);
  };
  /** The slider position of a metric value. @param {number} v */
  const toStep = (v) => {
    if (!domain || domain.hi === domain.lo) return 0;
    const t = domain.log
      ? (Math.log(v) - Math.log(domain.lo)) / (Math.log(domain.hi) - Math.log(domain.lo))
      : (v - domain.lo) / (domain.hi - domain.lo);
    return Math.round(Math.max(0, Math.min(1, t)) * SLIDER_STEPS);
  };
  const onRange = () => {
    let a = Number(lowInput.value);
    let b = Number(highInput.value);
    if (a > b) [a, b] = [b, a];
    const full = a === 0 && b === SLIDER_STEPS;
    dispatch({ type: "set", state: { prune: full ? null : [toValue(a), toValue(b)] } });
  };
  lowInput.addEventListener("change", onRange);
  highInput.addEventListener("change", onRange);

  return {
    element: bar,
    searchInput,
    /** The keyboard goes to the search box (the "/" key). */
    focusSearch() {
      searchInput.focus();
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
      options(colorSelect, names, labels);
      const reducerField = /** @type {HTMLElement} */ (reducerSelect.parentElement);
      reducerField.hidden = !table.reducer;
      ranksGroup.hidden = !table.reducer;
      const over = table.reducedOver.join(" × ");
      reducerField.title = table.reducer ? `how the values of each node's rows (one per ${over}) combine` : "";
      /** @type {HTMLElement} */ (reducerField.lastElementChild).textContent = `over ${over}`;
      if (table.reducer) reducerSelect.value = table.reducer;
      options(sizeSelect, names, labels);
      incBox.disabled = !table.metrics.some((m) => m.partner);
      rootsList.replaceChildren();
      const all = append(rootsList, "label", { className: "cct-field" });
      const allBox = /** @type {HTMLInputElement} */ (
        append(all, "input", { attrs: { type: "checkbox", "data-root": "all" } })
      );
      append(all, "span", { text: "All" });
      allBox.addEventListener("change", () => dispatch({ type: "set", state: { roots: null } }));
      for (const { id, name } of rootNames) {
        const row = append(rootsList, "label", { className: "cct-field" });
        const box = /** @type {HTMLInputElement} */ (
          append(row, "input", { attrs: { type: "checkbox", "data-root": String(id) } })
        );
        append(row, "span", { text: name });
        box.addEventListener("change", () => dispatch({ type: "toggleRoot", id }));
        // one click isolates a tree, however many roots there are
        const only = append(rootsList, "button", {
          className: "cct-only-root",
          text: "only",
          attrs: { type: "button", "data-only-root": String(id), "aria-label": `Show only ${name}` },
        });
        only.addEventListener("click", () => dispatch({ type: "set", state: { roots: [id] } }));
      }
      if (table.extraEdges > 0) {
        // a DAG: its other call edges, drawn dashed on demand
        const row = append(rootsList, "label", { className: "cct-field cct-caller-edges" });
        const box = /** @type {HTMLInputElement} */ (
          append(row, "input", { attrs: { type: "checkbox", "data-caller-edges": "" } })
        );
        append(row, "span", { text: `other callers (${table.extraEdges} dashed edges)` });
        box.addEventListener("change", () => dispatch({ type: "set", state: { callerEdges: box.checked } }));
      }
    },

    /** Narrow views show one row (history, search) and a "⋯" menu for the rest. @param {boolean} narrow */
    setNarrow(narrow) {
      bar.classList.toggle("cct-narrow", narrow);
      if (!narrow) {
        bar.classList.remove("cct-open");
        more.setAttribute("aria-expanded", "false");
      }
    },

    /** Shows the view state. @param {ViewState} view @param {ToolbarStatus} status */
    update(view, { canUndo, canRedo, brush, rootCount, incChecked }) {
      colorSelect.value = view.colorBy;
      sizeSelect.value = view.sizeBy;
      incBox.checked = incChecked;
      paletteSelect.value = view.palette;
      scaleSelect.value = view.colorScale;
      legendSelect.value = view.legend;
      shareSelect.value = view.legendShare;
      tableSelect.value = view.tableMode;
      undoButton.disabled = !canUndo;
      redoButton.disabled = !canRedo;
      brushButton.setAttribute("aria-pressed", String(brush));
      regexButton.setAttribute("aria-pressed", String(view.searchRegex));
      caseButton.setAttribute("aria-pressed", String(view.searchCase));
      if (searchInput.value !== view.search && parent.ownerDocument.activeElement !== searchInput) {
        searchInput.value = view.search;
      }
      const shown = view.roots ? new Set(view.roots) : null;
      for (const box of rootsList.querySelectorAll("input")) {
        const key = box.getAttribute("data-root");
        if (key === null) {
          /** @type {HTMLInputElement} */ (box).checked = view.callerEdges;
          continue;
        }
        /** @type {HTMLInputElement} */ (box).checked =
          key === "all" ? !shown : !shown || shown.has(/** @type {import("../data/ids.js").NodeId} */ (Number(key)));
      }
      rootsSummary.textContent = shown ? `roots: ${shown.size} of ${rootCount}` : `roots: all ${rootCount}`;
    },

    /** The search's outcome, or the message of an invalid pattern. @param {string} text @param {boolean} isError */
    setSearchInfo(text, isError) {
      searchInfo.textContent = text;
      searchInfo.classList.toggle("cct-error-text", isError);
    },

    /**
     * The colour metric's distribution under the prune range sliders.
     * @param {Float64Array} values
     * @param {ViewState["colorScale"]} type
     * @param {ViewState["prune"]} range
     * @param {number} hiddenCount nodes outside the range
     */
    setHistogram(values, type, range, hiddenCount) {
      // a collapse or expand redraws the view, not the distribution: only the count changes
      const same =
        drawnHistogram &&
        drawnHistogram.values === values &&
        drawnHistogram.type === type &&
        drawnHistogram.range?.[0] === range?.[0] &&
        drawnHistogram.range?.[1] === range?.[1];
      drawnHistogram = { values, type, range };
      if (same && range && domain) {
        pruneInfo.textContent = `${formatValue(range[0])} – ${formatValue(range[1])} · ${hiddenCount} hidden`;
        return;
      }
      if (same) return;
      // passes over the typed array, counting, not lists of values: at 10^5 values spreading,
      // filtering, mapping and d3's bins (which hold every value) took ~20 ms of a first picture
      const drawable = (/** @type {number} */ v) => Number.isFinite(v) && (type !== "log" || v > 0);
      let count = 0;
      let lo = Infinity;
      let hi = -Infinity;
      for (const v of values) {
        if (!drawable(v)) continue;
        count++;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (!count) lo = hi = 0;
      domain = count ? { lo, hi, log: type === "log" && lo > 0 && hi > lo } : null;
      const disabled = !domain || lo === hi;
      lowInput.disabled = disabled;
      highInput.disabled = disabled;
      lowInput.value = String(range ? toStep(range[0]) : 0);
      highInput.value = String(range ? toStep(range[1]) : SLIDER_STEPS);
      const w = 160;
      const h = 22;
      histogram.setAttribute("width", String(w));
      histogram.setAttribute("height", String(h));
      histogram.replaceChildren();
      if (!disabled) {
        const perStep = new Float64Array(SLIDER_STEPS + 1);
        for (const v of values) if (drawable(v)) perStep[toStep(v)]++;
        // d3 chooses the bins (empty: only their bounds); a bin holds the slider steps from its
        // x0 up to its x1, the last one its x1 too (d3's rule)
        const edges = bin().domain([0, SLIDER_STEPS]).thresholds(BINS)([]);
        const counts = edges.map((b, i) => {
          let c = 0;
          const end = i === edges.length - 1 ? SLIDER_STEPS : Math.ceil(/** @type {number} */ (b.x1)) - 1;
          for (let k = Math.ceil(/** @type {number} */ (b.x0)); k <= end; k++) c += perStep[k];
          return c;
        });
        const top = Math.max(...counts);
        for (const [i, b] of edges.entries()) {
          // bins over a set domain always have both bounds
          const b0 = /** @type {number} */ (b.x0);
          const b1 = /** @type {number} */ (b.x1);
          const n = counts[i];
          const rect = histogram.appendChild(
            parent.ownerDocument.createElementNS("http://www.w3.org/2000/svg", "rect"),
          );
          const x0 = (b0 / SLIDER_STEPS) * w;
          const bh = n ? Math.max(1, (Math.log1p(n) / Math.log1p(top)) * h) : 0;
          rect.setAttribute("x", String(x0));
          rect.setAttribute("y", String(h - bh));
          rect.setAttribute("width", String(Math.max(1, ((b1 - b0) / SLIDER_STEPS) * w - 1)));
          rect.setAttribute("height", String(bh));
          const inside = !range || (toValue(b1) >= range[0] && toValue(b0) <= range[1]);
          rect.setAttribute("class", inside ? "cct-bin" : "cct-bin cct-bin-out");
        }
      }
      pruneInfo.textContent = range
        ? `${formatValue(range[0])} – ${formatValue(range[1])} · ${hiddenCount} hidden`
        : domain
          ? `${formatValue(lo)} – ${formatValue(hi)}`
          : "no values";
    },
  };
}
