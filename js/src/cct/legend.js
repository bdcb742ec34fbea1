// Colour and size legends, drawn into an SVG group that does not zoom.
import { formatValue } from "./format.js";

// Ids must be unique on the page: several widgets (each may load its own copy of this module)
// and inline figures share one document.
const PREFIX = `cct-${Math.random().toString(36).slice(2, 10)}`;
let gradientCount = 0;
/** Legend titles: 11 px, bold; a character takes about this many pixels. */
const TITLE_CHAR_PX = 7;

/**
 * A legend's title, cut at its end to `maxPx` (the whole title in a tooltip).
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {string} title @param {number} maxPx
 */
function legendTitle(g, title, maxPx) {
  const max = Math.max(4, Math.floor(maxPx / TITLE_CHAR_PX));
  const points = [...title];
  const text = points.length <= max ? title : `${points.slice(0, max - 1).join("")}…`;
  const el = g.append("text").attr("class", "cct-legend-title").attr("y", 0).text(text);
  if (text !== title) el.append("title").text(title);
}

/**
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {import("./scales.js").ColorScale} scale
 * @param {{ title: string, width?: number, titleWidth?: number }} options `titleWidth`: pixels the
 *   title may take (a longer one is cut, whole in its tooltip)
 */
export function drawColorLegend(g, scale, { title, width = 160, titleWidth = Infinity }) {
  g.selectAll("*").remove();
  g.attr("class", "cct-legend cct-color-legend");
  legendTitle(g, title, titleWidth);
  if (!scale.domain) {
    g.append("text").attr("class", "cct-legend-note").attr("y", 16).text("no values to colour");
    return;
  }
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
    .attr("y", 6)
    .attr("width", width)
    .attr("height", 10)
    .attr("fill", `url(#${id})`);
  const [lo, hi] = scale.domain;
  const ends = [
    { v: lo, x: 0, anchor: "start" },
    { v: hi, x: width, anchor: "end" },
  ];
  for (const e of ends) {
    g.append("text")
      .attr("class", "cct-legend-tick")
      .attr("x", e.x)
      .attr("y", 28)
      .attr("text-anchor", e.anchor)
      .text(formatValue(e.v));
  }
  g.append("text")
    .attr("class", "cct-legend-tick")
    .attr("x", width / 2)
    .attr("y", 28)
    .attr("text-anchor", "middle")
    .text(scale.type === "log" ? "log" : "");
}

/**
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {ReturnType<typeof import("./scales.js").sizeScale>} scale
 * @param {{ title: string, titleWidth?: number }} options
 */
export function drawSizeLegend(g, scale, { title, titleWidth = Infinity }) {
  g.selectAll("*").remove();
  g.attr("class", "cct-legend cct-size-legend");
  legendTitle(g, title, titleWidth);
  const values = scale.max > 0 ? [scale.max / 16, scale.max / 4, scale.max] : [0];
  let x = 0;
  for (const v of values) {
    const r = scale.radius(v);
    const cx = x + Math.max(r, 18);
    g.append("circle")
      .attr("class", "cct-legend-circle")
      .attr("cx", cx)
      .attr("cy", 8 + scale.rMax)
      .attr("r", r);
    g.append("text")
      .attr("class", "cct-legend-tick")
      .attr("x", cx)
      .attr("y", 8 + 2 * scale.rMax + 12)
      .attr("text-anchor", "middle")
      .text(formatValue(v));
    x += Math.max(2 * r, 36) + 14;
  }
}
