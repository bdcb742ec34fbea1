// The CCT renderer: layout, scales, legends, labels, tooltip, zoom, and every direct
// manipulation (collapse, prune, focus, search, selection, keyboard, undo). It knows nothing
// about Jupyter: give it a container, data and a view state; it reports what the user changes
// through `onChange` (view state) and `onSelect` (selected node ids). Tested in jsdom.
import { select } from "d3-selection";
import { zoom, zoomIdentity } from "d3-zoom";
import { createCanvasBackend } from "./canvas-backend.js";
import { metricByName } from "./decode.js";
import { append } from "./dom.js";
import { createHistory } from "./history.js";
import { placeLabels, shortenName } from "./labels.js";
import { drawColorLegend, drawSizeLegend } from "./legend.js";
import { COLOR_SCALES, colorScale, PALETTE_NAMES, sizeScale } from "./scales.js";
import { createSvgBackend } from "./svg-backend.js";
import { createToolbar } from "./toolbar.js";
import { aggregateContent, tooltipContent } from "./tooltip.js";
import { itemHierarchy, layoutTree, placeLevels } from "./tree.js";
import {
  buildViewTree,
  collapseToDepth,
  hiddenNodes,
  hiddenSum,
  hotPath,
  pathTo,
  pruneMask,
  subtreeStats,
} from "./view-tree.js";

const DEFAULTS = {
  rowHeight: 28,
  minLevelWidth: 60, // screen pixels between depth levels when the whole tree is in view
  maxLevelWidth: 160,
  maxFitScale: 1.5,
  legendRoom: 190, // screen pixels left of the tree kept for the legends
  labelPx: 11,
  rMin: 2.5,
  rMax: 12,
  margin: 24,
  labelRoom: 180, // screen pixels kept free right of the deepest nodes for their labels
  canvasAbove: 4000, // drawn nodes above which backend "auto" paints on canvas instead of SVG
  maxLabelCandidates: 3000,
  aggregateFill: "#9e9e9e",
  legendPosition: "left", // "left": a column left of the tree; "top": a row above it (narrow figures)
  legendScale: 1, // legends are drawn for 11 px text; figures scale them to their font size
};
const LEGEND_BAND = 58; // height of the row of legends when they are on top (at legendScale 1)

export const BACKENDS = ["auto", "svg", "canvas"];
export const LEGEND_MODES = ["shared", "per-root"];
const CREATE_BACKEND = { svg: createSvgBackend, canvas: createCanvasBackend };

/**
 * The view state. Every key is mirrored by a trait of cctviz.CCT (see widget.js).
 * @typedef {object} ViewState
 * @property {string} colorBy
 * @property {string} sizeBy
 * @property {"linear" | "log"} colorScale
 * @property {"auto" | "svg" | "canvas"} backend "auto": SVG up to DEFAULTS.canvasAbove nodes
 * @property {string} palette
 * @property {"shared" | "per-root"} legend one colour scale for all trees, or one per tree
 * @property {number[]} collapsed ids of collapsed nodes
 * @property {[number, number] | null} prune range of the colour metric kept
 * @property {number | null} focus id of the node the view is rooted at
 * @property {number[] | null} roots ids of the roots shown (null: all)
 * @property {string} search
 * @property {boolean} searchRegex
 * @property {boolean} searchCase
 * @property {number[]} highlighted ids marked from Python (not a selection)
 */
export const VIEW_DEFAULTS = Object.freeze({
  colorBy: "",
  sizeBy: "",
  colorScale: "linear",
  backend: "auto",
  palette: "auto",
  legend: "shared",
  collapsed: [],
  prune: null,
  focus: null,
  roots: null,
  search: "",
  searchRegex: false,
  searchCase: false,
  highlighted: [],
});
/** What undo and redo step through (the backend is a rendering choice, highlights are marks
 * set from Python: neither is a view operation). */
const UNDOABLE = Object.keys(VIEW_DEFAULTS).filter((k) => k !== "backend" && k !== "highlighted");
const STRUCTURE = ["collapsed", "prune", "focus", "roots"];
const STYLE = ["colorBy", "sizeBy", "colorScale", "palette", "legend"];
const SEARCH = ["search", "searchRegex", "searchCase"];

/**
 * @param {HTMLElement} container
 *   `onExpand(row)`: the user opened a fold row of level of detail (Python sends its nodes);
 *   `onDownload(format)`: the user asked to save the view (the toolbar shows SVG/PNG buttons);
 *   `onZoom(t)`: a zoom or pan ended (null: the view is fitted, not moved by hand)
 * @param {{ onSelect?: (ids: number[]) => void, onChange?: (state: Partial<ViewState>) => void,
 *   onExpand?: (row: number) => void, onDownload?: ((format: "svg" | "png") => void) | null,
 *   onZoom?: (t: { x: number, y: number, k: number } | null) => void,
 *   width?: number, height?: number, toolbar?: boolean, layout?: Partial<typeof DEFAULTS> }} [options]
 *   `layout` overrides sizes in DEFAULTS (figures set their font size and legend placement)
 */
export function createRenderer(
  container,
  {
    onSelect = () => {},
    onChange = () => {},
    onExpand = () => {},
    onDownload = null,
    onZoom = () => {},
    width = 800,
    height = 500,
    toolbar: withToolbar = true,
    layout: layoutOptions = {},
  } = {},
) {
  const D = { ...DEFAULTS, ...layoutOptions };
  const legendsOnTop = D.legendPosition === "top";
  const doc = container.ownerDocument;
  const root = append(container, "div", { className: "cct-root" });
  const toolbar = withToolbar ? createToolbar(root, (action) => dispatch(action), { downloads: !!onDownload }) : null;
  const header = append(root, "div", { className: "cct-header" });
  const breadcrumb = append(header, "nav", { className: "cct-breadcrumb", attrs: { "aria-label": "Focus path" } });
  const status = append(header, "span", { className: "cct-status" });
  const stage = append(root, "div", {
    className: "cct-stage",
    attrs: { tabindex: "0", role: "tree", "aria-label": "Calling context tree; arrow keys move, Enter collapses" },
  });
  const surface = append(stage, "div", { className: "cct-surface" });
  const tooltip = append(stage, "div", { className: "cct-tooltip", attrs: { role: "tooltip" } });
  tooltip.hidden = true;
  const announcer = append(stage, "div", { className: "cct-sr-only", attrs: { "aria-live": "polite" } });

  /** @type {import("./decode.js").Table | null} */
  let table = null;
  let stats = null;
  let viewTree = null;
  let layout = null;
  /** @type {ViewState} */
  let view = { ...VIEW_DEFAULTS };
  let scales = null;
  let marks = [];
  let selected = new Set();
  let matches = [];
  let matchAt = -1;
  /** @type {number | null} */
  let cursor = null;
  let transform = zoomIdentity;
  let userMoved = false;
  let size = { width, height };
  /** @type {number | null} */
  let hovered = null;
  let brushing = false;
  /** @type {Record<string, string>} unit of each metric, shown in the legend titles */
  let units = {};
  const history = createHistory();

  const zoomer = zoom()
    .scaleExtent([1e-4, 16])
    .filter((event) => !brushing && (!event.ctrlKey || event.type === "wheel") && !event.button)
    .on("zoom", (event) => {
      transform = event.transform;
      backend.setTransform(transform);
      if (event.sourceEvent) userMoved = true;
    })
    .on("end", () => {
      updateLabels();
      onZoom(userMoved ? { x: transform.x, y: transform.y, k: transform.k } : null);
    });

  /** @type {ReturnType<typeof createSvgBackend> | ReturnType<typeof createCanvasBackend>} */
  let backend = null;
  /** @type {import("d3-selection").Selection<SVGSVGElement, unknown, null, undefined>} */
  let svg = null;

  // --- backends ----------------------------------------------------------------------------

  /** Switches to the SVG or canvas backend; events and zoom move to its surface. */
  function useBackend(kind) {
    if (backend?.kind === kind) return false;
    if (backend) {
      svg.on(".zoom", null).on("pointermove pointerleave pointerdown click dblclick", null);
      backend.destroy();
    }
    backend = CREATE_BACKEND[kind](surface, { labelPx: D.labelPx });
    backend.resize(size.width, size.height);
    svg = select(backend.svg);
    svg.call(zoomer).on("dblclick.zoom", null);
    svg.property("__zoom", transform);
    backend.setTransform(transform);
    svg
      .on("pointermove", onPointerMove)
      .on("pointerleave", (event) => hover(null, event))
      .on("pointerdown", onPointerDown)
      .on("click", onClick)
      .on("dblclick", onDoubleClick);
    return true;
  }

  function backendKind() {
    if (view.backend !== "auto") return view.backend;
    return (layout?.nodes.length ?? 0) > D.canvasAbove ? "canvas" : "svg";
  }

  // --- state -------------------------------------------------------------------------------

  /** Checks and normalises a partial view state; errors name the bad value. */
  function normalize(partial) {
    const out = {};
    for (const [key, value] of Object.entries(partial)) {
      if (!(key in VIEW_DEFAULTS)) throw new RangeError(`unknown view state ${JSON.stringify(key)}`);
      if ((key === "colorBy" || key === "sizeBy") && table && value && !metricByName(table, value)) {
        throw new RangeError(`unknown ${key === "colorBy" ? "colour" : "size"} metric ${JSON.stringify(value)}`);
      }
      if (key === "colorScale" && !COLOR_SCALES.includes(value)) {
        throw new RangeError(`unknown colour scale ${JSON.stringify(value)}; accepted: ${COLOR_SCALES.join(", ")}`);
      }
      if (key === "backend" && !BACKENDS.includes(value)) {
        throw new RangeError(`unknown backend ${JSON.stringify(value)}; accepted: ${BACKENDS.join(", ")}`);
      }
      if (key === "palette" && !PALETTE_NAMES.includes(value)) {
        throw new RangeError(`unknown palette ${JSON.stringify(value)}; accepted: ${PALETTE_NAMES.join(", ")}`);
      }
      if (key === "legend" && !LEGEND_MODES.includes(value)) {
        throw new RangeError(`unknown legend mode ${JSON.stringify(value)}; accepted: ${LEGEND_MODES.join(", ")}`);
      }
      if (key === "prune" && value !== null && !(value.length === 2 && value[0] <= value[1])) {
        throw new RangeError(`prune range must be [low, high] with low ≤ high; got ${JSON.stringify(value)}`);
      }
      if (key === "collapsed" || key === "highlighted") out[key] = [...new Set(value)].sort((a, b) => a - b);
      else if (key === "prune") out[key] = value === null ? null : [Number(value[0]), Number(value[1])];
      else if (key === "roots") out[key] = value === null ? null : [...value];
      else out[key] = value;
    }
    return out;
  }

  /**
   * Applies a (partial) view state: the one path for Python, the toolbar, gestures and undo.
   * @param {Partial<ViewState>} partial
   * @param {{ emit?: boolean, anchor?: number | null, record?: boolean }} [how]
   */
  function apply(partial, { emit = false, anchor = null, record = true } = {}) {
    const next = { ...view, ...normalize(partial) };
    const changed = Object.keys(partial).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(view[k]));
    view = next;
    if (!changed.length) return;
    if (table && view.colorBy) {
      const has = (keys) => changed.some((k) => keys.includes(k));
      if (has(STRUCTURE) || (view.prune && changed.includes("colorBy"))) rebuild(anchor);
      else if (changed.includes("backend")) {
        draw();
        fitToView();
      } else if (has(STYLE)) restyle();
      if (has(SEARCH) || has(STRUCTURE)) updateSearch();
      if (changed.includes("highlighted")) backend.setHighlighted(new Set(view.highlighted));
    }
    if (record) history.record(undoable());
    refreshToolbar();
    if (emit) onChange(Object.fromEntries(changed.map((k) => [k, view[k]])));
  }

  const undoable = () => Object.fromEntries(UNDOABLE.map((k) => [k, view[k]]));

  /** A change the user made: applied, recorded, and reported. */
  function change(partial, anchor = null) {
    apply(partial, { emit: true, anchor });
  }

  function dispatch(action) {
    if (action.set) change(action.set);
    else command(action.command, action.value);
  }

  function command(name, value) {
    if (!table) return;
    const focusTarget = () => cursor ?? [...selected].at(-1) ?? view.focus ?? stats.roots[0];
    switch (name) {
      case "expandAll":
        return change({ collapsed: [] });
      case "collapseToDepth":
        if (!(Number.isInteger(value) && value >= 0)) throw new RangeError(`depth must be a whole number ≥ 0; got ${value}`);
        return change({ collapsed: [...collapseToDepth(table, stats, value)] });
      case "hotPath": {
        const start = view.focus ?? cursor ?? stats.roots[0];
        const values = hotValues();
        const path = hotPath(stats, values, start);
        const open = new Set(path);
        // open the path; fold the siblings along it so the path stands out
        const collapsed = new Set(view.collapsed.filter((id) => !open.has(id)));
        for (const id of path) {
          for (const c of stats.children[id] ?? []) if (!open.has(c) && stats.children[c]?.length) collapsed.add(c);
        }
        setCursor(path.at(-1));
        return change({ collapsed: [...collapsed] }, start);
      }
      case "focus":
        return change({ focus: focusTarget() });
      case "toggleRoot": {
        const shown = new Set(view.roots ?? stats.roots);
        if (shown.has(value)) shown.delete(value);
        else shown.add(value);
        const roots = stats.roots.filter((r) => shown.has(r));
        return change({ roots: roots.length === stats.roots.length ? null : roots });
      }
      case "inclusive": {
        const partnerOf = (name, wantInclusive) => {
          const m = metricByName(table, name);
          if (!m?.partner) return name;
          return (m.kind === "inclusive") === wantInclusive ? name : m.partner;
        };
        return change({ colorBy: partnerOf(view.colorBy, value), sizeBy: partnerOf(view.sizeBy, value) });
      }
      case "brush":
        brushing = !brushing;
        refreshToolbar();
        return;
      case "selectSubtree": {
        const next = new Set(selected);
        for (const id of selected) for (const d of descendants(id)) next.add(d);
        return commitSelection(next);
      }
      case "clearSelection":
        return commitSelection(new Set());
      case "undo":
      case "redo": {
        const state = name === "undo" ? history.undo() : history.redo();
        if (state) apply(state, { emit: true, record: false });
        refreshToolbar();
        return;
      }
      case "reset":
        change({ collapsed: [], prune: null, focus: null, roots: null, search: "" });
        return fitToView();
      case "fit":
        return fitToView();
      case "search":
        return searchFor(value);
      case "match":
        return stepMatch(value);
      case "download":
        if (value !== "svg" && value !== "png") throw new RangeError(`download format is "svg" or "png"; got ${JSON.stringify(value)}`);
        return onDownload?.(value);
      default:
        throw new RangeError(`unknown command ${JSON.stringify(name)}`);
    }
  }

  /** The inclusive partner of the colour metric if it has one: what the hot path follows. */
  function hotValues() {
    const m = metricByName(table, view.colorBy);
    const inc = m.kind === "inclusive" ? m : m.partner ? metricByName(table, m.partner) : m;
    return withoutFolds(inc.values);
  }

  /** Values with fold rows (sums of nodes not sent) as missing: they are not nodes. */
  function withoutFolds(values) {
    if (!table.folded) return values;
    const out = Float64Array.from(values);
    for (let i = 0; i < out.length; i++) if (table.folded[i] > 0) out[i] = Number.NaN;
    return out;
  }

  function descendants(id) {
    const out = [];
    const stack = [...(stats.children[id] ?? [])];
    while (stack.length) {
      const c = stack.pop();
      out.push(c);
      stack.push(...(stats.children[c] ?? []));
    }
    return out;
  }

  // --- search ------------------------------------------------------------------------------

  /** The search the user types: matches are revealed by expanding their collapsed ancestors. */
  function searchFor(pattern) {
    const test = matcher(pattern);
    if (test instanceof Error) {
      view = { ...view, search: pattern };
      toolbar?.setSearchInfo(test.message, true);
      return;
    }
    const partial = { search: pattern };
    if (test) {
      const open = new Set();
      for (let i = 0; i < table.size; i++) {
        if (table.folded?.[i] > 0) continue;
        if (test(table.names[table.nameCode[i]])) for (const a of pathTo(table.parent, i).slice(0, -1)) open.add(a);
      }
      const collapsed = view.collapsed.filter((id) => !open.has(id));
      if (collapsed.length !== view.collapsed.length) partial.collapsed = collapsed;
    }
    change(partial);
  }

  /** A name test for the current options, null for no search, or an Error for a bad regex. */
  function matcher(pattern) {
    if (!pattern) return null;
    if (view.searchRegex) {
      try {
        const re = new RegExp(pattern, view.searchCase ? "u" : "iu");
        return (name) => re.test(name);
      } catch (error) {
        return new Error(`invalid regular expression: ${error.message.replace(/^Invalid regular expression: /, "")}`);
      }
    }
    const needle = view.searchCase ? pattern : pattern.toLowerCase();
    return view.searchCase ? (name) => name.includes(needle) : (name) => name.toLowerCase().includes(needle);
  }

  function updateSearch() {
    if (!table || !viewTree) return;
    const test = matcher(view.search);
    matches = [];
    if (test instanceof Error) {
      backend.setMatches(new Set());
      toolbar?.setSearchInfo(test.message, true);
      return;
    }
    let hidden = 0;
    if (test) {
      for (let i = 0; i < table.size; i++) {
        if (table.folded?.[i] > 0 || !test(table.names[table.nameCode[i]])) continue;
        const item = viewTree.byKey.get(i);
        if (item && item.kind !== "aggregate") matches.push(i);
        else hidden++;
      }
    }
    matchAt = Math.min(matchAt, matches.length - 1);
    backend.setMatches(new Set(matches));
    const text = !test
      ? ""
      : `${matches.length} match${matches.length === 1 ? "" : "es"}${hidden ? ` (+${hidden} not shown)` : ""}`;
    toolbar?.setSearchInfo(text, false);
  }

  function stepMatch(step) {
    if (!matches.length) return;
    matchAt = (matchAt + step + matches.length) % matches.length;
    const id = matches[matchAt];
    setCursor(id);
    centerOn(id);
    toolbar?.setSearchInfo(`${matchAt + 1} of ${matches.length}`, false);
  }

  // --- gestures ----------------------------------------------------------------------------

  const itemAt = (event) => {
    const key = backend.nodeAt(event);
    return key === null ? null : (viewTree?.byKey.get(key) ?? null);
  };

  /** Hover follows the pointer: a node's tooltip and label show while it is under it. */
  function onPointerMove(event) {
    if (brushState) return brushMove(event);
    const key = backend.nodeAt(event);
    if (key !== hovered) hover(key, event);
    else if (key !== null) moveTooltip(event);
  }

  function onClick(event) {
    if (brushed) {
      brushed = false;
      return;
    }
    const item = itemAt(event);
    if (!item) {
      if (selected.size && !event.defaultPrevented) commitSelection(new Set());
      return;
    }
    if (item.kind === "aggregate") {
      if (item.fold) onExpand(item.key);
      return;
    }
    const id = item.id;
    setCursor(id);
    const toggle = event.shiftKey || event.ctrlKey || event.metaKey;
    const next = toggle ? new Set(selected) : new Set([id]);
    if (toggle && next.has(id)) next.delete(id);
    else next.add(id);
    commitSelection(next);
  }

  function onDoubleClick(event) {
    const item = itemAt(event);
    if (item?.fold) onExpand(item.key);
    else if (item && item.kind !== "aggregate") toggleCollapse(item.id);
  }

  function toggleCollapse(id) {
    if (!stats.children[id]?.length) return;
    const collapsed = new Set(view.collapsed);
    if (collapsed.has(id)) collapsed.delete(id);
    else collapsed.add(id);
    change({ collapsed: [...collapsed] }, id);
  }

  function commitSelection(next) {
    selected = next;
    backend.setSelected(selected);
    onSelect([...selected]);
  }

  // rectangular brush: drawn on the overlay in screen pixels, selects the nodes inside
  let brushState = null;
  let brushed = false;
  function onPointerDown(event) {
    if (!brushing || event.button) return;
    const box = stage.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const rect = append(stage, "div", { className: "cct-brush" });
    brushState = { x0: x, y0: y, rect, add: event.shiftKey };
    backend.svg.setPointerCapture?.(event.pointerId);
    const done = (up) => {
      backend.svg.removeEventListener("pointerup", done);
      finishBrush(up);
    };
    backend.svg.addEventListener("pointerup", done);
  }

  function brushMove(event, b = brushState) {
    const box = stage.getBoundingClientRect();
    b.x1 = event.clientX - box.left;
    b.y1 = event.clientY - box.top;
    Object.assign(b.rect.style, {
      left: `${Math.min(b.x0, b.x1)}px`,
      top: `${Math.min(b.y0, b.y1)}px`,
      width: `${Math.abs(b.x1 - b.x0)}px`,
      height: `${Math.abs(b.y1 - b.y0)}px`,
    });
  }

  function finishBrush(event) {
    const b = brushState;
    brushState = null;
    if (!b) return;
    brushMove(event, b);
    b.rect.remove();
    const [x0, x1] = [Math.min(b.x0, b.x1), Math.max(b.x0, b.x1)];
    const [y0, y1] = [Math.min(b.y0, b.y1), Math.max(b.y0, b.y1)];
    if (x1 - x0 < 3 && y1 - y0 < 3) return; // a click, not a brush
    brushed = true;
    const next = b.add ? new Set(selected) : new Set();
    for (const item of viewTree.items) {
      if (item.kind === "aggregate") continue;
      const sx = transform.applyX(layout.x[item.key]);
      const sy = transform.applyY(layout.y[item.key]);
      if (sx >= x0 && sx <= x1 && sy >= y0 && sy <= y1) next.add(item.id);
    }
    commitSelection(next);
  }

  function hover(key, event) {
    hovered = key;
    backend.setHovered(key);
    const item = key === null ? null : viewTree?.byKey.get(key);
    if (!item || !event) {
      tooltip.hidden = true;
      backend.drawHoverLabel(null);
      return;
    }
    const opts = { colorBy: view.colorBy, sizeBy: view.sizeBy, colorWhy: scales?.color.why };
    tooltip.replaceChildren(
      item.kind === "node"
        ? tooltipContent(doc, table, item.id, opts)
        : aggregateContent(doc, table, item, hiddenInfo(item), opts),
    );
    tooltip.hidden = false;
    moveTooltip(event);
    backend.drawHoverLabel(labelMark(key));
  }

  function hiddenInfo(item) {
    const sums = table.metrics
      .filter((m) => m.kind === "exclusive")
      .map((m) => ({ name: m.name, value: hiddenSum(stats, item, m.name) }));
    return { count: hiddenNodes(stats, item), sums };
  }

  function moveTooltip(event) {
    const box = stage.getBoundingClientRect();
    const x = event.clientX - box.left + 14;
    const y = event.clientY - box.top + 14;
    tooltip.style.left = `${Math.max(0, Math.min(x, size.width - 260))}px`;
    tooltip.style.top = `${Math.max(0, y)}px`;
  }

  // --- keyboard ----------------------------------------------------------------------------

  function setCursor(id) {
    cursor = id;
    backend?.setCursor(id);
    if (id === null || !table) return;
    const v = metricByName(table, view.colorBy)?.values[id];
    announcer.textContent = `${table.names[table.nameCode[id]]}, ${view.colorBy} ${v}`;
  }

  stage.addEventListener("keydown", (event) => {
    if (!table || !viewTree) return;
    const mod = event.ctrlKey || event.metaKey;
    if (mod && (event.key === "z" || event.key === "Z")) {
      command(event.shiftKey ? "redo" : "undo");
    } else if (mod && event.key === "y") {
      command("redo");
    } else if (event.key === "/") {
      toolbar?.searchInput.focus();
    } else if (event.key === "Escape") {
      commitSelection(new Set());
      if (view.search) change({ search: "" });
    } else if (event.key.startsWith("Arrow")) {
      moveCursor(event.key);
    } else if (event.key === "Enter" && cursor !== null) {
      toggleCollapse(cursor);
    } else if (event.key === " " && cursor !== null) {
      const next = new Set(selected);
      if (next.has(cursor)) next.delete(cursor);
      else next.add(cursor);
      commitSelection(next);
    } else return;
    event.preventDefault();
  });

  function moveCursor(key) {
    const current = cursor !== null ? viewTree.byKey.get(cursor) : null;
    if (!current) {
      setCursor(viewTree.items.find((it) => it.kind !== "aggregate")?.id ?? null);
      return;
    }
    const real = (it) => it && it.kind !== "aggregate";
    let next = null;
    if (key === "ArrowLeft") next = viewTree.byKey.get(current.parentKey);
    else if (key === "ArrowRight") {
      if (current.kind === "collapsed") return toggleCollapse(current.id);
      next = viewTree.items.find((it) => it.parentKey === current.key && real(it));
    } else {
      const siblings = viewTree.items.filter((it) => it.parentKey === current.parentKey && real(it));
      const at = siblings.indexOf(current) + (key === "ArrowDown" ? 1 : -1);
      next = siblings[at];
    }
    if (real(next)) {
      setCursor(next.id);
      centerOn(next.id, true);
    }
  }

  /** Pans (no zoom change) so that node `id` is in view: centred, or only if it is outside. */
  function centerOn(id, onlyIfOutside = false) {
    const sx = transform.applyX(layout.x[id]);
    const sy = transform.applyY(layout.y[id]);
    const inside = sx > 40 && sx < size.width - 40 && sy > 20 && sy < size.height - 20;
    if (onlyIfOutside && inside) return;
    const t = transform.translate((size.width / 2 - sx) / transform.k, (size.height / 2 - sy) / transform.k);
    userMoved = true;
    svg.call(zoomer.transform, t);
  }

  // --- drawing -----------------------------------------------------------------------------

  function labelMark(key) {
    const item = viewTree.byKey.get(key);
    const name = item.id >= 0 ? shortenName(table.names[table.nameCode[item.id]]) : "";
    let text = name;
    if (item.kind === "collapsed") text = `${name} (+${hiddenNodes(stats, item)})`;
    if (item.kind === "aggregate") {
      const n = hiddenNodes(stats, item).toLocaleString("en-US");
      text = item.fold ? `${n} more` : `${n} hidden`;
    }
    return { id: key, x: layout.x[key], y: layout.y[key], r: marks[key]?.r ?? D.rMin, text };
  }

  function setStatus() {
    const parts = [`${table.total.toLocaleString("en-US")} nodes`];
    if (table.folded) parts.push(`${(table.nodeId.filter((id) => id >= 0).length).toLocaleString("en-US")} loaded`);
    const drawn = viewTree.items.filter((it) => it.kind !== "aggregate").length;
    if (viewTree.hiddenCount) parts.push(`${drawn.toLocaleString("en-US")} shown, ${viewTree.hiddenCount.toLocaleString("en-US")} hidden`);
    const roots = stats.roots.length;
    const shown = view.roots ? view.roots.length : roots;
    parts.push(shown === roots ? `${roots} root${roots === 1 ? "" : "s"}` : `${shown} of ${roots} roots`);
    if (table.reducer) parts.push(`${table.reducer} over ${table.reducedOver.join(", ")}`);
    if (table.extraEdges) {
      const cyc = table.cycleEdges ? `, ${table.cycleEdges} closing a cycle` : "";
      parts.push(`${table.extraEdges} extra call edge${table.extraEdges === 1 ? "" : "s"} not drawn (DAG${cyc})`);
    }
    status.textContent = parts.join(" · ");
    status.title =
      table.extraEdges > 0 ? "Nodes with several callers are drawn once, under the first caller reached depth-first." : "";
  }

  function drawBreadcrumb() {
    breadcrumb.replaceChildren();
    if (view.focus === null) return;
    const crumb = (text, focus) => {
      const b = append(breadcrumb, "button", { className: "cct-crumb", text, attrs: { type: "button" } });
      b.addEventListener("click", () => change({ focus }));
    };
    crumb("All", null);
    for (const id of pathTo(table.parent, view.focus)) {
      append(breadcrumb, "span", { text: "›", attrs: { "aria-hidden": "true" } });
      crumb(shortenName(table.names[table.nameCode[id]], 24), id);
    }
  }

  /** Colour scales: one for everything, or one per tree ("per-root"), over the drawn nodes. */
  function colorScales(colorMetric) {
    const opts = { type: view.colorScale, palette: view.palette };
    const drawnIds = viewTree.items.filter((it) => it.kind !== "aggregate").map((it) => it.id);
    const valuesOf = (ids) => Float64Array.from(ids, (id) => colorMetric.values[id]);
    if (view.legend !== "per-root") {
      const s = colorScale(valuesOf(drawnIds), opts);
      return { shared: s, of: () => s, list: [{ root: null, scale: s }] };
    }
    const byRoot = new Map();
    for (const id of drawnIds) {
      const r = stats.rootOf[id];
      if (!byRoot.has(r)) byRoot.set(r, []);
      byRoot.get(r).push(id);
    }
    const list = [...byRoot].map(([r, ids]) => ({ root: r, scale: colorScale(valuesOf(ids), opts) }));
    const of = new Map(list.map((e) => [e.root, e.scale]));
    return { shared: list[0]?.scale, of: (id) => of.get(stats.rootOf[id]), list };
  }

  function computeMarks() {
    const colorMetric = metricByName(table, view.colorBy);
    const sizeMetric = metricByName(table, view.sizeBy);
    if (!colorMetric) throw new RangeError(`unknown colour metric ${JSON.stringify(view.colorBy)}`);
    if (!sizeMetric) throw new RangeError(`unknown size metric ${JSON.stringify(view.sizeBy)}`);
    const colors = colorScales(colorMetric);
    scales = {
      color: colors.shared ?? colorScale(new Float64Array(0)),
      size: sizeScale(withoutFolds(sizeMetric.values), { rMin: D.rMin, rMax: D.rMax }),
    };
    marks = [];
    for (const item of viewTree.items) {
      const key = item.key;
      if (item.kind === "aggregate") {
        const n = hiddenNodes(stats, item);
        const label = item.fold ? `${n} more nodes, not loaded: click to load` : `${n} hidden nodes`;
        marks[key] = { id: key, x: layout.x[key], y: layout.y[key], r: D.rMin + 2, fill: D.aggregateFill, negative: false, shape: "diamond", label };
        continue;
      }
      const s = sizeMetric.values[item.id];
      marks[key] = {
        id: key,
        x: layout.x[key],
        y: layout.y[key],
        r: scales.size.radius(s),
        fill: colors.of(item.id).color(colorMetric.values[item.id]),
        negative: scales.size.negative(s),
        shape: item.kind === "collapsed" ? "triangle" : "circle",
        label: table.names[table.nameCode[item.id]] + (item.kind === "collapsed" ? " (collapsed)" : ""),
      };
    }
    drawLegends(colorMetric, sizeMetric, colors.list);
  }

  function drawLegends(colorMetric, sizeMetric, colorList) {
    const layer = backend.legendLayer;
    layer.selectAll("*").remove();
    layer.attr("transform", D.legendScale === 1 ? null : `scale(${D.legendScale})`);
    const title = (m) => {
      const unit = units[m.name] ? ` [${units[m.name]}]` : "";
      return `${m.name}${m.kind === "other" ? "" : ` (${m.kind})`}${unit}`;
    };
    // a column on the left; or a row on top (narrow figures: shorter colour bars)
    let x = 12;
    let y = 16;
    const next = (dy) => {
      if (legendsOnTop) x += 150;
      else y += dy;
    };
    for (const { root: r, scale } of colorList.slice(0, legendsOnTop ? 2 : 6)) {
      const g = layer.append("g").attr("transform", `translate(${x}, ${y})`);
      const tree = r === null ? "" : `${shortenName(table.names[table.nameCode[r]], 14)}: `;
      const width = legendsOnTop ? 120 : 160;
      drawColorLegend(g, scale, { title: `${tree}colour: ${title(colorMetric)}`, width });
      next(46);
    }
    const s = layer.append("g").attr("transform", `translate(${x}, ${y})`);
    drawSizeLegend(s, scales.size, { title: `size: ${title(sizeMetric)}` });
  }

  function markList() {
    return viewTree.items.map((it) => marks[it.key]);
  }

  function draw() {
    if (!table || !view.colorBy || !viewTree) return;
    useBackend(backendKind());
    computeMarks();
    backend.drawLinks(linkSegments());
    backend.drawNodes(markList());
    backend.setSelected(selected);
    backend.setCursor(viewTree.byKey.has(cursor) ? cursor : null);
    backend.setHighlighted(new Set(view.highlighted));
    setStatus();
    drawBreadcrumb();
  }

  function linkSegments() {
    const segments = [];
    for (const item of viewTree.items) {
      const p = item.parentKey;
      if (p >= 0) segments.push({ x0: layout.x[p], y0: layout.y[p], x1: layout.x[item.key], y1: layout.y[item.key] });
    }
    return segments;
  }

  function restyle() {
    computeMarks();
    backend.styleNodes(markList());
    updateLabels();
    toolbar?.setHistogram(metricByName(table, view.colorBy).values, view.colorScale, view.prune, viewTree.hiddenCount);
  }

  /** New structure (collapse, prune, focus, roots): layout again; keep `anchor` where it was. */
  function rebuild(anchor = null) {
    const before = anchor !== null && layout && viewTree?.byKey.has(anchor)
      ? { x: transform.applyX(layout.x[anchor]), y: transform.applyY(layout.y[anchor]) }
      : null;
    const colorMetric = metricByName(table, view.colorBy);
    const keep = view.prune ? pruneMask(colorMetric.values, table.parent, view.prune) : null;
    const roots = view.roots?.filter((r) => table.parent[r] < 0) ?? null;
    const focus = view.focus !== null && view.focus < table.size ? view.focus : null;
    viewTree = buildViewTree(table, stats, { collapsed: new Set(view.collapsed), keep, focus, roots });
    hover(null, null); // what was under the pointer may be gone or of another kind now
    const keys = viewTree.items.reduce((m, it) => Math.max(m, it.key), 0) + 1;
    layout = layoutTree(itemHierarchy(viewTree.items), DEFAULTS, keys);
    layout.levelWidth = 0;
    spreadLevels();
    draw();
    toolbar?.setHistogram(colorMetric.values, view.colorScale, view.prune, viewTree.hiddenCount);
    if (before && viewTree.byKey.has(anchor)) {
      // keep the node the user acted on under the pointer
      const dx = before.x - transform.applyX(layout.x[anchor]);
      const dy = before.y - transform.applyY(layout.y[anchor]);
      svg.call(zoomer.transform, transform.translate(dx / transform.k, dy / transform.k));
      updateLabels();
    } else fitToView();
  }

  /**
   * Leaves get labels where they fit; bigger nodes win collisions. Only the largest few thousand
   * leaves in view are tried: a view has room for far fewer labels than that.
   */
  function updateLabels() {
    if (!table || !layout || !marks.length) return;
    const { width: w, height: h } = size;
    const keys = [];
    for (const key of layout.leaves) {
      const sx = transform.applyX(layout.x[key]);
      const sy = transform.applyY(layout.y[key]);
      if (sx < -D.labelRoom || sx > w || sy < 0 || sy > h) continue;
      keys.push(key);
    }
    keys.sort((a, b) => marks[b].r - marks[a].r || layout.y[a] - layout.y[b]);
    const candidates = keys.slice(0, D.maxLabelCandidates).map((key) => {
      const m = labelMark(key);
      return { id: key, x: transform.applyX(m.x) + m.r * transform.k + 4, y: transform.applyY(m.y), text: m.text, mark: m };
    });
    const kept = placeLabels(candidates, { fontSize: D.labelPx });
    backend.drawLabels(candidates.filter((c) => kept.has(c.id)).map((c) => c.mark));
  }

  function fitToView() {
    if (!layout || layout.nodes.length === 0) return;
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const n of layout.nodes) {
      const key = n.data;
      x0 = Math.min(x0, layout.x[key]);
      x1 = Math.max(x1, layout.x[key]);
      y0 = Math.min(y0, layout.y[key]);
      y1 = Math.max(y1, layout.y[key]);
    }
    const { width: availW, height: availH } = room();
    const k = Math.min(availW / Math.max(1, x1 - x0), availH / Math.max(1, y1 - y0), D.maxFitScale);
    const tx = leftRoom() + (availW - k * (x1 - x0)) / 2 - k * x0;
    const ty = D.margin + topRoom() + (availH - k * (y1 - y0)) / 2 - k * y0;
    userMoved = false;
    svg.call(zoomer.transform, zoomIdentity.translate(tx, ty).scale(k));
    updateLabels();
  }

  /** Room for the tree in screen pixels (legends on the left, leaf labels on the right). */
  function room() {
    const m = D.margin;
    return {
      width: Math.max(50, size.width - leftRoom() - m - D.labelRoom),
      height: Math.max(50, size.height - 2 * m - topRoom()),
    };
  }

  /** Screen pixels taken by the legends left of the tree, or above it. */
  const leftRoom = () => (legendsOnTop ? D.margin : D.legendRoom);
  const topRoom = () => (legendsOnTop ? LEGEND_BAND * D.legendScale : 0);

  /**
   * Level width (layout units) such that, at the zoom that fits the tree's height, each level
   * takes a readable share of the view's width. Returns whether the positions changed.
   */
  function spreadLevels() {
    const avail = room();
    const k = Math.min(D.maxFitScale, avail.height / Math.max(1, layout.height));
    const screen = avail.width / Math.max(1, layout.maxDepth);
    const perLevel = Math.max(D.minLevelWidth, Math.min(D.maxLevelWidth, screen));
    const levelWidth = perLevel / k;
    if (Math.abs(levelWidth - layout.levelWidth) < 1e-9) return false;
    placeLevels(layout, levelWidth);
    return true;
  }

  function resize(w, h) {
    if (!(w > 0 && h > 0)) return;
    size = { width: w, height: h };
    backend.resize(w, h);
    if (table && viewTree && !userMoved && spreadLevels()) {
      computeMarks();
      backend.moveNodes(markList());
      backend.drawLinks(linkSegments());
    }
    if (!userMoved) fitToView();
    else updateLabels();
  }

  function refreshToolbar() {
    if (!toolbar || !table) return;
    const m = metricByName(table, view.colorBy);
    toolbar.update(view, {
      canUndo: history.canUndo(),
      canRedo: history.canRedo(),
      brush: brushing,
      rootCount: stats.roots.length,
      incChecked: m?.kind === "inclusive",
    });
  }

  useBackend("svg");
  resize(width, height);

  return {
    /**
     * New data, with the view state that goes with it (a widget swaps both at once, and the new
     * metric names only make sense for the new table).
     * @param {import("./decode.js").Table} data
     * @param {Partial<ViewState>} [state]
     */
    setData(data, state = {}) {
      table = data;
      view = { ...view, ...normalize(state) };
      stats = subtreeStats(table);
      selected = new Set([...selected].filter((id) => id < table.size));
      view = { ...view, ...normalize({ collapsed: view.collapsed.filter((id) => id < table.size) }) };
      toolbar?.setData(table, stats.roots.map((id) => ({ id, name: table.names[table.nameCode[id]] })));
      history.record(undoable());
      if (view.colorBy) {
        rebuild();
        updateSearch();
      }
      refreshToolbar();
    },
    /**
     * Sets view state (from Python or a saved notebook): no `onChange` echo. Errors name the bad
     * value; nothing is applied then.
     * @param {Partial<ViewState>} state
     */
    setState(state) {
      const first = !view.colorBy && state.colorBy;
      apply(state);
      if (first && table) {
        rebuild();
        updateSearch();
      }
    },
    /** @returns {ViewState} */
    get state() {
      return { ...view };
    },
    /** @param {Iterable<number>} ids */
    setSelection(ids) {
      selected = new Set(ids);
      backend.setSelected(selected);
    },
    get selection() {
      return [...selected];
    },
    /** Runs a toolbar command by name (see `command`). */
    command,
    /** The drawing backend in use: "svg" or "canvas". */
    get backend() {
      return backend.kind;
    },
    /** Ids of the search matches that are drawn, in tree order. */
    get matches() {
      return [...matches];
    },
    get cursor() {
      return cursor;
    },
    /**
     * Where node (or aggregate) `key` is on screen, relative to the drawing surface.
     * @param {number} key
     */
    screenPosition(key) {
      return { x: transform.applyX(layout.x[key]), y: transform.applyY(layout.y[key]) };
    },
    fitToView,
    /** Pans (at the same zoom) so that node or fold row `key` is in the middle of the view. */
    centerOn(key) {
      if (layout && viewTree?.byKey.has(key)) centerOn(key);
    },
    /** Zooms and pans to `t` as if the user had (a view drawn again keeps where it was). */
    setTransform(t) {
      if (!layout) return;
      userMoved = true;
      svg.call(zoomer.transform, zoomIdentity.translate(t.x, t.y).scale(t.k));
      updateLabels();
    },
    resize,
    /** The element the tree is drawn in: its size is the drawing's size. */
    stage,
    /** The renderer's outermost element (toolbar, status line and stage). */
    element: root,
    /** The drawing's SVG element (with the canvas backend: the overlay above the canvas). */
    get svg() {
      return backend.svg;
    },
    /** The zoom transform from layout to screen coordinates. */
    get transform() {
      return { x: transform.x, y: transform.y, k: transform.k };
    },
    get size() {
      return { ...size };
    },
    /** Units of metrics for the legend titles, e.g. `{ time: "s" }`. @param {Record<string, string>} map */
    setUnits(map) {
      units = { ...map };
      if (table && view.colorBy && viewTree) restyle();
    },
    destroy() {
      svg.on(".zoom", null).on("pointermove pointerleave pointerdown click dblclick", null);
      backend.destroy();
      root.remove();
    },
  };
}
