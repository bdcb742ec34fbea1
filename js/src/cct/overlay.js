// The SVG overlay both drawing backends share: it receives pointer and zoom events, and holds
// the leaf labels, the hover label and the legends. Labels keep their screen size at any zoom.
import { select } from "d3-selection";

export const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A label, keyed as its node's mark (see scene.js), named in the DOM by `attr` = `ref`. `x`, `y`
 * are the node's layout position; `r`, `dx`, `dy` screen pixels: the text starts `dx` right of
 * the node's centre and is centred `dy` below it (default: right of the mark, on its row).
 * @typedef {{ key: number, attr: string, ref: number, x: number, y: number, r: number, text: string,
 *   dx?: number, dy?: number }} LabelMark
 */
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
  const viewport = svg.append("g").attr("class", "cct-viewport");
  const content = viewport.append("g").attr("class", "cct-content");
  const labelLayer = viewport.append("g").attr("class", "cct-labels");
  const hoverLayer = viewport.append("g").attr("class", "cct-hover-label");
  const legendLayer = svg.append("g").attr("class", "cct-legends");

  let k = 1;
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
        .attr("class", "cct-label")
        .each(function (m) {
          /** @type {Element} */ (this).setAttribute(m.attr, String(m.ref));
        })
        .attr("dominant-baseline", "central")
        .text((m) => m.text); // text, never HTML: names are untrusted
      positionLabels(labelLayer);
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
      viewport.attr("transform", `translate(${t.x},${t.y}) scale(${t.k})`);
      positionLabels(labelLayer);
      positionLabels(hoverLayer);
    },

    /** @param {number} width CSS pixels @param {number} height */
    resize(width, height) {
      svg.attr("width", width).attr("height", height).attr("viewBox", `0 0 ${width} ${height}`);
    },

    destroy() {
      svg.remove();
    },
  };
}
