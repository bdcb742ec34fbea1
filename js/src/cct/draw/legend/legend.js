// Colour and size legends, drawn into an SVG group that does not zoom; figures lay the drawn
// legends out again (figureLegends): titles whole, parts measured apart.

import { formatValue, legendFormat } from "../../base/format.js";
import { characters, displayText } from "../../base/text.js";
import { wrapText } from "./wrap-text.js";

export { wrapText };

// Ids must be unique on the page: several widgets (each may load its own copy of this module)
// and inline figures share one document.
const PREFIX = `cct-${Math.random().toString(36).slice(2, 10)}`;
let gradientCount = 0;
/** Legend titles: 11 px, bold; a character takes about this many pixels. */
const TITLE_CHAR_PX = 7;

/**
 * @typedef {{ kind: "color", title: string, scale: import("../../picture/scales.js").ColorScale, format?: (v: number) => string }
 *   | { kind: "size", title: string, scale: ReturnType<typeof import("../../picture/scales.js").sizeScale>,
 *     format?: (v: number) => string }} LegendSpec
 */
/** What each drawn legend group shows (figures draw it again from this). @type {WeakMap<Element, LegendSpec>} */
const specs = new WeakMap();
/** @typedef {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} G */

/**
 * A metric's kind said once: "x (inc, derived)" needs no "(inclusive)" after it.
 * @param {string} title @returns {string}
 */
export function kindOnce(title) {
  const said = / \((inclusive|exclusive)\)/.exec(title);
  if (!said) return title;
  const without = title.slice(0, said.index) + title.slice(said.index + said[0].length);
  return without.includes(`(${said[1].slice(0, 3)}`) ? without : title;
}

/** A legend title's line height in pixels (11 px bold text). */
export const TITLE_LINE = 13;

/**
 * A legend's title: on one line cut at its end to `maxPx`, or, given `measure`, wrapped at spaces
 * and separators on up to `maxLines` lines of `maxPx` (wrap-text.js); the whole title in a
 * tooltip when any of it is cut.
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {string} whole @param {number} maxPx
 * @param {{ measure?: (text: string) => number, maxLines?: number }} [wrap]
 * @returns {number} the lines drawn
 */
function legendTitle(g, whole, maxPx, { measure, maxLines = 1 } = {}) {
  const title = displayText(kindOnce(whole));
  if (measure && maxLines > 1 && Number.isFinite(maxPx)) {
    const { lines, cut, gaps } = wrapText(title, maxPx, measure, maxLines);
    const el = g.append("text").attr("class", "cct-legend-title").attr("x", 0).attr("y", 0);
    lines.forEach((line, i) => {
      el.append("tspan")
        .attr("x", 0)
        .attr("dy", i ? TITLE_LINE : null)
        .text(line + gaps[i]); // the space it broke at: the text reads whole (copied, read aloud)
    });
    if (cut) el.append("title").text(title);
    return lines.length;
  }
  const max = Math.max(4, Math.floor(maxPx / TITLE_CHAR_PX));
  const points = characters(title);
  const shown = points.length <= max ? title : `${points.slice(0, max - 1).join("")}…`;
  const el = text(g, "cct-legend-title", 0, 0, shown);
  if (shown !== title) el.append("title").text(title);
  return 1;
}

/**
 * The palette as a bar, low end left.
 * @param {G} g @param {import("../../picture/scales.js").ColorScale} scale
 * @param {{ x?: number, y: number, width: number, height: number }} box
 */
function gradientBar(g, scale, { x = 0, y, width, height }) {
  const id = `${PREFIX}-gradient-${++gradientCount}`;
  const gradient = g.append("defs").append("linearGradient").attr("id", id);
  const stops = 16;
  for (let i = 0; i <= stops; i++) {
    gradient
      .append("stop")
      .attr("offset", `${(100 * i) / stops}%`)
      .attr("stop-color", scale.interpolator(i / stops));
  }
  g.append("rect")
    .attr("class", "cct-legend-bar")
    .attr("x", x || null)
    .attr("y", y)
    .attr("width", width)
    .attr("height", height)
    .attr("fill", `url(#${id})`);
}

/**
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {import("../../picture/scales.js").ColorScale} scale
 * @param {{ title: string, width?: number, titleWidth?: number, format?: (v: number) => string,
 *   unit?: string | null, measure?: (text: string) => number, titleLines?: number }} options
 *   `titleWidth`: pixels the title's lines may take (a longer one is wrapped on up to `titleLines`
 *   lines measured by `measure`, else cut: whole in its tooltip);
 *   `format`: how the ends are written (default: the values in `unit`, one prefix for both ends,
 *   the larger's: base/format.js legendFormat)
 * @returns {number} pixels the title's extra lines push the bar down
 */
export function drawColorLegend(
  g,
  scale,
  { title, width = 160, titleWidth = Infinity, format, unit = null, measure, titleLines = 1 },
) {
  format ??= legendFormat(scale.domain ?? [], unit);
  g.selectAll("*").remove();
  g.attr("class", "cct-legend cct-color-legend");
  const node = g.node();
  if (node) specs.set(node, { kind: "color", title: kindOnce(title), scale, format });
  const below = (legendTitle(g, title, titleWidth, { measure, maxLines: titleLines }) - 1) * TITLE_LINE;
  if (!scale.domain) {
    text(g, "cct-legend-note", 0, below + 16, "no values to colour");
    return below;
  }
  gradientBar(g, scale, { y: below + 6, width, height: 10 });
  const [lo, hi] = scale.domain;
  text(g, "cct-legend-tick", 0, below + 28, format(lo));
  text(g, "cct-legend-tick", width, below + 28, format(hi), "end");
  text(g, "cct-legend-tick", width / 2, below + 28, scale.type === "log" ? "log" : "", "middle");
  return below;
}

/** The values a size legend shows: a sixteenth, a quarter and all of the maximum. @param {{ max: number }} scale */
const sizeValues = ({ max }) => (max > 0 ? [max / 16, max / 4, max] : [0]);

/**
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {ReturnType<typeof import("../../picture/scales.js").sizeScale>} scale
 * @param {{ title: string, titleWidth?: number, unit?: string | null, measure?: (text: string) => number,
 *   titleLines?: number }} options `unit`: the values' (one prefix for all circles); the title as
 *   drawColorLegend's
 * @returns {number} pixels the title's extra lines push the circles down
 */
export function drawSizeLegend(g, scale, { title, titleWidth = Infinity, unit = null, measure, titleLines = 1 }) {
  const format = legendFormat(sizeValues(scale), unit);
  g.selectAll("*").remove();
  g.attr("class", "cct-legend cct-size-legend");
  const node = g.node();
  if (node) specs.set(node, { kind: "size", title: kindOnce(title), scale, format });
  const below = (legendTitle(g, title, titleWidth, { measure, maxLines: titleLines }) - 1) * TITLE_LINE;
  let x = 0;
  for (const v of sizeValues(scale)) {
    const r = scale.radius(v);
    const cx = x + Math.max(r, 18);
    g.append("circle")
      .attr("class", "cct-legend-circle")
      .attr("cx", cx)
      .attr("cy", below + 8 + scale.rMax)
      .attr("r", r);
    text(g, "cct-legend-tick", cx, below + 8 + 2 * scale.rMax + 12, format(v), "middle");
    x += Math.max(2 * r, 36) + 14;
  }
  return below;
}

// ---- figures ----------------------------------------------------------------------------------

/**
 * @typedef {object} FigureLegendOptions
 * @property {number} width room for the legends, CSS pixels: the figure's width (on top) or the column's
 * @property {boolean} onTop side by side in rows above the tree; else one column
 * @property {number} fontPx
 * @property {(text: string, bold?: boolean) => number} measure text width in CSS pixels
 * @property {boolean} [compact] a small figure's: tighter lines, the values beside the bar and the circles
 */
/** Narrowest column a legend gets side by side with another. */
const MIN_COLUMN = 100;
/** Text box from its baseline, in font sizes: ascent above, descent (and a little air) below. */
export const ASCENT = 0.95;
export const DESCENT = 0.3;
/** A compact legend's line height, in font sizes. */
const COMPACT_LINE = 1.12;

/**
 * Draws the renderer's legends of `layer` again for a figure: every title whole (wrapped at
 * spaces and `#`, `.`, `/`, `:`, `_`), ticks and circles measured apart, the legends side by side
 * where they fit.
 * @param {G} layer @param {FigureLegendOptions} o
 * @returns {number} where they end, CSS pixels from the top
 */
export function figureLegends(layer, o) {
  const node = layer.node();
  const drawn = [...(node?.children ?? [])].flatMap((el) => specs.get(el) ?? []);
  layer.selectAll("*").remove();
  layer.attr("transform", null).attr("data-bottom", null); // the live view's end: not this one
  const pad = o.compact ? 3 : 8;
  const gap = 14;
  const room = o.width - 2 * pad;
  const fit = Math.floor((room + gap) / (MIN_COLUMN + gap));
  const perRow = o.onTop ? Math.max(1, Math.min(drawn.length, fit)) : 1;
  const column = (room - (perRow - 1) * gap) / perRow;
  let y = pad;
  for (let i = 0; i < drawn.length; i += perRow) {
    let height = 0;
    drawn.slice(i, i + perRow).forEach((spec, j) => {
      const g = layer.append("g").attr("transform", `translate(${pad + j * (column + gap)}, ${y})`);
      g.attr("class", `cct-legend cct-${spec.kind}-legend`);
      specs.set(/** @type {Element} */ (g.node()), spec);
      const top = titleBlock(g, spec.title, column, o);
      height = Math.max(
        height,
        spec.kind === "color" ? colorBlock(g, spec, top, column, o) : sizeBlock(g, spec, top, column, o),
      );
    });
    y += height + o.fontPx * (o.compact ? 0.2 : 0.6);
  }
  return Math.ceil(y);
}

/**
 * @param {G} g @param {string} className @param {number} x @param {number} y baseline
 * @param {string} content text, never markup @param {string} [anchor]
 */
export function text(g, className, x, y, content, anchor = "start") {
  const el = g.append("text").attr("class", className).attr("x", x).attr("y", y);
  return el.attr("text-anchor", anchor === "start" ? null : anchor).text(content);
}

/**
 * A title on as many lines as it needs (at most 3; one cut further says so in its tooltip).
 * @param {G} g @param {string} title @param {number} width @param {FigureLegendOptions} o
 * @returns {number} where the title ends
 */
function titleBlock(g, title, width, o) {
  const { lines, cut } = wrapText(title, width, (t) => o.measure(t, true));
  const lh = o.fontPx * (o.compact ? COMPACT_LINE : ASCENT + DESCENT);
  for (const [i, line] of lines.entries()) text(g, "cct-legend-title", 0, o.fontPx * ASCENT + i * lh, line);
  if (cut) g.append("title").text(displayText(title)); // the legend's tooltip
  return lines.length * lh;
}

/**
 * The gradient bar and its end values below the title (compact: the bar between them).
 * @param {G} g @param {Extract<LegendSpec, { kind: "color" }>} spec @param {number} top
 * @param {number} column @param {FigureLegendOptions} o @returns {number} where it ends
 */
function colorBlock(g, { scale, format = formatValue }, top, column, o) {
  const f = o.fontPx;
  if (!scale.domain) {
    text(g, "cct-legend-note", 0, top + f * ASCENT, "no values to colour");
    return top + f * (ASCENT + DESCENT);
  }
  const lo = format(scale.domain[0]);
  const hi = format(scale.domain[1]);
  const mid = scale.type === "log" && !o.compact ? "log" : "";
  const ends = o.measure(lo) + o.measure(hi) + 8;
  const x = o.compact ? o.measure(lo) + 4 : 0;
  const width = o.compact ? Math.max(8, column - ends) : Math.min(column, Math.max(160, ends));
  const height = o.compact ? 0.75 * f : Math.round(0.8 * f);
  const base = top + f * ASCENT + (o.compact ? 0 : height + 4);
  gradientBar(g, scale, { x, y: o.compact ? base - height : top + 2, width, height });
  const ticks = [
    { text: lo, x: 0, anchor: "start" },
    { text: hi, x: o.compact ? column : width, anchor: "end" },
  ];
  if (mid && ends + o.measure(mid) + 8 <= width) ticks.push({ text: mid, x: width / 2, anchor: "middle" });
  for (const t of ticks) text(g, "cct-legend-tick", t.x, base, t.text, t.anchor);
  return base + f * DESCENT;
}

/**
 * Circles for a sixteenth, a quarter and all of the maximum (fewer where they do not fit), each
 * with its value below (compact: right of it); the circles are the node marks' sizes.
 * @param {G} g @param {Extract<LegendSpec, { kind: "size" }>} spec @param {number} top
 * @param {number} column @param {FigureLegendOptions} o @returns {number} where it ends
 */
function sizeBlock(g, { scale, format = formatValue }, top, column, o) {
  const gap = 8;
  const f = o.fontPx;
  let items = sizeValues(scale).map((v) => ({ r: scale.radius(v), text: format(v) }));
  const slot = (/** @type {{ r: number, text: string }} */ it) =>
    o.compact ? 2 * it.r + 3 + o.measure(it.text) : Math.max(2 * it.r + 1, o.measure(it.text));
  const total = () => items.reduce((sum, it) => sum + slot(it) + gap, -gap);
  while (items.length > 1 && total() > column) items = items.filter((_, i) => i !== items.length - 2);
  const rMax = Math.max(...items.map((it) => it.r));
  const cy = top + (o.compact ? Math.max(0.6 * f, rMax) : 3 + rMax);
  const base = o.compact ? cy + 0.35 * f : cy + rMax + 2 + f * ASCENT;
  let x = 0;
  for (const it of items) {
    const cx = o.compact ? x + it.r : x + slot(it) / 2;
    g.append("circle").attr("class", "cct-legend-circle").attr("cx", cx).attr("cy", cy).attr("r", it.r);
    text(g, "cct-legend-tick", o.compact ? cx + it.r + 3 : cx, base, it.text, o.compact ? "start" : "middle");
    x += slot(it) + gap;
  }
  return Math.max(cy + rMax, base + f * DESCENT);
}
