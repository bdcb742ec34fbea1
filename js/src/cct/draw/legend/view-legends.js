// The legends of a view on the backend's legend layer: a colour legend (one, or one per tree), the
// size legend, the keys of a compare view's glyphs, of an ensemble's change rings and of the grey
// nodes too small to judge, in a
// column on the left or a row on top; and their titles (metric, kind, unit).
import { parseUnit, unitTitle } from "../../base/units.js";
import { metricByName } from "../../data/decode.js";
import { judged, judgedKey, SMALL_FILL } from "../../picture/judge.js";
import { shortenName } from "../../picture/label-text.js";
import { legendShare } from "../../picture/shares.js";
import { textMeasure } from "../labels/text-measure.js";
import { RING_COLORS } from "../svg/change-rings.js";
import { drawColorLegend, drawSizeLegend } from "./legend.js";
import { drawPresenceKey } from "./presence-key.js";
import { wrapText } from "./wrap-text.js";

/** Height of the row of legends when they are on top (at legend scale 1). */
export const LEGEND_BAND = 58;
/** The legends' text size in pixels (draw.css .cct-legend), at legend scale 1. */
export const LEGEND_PX = 11;
/** Lines a legend title may take in the column on the left (a longer one is cut, whole on hover). */
export const TITLE_LINES = 8;
/** What the grey nodes' key says (the whole rule in its hover text). */
export const SMALL_KEY = "too small to judge";

/**
 * The colour legends (one, or one per tree) and the size legend: a column on the left, or a
 * row on top (narrow figures: shorter colour bars).
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} layer
 * @param {{ legends: import("../../picture/scene.js").LegendEntry[], size: ReturnType<typeof import("../../picture/scales.js").sizeScale>,
 *   colorTitle: string, sizeTitle: string, onTop: boolean, scale: number, format?: (v: number) => string,
 *   presence?: [string, string] | null, small?: string | null, changes?: boolean,
 *   within?: string, colorUnit?: string | null, sizeUnit?: string | null, width?: number,
 *   measure?: (text: string) => number }} spec
 *   `format`: how the colour legends' ends are written (a share of a total; else the values in
 *   `colorUnit`, and the size legend's in `sizeUnit`, with one SI prefix each); `presence`: what a
 *   compare view's square and hexagon mean ("only in before", "only in after"); `small`: what the
 *   grey nodes are (judge.js), or null when there are none; `changes`: the tree has change rings;
 *   `within`: the configurations they were looked for in ("": one); `width`: the stage's width
 *   in pixels (0: not known), which the keys' text keeps within, on two lines where one does not
 *   fit, measured by `measure` (default: in the legends' font, estimated where nothing measures)
 * @returns {number} where the legends end, from the layer's top (legend scale 1); also the
 *   layer's `data-bottom`
 */
export function drawLegends(
  layer,
  {
    legends,
    size,
    colorTitle,
    sizeTitle,
    onTop,
    scale,
    format,
    colorUnit = null,
    sizeUnit = null,
    presence = null,
    small = null,
    changes = false,
    within = "",
    width = 0,
    measure,
  },
) {
  layer.selectAll("*").remove();
  const node = layer.node();
  const widthOf =
    measure ??
    (node ? textMeasure(node.ownerDocument, LEGEND_PX, legendFont(node)) : (/** @type {string} */ t) => t.length);
  layer.attr("transform", scale === 1 ? null : `scale(${scale})`);
  // in the column, titles and run keys are wrapped whole (a compare view's run keys are long:
  // "launchdate 2025-06-11 … 2025-06-18 (median of 5)"); in the row on top, cut (whole on hover)
  const bold = (/** @type {string} */ t) => widthOf(t) * 1.05; // titles are bold
  const wrap = onTop ? {} : { measure: bold, titleLines: TITLE_LINES };
  let x = 12;
  let y = 16;
  /** the last block's extra height: lines its title or keys took beyond the first */
  let extra = 0;
  const next = (/** @type {number} */ dy) => {
    if (onTop) x += 150;
    else y += dy + extra;
    extra = 0;
  };
  for (const { tree, scale: colors } of legends.slice(0, onTop ? 2 : 6)) {
    const g = layer.append("g").attr("transform", `translate(${x}, ${y})`);
    const prefix = tree === null ? "" : `${shortenName(tree, 14)}: `;
    extra = drawColorLegend(g, colors, {
      title: `${prefix}colour: ${colorTitle}`,
      width: onTop ? 120 : 160,
      titleWidth: onTop ? 140 : 176,
      format,
      unit: colorUnit,
      ...wrap,
    });
    next(46);
  }
  const s = layer.append("g").attr("transform", `translate(${x}, ${y})`);
  extra = drawSizeLegend(s, size, {
    title: `size: ${sizeTitle}`,
    titleWidth: onTop ? 140 : 176,
    unit: sizeUnit,
    ...wrap,
  });
  let height = 50 + extra; // the last block's, from its top
  if (presence) {
    next(50);
    const key = layer.append("g").attr("transform", `translate(${x}, ${y})`);
    const cy = drawPresenceKey(key, presence, onTop, widthOf);
    extra = cy - 6 - 32;
    height = cy - 2;
  }
  if (changes) {
    next(presence ? 34 : 50);
    drawChangeKey(layer.append("g").attr("transform", `translate(${x}, ${y})`), within);
    height = within ? 66 : 50;
  }
  if (small) {
    next(changes ? (within ? 66 : 50) : presence ? 34 : 50);
    height = 30;
    const g = layer.append("g").attr("class", "cct-small-key").attr("transform", `translate(${x}, ${y})`);
    g.append("circle")
      .attr("class", "cct-key-glyph")
      .attr("cx", 6)
      .attr("cy", 6)
      .attr("r", 5)
      .attr("fill", SMALL_FILL)
      .attr("stroke", "#444");
    // short, to stay inside the legends' column (the whole rule in its hover text); in a row on
    // top, on two lines (or cut) where the stage ends before it does
    const room = width > 0 ? width / scale - x - 16 - 4 : Infinity;
    const { lines } = wrapText(SMALL_KEY, Math.max(room, 1), widthOf, 2);
    const label = g.append("text").attr("x", 16).attr("y", 10);
    lines.forEach((line, i) => {
      label
        .append("tspan")
        .attr("x", 16)
        .attr("dy", i ? 13 : 0)
        .text(line);
    });
    label.append("title").text(`${small}: grey, not on the colour scale`);
  }
  const bottom = onTop ? LEGEND_BAND : y + height;
  layer.attr("data-bottom", bottom); // where the legends end (labels keep out of them)
  return bottom;
}

/** The font family the legends are drawn in on the page. @param {Element} node */
function legendFont(node) {
  const win = node.ownerDocument.defaultView;
  return (win && win.getComputedStyle(node).fontFamily) || "sans-serif";
}

/**
 * The key of the change rings: solid, the node's own change; dashed, one in what it calls; red
 * up, blue down; and, when the runs shown are of several configurations, that each change was
 * looked for within one (no ring marks a switch of configuration).
 * @param {import("d3-selection").Selection<SVGGElement, unknown, null, undefined>} g
 * @param {string} within
 */
function drawChangeKey(g, within) {
  g.attr("class", "cct-change-key");
  const items = /** @type {const} */ ([
    [RING_COLORS.up, null, "ring: own change, up"],
    [RING_COLORS.down, "3 2", "dashed: in callees"],
    [RING_COLORS.down, null, "blue: down"],
  ]);
  items.forEach(([color, dash, text], i) => {
    const cy = 6 + 16 * i;
    g.append("circle")
      .attr("class", "cct-key-ring")
      .attr("cx", 6)
      .attr("cy", cy)
      .attr("r", 5)
      .attr("fill", "none")
      .attr("stroke", color)
      .attr("stroke-width", 2)
      .attr("stroke-dasharray", dash);
    g.append("text")
      .attr("x", 16)
      .attr("y", cy + 4)
      .text(text);
  });
  if (within) {
    const note = g
      .append("text")
      .attr("class", "cct-change-within")
      .attr("x", 0)
      .attr("y", 6 + 16 * items.length + 4)
      .text(within.split(":")[0]); // "within 6 configurations"; which columns: on hover
    note.append("title").text(`changes looked for ${within}; none across a switch of configuration`);
  }
}

/** @type {Record<string, string>} */
const MAX_KIND_TITLE = { ratio: "ratio; glyphs: max", max: "glyphs: max" };

/**
 * The unit of a metric's values in the view: its unit in `units` (w.units), none for a ratio the
 * reducer made (the imbalance or std ÷ mean of a metric has no unit, whatever the metric's is); a
 * derived metric (w.derive, rule "expression") keeps the unit Python gives it, ratio or not.
 * @param {import("../../data/decode.js").Metric} m @param {Record<string, string>} units
 * @returns {string | null}
 */
export function metricUnit(m, units) {
  const kept = m.kind !== "ratio" || m.rule === "expression";
  return kept && Object.hasOwn(units, m.name) ? units[m.name] : null;
}

/** The unit a title names: the base ("usec" is s), or the text where it does not parse. @param {string} text */
function titleOf(text) {
  try {
    return unitTitle(parseUnit(text));
  } catch {
    return text;
  }
}

/**
 * A legend title: the metric, its kind and unit.
 * @param {import("../../data/decode.js").Metric} m @param {Record<string, string>} units
 */
export function metricTitle(m, units) {
  const text = metricUnit(m, units);
  const unit = text ? ` [${titleOf(text)}]` : "";
  // "time (exclusive)", but not "time (inc) (inclusive)": the kind only where the name does not say it
  const says = m.kind === "other" || m.name.includes(m.kind) || m.name.includes(`(${m.kind.slice(0, 3)}`);
  // a ratio or a maximum: its glyphs show the largest value they hide, which the title says
  const kind = MAX_KIND_TITLE[m.kind] ?? m.kind;
  return `${m.name}${says ? "" : ` (${kind})`}${unit}`;
}

/**
 * The legends of a view's pictures, each drawn on a legend layer only when what it shows changed
 * (a collapse or expand keeps the scales).
 * @param {import("../view.js").View} view its state (colour and size metrics), legend scale and place
 * @returns {(layer: import("d3-selection").Selection<SVGGElement, unknown, null, undefined>,
 *   pic: import("../../picture/picture.js").Picture, units: Record<string, string>) => void}
 */
export function viewLegends(view) {
  const { D, store } = view;
  /** @type {unknown[]} what the legends were last drawn from */
  let drawnFrom = [];
  return (layer, pic, units) => {
    const { table, scene } = pic;
    const colorMetric = /** @type {import("../../data/decode.js").Metric} */ (metricByName(table, store.view.colorBy));
    const sizeMetric = /** @type {import("../../data/decode.js").Metric} */ (metricByName(table, store.view.sizeBy));
    const share = legendShare(table, store.view, colorMetric, table.rowOf);
    const colorTitle = metricTitle(colorMetric, units) + (share ? ` — ${share.of}` : "");
    const small = judgedKey(judged(table, store.view));
    const sizeTitle = metricTitle(sizeMetric, units);
    // drawn again only when what they show changes: a collapse or expand keeps the scales
    const onTop = view.legendsOnTop;
    const key = [
      layer.node(),
      scene.legends,
      scene.size,
      share?.base,
      colorTitle,
      sizeTitle,
      onTop,
      D.legendScale,
      table.presenceLabels,
      small,
      table.changes,
      metricUnit(colorMetric, units),
      metricUnit(sizeMetric, units),
      view.camera.size.width,
    ];
    if (key.length === drawnFrom.length && key.every((v, i) => v === drawnFrom[i])) return;
    drawnFrom = key;
    drawLegends(layer, {
      legends: scene.legends,
      size: scene.size,
      format: share?.format,
      colorTitle,
      sizeTitle,
      onTop,
      scale: D.legendScale,
      presence: table.presenceLabels,
      small,
      changes: !!table.changes?.cause.some((c) => c > 0),
      within: table.changes?.within ?? "",
      colorUnit: metricUnit(colorMetric, units),
      sizeUnit: metricUnit(sizeMetric, units),
      width: view.camera.size.width,
    });
  };
}
