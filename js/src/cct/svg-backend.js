// The SVG drawing backend. The renderer talks to a backend only through the methods returned
// here, so a canvas backend for very large trees can stand in for it.
import { select } from "d3-selection";

const SVG_NS = "http://www.w3.org/2000/svg";
let instances = 0;

/**
 * @typedef {{ id: number, x: number, y: number, r: number, fill: string | null, negative: boolean }} NodeMark
 * @typedef {{ id: number, x: number, y: number, r: number, text: string }} LabelMark
 */

/**
 * @param {HTMLElement} container
 * @param {{ labelPx: number }} options
 */
export function createSvgBackend(container, { labelPx }) {
  const uid = ++instances;
  const doc = container.ownerDocument;
  const svg = select(container)
    .append("svg")
    .attr("class", "cct-svg")
    .attr("xmlns", SVG_NS)
    .attr("role", "img");
  const hatch = `cct-missing-${uid}`;
  const pattern = svg
    .append("defs")
    .append("pattern")
    .attr("id", hatch)
    .attr("width", 4)
    .attr("height", 4)
    .attr("patternUnits", "userSpaceOnUse")
    .attr("patternTransform", "rotate(45)");
  pattern.append("rect").attr("class", "cct-missing-bg").attr("width", 4).attr("height", 4);
  pattern.append("line").attr("class", "cct-missing-line").attr("x1", 0).attr("y1", 0).attr("x2", 0).attr("y2", 4);

  const viewport = svg.append("g").attr("class", "cct-viewport");
  const links = viewport.append("path").attr("class", "cct-links");
  const nodeLayer = viewport.append("g").attr("class", "cct-nodes");
  const labelLayer = viewport.append("g").attr("class", "cct-labels");
  const hoverLayer = viewport.append("g").attr("class", "cct-hover-label");
  const legendLayer = svg.append("g").attr("class", "cct-legends");

  /** @type {(SVGCircleElement | undefined)[]} */
  let elements = [];
  let scale = 1;
  /** @type {Map<number, LabelMark>} */
  let labelInfo = new Map();

  const missingFill = `url(#${hatch})`;

  return {
    svg: svg.node(),
    legendLayer,

    /** @param {{ x0: number, y0: number, x1: number, y1: number }[]} segments parent → child */
    drawLinks(segments) {
      let d = "";
      for (const s of segments) {
        const mx = (s.x0 + s.x1) / 2;
        d += `M${s.x0},${s.y0}C${mx},${s.y0} ${mx},${s.y1} ${s.x1},${s.y1}`;
      }
      links.attr("d", d);
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
        const el = /** @type {SVGCircleElement} */ (doc.createElementNS(SVG_NS, "circle"));
        el.setAttribute("class", nodeClass(m));
        el.setAttribute("data-id", String(m.id));
        el.setAttribute("cx", String(m.x));
        el.setAttribute("cy", String(m.y));
        el.setAttribute("r", String(m.r));
        el.setAttribute("fill", m.fill ?? missingFill);
        fragment.appendChild(el);
        elements[m.id] = el;
      }
      nodeLayer.node().replaceChildren(fragment);
    },

    /** Moves existing marks (a new level spacing): no new elements. @param {NodeMark[]} marks */
    moveNodes(marks) {
      for (const m of marks) {
        const el = elements[m.id];
        if (!el) continue;
        el.setAttribute("cx", String(m.x));
        el.setAttribute("cy", String(m.y));
      }
    },

    /** Restyles existing marks (metric or scale change): no new elements. @param {NodeMark[]} marks */
    styleNodes(marks) {
      for (const m of marks) {
        const el = elements[m.id];
        if (!el) continue;
        el.setAttribute("r", String(m.r));
        el.setAttribute("fill", m.fill ?? missingFill);
        el.classList.toggle("cct-missing", m.fill === null);
        el.classList.toggle("cct-negative", m.negative);
      }
    },

    /** @param {LabelMark[]} marks */
    drawLabels(marks) {
      labelInfo = new Map(marks.map((m) => [m.id, m]));
      labelLayer
        .selectAll("text")
        .data(marks, (m) => m.id)
        .join("text")
        .attr("class", "cct-label")
        .attr("data-id", (m) => m.id)
        .attr("dominant-baseline", "central")
        .text((m) => m.text);
      positionLabels(labelLayer, scale);
    },

    /** @param {LabelMark | null} mark the hovered node's label, shown whatever the collisions */
    drawHoverLabel(mark) {
      hoverLayer
        .selectAll("text")
        .data(mark && !labelInfo.has(mark.id) ? [mark] : [])
        .join("text")
        .attr("class", "cct-label cct-label-hover")
        .attr("dominant-baseline", "central")
        .text((m) => m.text);
      positionLabels(hoverLayer, scale);
    },

    /** @param {Set<number>} ids */
    setSelected(ids) {
      for (const el of nodeLayer.node().querySelectorAll(".cct-selected")) {
        el.classList.remove("cct-selected");
        el.setAttribute("aria-selected", "false");
      }
      for (const id of ids) {
        const el = elements[id];
        if (!el) continue;
        el.classList.add("cct-selected");
        el.setAttribute("aria-selected", "true");
        el.parentNode.appendChild(el); // draw on top
      }
    },

    /** @param {number | null} id */
    setHovered(id) {
      nodeLayer.select(".cct-hovered").classed("cct-hovered", false);
      if (id !== null && elements[id]) elements[id].classList.add("cct-hovered");
    },

    /** @param {{ x: number, y: number, k: number }} t */
    setTransform(t) {
      scale = t.k;
      viewport.attr("transform", `translate(${t.x},${t.y}) scale(${t.k})`);
      // strokes keep their screen width: inherited attributes on three groups, and one custom
      // property read only by the few selected or hovered nodes (per-node CSS is too slow)
      links.attr("stroke-width", 1.2 / t.k);
      nodeLayer.attr("stroke-width", 0.75 / t.k).style("--cct-stroke", `${1 / t.k}px`);
      positionLabels(labelLayer, scale);
      positionLabels(hoverLayer, scale);
    },

    /** @param {Event} event @returns {number | null} */
    nodeAt(event) {
      const target = /** @type {Element} */ (event.target);
      const el = target?.closest?.(".cct-node");
      return el ? Number(el.getAttribute("data-id")) : null;
    },

    resize(width, height) {
      svg.attr("width", width).attr("height", height).attr("viewBox", `0 0 ${width} ${height}`);
    },

    destroy() {
      svg.remove();
      elements = [];
    },
  };

  function nodeClass(m) {
    let c = "cct-node";
    if (m.fill === null) c += " cct-missing";
    if (m.negative) c += " cct-negative";
    return c;
  }

  function positionLabels(layer, k) {
    // labels keep their screen size: font and offset shrink as the view zooms in
    const fontSize = labelPx / k;
    layer.attr("font-size", fontSize).attr("stroke-width", 3 / k);
    layer.selectAll("text").each(function (m) {
      this.setAttribute("x", String(m.x + m.r + 4 / k));
      this.setAttribute("y", String(m.y));
    });
  }
}
