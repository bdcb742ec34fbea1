// Change rings: an ensemble's nodes whose metric moved to a new level along the runs
// (Ensemble.regressions, sent in the table: `table.changes`) get a ring around their glyph —
// solid where the change is the node's own (its exclusive value moved), dashed where it is in
// what the node calls (inclusive only: follow the dashed rings down to the solid one); red where
// the metric went up, blue where it went down (the ends of the diverging RdBu palette). The
// rings are SVG circles in the layer that zooms with the tree, drawn the same on both backends
// (a few per tree: they cost nothing to hit-test or paint), with presentation attributes, so
// figures keep them; like the marks they keep their screen size at any zoom.
import { select } from "d3-selection";
import { SVG_NS } from "./overlay.js";

/** Ring colours: up (slower, for a time) and down, RdBu's ends. */
export const RING_COLORS = { up: "#b2182b", down: "#2166ac" };
/** Screen pixels between a glyph and its ring, and the ring's width. */
const GAP = 3;
const WIDTH = 2;

/** @typedef {import("../../picture/scene.js").NodeMark} NodeMark */
/**
 * @typedef {object} Ring
 * @property {NodeMark} mark the node's mark
 * @property {boolean} own the node's own change (solid), else in what it calls (dashed)
 * @property {boolean} up the metric went up
 */

/**
 * The rings of the drawn marks: one per node with a change.
 * @param {import("../../data/decode.js").Table} table @param {NodeMark[]} marks
 * @returns {Ring[]}
 */
export function ringsOf(table, marks) {
  const changes = table.changes;
  const metric = changes && table.metrics.find((m) => m.name === changes.metric);
  if (!changes || !metric) return [];
  /** @type {Ring[]} */
  const out = [];
  for (const mark of marks) {
    if (mark.attr !== "data-id") continue;
    const cause = changes.cause[mark.key];
    if (cause > 0) out.push({ mark, own: cause === 1, up: metric.values[mark.key] > 0 });
  }
  return out;
}

/** The rings' layer on a backend's drawing, drawn again for each picture and zoom. */
export function createChangeRings() {
  /** @type {SVGSVGElement | null} the backend's drawing */
  let surface = null;
  /** @type {import("d3-selection").Selection<SVGGElement, unknown, null, undefined> | null} */
  let layer = null;
  /** @type {Ring[]} */
  let rings = [];
  let k = 1;

  function place() {
    // a layer only while there are rings: figures without changes stay as they were
    if (!rings.length || !surface) {
      layer?.remove();
      layer = null;
      return;
    }
    if (!layer) {
      const content = select(surface).select(/** @type {string} */ (".cct-content"));
      if (content.empty()) return;
      layer = /** @type {any} */ (content).append("g").attr("class", "cct-change-rings").attr("pointer-events", "none");
    }
    if (!layer) return;
    /** @type {import("d3-selection").Selection<SVGCircleElement, Ring, SVGGElement, unknown>} */ (
      layer.selectAll("circle")
    )
      .data(rings, (r) => r.mark.key)
      .join((enter) => enter.append(() => layer?.node()?.ownerDocument.createElementNS(SVG_NS, "circle") ?? null))
      .attr("class", (r) => `cct-change-ring ${r.own ? "cct-change-own" : "cct-change-below"}`)
      .attr("data-change", (r) => r.mark.id)
      .attr("cx", (r) => r.mark.x)
      .attr("cy", (r) => r.mark.y)
      .attr("r", (r) => (r.mark.r + GAP) / k)
      .attr("fill", "none")
      .attr("stroke", (r) => (r.up ? RING_COLORS.up : RING_COLORS.down))
      .attr("stroke-width", WIDTH / k)
      .attr("stroke-dasharray", (r) => (r.own ? null : `${3 / k} ${2 / k}`));
  }

  return {
    /** A new drawing surface (another backend): the rings go on it. @param {SVGSVGElement} svg */
    attach(svg) {
      layer?.remove();
      layer = null;
      surface = svg;
      place();
    },
    /** @param {import("../../data/decode.js").Table} table @param {NodeMark[]} marks the drawn marks */
    draw(table, marks) {
      rings = ringsOf(table, marks);
      place();
    },
    /** The zoom changed: rings keep their screen size. @param {number} next */
    zoom(next) {
      if (next === k) return;
      k = next;
      if (rings.length) place();
    },
    /** Whether any ring is drawn, and of which kinds (the legend's key). */
    get kinds() {
      return { own: rings.some((r) => r.own), below: rings.some((r) => !r.own) };
    },
  };
}
