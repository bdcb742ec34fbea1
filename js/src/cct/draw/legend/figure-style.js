// Looks of exported figures and the key of their glyphs (their text is measured by text-measure.js). The widget
// takes its colours from JupyterLab's theme through CSS; a standalone SVG cannot rely on a style
// sheet, so a figure style names every colour, width and font as presentation attributes (see
// figure.js).

import { select } from "d3-selection";
import { shapePath } from "../../picture/shapes.js";
import { RING_COLORS } from "../svg/change-rings.js";
import { ASCENT, DESCENT, text } from "./legend.js";

/** Fonts that exist on most systems, metric-compatible first: the figure's text keeps its size
 * whichever is installed where the SVG is opened. */
export const FONT_FALLBACKS = 'Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif';

const PX_PER_PT = 96 / 72;
/** @typedef {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} G */
/**
 * @typedef {{ shape: "triangle" | "diamond" | "circle" | "square" | "hexagon", text: string, fill?: string,
 *   dashed?: boolean, dotted?: boolean, stroke?: string }} GlyphKey `stroke`: a change ring's colour
 */

/**
 * @typedef {object} FigureStyle
 * @property {string} background
 * @property {string} text
 * @property {string} muted legend outlines and the missing-value hatching
 * @property {string} fontFamily
 * @property {number} fontPx text size of labels and legends, in CSS pixels
 * @property {string} link
 * @property {number} linkWidth screen pixels at any zoom
 * @property {string} nodeStroke
 * @property {number} nodeWidth
 * @property {string} selected
 * @property {string} match
 * @property {string} highlight
 * @property {string} missingFill
 * @property {string | null} palette used when the view's palette is "auto" (null: keep "auto")
 */

/** @type {Record<string, FigureStyle>} */
export const FIGURE_STYLES = {
  // the widget as it looks in JupyterLab's light theme
  screen: {
    background: "#ffffff",
    text: "#1f1f1f",
    muted: "#616161",
    fontFamily: FONT_FALLBACKS,
    fontPx: 11,
    link: "#b0b0b0",
    linkWidth: 1.2,
    nodeStroke: "#444444",
    nodeWidth: 0.75,
    selected: "#1976d2",
    match: "#e65100",
    highlight: "#d81b60",
    missingFill: "#bdbdbd",
    palette: null,
  },
  // print: white and black, thin strokes, 8 pt text, cividis (colour-blind safe, and its
  // lightness rises monotonically, so it stays ordered in greyscale); marks in Okabe-Ito colours
  paper: {
    background: "#ffffff",
    text: "#000000",
    muted: "#000000",
    fontFamily: FONT_FALLBACKS,
    fontPx: 8 * PX_PER_PT,
    link: "#8c8c8c",
    linkWidth: 0.5,
    nodeStroke: "#000000",
    nodeWidth: 0.35,
    selected: "#0072b2",
    match: "#d55e00",
    highlight: "#cc79a7",
    missingFill: "#d9d9d9",
    palette: "cividis",
  },
};

/**
 * A figure style by name, with the font overridden.
 * @param {string} name
 * @param {{ fontFamily?: string | null, fontSize?: number | null }} [overrides] fontSize in points
 * @returns {FigureStyle}
 */
export function figureStyle(name, { fontFamily = null, fontSize = null } = {}) {
  const base = FIGURE_STYLES[name];
  if (!base) {
    throw new RangeError(
      `unknown figure style ${JSON.stringify(name)}; accepted: ${Object.keys(FIGURE_STYLES).join(", ")}`,
    );
  }
  const style = { ...base };
  if (fontFamily) {
    // one family name with spaces needs quotes in a font-family list; a list is taken as it is
    const quote = /\s/.test(fontFamily) && !/[,"']/.test(fontFamily);
    style.fontFamily = `${quote ? `"${fontFamily}"` : fontFamily}, ${FONT_FALLBACKS}`;
  }
  if (fontSize !== null) {
    if (!(fontSize > 0)) throw new RangeError(`font size must be a positive number of points; got ${fontSize}`);
    style.fontPx = fontSize * PX_PER_PT;
  }
  return style;
}

/**
 * The glyphs drawn besides node circles, and what they mean (the key under the legends).
 * @param {SVGSVGElement} svg @param {[string, string] | null} [runs] what a compare view's
 *   square and hexagon mean
 * @returns {GlyphKey[]}
 */
export function glyphsOf(svg, runs = null) {
  /** @type {GlyphKey[]} */
  const key = [];
  const has = (/** @type {string} */ selector) => svg.querySelector(`.cct-nodes ${selector}`);
  if (has(".cct-collapsed")) key.push({ shape: "triangle", text: "collapsed subtree (+N hidden)" });
  if (has("[data-aggregate]")) key.push({ shape: "diamond", text: "N hidden nodes (pruned)" });
  if (has("[data-fold]")) key.push({ shape: "diamond", text: "N more nodes (not loaded)" });
  const missing = has(".cct-missing");
  if (missing) key.push({ shape: "square", text: "no value", fill: missing.getAttribute("fill") ?? "none" });
  if (has(".cct-negative")) key.push({ shape: "circle", text: "negative size", dashed: true });
  if (has(".cct-no-size")) key.push({ shape: "circle", text: "no size value", dotted: true });
  const small = has(".cct-small");
  if (small) key.push({ shape: "circle", text: "too small to judge", fill: small.getAttribute("fill") ?? "none" });
  if (runs && has(".cct-only-a")) key.push({ shape: "square", text: runs[0] });
  if (runs && has(".cct-only-b")) key.push({ shape: "hexagon", text: runs[1] });
  // an ensemble's change rings (change-rings.js): solid own, dashed in its callees; red up, blue down
  const rings = [...svg.querySelectorAll(".cct-change-rings circle")];
  const ring = (/** @type {string} */ kind, /** @type {string} */ text, dashed = false) => {
    const r = rings.find((el) => el.classList.contains(kind));
    if (r) key.push({ shape: "circle", text, dashed, stroke: r.getAttribute("stroke") ?? "none" });
  };
  ring("cct-change-own", "ring: own change");
  ring("cct-change-below", "dashed ring: in callees", true);
  if (rings.length) key.push({ shape: "circle", text: "ring red: up, blue: down", stroke: RING_COLORS.up });
  return key;
}

/**
 * A key of the glyphs: a small glyph and what it means, side by side while they fit.
 * @param {G} layer @param {GlyphKey[]} key
 * @param {{ fontPx: number, measure: (text: string) => number }} o
 * @param {{ x: number, y: number, width: number }} at @returns {number} where it ends
 */
export function drawGlyphKey(layer, key, o, at) {
  const g = layer
    .append("g")
    .attr("class", "cct-legend cct-glyph-key")
    .attr("transform", `translate(${at.x}, ${at.y})`);
  const f = o.fontPx;
  const lh = f * (ASCENT + DESCENT);
  const r = 0.32 * f;
  let x = 0;
  let line = 0;
  for (const k of key) {
    const w = 2.6 * r + 4 + o.measure(k.text);
    if (x > 0 && x + w > at.width) {
      x = 0;
      line++;
    }
    const base = line * lh + f * ASCENT;
    const cy = base - 0.35 * f;
    const cx = x + 1.3 * r;
    // a square swatch of the missing-value hatching; the others as the marks are drawn
    const d =
      k.shape === "square" ? `M${cx - r},${cy - r}h${2 * r}v${2 * r}h${-2 * r}Z` : shapePath(k.shape, cx, cy, r);
    g.append("path")
      .attr("d", d)
      .attr(
        "class",
        `cct-key-${k.stroke ? "ring" : "glyph"}${k.dashed ? " cct-key-dashed" : ""}${k.dotted ? " cct-key-dotted" : ""}`,
      )
      .attr("fill", k.fill ?? "none")
      .attr("stroke", k.stroke ?? null)
      .attr("stroke-width", k.stroke ? 1.5 : null);
    text(g, "cct-legend-key", x + 2.6 * r + 4, base, k.text);
    x += w + 12;
  }
  return at.y + (line + 1) * lh;
}

/**
 * Replaces the widget's CSS with attributes: the same look wherever the SVG is opened.
 * @param {SVGSVGElement} svg
 * @param {FigureStyle} s
 * @param {number} k the zoom factor (strokes keep their width on screen)
 * @param {LabelBoxes} [boxes] the labels' boxes, measured where the SVG is laid out (`labelBoxes`)
 *   when `svg` is a copy out of the page, which the browser does not lay out (no boxes: measured
 *   on `svg` itself)
 */
export function inlineStyles(svg, s, k, boxes) {
  /** @param {Element} el @param {Record<string, string | number>} attrs */
  const set = (el, attrs) => {
    for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  };
  /** @param {string} selector @param {Record<string, string | number>} attrs */
  const all = (selector, attrs) => {
    for (const el of svg.querySelectorAll(selector)) set(el, attrs);
  };
  // what only an interactive view has: hover, keyboard cursor, ARIA roles, canvas rings
  for (const el of svg.querySelectorAll(".cct-hover-label, .cct-ring")) el.remove();
  for (const el of svg.querySelectorAll("*")) {
    for (const name of ["role", "aria-label", "aria-selected", "aria-description", "tabindex", "style"])
      el.removeAttribute(name);
    el.classList.remove("cct-hovered", "cct-cursor");
  }
  set(svg, { "font-family": s.fontFamily, fill: s.text });
  svg.removeAttribute("role");
  svg.removeAttribute("style");
  all(".cct-links", { fill: "none", stroke: s.link, "stroke-width": s.linkWidth / k });
  all(".cct-nodes", { stroke: s.nodeStroke, "stroke-width": s.nodeWidth / k });
  all(".cct-missing-bg", { fill: s.missingFill });
  all(".cct-missing-line", { stroke: s.muted, "stroke-width": 1.5 });
  const w = (/** @type {number} */ f) => (f * Math.max(s.nodeWidth, 0.5)) / (0.75 * k); // as the widget's CSS, scaled
  all(".cct-node.cct-negative", { "stroke-dasharray": `${2 / k} ${1 / k}` });
  all(".cct-node.cct-no-size", { "stroke-dasharray": `${0.6 / k} ${1.4 / k}` });
  all(".cct-node.cct-aggregate", { "stroke-dasharray": `${2 / k}` });
  // later rules win, as in cct/draw/draw.css
  // outside the mark: its fill is painted over the stroke's inner half (paint-order, set live)
  all(".cct-node.cct-selected", { stroke: s.selected, "stroke-width": w(6), "paint-order": "stroke" });
  all(".cct-node.cct-holds-selected", {
    stroke: s.selected,
    "stroke-width": w(4),
    "stroke-dasharray": `${3 / k} ${2 / k}`,
  });
  all(".cct-node.cct-match", { stroke: s.match, "stroke-width": w(3) });
  all(".cct-node.cct-highlight", { stroke: s.highlight, "stroke-width": w(3.5) });
  all(".cct-labels", { fill: s.text, stroke: s.background, "stroke-linejoin": "round", "paint-order": "stroke" });
  groundLabels(svg, s.background, boxes);
  all(".cct-legends", { "font-size": s.fontPx });
  all(".cct-legend text", { fill: s.text, stroke: "none" });
  all(".cct-legend-title", { "font-weight": 600 });
  all(".cct-legend-bar", { stroke: s.muted, "stroke-width": 0.5 });
  all(".cct-legend-circle", { fill: "none", stroke: s.muted, "stroke-width": Math.max(s.nodeWidth, 0.75) });
  all(".cct-key-glyph", { stroke: s.nodeStroke, "stroke-width": Math.max(s.nodeWidth, 0.75) });
  all(".cct-key-dashed", { "stroke-dasharray": "2 1" });
  all(".cct-key-dotted", { "stroke-dasharray": "0.6 1.4" });
}

/** @typedef {{ x: number, y: number, width: number, height: number }[] | null} LabelBoxes */

/**
 * The boxes of `svg`'s labels, in their order; null where the text cannot be measured (jsdom).
 * Measure a drawing in the page before copying it: a copy out of the page is not laid out, and
 * Chromium measures every text of it as an empty box at 0, 0.
 * @param {SVGSVGElement} svg
 * @returns {LabelBoxes}
 */
export function labelBoxes(svg) {
  const texts = /** @type {SVGTextElement[]} */ ([...svg.querySelectorAll(".cct-labels text")]);
  if (!texts[0]?.getBBox) return null;
  return texts.map((t) => {
    const { x, y, width, height } = t.getBBox();
    return { x, y, width, height };
  });
}

/**
 * Labels on boxes of the background colour instead of a halo stroked around their letters: a
 * stroked text is text twice in a PDF (Chromium and cairo draw the stroke as a text of its own, and
 * text extraction reads "mainmain"). Where the text cannot be measured (jsdom, or boxes measured
 * from other labels) the halo stays.
 * @param {SVGSVGElement} svg @param {string} background @param {LabelBoxes} [measured]
 */
function groundLabels(svg, background, measured) {
  const texts = /** @type {SVGTextElement[]} */ ([...svg.querySelectorAll(".cct-labels text")]);
  const boxes = measured === undefined ? labelBoxes(svg) : measured;
  if (!texts.length || !boxes || boxes.length !== texts.length) return;
  const layer = /** @type {Element} */ (texts[0].parentNode);
  layer.setAttribute("stroke", "none");
  select(/** @type {Element} */ (layer.parentNode))
    .insert("g", ".cct-labels")
    .attr("class", "cct-label-grounds")
    .attr("fill", background)
    .selectAll("rect")
    .data(boxes)
    .join("rect")
    .attr("x", (b) => b.x)
    .attr("y", (b) => b.y)
    .attr("width", (b) => b.width)
    .attr("height", (b) => b.height);
}
