// Static figures: the view drawn by the same renderer as the widget, always with the SVG
// backend, then made standalone (every style a presentation attribute, fonts with fallbacks, no
// external reference) with a title and provenance metadata. Used by the headless export
// (figure-page.js, driven from Python) and by the widget's static fallback image.
import { select } from "d3-selection";
import { asRow } from "../data/ids.js";
import { textWidth } from "../draw/labels/text-measure.js";
import { drawGlyphKey, figureStyle, glyphsOf, inlineStyles } from "../draw/legend/figure-style.js";
import { figureLegends } from "../draw/legend/legend.js";
import { LEGEND_BAND } from "../draw/legend/view-legends.js";
import { SVG_NS } from "../draw/svg/overlay.js";
import { asTrend } from "../trend/trend-data.js";
import { drawTrendFigure, trendFigureHeight } from "../trend/trend-figure.js";
import { createRenderer } from "../view/renderer.js";
import { describeFigure } from "./figure-metadata.js";

export { PROVENANCE_NS } from "./figure-metadata.js";

/** Narrower figures get their legends in a row above the tree rather than in a left column. */
const LEGENDS_ON_TOP_BELOW = 600;
/** A first guess of the legend band on top (at 11 px text): title, circles, values and a key line. */
const GUESS_BAND = 80;
/** Width of the legend column left of the tree in wider figures (at 11 px text). */
const LEFT_COLUMN = 170;

/**
 * @typedef {object} FigureOptions
 * @property {number} width layout width in CSS pixels
 * @property {number} height
 * @property {string} [widthAttr] the SVG's width attribute, e.g. "3.5in" (default: pixels)
 * @property {string} [heightAttr]
 * @property {"screen" | "paper"} [style]
 * @property {string | null} [fontFamily]
 * @property {number | null} [fontSize] points
 * @property {import("../data/ids.js").NodeId[]} [selection]
 * @property {Record<string, string>} [units] metric name → unit, for the legend titles
 * @property {string} [title]
 * @property {Record<string, unknown> | null} [provenance] written as JSON into <metadata>
 * @property {{ x: number, y: number, k: number } | null} [transform] the zoom and pan of the
 *   view on screen (same size): the figure shows that part; null fits the whole tree
 * @property {unknown} [trend] an ensemble view's trend pane (Python's `_trend`), drawn below the
 *   tree in the figure's height
 * @property {boolean} [trendLog] its log axes
 * @property {boolean} [fit] a fitted figure folds what is open further where its rows cannot be
 *   told apart (default true; false: the view's `fold_to_fit` is off, every open node is drawn)
 */
/** The least height of the tree in a figure with a trend pane. */
const MIN_TREE = 160;
/** @typedef {import("../draw/legend/figure-style.js").FigureStyle} FigureStyle */
/** @typedef {{ x: number, y: number, width: number, height: number }} Box CSS pixels */

/**
 * The view of `table` in `state` as a standalone SVG document.
 * @param {import("../data/decode.js").Table} table
 * @param {Partial<import("../view/renderer.js").ViewState>} state
 * @param {FigureOptions} asked
 * @returns {{ svg: string, nodes: number, folded: number }} the SVG text, how many node marks it
 *   holds, and how many nodes the state has open that it folded to fit (see `draw`)
 */
export function figureSVG(table, state, asked) {
  const steps = figureSteps(table, state, asked);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * figureSVG in steps: it pauses after each drawing of the tree (one to three, see below), so that
 * a caller in no hurry (the view's static picture, snapshot.js) gives the page its main thread
 * between them; no step is a long task where the whole would be. Ended early (`return()`), it
 * removes what it drew off screen.
 * @param {import("../data/decode.js").Table} table
 * @param {Partial<import("../view/renderer.js").ViewState>} state
 * @param {FigureOptions} asked
 * @returns {Generator<void, { svg: string, nodes: number, folded: number }, void>}
 */
export function* figureSteps(table, state, asked) {
  const { width } = asked;
  if (!(width > 0 && asked.height > 0))
    throw new RangeError(`figure size must be positive; got ${width} × ${asked.height}`);
  const style = figureStyle(asked.style ?? "screen", asked);
  // an ensemble's trend pane takes the bottom of the figure; the tree the rest
  const trend = asTrend(asked.trend ?? null);
  const below = trend ? Math.max(0, Math.min(trendFigureHeight(trend, width, style), asked.height - MIN_TREE)) : 0;
  const height = asked.height - below;
  const options = { ...asked, height };
  /** @type {Partial<import("../view/renderer.js").ViewState>} */
  const view = { ...state, backend: "svg" };
  // the paper palette (cividis) replaces "auto" for one-signed metrics; a metric that changes
  // sign keeps "auto": a diverging palette centred on 0, as on screen
  if (style.palette && (view.palette ?? "auto") === "auto" && !changesSign(table, view.colorBy ?? "")) {
    view.palette = style.palette;
  }
  // The legends are laid out once the figure shows which glyphs need a key; the tree gets the
  // room they leave. A first drawing with a guessed room tells how much they need; a second one
  // folds to fit the room left; should its glyphs need another room, a third keeps its folds.
  const onTop = width < LEGENDS_ON_TOP_BELOW;
  // (a column on the left keeps labels out of a little more than it needs: no second drawing)
  let scale = (onTop ? GUESS_BAND / LEGEND_BAND : 1.5) * (style.fontPx / 11);
  let drawn = view;
  let drawing = draw(table, drawn, options, style, scale);
  let folded = drawing.folded;
  try {
    for (let pass = 1; pass < 3; pass++) {
      const wrong = drawing.legends - drawing.keptOut;
      if (!(wrong > 0.5 || (onTop && wrong < -6))) break;
      yield;
      if (pass === 2) drawn = { ...view, collapsed: drawing.renderer.state.collapsed, foldToFit: false };
      const kept = drawn === view ? 0 : folded; // a third drawing keeps the second's folds
      scale *= drawing.legends / drawing.keptOut;
      drawing.destroy();
      drawing = draw(table, drawn, options, style, scale);
      folded = kept + drawing.folded;
    }
    yield;
    const { renderer } = drawing;
    const svg = renderer.svg;
    inlineStyles(svg, style, renderer.transform.k);
    // a zoomed view shows its frame, as on screen; a fitted one grows to keep every label whole
    const box = options.transform ? { x: 0, y: 0, width, height } : contentBox(svg, width, height);
    if (trend) {
      const at = { x: box.x, y: box.y + box.height, width: box.width, log: options.trendLog === true };
      drawTrendFigure(svg, trend, { ...at, look: style });
      box.height += trendFigureHeight(trend, box.width, style);
    }
    frame(svg, box, style, asked);
    describe(svg, table, options, folded);
    const nodes = svg.querySelectorAll(".cct-node").length;
    return { svg: new XMLSerializer().serializeToString(svg), nodes, folded };
  } finally {
    drawing.destroy();
  }
}

/**
 * The view drawn by a renderer laid out in the page (off screen, so that the browser measures the
 * text), its legends laid out for the figure.
 * @param {import("../data/decode.js").Table} table
 * @param {Partial<import("../view/renderer.js").ViewState>} view
 * @param {FigureOptions} options @param {FigureStyle} style
 * @param {number} legendScale the renderer keeps the legends' room as its legend band (on top) or
 *   column (on the left) times this; the legends it draws are replaced here
 * @returns {{ renderer: ReturnType<typeof createRenderer>, legends: number, keptOut: number, folded: number, destroy: () => void }}
 *   `legends`: the height the legends take; `keptOut`: the height labels keep clear of; `folded`:
 *   the nodes open in `view` folded away to fit (a fitted figure of a view opened wider than its
 *   size draws legibly: the smallest subtrees fold, the hot path and the selection's ancestors stay)
 */
function draw(table, view, options, style, legendScale) {
  const { width, height } = options;
  const doc = globalThis.document;
  const host = doc.createElement("div");
  Object.assign(host.style, {
    position: "absolute",
    left: "-100000px",
    top: "0",
    width: `${width}px`,
    height: `${height}px`,
  });
  doc.body.append(host);
  const onTop = width < LEGENDS_ON_TOP_BELOW;
  const column = LEFT_COLUMN * (style.fontPx / 11);
  const renderer = createRenderer(host, {
    width,
    height,
    toolbar: false,
    layout: {
      labelPx: style.fontPx,
      fontFamily: style.fontFamily,
      legendScale,
      legendPosition: onTop ? "top" : "left",
      legendRoom: onTop ? 0 : column + 12,
      // a column-wide figure cannot spare the widget's margins, but keeps a label's height
      // above the top row and below the bottom one; labels that still stick out shrink the
      // figure a little (contentBox) rather than being clipped
      margin: onTop ? Math.round(style.fontPx + 8) : 24,
      labelRoom: Math.min(180, 0.3 * width),
      minLevelWidth: 32,
      // a figure folds its hot path too rather than squeeze rows until marks overlap
      foldHotPath: true,
      fitMarksToRows: true,
      // marks in proportion to small text (a paper figure's 8 pt): at most the widget's
      rMax: Math.min(9, 0.65 * style.fontPx),
      // the tree takes the room the legends leave, however few its rows (no empty band)
      maxFitScale: 12,
      labelsLaterAbove: Number.POSITIVE_INFINITY, // a figure is taken at once: labels included
      firstLabelsLaterAbove: Number.POSITIVE_INFINITY,
      drawLaterAbove: Number.POSITIVE_INFINITY, // and drawn at once
      firstDrawLaterAbove: Number.POSITIVE_INFINITY,
    },
  });
  let gone = false;
  const destroy = () => {
    if (gone) return;
    gone = true;
    renderer.destroy();
    host.remove();
  };
  try {
    renderer.setUnits(options.units ?? {});
    renderer.setData(table, view);
    renderer.setSelection(options.selection ?? []);
    // a zoomed view shows the frame the user chose; a fitted one folds to fit the figure
    const folded = options.transform || options.fit === false ? 0 : renderer.foldToRoom(options.selection ?? []);
    if (options.transform) renderer.setTransform(options.transform);
    const svg = renderer.svg;
    const layer = /** @type {SVGGElement} */ (svg.querySelector(".cct-legends"));
    // a compare view's runs are keyed with the other glyphs, below the legends
    // the figure's own key (glyphsOf) says what squares, hexagons and grey nodes are
    for (const key of layer.querySelectorAll(".cct-presence-key, .cct-small-key, .cct-change-key")) key.remove();
    const colours = layer.querySelectorAll(".cct-color-legend").length;
    const measure = textWidth(doc, style);
    const room = { width: onTop ? width : column, onTop, fontPx: style.fontPx, measure };
    let legendsEnd = figureLegends(select(layer), room);
    // legends on top take at most about a quarter of a small figure: compact ones if need be
    if (onTop && legendsEnd > height / 5) legendsEnd = figureLegends(select(layer), { ...room, compact: true });
    const key = glyphsOf(svg, table.presenceLabels);
    const at = { x: 8, y: legendsEnd, width: (onTop ? width : column) - 16 };
    const legends = Math.ceil(
      (key.length ? drawGlyphKey(select(layer), key, { fontPx: style.fontPx, measure }, at) : legendsEnd) + 4,
    );
    // rules between the bands of several roots start right of a legend column they would cross
    for (const rule of onTop ? [] : svg.querySelectorAll(".cct-bands line")) {
      if (Number(rule.getAttribute("y1")) <= legends + 2) rule.setAttribute("x1", String(column + 12));
    }
    // the room the renderer keeps (painter.js): the band on top, a column as tall as 1 to 6 colour legends
    const units = onTop ? LEGEND_BAND : 16 + 46 * Math.min(6, colours) + 50;
    return { renderer, legends, keptOut: units * legendScale, folded, destroy };
  } catch (error) {
    destroy();
    throw error;
  }
}

/**
 * Whether the metric has values on both sides of 0 (on a linear scale "auto" then diverges).
 * @param {import("../data/decode.js").Table} table @param {string} name
 */
function changesSign(table, name) {
  const m = table.metrics.find((x) => x.name === name);
  if (!m) return false;
  let neg = false;
  let pos = false;
  for (let r = 0; r < table.size; r++) {
    if (table.idOf(asRow(r)) < 0) continue;
    const v = m.values[r];
    if (v < 0) neg = true;
    else if (v > 0) pos = true;
  }
  return neg && pos;
}

/**
 * What the drawing covers, the view's frame included: labels that stick out of the frame widen
 * the box, so the figure shrinks a little rather than clip them. jsdom cannot measure: the frame.
 * @param {SVGSVGElement} svg
 * @param {number} width the view's frame
 * @param {number} height
 * @returns {Box}
 */
function contentBox(svg, width, height) {
  const frameBox = { x: 0, y: 0, width, height };
  if (typeof svg.getBBox !== "function") return frameBox;
  const b = svg.getBBox();
  const pad = 4; // strokes are outside getBBox, and a little air looks better
  const x0 = Math.min(0, b.x - pad);
  const y0 = Math.min(0, b.y - pad);
  const x1 = Math.max(width, b.x + b.width + pad);
  const y1 = Math.max(height, b.y + b.height + pad);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Size, view box and background: the content box shown at the requested size.
 * @param {SVGSVGElement} svg
 * @param {Box} box
 * @param {FigureStyle} s
 * @param {FigureOptions} options
 */
function frame(svg, box, s, options) {
  svg.setAttribute("version", "1.1");
  svg.setAttribute("width", options.widthAttr ?? String(options.width));
  svg.setAttribute("height", options.heightAttr ?? String(options.height));
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  const bg = svg.ownerDocument.createElementNS(SVG_NS, "rect");
  for (const [name, value] of Object.entries({ class: "cct-background", fill: s.background, ...box })) {
    bg.setAttribute(name, String(value));
  }
  svg.insertBefore(bg, svg.querySelector(".cct-bands") ?? svg.querySelector(".cct-viewport"));
}

/**
 * <title> and <metadata> of the tree's figure.
 * @param {SVGSVGElement} svg
 * @param {import("../data/decode.js").Table} table
 * @param {FigureOptions} options @param {number} folded nodes open in the view folded to fit
 */
function describe(svg, table, options, folded) {
  const note = folded > 0 ? `; ${folded.toLocaleString("en-US")} open nodes folded to fit` : "";
  const title = options.title ?? `Calling context tree (${table.size.toLocaleString("en-US")} nodes${note})`;
  const provenance = { ...(options.provenance ?? {}), ...(folded > 0 ? { folded_to_fit: folded } : {}) };
  describeFigure(svg, title, provenance);
}
