// The SVG drawing backend, for trees of up to a few thousand drawn nodes: every node is an
// element, so the browser does hit-testing and the view exports as it is. The renderer talks to
// a backend only through the methods returned here (see canvas-backend.js for the other one).

import { shapePath } from "../../picture/shapes.js";
import { createOverlay, SVG_NS } from "./overlay.js";

// unique on the page, also when several copies of this module are loaded (one per widget)
const PREFIX = `cct-${Math.random().toString(36).slice(2, 10)}`;
let instances = 0;

/**
 * Marks are indexed by `key` (see scene.js); the DOM names each by `attr` = `ref` (`data-id` with
 * the full-tree node id for nodes, `data-fold` / `data-aggregate` with the parent's id).
 * @typedef {import("../../picture/scene.js").NodeMark} NodeMark
 * @typedef {import("../../picture/links.js").Links} Links
 */

/**
 * @param {HTMLElement} container
 * @param {{ labelPx: number }} options
 */
export function createSvgBackend(container, { labelPx }) {
  const doc = container.ownerDocument;
  const overlay = createOverlay(container, { labelPx });
  const hatch = `${PREFIX}-missing-${++instances}`;
  const pattern = overlay.defs
    .append("pattern")
    .attr("id", hatch)
    .attr("width", 4)
    .attr("height", 4)
    .attr("patternUnits", "userSpaceOnUse")
    .attr("patternTransform", "rotate(45)");
  pattern.append("rect").attr("class", "cct-missing-bg").attr("width", 4).attr("height", 4);
  pattern.append("line").attr("class", "cct-missing-line").attr("x1", 0).attr("y1", 0).attr("x2", 0).attr("y2", 4);
  const missingFill = `url(#${hatch})`;

  const links = overlay.content.append("path").attr("class", "cct-links");
  // presentation attributes (figures keep them); the widget's style sheet gives the theme's colour
  const callerLinks = overlay.content
    .append("path")
    .attr("class", "cct-caller-links")
    .attr("fill", "none")
    .attr("stroke", "#616161")
    .attr("stroke-width", 1.2)
    .attr("stroke-dasharray", "4 3")
    .attr("vector-effect", "non-scaling-stroke");
  const nodeLayer = overlay.content.append("g").attr("class", "cct-nodes");
  const nodeGroup = /** @type {SVGGElement} */ (nodeLayer.node());

  /** @type {(SVGGeometryElement | undefined)[]} by mark key: circles, and paths for the other shapes */
  let elements = [];
  /** @type {WeakMap<Element, import("../../data/ids.js").ItemKey>} element → mark key, for hit-testing */
  let keyOf = new WeakMap();
  /** @type {WeakMap<Element, NodeMark>} element → its mark, to resize it on zoom */
  let markOf = new WeakMap();
  /** the zoom: marks are sized in screen pixels, so their layout size is r / k */
  let k = 1;

  return {
    kind: "svg",
    svg: /** @type {SVGSVGElement} */ (overlay.svg.node()),
    legendLayer: overlay.legendLayer,
    drawLabels: overlay.drawLabels,
    drawBands: overlay.drawBands,
    drawHoverLabel: overlay.drawHoverLabel,

    /** @param {Links} segments parent → child */
    drawLinks(segments) {
      links.attr("d", linkPath(segments));
    },

    /** @param {Links} segments a DAG's other callers → callee, dashed */
    drawCallerLinks(segments) {
      callerLinks.attr("d", segments.length ? linkPath(segments) : null);
    },

    /**
     * Replaces all node marks. Plain DOM calls into a fragment: with 10^4 nodes a d3 data join
     * costs several times more, and the marks are always replaced whole.
     * @param {NodeMark[]} marks
     */
    drawNodes(marks) {
      const fragment = doc.createDocumentFragment();
      elements = [];
      for (const m of marks) {
        const circle = !m.shape || m.shape === "circle";
        const el = /** @type {SVGGeometryElement} */ (doc.createElementNS(SVG_NS, circle ? "circle" : "path"));
        el.setAttribute("class", nodeClass(m));
        el.setAttribute(m.attr, String(m.ref));
        el.setAttribute("role", "treeitem");
        if (m.label) el.setAttribute("aria-label", m.label);
        markOf.set(el, m);
        place(el, m, k);
        el.setAttribute("fill", m.fill ?? missingFill);
        fragment.appendChild(el);
        elements[m.key] = el;
        keyOf.set(el, m.key);
        markOf.set(el, m);
      }
      nodeGroup.replaceChildren(fragment);
      overlay.svg.attr("data-node-count", marks.length);
    },

    /** Moves existing marks (a new level spacing): no new elements. @param {NodeMark[]} marks */
    moveNodes(marks) {
      for (const m of marks) {
        const el = elements[m.key];
        if (el) {
          markOf.set(el, m);
          place(el, m, k);
        }
      }
    },

    /** Restyles existing marks (metric or scale change): no new elements. @param {NodeMark[]} marks */
    styleNodes(marks) {
      for (const m of marks) {
        const el = elements[m.key];
        if (!el) continue;
        markOf.set(el, m);
        place(el, m, k);
        el.setAttribute("fill", m.fill ?? missingFill);
        const keep = [
          "cct-selected",
          "cct-holds-selected",
          "cct-match",
          "cct-holds-match",
          "cct-cursor",
          "cct-highlight",
        ].filter((c) => el.classList.contains(c));
        el.setAttribute("class", [nodeClass(m), ...keep].join(" "));
      }
    },

    /** @param {Set<number>} ids mark keys */
    setSelected(ids) {
      for (const el of nodeGroup.querySelectorAll(".cct-selected")) {
        el.classList.remove("cct-selected");
        el.setAttribute("aria-selected", "false");
        el.removeAttribute("paint-order");
      }
      for (const id of ids) {
        const el = elements[id];
        if (!el) continue;
        el.classList.add("cct-selected");
        el.setAttribute("aria-selected", "true");
        // the ring around the mark, not over it: its fill (the node's colour) is painted over the
        // inner half of the wide stroke, so a small selected node keeps its colour
        el.setAttribute("paint-order", "stroke");
        /** @type {Node} */ (el.parentNode).appendChild(el); // draw on top
      }
    },

    /** Glyphs that hide selected nodes (see hidden-selection.js). @param {Map<number, number[]>} holders
     * mark key → the selected ids it hides */
    setHolding(holders) {
      for (const el of nodeGroup.querySelectorAll(".cct-holds-selected")) {
        el.classList.remove("cct-holds-selected");
        el.removeAttribute("data-holds-selected");
        el.removeAttribute("aria-description");
      }
      for (const [key, ids] of holders) {
        const el = elements[key];
        if (!el) continue;
        el.classList.add("cct-holds-selected");
        el.setAttribute("data-holds-selected", String(ids.length));
        el.setAttribute("aria-description", holdsText(ids.length));
        /** @type {Node} */ (el.parentNode).appendChild(el); // draw on top
      }
    },

    /** Search matches, by item key, and the glyphs that hide some: mark key → their ids.
     * @param {Set<import("../../data/ids.js").ItemKey>} keys @param {Map<number, number[]>} [holders] */
    setMatches(keys, holders = new Map()) {
      for (const el of nodeGroup.querySelectorAll(".cct-match")) {
        el.classList.remove("cct-match", "cct-holds-match");
        el.removeAttribute("data-holds-match");
      }
      for (const key of keys) elements[key]?.classList.add("cct-match");
      for (const [key, held] of holders) {
        const el = elements[key];
        if (!el) continue;
        el.classList.add("cct-match", "cct-holds-match");
        el.setAttribute("data-holds-match", String(held.length));
      }
    },

    /** Nodes marked from Python, by item key. @param {Set<import("../../data/ids.js").ItemKey>} keys */
    setHighlighted(keys) {
      for (const el of nodeGroup.querySelectorAll(".cct-highlight")) el.classList.remove("cct-highlight");
      for (const key of keys) elements[key]?.classList.add("cct-highlight");
    },

    /** The keyboard cursor's item key. @param {import("../../data/ids.js").ItemKey | null} key */
    setCursor(key) {
      nodeLayer.select(".cct-cursor").classed("cct-cursor", false);
      if (key !== null) elements[key]?.classList.add("cct-cursor");
    },

    /** @param {import("../../data/ids.js").ItemKey | null} key */
    setHovered(key) {
      nodeLayer.select(".cct-hovered").classed("cct-hovered", false);
      if (key !== null && elements[key]) elements[key].classList.add("cct-hovered");
    },

    /** A zoom or pan ended (every step is drawn as it is: nothing to finish). */
    settle() {},

    /** @param {{ x: number, y: number, k: number }} t */
    setTransform(t) {
      overlay.setTransform(t);
      // strokes keep their screen width: inherited attributes on two groups, and one custom
      // property read only by the few selected or hovered nodes (per-node CSS is too slow)
      links.attr("stroke-width", 1.2 / t.k);
      nodeLayer.attr("stroke-width", 0.75 / t.k).style("--cct-stroke", `${1 / t.k}px`);
      // marks keep their screen size too (semantic zoom: the zoom moves them, never grows them)
      if (t.k !== k) {
        k = t.k;
        for (const el of elements) {
          const m = el && markOf.get(el);
          if (el && m) place(el, m, k);
        }
      }
    },

    /** The key of the item under the pointer. @param {Event} event @returns {import("../../data/ids.js").ItemKey | null} */
    nodeAt(event) {
      const target = /** @type {Element} */ (event.target);
      const el = target?.closest?.(".cct-node");
      return el ? (keyOf.get(el) ?? null) : null;
    },

    /** @param {number} width CSS pixels @param {number} height */
    resize(width, height) {
      overlay.resize(width, height);
    },

    destroy() {
      overlay.destroy();
      elements = [];
      keyOf = new WeakMap();
      markOf = new WeakMap();
    },
  };
}

/**
 * Sets the position and size of a mark's element: `m.r` is in screen pixels, the element lives
 * in layout units scaled by the zoom `k`.
 * @param {Element} el @param {NodeMark} m @param {number} k
 */
function place(el, m, k) {
  if (el.tagName === "circle") {
    el.setAttribute("cx", String(m.x));
    el.setAttribute("cy", String(m.y));
    el.setAttribute("r", String(m.r / k));
  } else el.setAttribute("d", shapePath(m.shape, m.x, m.y, m.r / k));
}

/** What a glyph holding selected nodes says to a screen reader. @param {number} n */
export const holdsText = (n) => `holds ${n} selected node${n === 1 ? "" : "s"}`;

/** @param {NodeMark} m */
function nodeClass(m) {
  let c = "cct-node";
  if (m.shape === "triangle") c += " cct-collapsed";
  if (m.shape === "diamond") c += " cct-aggregate";
  if (m.shape === "square") c += " cct-only-a";
  if (m.shape === "hexagon") c += " cct-only-b";
  if (m.fill === null) c += " cct-missing";
  if (m.negative) c += " cct-negative";
  if (m.noSize) c += " cct-no-size";
  if (m.small) c += " cct-small";
  return c;
}

/**
 * One path for all links (parent → child cubic curves): one element, however many links.
 * @param {Links} segments
 * @returns {string} SVG path data
 */
export function linkPath({ length, x0, y0, x1, y1 }) {
  let d = "";
  for (let i = 0; i < length; i++) {
    const mx = (x0[i] + x1[i]) / 2;
    d += `M${x0[i]},${y0[i]}C${mx},${y0[i]} ${mx},${y1[i]} ${x1[i]},${y1[i]}`;
  }
  return d;
}
