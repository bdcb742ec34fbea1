// The painter: draws a picture (picture/picture.js: view tree, layout, scene) on one of the two
// drawing backends, which it owns — marks, links, bands, legends (view-legends.js), labels
// (painter-labels.js), the selection's marks, status line and breadcrumb (painter-marks.js) —
// plus the hover tooltip. The picture is the view's (view.js, `view.shown`): the painter holds
// no data of its own. It reads the view state from the store and never
// changes it; node ids in and out are full-tree ids (rows are item keys here, see scene.js).

import { metricByName } from "../data/decode.js";
import { NO_KEY } from "../data/ids.js";
import { bandRules } from "../picture/bands.js";
import { callerSegments, NO_LINKS } from "../picture/links.js";
import { createCanvasBackend } from "./canvas/canvas-backend.js";
import { createPainterLabels } from "./labels/painter-labels.js";
import { viewLegends } from "./legend/view-legends.js";
import { createNavigation } from "./navigation.js";
import { createPainterMarks } from "./painter-marks.js";
import { createChangeRings } from "./svg/change-rings.js";
import { createSvgBackend } from "./svg/svg-backend.js";
import { createHover, createPin } from "./tooltip/hover.js";
import { createSpreads } from "./tooltip/spreads.js";

/** @typedef {import("../picture/picture.js").Picture} Picture */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */

/** @typedef {ReturnType<typeof createSvgBackend> | ReturnType<typeof createCanvasBackend>} Backend */
const CREATE_BACKEND = { svg: createSvgBackend, canvas: createCanvasBackend };

/**
 * @param {import("./view.js").View} view the view whose picture (`view.shown`) is drawn, on its screen
 * @param {import("./view.js").PainterHooks} hooks
 */
export function createPainter(view, { onBackend, dispatch, onSpread = null }) {
  const { D, store, camera, chrome, toolbar, doc } = view;
  // a node's rows (ranks…) spread, asked of Python on hover; null: no one to ask
  const spreads = createSpreads(onSpread);
  /** @type {Backend | null} */ let backend = null;
  const rings = createChangeRings(); // an ensemble's changes, on either backend
  /** @type {Record<string, string>} */ let units = {};

  const state = () => store.view;
  /** the picture drawn now (null: nothing yet) */
  const picture = () => view.shown;
  const drawable = () => view.drawable();
  const keyOf = (/** @type {NodeId} */ id) => view.keyOf(id);
  const screenOf = (/** @type {number} */ key) => view.screenOf(key);

  /** Switches to the SVG or canvas backend; gestures and zoom move to its surface. @param {"svg" | "canvas"} kind */
  function useBackend(kind) {
    if (backend?.kind === kind) return;
    backend?.destroy();
    const next = CREATE_BACKEND[kind](chrome.surface, { labelPx: D.labelPx });
    backend = next;
    next.resize(camera.size.width, camera.size.height);
    const svg = /** @type {SVGSVGElement} */ (next.svg);
    camera.attach(svg);
    next.setTransform(camera.transform);
    rings.attach(svg);
    rings.zoom(camera.transform.k);
    onBackend(svg);
  }
  /** @type {unknown} the tree (table.tree, or the table for one without a name) that "auto" has
   * drawn on canvas */
  let canvasTree = null;
  const treeOfTable = () => {
    const table = picture()?.table ?? null;
    return table?.tree ?? table;
  };
  /** "auto": canvas above `D.canvasAbove` drawn nodes, and from then on for the same tree. A
   * user collapsing and expanding a big subtree would otherwise switch surfaces each time, and
   * a new canvas costs its first frame a compositor commit of ~30 ms on top of the drawing. */
  const backendKind = () => {
    const chosen = state().backend;
    if (chosen !== "auto") return chosen;
    if ((picture()?.layout.keys.length ?? 0) > D.canvasAbove) canvasTree = treeOfTable();
    return canvasTree !== null && canvasTree === treeOfTable() ? "canvas" : "svg";
  };

  const pin = createPin({ doc, chrome, spreads, place: () => labels.placePinned(), units: () => units });
  /** Hover follows the pointer: a node's tooltip and label show while it is under it. */
  const hover = createHover(view, { spreads, backend: () => backend, units: () => units });

  /** The legends of the picture's scene, drawn again only when what they show changed. @param {Picture} pic */
  const legendsOf = viewLegends(view);
  const drawLegendsOf = (/** @type {Picture} */ pic) => backend && legendsOf(backend.legendLayer, pic, units);
  /** The marks of the picture's items, in tree order. @param {Picture} pic */
  const markList = ({ scene }) => scene.list;
  const labels = createPainterLabels(view, {
    backend: () => backend,
    matched: () => shown.matched(),
    units: () => units,
  });
  const updateLabels = () => labels.update();
  const shown = createPainterMarks(view, { backend: () => backend, pin, labels, dispatch });

  function draw() {
    const pic = drawable();
    if (!pic) return;
    const { table, tree, layout } = pic;
    useBackend(backendKind());
    drawLegendsOf(pic);
    const b = /** @type {NonNullable<typeof backend>} */ (backend);
    b.drawBands(bandRules(layout));
    b.drawLinks(pic.links);
    b.drawCallerLinks(state().callerEdges ? callerSegments(table, tree, layout) : NO_LINKS);
    const marks = markList(pic);
    b.drawNodes(marks);
    rings.draw(table, marks);
    shown.drawn(pic);
  }
  function restyle() {
    const pic = drawable();
    if (!pic) return;
    drawLegendsOf(pic);
    pin(pic.table, store.selection, state().colorBy);
    const marks = markList(pic);
    backend?.styleNodes(marks);
    rings.draw(pic.table, marks);
    updateLabels();
    histogram();
  }
  /** The toolbar's histogram of the colour metric, for `pic` (default: the picture drawn). */
  function histogram(pic = picture()) {
    const m = pic && metricByName(pic.table, state().colorBy);
    if (pic && m) toolbar?.setHistogram(m.values, state().colorScale, state().prune, pic.tree.hiddenCount);
  }

  /**
   * A new picture of another structure (collapse, prune, focus, roots) or table: drawn, and
   * fitted, or moved so that node `anchor.id` stays at `anchor.at` on screen.
   * @param {{ id: NodeId, at: { x: number, y: number } } | null} anchor
   */
  function rebuild(anchor = null) {
    const pic = picture();
    if (!pic) return;
    const { table, tree, layout } = pic;
    hover(null, null);
    // labels are placed once, where the camera ends (the end of its move places them), not
    // also where the old structure's zoom would show the new one
    labels.held(table.size, tree.items.length, draw);
    histogram();
    // labels placed later: those of the old structure would name the wrong places meanwhile
    labels.clearIfLater();
    const key = anchor === null ? NO_KEY : pic.keyOf(anchor.id);
    if (anchor && key >= 0 && tree.byKey.has(key)) camera.keep(anchor.at, layout.x[key], layout.y[key]);
    else fitToView();
    labels.updateUnlessAsked();
  }
  /** @param {boolean} [glide] animated, as navigation */
  function fitToView(glide = false) {
    const layout = picture()?.layout;
    if (!layout || layout.keys.length === 0) return;
    camera.fit(layout, glide); // its zoom ends with new labels (the camera's onEnd)
  }
  /** Pans (no zoom change) so that node `id` is in view: centred, or only if it is outside. */
  function centerOn(/** @type {NodeId} */ id, onlyIfOutside = false) {
    const pic = picture();
    const key = keyOf(id);
    if (pic && key >= 0 && pic.tree.byKey.has(key)) {
      camera.centerOn(pic.layout.x[key], pic.layout.y[key], onlyIfOutside);
    }
  }
  /** A new size of the drawing (the renderer spreads the picture's levels again, see `moved`). @param {number} w @param {number} h */
  function resize(w, h) {
    if (!(w > 0 && h > 0)) return;
    camera.setSize(w, h);
    backend?.resize(w, h);
    const pic = drawable();
    if (pic) drawLegendsOf(pic); // the keys keep within the stage's new width
  }
  /** The picture's nodes, links and bands where its layout now puts them (levels spread anew). */
  function moved() {
    const pic = drawable();
    if (!pic || !backend) return;
    const { table, tree, layout } = pic;
    drawLegendsOf(pic);
    backend.moveNodes(markList(pic));
    rings.draw(table, markList(pic));
    backend.drawLinks(pic.links);
    backend.drawCallerLinks(state().callerEdges ? callerSegments(table, tree, layout) : NO_LINKS);
    backend.drawBands(bandRules(layout));
  }
  /** After a new size: fitted again, unless the user moved the view (then its labels are placed anew). */
  function settleSize() {
    if (!camera.userMoved) fitToView();
    else updateLabels();
  }

  // where nodes and folds are on screen, and the moves that bring them into view
  const navigation = createNavigation(view, updateLabels);

  useBackend("svg");
  return {
    get backend() {
      return backend;
    },
    keyOf,
    screenOf,
    ...navigation,
    rebuild,
    draw,
    /** The toolbar's histogram for a picture about to be drawn (a big table's: a task of its own). */
    histogram,
    /** A new backend kind (the view state's `backend`): drawn again and fitted. */
    redrawBackend() {
      draw();
      fitToView();
    },
    restyle,
    updateLabels,
    fitToView,
    centerOn,
    resize,
    moved,
    settleSize,
    hover,
    /** A move of the camera ended: painted fully, labelled. */
    settle() {
      labels.gliding = false;
      backend?.settle();
      updateLabels();
    },
    /** The tooltip follows the pointer. @param {MouseEvent} event */
    moveTooltip(event) {
      chrome.tooltip.move(event, camera.size.width);
    },
    marks: shown.marks,
    /** The camera moved: the backend and the change rings follow. @param {{ x: number, y: number, k: number }} t @param {boolean} moving */
    setTransform(t, moving) {
      labels.gliding = moving;
      backend?.setTransform(t, moving);
      rings.zoom(t.k);
    },
    /** Forgets what was asked of Python about the last table (new data). */
    newTable() {
      spreads.clear();
    },
    /** @param {Record<string, string>} map */
    setUnits(map) {
      units = { ...map };
      restyle();
    },
    destroy() {
      labels.cancel();
      backend?.destroy();
      backend = null;
    },
  };
}
