// The SVG overlay both drawing backends share: it receives pointer and zoom events, and holds
// the leaf labels, the hover label and the legends. Labels keep their screen size at any zoom.
import { select } from "d3-selection";

export const SVG_NS = "http://www.w3.org/2000/svg";

/** @typedef {import("../../picture/label-layout.js").LabelMark} LabelMark */
/** @typedef {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} Layer a group of the overlay */
/** @typedef {import("d3-selection").Selection<SVGTextElement, LabelMark, SVGGElement, unknown>} Labels of a layer */

/**
 * @param {HTMLElement} container
 * @param {{ labelPx: number, className?: string }} options
 */
export function createOverlay(container, { labelPx, className = "" }) {
  const svg = select(container)
    .append("svg")
    .attr("class", `cct-svg ${className}`.trim())
    .attr("xmlns", SVG_NS)
    .attr("role", "img");
  const defs = svg.append("defs");
  // band rules in screen pixels (a line across the whole width would make the figure's box huge)
  const bandLayer = svg.append("g").attr("class", "cct-bands");
  const viewport = svg.append("g").attr("class", "cct-viewport");
  const content = viewport.append("g").attr("class", "cct-content");
  const labelLayer = viewport.append("g").attr("class", "cct-labels");
  const hoverLayer = viewport.append("g").attr("class", "cct-hover-label");
  const legendLayer = svg.append("g").attr("class", "cct-legends");

  let k = 1;
  let ty = 0;
  let width = 0;
  /** @type {Set<number>} */
  let labelled = new Set();

  /** Labels keep their screen size and distance from their node at any zoom. @param {Layer} layer */
  function positionLabels(layer) {
    layer.attr("font-size", labelPx / k).attr("stroke-width", 3 / k);
    /** @type {Labels} */ (layer.selectAll("text")).each(function (m) {
      this.setAttribute("x", String(m.x + (m.dx ?? m.r + 4) / k));
      this.setAttribute("y", String(m.y + (m.dy ?? 0) / k));
    });
  }

  function positionBands() {
    /** @type {import("d3-selection").Selection<SVGLineElement, number, SVGGElement, unknown>} */ (
      bandLayer.selectAll("line")
    ).each(function (y) {
      const at = String(Math.round(ty + k * y) + 0.5);
      this.setAttribute("x1", "0");
      this.setAttribute("x2", String(width));
      this.setAttribute("y1", at);
      this.setAttribute("y2", at);
    });
  }

  return {
    svg,
    defs,
    /** where a backend puts marks that zoom with the tree (SVG backend only) */
    content,
    legendLayer,

    /** @param {LabelMark[]} marks */
    drawLabels(marks) {
      labelled = new Set(marks.map((m) => m.key));
      /** @type {Labels} */ (labelLayer.selectAll("text"))
        .data(marks, (m) => m.key)
        .join("text")
        .attr("class", (m) => m.className ?? "cct-label")
        // an attribute, not only the style sheet: figures keep it
        .attr("font-weight", (m) => (m.className?.includes("cct-band-label") ? 600 : null))
        .each(function (m) {
          /** @type {Element} */ (this).setAttribute(m.attr, String(m.ref));
        })
        .attr("dominant-baseline", "central")
        .text((m) => m.text); // text, never HTML: names are untrusted
      positionLabels(labelLayer);
    },

    /**
     * Rules between the bands of several roots, across the whole width at any zoom (presentation
     * attributes: figures keep them without the widget's style sheet).
     * @param {number[]} ys layout units
     */
    drawBands(ys) {
      bandLayer
        .selectAll("line")
        .data(ys)
        .join("line")
        .attr("class", "cct-band-rule")
        .attr("stroke", "#8c8c8c")
        .attr("stroke-opacity", 0.45)
        .attr("stroke-width", 1);
      positionBands();
    },

    /** @param {LabelMark | null} mark the hovered node's label, shown whatever the collisions */
    drawHoverLabel(mark) {
      /** @type {Labels} */ (hoverLayer.selectAll("text"))
        .data(mark && !labelled.has(mark.key) ? [mark] : [])
        .join("text")
        .attr("class", "cct-label cct-label-hover")
        .attr("dominant-baseline", "central")
        .text((m) => m.text);
      positionLabels(hoverLayer);
    },

    /** @param {{ x: number, y: number, k: number }} t */
    setTransform(t) {
      k = t.k;
      ty = t.y;
      positionBands();
      viewport.attr("transform", `translate(${t.x},${t.y}) scale(${t.k})`);
      positionLabels(labelLayer);
      positionLabels(hoverLayer);
    },

    /** @param {number} w width, CSS pixels @param {number} height */
    resize(w, height) {
      width = w;
      positionBands();
      svg.attr("width", w).attr("height", height).attr("viewBox", `0 0 ${w} ${height}`);
    },

    destroy() {
      svg.remove();
    },
  };
}
