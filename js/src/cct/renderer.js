// The CCT renderer: layout, scales, legends, labels, tooltip, zoom and selection gestures.
// It knows nothing about Jupyter: give it a container element, data and options; it reports
// selection changes through `onSelect`. Used by js/src/widget.js and tested in jsdom.
import { select } from "d3-selection";
import { zoom, zoomIdentity } from "d3-zoom";
import { metricByName } from "./decode.js";
import { append } from "./dom.js";
import { shortenName, placeLabels } from "./labels.js";
import { drawColorLegend, drawSizeLegend } from "./legend.js";
import { colorScale, sizeScale } from "./scales.js";
import { createCanvasBackend } from "./canvas-backend.js";
import { createSvgBackend } from "./svg-backend.js";
import { tooltipContent } from "./tooltip.js";
import { buildHierarchy, layoutTree, placeLevels } from "./tree.js";

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
  canvasAbove: 4000,
  maxLabelCandidates: 3000, // drawn nodes above which backend "auto" paints on canvas instead of SVG
};

export const BACKENDS = ["auto", "svg", "canvas"];
const CREATE_BACKEND = { svg: createSvgBackend, canvas: createCanvasBackend };

/**
 * @typedef {object} ViewOptions
 * @property {string} colorBy
 * @property {string} sizeBy
 * @property {"linear" | "log"} [colorScale]
 * @property {"auto" | "svg" | "canvas"} [backend] "auto": SVG up to DEFAULTS.canvasAbove nodes
 */

/**
 * @param {HTMLElement} container
 * @param {{ onSelect?: (ids: number[]) => void, width?: number, height?: number }} [options]
 */
export function createRenderer(container, { onSelect = () => {}, width = 800, height = 500 } = {}) {
  const doc = container.ownerDocument;
  const root = append(container, "div", { className: "cct-root" });
  const header = append(root, "div", { className: "cct-header" });
  const status = append(header, "span", { className: "cct-status" });
  const fitLabel = "Fit the whole tree in view";
  const fitButton = append(header, "button", {
    className: "cct-fit",
    text: "Fit",
    attrs: { type: "button", title: fitLabel, "aria-label": fitLabel },
  });
  const stage = append(root, "div", { className: "cct-stage" });
  const surface = append(stage, "div", { className: "cct-surface" });
  const tooltip = append(stage, "div", { className: "cct-tooltip", attrs: { role: "tooltip" } });
  tooltip.hidden = true;

  /** @type {import("./decode.js").Table | null} */
  let table = null;
  let layout = null;
  /** @type {Required<ViewOptions>} */
  let view = { colorBy: "", sizeBy: "", colorScale: "linear", backend: "auto" };
  let scales = null;
  let marks = [];
  let selected = new Set();
  let transform = zoomIdentity;
  let userMoved = false;
  let size = { width, height };
  /** @type {number | null} */
  let hovered = null;

  const zoomer = zoom()
    .scaleExtent([1e-4, 16])
    .on("zoom", (event) => {
      transform = event.transform;
      backend.setTransform(transform);
      if (event.sourceEvent) userMoved = true;
    })
    .on("end", () => updateLabels());

  /** @type {ReturnType<typeof createSvgBackend> | ReturnType<typeof createCanvasBackend>} */
  let backend = null;
  /** @type {import("d3-selection").Selection<SVGSVGElement, unknown, null, undefined>} */
  let svg = null;

  /** Switches to the SVG or canvas backend; events and zoom move to its surface. */
  function useBackend(kind) {
    if (backend?.kind === kind) return false;
    if (backend) {
      svg.on(".zoom", null).on("pointermove pointerleave click", null);
      backend.destroy();
    }
    backend = CREATE_BACKEND[kind](surface, { labelPx: DEFAULTS.labelPx });
    backend.resize(size.width, size.height);
    svg = select(backend.svg);
    svg.call(zoomer).on("dblclick.zoom", null);
    svg.property("__zoom", transform);
    backend.setTransform(transform);
    svg.on("pointermove", onPointerMove).on("pointerleave", (event) => hover(null, event)).on("click", onClick);
    return true;
  }

  function backendKind() {
    if (view.backend !== "auto") return view.backend;
    return (layout?.nodes.length ?? 0) > DEFAULTS.canvasAbove ? "canvas" : "svg";
  }

  /** Hover follows the pointer: a node's tooltip and label show while it is under it. */
  function onPointerMove(event) {
    const id = backend.nodeAt(event);
    if (id !== hovered) hover(id, event);
    else if (id !== null) moveTooltip(event);
  }

  function onClick(event) {
    const id = backend.nodeAt(event);
    if (id === null) {
      if (selected.size) commitSelection(new Set());
      return;
    }
    const toggle = event.shiftKey || event.ctrlKey || event.metaKey;
    const next = toggle ? new Set(selected) : new Set([id]);
    if (toggle && next.has(id)) next.delete(id);
    else next.add(id);
    commitSelection(next);
  }
  fitButton.addEventListener("click", () => fitToView());
  useBackend("svg");

  function commitSelection(next) {
    selected = next;
    backend.setSelected(selected);
    onSelect([...selected]);
  }

  function hover(id, event) {
    hovered = id;
    backend.setHovered(id);
    if (id === null || !table) {
      tooltip.hidden = true;
      backend.drawHoverLabel(null);
      return;
    }
    tooltip.replaceChildren(
      tooltipContent(doc, table, id, { colorBy: view.colorBy, sizeBy: view.sizeBy, colorWhy: scales?.color.why }),
    );
    tooltip.hidden = false;
    moveTooltip(event);
    backend.drawHoverLabel(labelMark(id));
  }

  function moveTooltip(event) {
    const box = stage.getBoundingClientRect();
    const x = event.clientX - box.left + 14;
    const y = event.clientY - box.top + 14;
    tooltip.style.left = `${Math.max(0, Math.min(x, size.width - 260))}px`;
    tooltip.style.top = `${Math.max(0, y)}px`;
  }

  function labelMark(id) {
    return {
      id,
      x: layout.x[id],
      y: layout.y[id],
      r: marks[id]?.r ?? DEFAULTS.rMin,
      text: shortenName(table.names[table.nameCode[id]]),
    };
  }

  function setStatus() {
    const roots = layout.nodes.filter((n) => n.depth === 1).length;
    const parts = [
      `${table.size.toLocaleString("en-US")} nodes`,
      `${roots} root${roots === 1 ? "" : "s"}`,
    ];
    if (table.reducer) parts.push(`${table.reducer} over ${table.reducedOver.join(", ")}`);
    if (table.extraEdges) {
      const cyc = table.cycleEdges ? `, ${table.cycleEdges} closing a cycle` : "";
      parts.push(
        `${table.extraEdges} extra call edge${table.extraEdges === 1 ? "" : "s"} not drawn (DAG${cyc})`,
      );
    }
    status.textContent = parts.join(" · ");
    status.title =
      table.extraEdges > 0
        ? "Nodes with several callers are drawn once, under the first caller reached depth-first."
        : "";
  }

  function computeMarks() {
    const colorMetric = metricByName(table, view.colorBy);
    const sizeMetric = metricByName(table, view.sizeBy);
    if (!colorMetric) throw new RangeError(`unknown colour metric ${JSON.stringify(view.colorBy)}`);
    if (!sizeMetric) throw new RangeError(`unknown size metric ${JSON.stringify(view.sizeBy)}`);
    scales = {
      color: colorScale(colorMetric.values, { type: view.colorScale }),
      size: sizeScale(sizeMetric.values, { rMin: DEFAULTS.rMin, rMax: DEFAULTS.rMax }),
    };
    marks = new Array(table.size);
    for (const node of layout.nodes) {
      const id = node.data;
      const s = sizeMetric.values[id];
      marks[id] = {
        id,
        x: layout.x[id],
        y: layout.y[id],
        r: scales.size.radius(s),
        fill: scales.color.color(colorMetric.values[id]),
        negative: scales.size.negative(s),
      };
    }
    drawLegends(colorMetric, sizeMetric);
  }

  function drawLegends(colorMetric, sizeMetric) {
    const layer = backend.legendLayer;
    layer.selectAll("*").remove();
    const kind = (m) => (m.kind === "other" ? "" : ` (${m.kind})`);
    const c = layer.append("g").attr("transform", "translate(12, 16)");
    drawColorLegend(c, scales.color, { title: `colour: ${colorMetric.name}${kind(colorMetric)}` });
    const s = layer.append("g").attr("transform", "translate(12, 62)");
    drawSizeLegend(s, scales.size, { title: `size: ${sizeMetric.name}${kind(sizeMetric)}` });
  }

  function draw() {
    if (!table || !view.colorBy) return;
    useBackend(backendKind());
    computeMarks();
    backend.drawLinks(linkSegments());
    backend.drawNodes(layout.nodes.map((n) => marks[n.data]));
    backend.setSelected(selected);
    setStatus();
  }

  function linkSegments() {
    const segments = [];
    for (const node of layout.nodes) {
      const p = table.parent[node.data];
      if (p >= 0) {
        segments.push({ x0: layout.x[p], y0: layout.y[p], x1: layout.x[node.data], y1: layout.y[node.data] });
      }
    }
    return segments;
  }

  function restyle() {
    computeMarks();
    backend.styleNodes(layout.nodes.map((n) => marks[n.data]));
    updateLabels();
  }

  /**
   * Leaves get labels where they fit; bigger nodes win collisions. Only the largest few thousand
   * leaves in view are tried: a view has room for far fewer labels than that.
   */
  function updateLabels() {
    if (!table || !layout || !marks.length) return;
    const { width: w, height: h } = size;
    const ids = [];
    for (const id of layout.leaves) {
      const sx = transform.applyX(layout.x[id]);
      const sy = transform.applyY(layout.y[id]);
      if (sx < -DEFAULTS.labelRoom || sx > w || sy < 0 || sy > h) continue;
      ids.push(id);
    }
    ids.sort((a, b) => marks[b].r - marks[a].r || layout.y[a] - layout.y[b]);
    const candidates = ids.slice(0, DEFAULTS.maxLabelCandidates).map((id) => ({
      id,
      x: transform.applyX(layout.x[id]) + marks[id].r * transform.k + 4,
      y: transform.applyY(layout.y[id]),
      text: shortenName(table.names[table.nameCode[id]]),
    }));
    const kept = placeLabels(candidates, { fontSize: DEFAULTS.labelPx });
    backend.drawLabels(candidates.filter((c) => kept.has(c.id)).map((c) => labelMark(c.id)));
  }

  function fitToView() {
    if (!layout || layout.nodes.length === 0) return;
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const n of layout.nodes) {
      const id = n.data;
      x0 = Math.min(x0, layout.x[id]);
      x1 = Math.max(x1, layout.x[id]);
      y0 = Math.min(y0, layout.y[id]);
      y1 = Math.max(y1, layout.y[id]);
    }
    const { width: availW, height: availH } = room();
    const k = Math.min(availW / Math.max(1, x1 - x0), availH / Math.max(1, y1 - y0), DEFAULTS.maxFitScale);
    const tx = DEFAULTS.legendRoom + (availW - k * (x1 - x0)) / 2 - k * x0;
    const ty = DEFAULTS.margin + (availH - k * (y1 - y0)) / 2 - k * y0;
    userMoved = false;
    svg.call(zoomer.transform, zoomIdentity.translate(tx, ty).scale(k));
    updateLabels();
  }

  /** Room for the tree in screen pixels (legends on the left, leaf labels on the right). */
  function room() {
    const m = DEFAULTS.margin;
    return {
      width: Math.max(50, size.width - DEFAULTS.legendRoom - m - DEFAULTS.labelRoom),
      height: Math.max(50, size.height - 2 * m),
    };
  }

  /**
   * Level width (layout units) such that, at the zoom that fits the tree's height, each level
   * takes a readable share of the view's width. Returns whether the positions changed.
   */
  function spreadLevels() {
    const avail = room();
    const k = Math.min(DEFAULTS.maxFitScale, avail.height / Math.max(1, layout.height));
    const screen = avail.width / Math.max(1, layout.maxDepth);
    const perLevel = Math.max(DEFAULTS.minLevelWidth, Math.min(DEFAULTS.maxLevelWidth, screen));
    const levelWidth = perLevel / k;
    if (Math.abs(levelWidth - layout.levelWidth) < 1e-9) return false;
    placeLevels(layout, levelWidth);
    return true;
  }

  function resize(w, h) {
    if (!(w > 0 && h > 0)) return;
    size = { width: w, height: h };
    backend.resize(w, h);
    if (table && !userMoved && spreadLevels()) {
      computeMarks();
      backend.moveNodes(layout.nodes.map((n) => marks[n.data]));
      backend.drawLinks(linkSegments());
    }
    if (!userMoved) fitToView();
    else updateLabels();
  }
  resize(width, height);

  return {
    /** @param {import("./decode.js").Table} data */
    setData(data) {
      table = data;
      layout = layoutTree(buildHierarchy(table), DEFAULTS, table.size);
      spreadLevels();
      selected = new Set([...selected].filter((id) => id < table.size));
      draw();
      fitToView();
    },
    /** @param {Partial<ViewOptions>} options */
    setOptions(options) {
      if (options.backend !== undefined && !BACKENDS.includes(options.backend)) {
        throw new RangeError(`unknown backend ${JSON.stringify(options.backend)}; accepted: ${BACKENDS.join(", ")}`);
      }
      const before = view;
      view = { ...view, ...options };
      if (!table) return;
      if (!before.colorBy || backendKind() !== backend.kind) {
        draw();
        fitToView();
      } else restyle();
    },
    /** The drawing backend in use: "svg" or "canvas". */
    get backend() {
      return backend.kind;
    },
    /**
     * Where node `id` is on screen, relative to the drawing surface (for tests and tools).
     * @param {number} id
     */
    screenPosition(id) {
      return { x: transform.applyX(layout.x[id]), y: transform.applyY(layout.y[id]) };
    },
    /** @param {Iterable<number>} ids */
    setSelection(ids) {
      selected = new Set(ids);
      backend.setSelected(selected);
    },
    get selection() {
      return [...selected];
    },
    fitToView,
    resize,
    destroy() {
      svg.on(".zoom", null).on("pointermove pointerleave click", null);
      backend.destroy();
      root.remove();
    },
  };
}
