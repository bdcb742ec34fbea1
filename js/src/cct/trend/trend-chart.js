// One chart of the trend pane: a node's series on the pane's shared scales, its axes' ends
// labelled (the scale's ends, the axis's first and last date or number, every category), a line,
// or for a category axis a point per value with its spread as a bar. Drawn into an SVG element by
// the pane and by figures, every colour and font a presentation attribute (`look`), as a
// standalone SVG needs; in the page the widget's CSS overrides them (the theme's colours).
import { formatValue } from "../base/format.js";
import { characters } from "../base/text.js";
import { linePath, xText } from "./trend-data.js";

/** A chart's size (pixels) and margins inside it. */
export const CHART = { width: 176, height: 84, left: 42, right: 6, top: 4, bottom: 16 };
/** Pixels per character of an axis label (9 px text), to cut a category's name to its room. */
const CHAR = 4.8;

/**
 * @typedef {import("./trend-data.js").Trend} Trend
 * @typedef {import("./trend-data.js").Series} Series
 * @typedef {ReturnType<typeof import("./trend-data.js").scalesOf>} Scales
 * @typedef {{ muted: string, line: string, fontFamily: string }} Look the colours and font
 * @typedef {import("d3-selection").Selection<any, unknown, null, undefined>} Parent
 */

/** The page's look (its CSS overrides the colours: the theme's). @type {Look} */
export const PAGE_LOOK = { muted: "#616161", line: "#3f6fb5", fontFamily: "inherit" };

/**
 * `text` in at most `n` characters (whole ones), cut with an ellipsis.
 * @param {string} text @param {number} n
 */
export function cut(text, n) {
  const chars = characters(text);
  return chars.length <= n ? text : `${chars.slice(0, n - 1).join("")}…`;
}

/**
 * Draws series `s` of `d` into `parent` (an `<svg>` or `<g>` of CHART's size).
 * @param {Parent} parent @param {Trend} d @param {Series} s @param {Scales} scales
 * @param {Look} look
 */
export function plotChart(parent, d, s, scales, look) {
  const { height: H, left: L, bottom: B } = CHART;
  const { x, y } = scales;
  const [x0, x1] = x.range();
  const [y0, y1] = y.range();
  const axis = parent
    .append("g")
    .attr("class", "cct-trend-axis")
    .attr("font-family", look.fontFamily)
    .attr("font-size", 9)
    .attr("fill", look.muted);
  axis
    .append("path")
    .attr("d", `M${L},${y1}V${y0}H${x1}`)
    .attr("fill", "none")
    .attr("stroke", look.muted)
    .attr("stroke-width", 0.6);
  const [lo, hi] = y.domain();
  for (const [v, at] of /** @type {const} */ ([
    [lo, y0],
    [hi, y1 + 8],
  ]))
    axis
      .append("text")
      .attr("x", L - 3)
      .attr("y", at)
      .attr("text-anchor", "end")
      .text(formatValue(Number(v.toPrecision(3))));
  const ends = d.kind === "category" ? d.categories.map((_, i) => i) : x.domain();
  const room = d.kind === "category" ? Math.max(3, Math.floor((x1 - x0) / ends.length / CHAR)) : 99;
  ends.forEach((v, i) => {
    const label = xText(d, v);
    axis
      .append("text")
      .attr("x", d.kind === "category" ? x(v) : i === 0 ? x0 : x1)
      .attr("y", H - B + 12)
      .attr("text-anchor", d.kind === "category" ? "middle" : i === 0 ? "start" : "end")
      .text(cut(label, room))
      .append("title")
      .text(label);
  });
  const marks = parent.append("g").attr("class", "cct-trend-marks").attr("fill", "none").attr("stroke", look.line);
  if (d.kind !== "category") {
    marks.append("path").attr("class", "cct-trend-line").attr("d", linePath(s, scales)).attr("stroke-width", 1.2);
    // a number axis whose points combine several profiles (a scaling study's runs of other
    // sizes at one job size) shows their spread as well: the mean alone would hide the mix;
    // a lone point (every run launched at one date) is a point, a line of it draws nothing
    if (!s.low && s.x.length > 1) return;
  }
  s.x.forEach((at, i) => {
    const low = s.low?.[i] ?? Number.NaN;
    const high = s.high?.[i] ?? Number.NaN;
    if (scales.defined(low) && scales.defined(high))
      marks
        .append("path")
        .attr("class", "cct-trend-spread")
        .attr("d", `M${x(at)},${y(low)}V${y(high)}`)
        .attr("stroke-opacity", 0.45)
        .attr("stroke-width", 3);
    if (!scales.defined(s.y[i])) return;
    marks
      .append("circle")
      .attr("class", "cct-trend-point")
      .attr("cx", x(at))
      .attr("cy", y(s.y[i]))
      .attr("r", 2.5)
      .attr("fill", look.line)
      .attr("stroke", "none")
      .append("title")
      .text(
        `${xText(d, at)}: ${formatValue(s.y[i])} (${s.count[i]} profiles; middle half ${formatValue(low)}–${formatValue(high)})`,
      );
  });
}
