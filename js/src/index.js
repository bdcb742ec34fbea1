// Entry point of the anywidget bundle (built into cctviz/widget/static/widget.js): the widget
// glue (js/src/widget/) drawing with the renderer's modules (js/src/cct/).
// The styles: one file per folder, imported here in the folders' layer order (js/layers.mjs),
// which is the cascade's (a folder's rules after those of the folders below it, the widget's
// last); js/test/styles.test.js checks both
import "./cct/input/input.css";
import "./cct/draw/draw.css";
import "./cct/pane/pane.css";
import "./cct/strip/strip.css";
import "./cct/trend/trend.css";
import "./cct/view/view.css";
import "./widget/widget.css";
import { decodeTable } from "./cct/data/decode.js";
import { figureSteps, figureSVG } from "./cct/figure/figure.js";
import { svgToPng } from "./cct/figure/rasterize.js";
import { createTablePane } from "./cct/pane/table-pane.js";
import { createProfileStrip } from "./cct/strip/profile-strip.js";
import { createTrendPane } from "./cct/trend/trend-pane.js";
import { createRenderer } from "./cct/view/renderer.js";
import { createWidget } from "./widget/index.js";

// PNG: the SVG drawn onto a canvas of the exact pixel size (no screenshot of the page)
export { svgToPng as cctvizPng } from "./cct/figure/rasterize.js";
// the headless figure page of cctviz.export (cctviz/figure/render.py) imports this bundle too
export { cctvizFigure, cctvizTableFigure } from "./figure-page.js";

export default createWidget({
  createRenderer,
  createTablePane,
  createProfileStrip,
  createTrendPane,
  decodeTable,
  figureSVG,
  figureSteps,
  svgToPng,
});
