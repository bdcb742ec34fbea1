// The canvas backend's rings (canvas-backend.js): the marks that change on hover, selection,
// search, highlighting and the keyboard cursor are SVG circles on the overlay above the canvas,
// so none of them repaints the canvas. Each kind of ring is a layer of its own; a ring keeps its
// mark's screen size at every zoom.
import { SVG_NS } from "../svg/overlay.js";
import { holdsText } from "../svg/svg-backend.js";

/** @typedef {import("../svg/svg-backend.js").NodeMark} NodeMark */
/** @typedef {import("../svg/overlay.js").Layer} Layer */
/** @typedef {import("../../data/ids.js").ItemKey} ItemKey */

/** Screen pixels a ring's centre line lies outside its mark, by kind: the selection's ring is
 * drawn around the disc (half its 3 px stroke), not over it, so the node keeps its colour. */
const OUTSIDE = { "cct-selected": 1.5 };
/** @param {Element} el a ring @returns {number} */
const outside = (el) => (el.classList.contains("cct-selected") ? OUTSIDE["cct-selected"] : 0);

/**
 * @param {ReturnType<typeof import("../svg/overlay.js").createOverlay>} overlay
 * @param {{ doc: Document, markOf: (key: number) => NodeMark | undefined, zoom: () => number }} parts
 *   `markOf`: the mark drawn with a key, if any; `zoom`: the transform's scale now
 */
export function createCanvasRings(overlay, { doc, markOf, zoom }) {
  const newLayer = () => overlay.content.append("g").attr("class", "cct-rings");
  // in this order, bottom to top
  const highlightRings = newLayer();
  const matchRings = newLayer();
  const rings = newLayer();
  const holdRings = newLayer();
  const cursorRing = newLayer();
  const hoverRing = newLayer();
  const layers = [highlightRings, matchRings, rings, holdRings, cursorRing, hoverRing];
  /** @type {Map<number, number[]>} glyphs that hide selected nodes: mark key → their ids */
  let holding = new Map();
  /** @type {Set<number>} mark keys */
  let matches = new Set();
  /** @type {Map<number, number[]>} glyphs that hide search matches: mark key → their ids */
  let holdingMatches = new Map();
  /** @type {Set<number>} */
  let highlighted = new Set();
  /** @type {number | null} */
  let cursor = null;
  /** @type {Set<number>} */
  let selected = new Set();

  /**
   * The SVG rings of `layer`, one per mark key in `ids` that is drawn.
   * @param {Layer} layer
   * @param {Iterable<number>} ids mark keys
   * @param {string} className
   */
  function drawRings(layer, ids, className) {
    const marks = [...ids].map(markOf).filter((m) => m !== undefined);
    const k = zoom();
    /** @type {import("d3-selection").Selection<SVGCircleElement, NodeMark, SVGGElement, unknown>} */ (
      layer.selectAll("circle")
    )
      .data(marks, (m) => m.key)
      .join((enter) => enter.append(() => doc.createElementNS(SVG_NS, "circle")))
      .attr("class", `cct-ring ${className}`)
      .each(function (m) {
        /** @type {Element} */ (this).setAttribute(m.attr, String(m.ref));
      })
      .attr("aria-selected", className === "cct-selected" ? "true" : null)
      .attr("cx", (m) => m.x)
      .attr("cy", (m) => m.y)
      .attr("r", function (m) {
        return (m.r + outside(/** @type {Element} */ (this))) / k;
      })
      .attr("fill", "none");
  }

  /** Rings on the glyphs that hide selected nodes, saying how many. */
  function drawHolding() {
    drawRings(holdRings, holding.keys(), "cct-holds-selected");
    holdRings
      .selectAll("circle")
      .attr("data-holds-selected", (/** @type {any} */ m) => holding.get(m.key)?.length ?? 0)
      .attr("aria-description", (/** @type {any} */ m) => holdsText(holding.get(m.key)?.length ?? 0));
  }

  /** Rings on the matches drawn, and dashed ones on the glyphs that hide matches, saying how many. */
  function drawMatches() {
    drawRings(matchRings, [...matches, ...holdingMatches.keys()], "cct-match");
    matchRings
      .selectAll("circle")
      .classed("cct-holds-match", (/** @type {any} */ m) => holdingMatches.has(m.key))
      .attr("data-holds-match", (/** @type {any} */ m) => holdingMatches.get(m.key)?.length ?? null);
  }

  return {
    /** Every ring again, on the marks drawn now (new marks). */
    drawAll() {
      drawRings(rings, selected, "cct-selected");
      drawHolding();
      drawMatches();
      drawRings(highlightRings, highlighted, "cct-highlight");
      drawRings(cursorRing, cursor === null ? [] : [cursor], "cct-cursor");
    },
    /** A new zoom: rings keep their marks' screen size, strokes their width. @param {number} k */
    rescale(k) {
      for (const layer of layers) {
        layer.attr("stroke-width", 0.75 / k).style("--cct-stroke", `${1 / k}px`);
        layer.selectAll("circle").attr("r", function (/** @type {any} */ m) {
          return (m.r + outside(/** @type {Element} */ (this))) / k;
        });
      }
    },
    /** @param {Iterable<number>} ids mark keys */
    setSelected(ids) {
      selected = new Set(ids);
      drawRings(rings, selected, "cct-selected");
    },
    /** Glyphs that hide selected nodes (see hidden-selection.js). @param {Map<number, number[]>} holders */
    setHolding(holders) {
      holding = new Map(holders);
      drawHolding();
    },
    /** @param {ItemKey | null} key */
    setHovered(key) {
      drawRings(hoverRing, key === null ? [] : [key], "cct-hovered");
    },
    /** Search matches, by item key, and the glyphs that hide some: mark key → their ids.
     * @param {Iterable<ItemKey>} keys @param {Map<number, number[]>} [holders] */
    setMatches(keys, holders = new Map()) {
      matches = new Set(keys);
      holdingMatches = new Map(holders);
      drawMatches();
    },
    /** Nodes marked from Python, by item key. @param {Iterable<ItemKey>} keys */
    setHighlighted(keys) {
      highlighted = new Set(keys);
      drawRings(highlightRings, highlighted, "cct-highlight");
    },
    /** The keyboard cursor's item key. @param {ItemKey | null} key */
    setCursor(key) {
      cursor = key;
      drawRings(cursorRing, key === null ? [] : [key], "cct-cursor");
    },
  };
}
