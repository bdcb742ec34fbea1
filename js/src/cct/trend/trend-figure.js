// The trend pane in a paper figure: below the tree, a line naming the node (its path), the metric,
// how the profiles were combined and the axis, then the node's and its children's charts in rows
// (at most `MAX_ROWS`: a figure keeps the tree's room; the line says what is left out). Standalone
// SVG: every colour and font is a presentation attribute; names are text, never markup.
import { select } from "d3-selection";
import { CHART, cut, plotChart } from "./trend-chart.js";
import { scalesOf, shareText } from "./trend-data.js";

/** Rows of charts a figure draws at most. */
export const MAX_ROWS = 2;
const GAP = 8;

/**
 * @typedef {import("./trend-data.js").Trend} Trend
 * @typedef {{ text: string, muted: string, fontFamily: string, fontPx: number }} FigureLook the
 *   parts of a figure style the pane uses
 */

/** @param {number} width @param {number} n charts */
function grid(width, n) {
  const columns = Math.max(1, Math.floor((width + GAP) / (CHART.width + GAP)));
  const shown = Math.min(n, columns * MAX_ROWS);
  return { columns, shown, rows: Math.ceil(shown / columns) };
}

/**
 * The height (pixels) the pane takes in a figure `width` pixels wide.
 * @param {Trend} trend @param {number} width @param {FigureLook} look
 */
export function trendFigureHeight(trend, width, look) {
  const { rows } = grid(width, trend.series.length);
  return Math.ceil(2 * GAP + 3 * (look.fontPx + 3) + rows * (CHART.height + look.fontPx + 6));
}

/**
 * Draws the pane into `svg` with its top left corner at (`x`, `y`), `width` pixels wide.
 * @param {SVGSVGElement} svg @param {Trend} trend
 * @param {{ x: number, y: number, width: number, log: boolean, look: FigureLook }} at
 */
export function drawTrendFigure(svg, trend, { x, y, width, log, look }) {
  const root = select(svg)
    .append("g")
    .attr("class", "cct-trend-figure")
    .attr("transform", `translate(${x},${y})`)
    .attr("font-family", look.fontFamily)
    .attr("font-size", look.fontPx)
    .attr("fill", look.text);
  root
    .append("line")
    .attr("x1", 0)
    .attr("x2", width)
    .attr("y1", GAP / 2)
    .attr("y2", GAP / 2)
    .attr("stroke", look.muted)
    .attr("stroke-width", 0.5);
  const chars = Math.floor(width / (0.55 * look.fontPx));
  const { columns, shown, rows } = grid(width, trend.series.length);
  const where = trend.where ? ` where ${trend.where}` : "";
  const hidden = trend.series.length - shown + trend.leftOut;
  const kids = trend.children ? `${shown - 1} of ${trend.children} children, largest first` : "no children";
  const lines = [
    `Trend of ${trend.path.map((p) => p.name).join(" › ")}`,
    `${trend.metric}: ${trend.reducer} over ${trend.profiles} profiles${where}, by ${trend.by}${log ? " (log axes)" : ""}`,
    `${kids}${hidden ? `; ${hidden} smaller not drawn` : ""}; one y scale`,
  ];
  let line = GAP;
  lines.forEach((text, i) => {
    line += look.fontPx + 3;
    const el = root.append("text").attr("x", 0).attr("y", line).text(cut(text, chars));
    el.attr(i ? "fill" : "font-weight", i ? look.muted : "bold");
  });
  const scales = scalesOf(
    trend,
    log,
    [CHART.left + 4, CHART.width - CHART.right - 4],
    [CHART.height - CHART.bottom, CHART.top],
  );
  const lineColour = "#3f6fb5";
  const captionChars = Math.floor(CHART.width / (0.55 * look.fontPx));
  const top = line + 6;
  trend.series.slice(0, shown).forEach((s, i) => {
    const cell = root
      .append("g")
      .attr("class", "cct-trend-figure-chart")
      .attr("data-id", s.id)
      .attr(
        "transform",
        `translate(${(i % columns) * (CHART.width + GAP)},${top + Math.floor(i / columns) * (CHART.height + look.fontPx + 6)})`,
      );
    const share = shareText(s.share);
    const name = cut(s.name, captionChars - (share ? share.length + 1 : 0));
    const caption = cell.append("text").attr("x", 2).attr("y", look.fontPx);
    caption
      .append("tspan")
      .attr("font-weight", i === 0 ? "bold" : null)
      .text(name);
    if (share) caption.append("tspan").attr("fill", look.muted).text(` ${share}`);
    const plot = cell.append("g").attr("transform", `translate(0,${look.fontPx + 4})`);
    plotChart(plot, trend, s, scales, { ...look, line: lineColour });
  });
  return rows;
}
