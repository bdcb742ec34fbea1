// The widget: binds the Jupyter-agnostic renderer to the anywidget model. `createWidget(deps)`
// takes the renderer's modules (js/src/index.js hands in the real ones, tests fakes) and returns
// the anywidget module, `{ render }`. Each part is a file of its own: binding.js (traits ⇄
// renderer), lod-client.js (level-of-detail requests), screen.js (zoom and size for Python),
// snapshot.js (the notebook's static picture, sent to Python), download.js (toolbar downloads),
// replacement.js (a view JupyterLab replaced hands its zoom on), connection.js (a view whose
// kernel is gone says so and sends nothing).

import { bindTraits, traitWriter, viewState } from "./binding.js";
import { bindChanges, ringsAdded } from "./changes.js";
import { watchConnection } from "./connection.js";
import { DEAF_NOTE, watchDeafness } from "./deafness.js";
import { download } from "./download.js";
import { createConnectionNote, createErrorReport } from "./errors.js";
import { keepKeys } from "./keys.js";
import { createLodClient } from "./lod-client.js";
import { bindPane } from "./pane.js";
import { watchRefusals } from "./refusals.js";
import { rememberZoom, replacedZoomOf, watchRemoval } from "./replacement.js";
import { afterFrame, createSaves } from "./saves.js";
import { createScreenReport } from "./screen.js";
import { bindSearch } from "./search.js";
import { createSnapshots, followedByPicture, markStatic } from "./snapshot.js";
import { bindStrip } from "./strip.js";
import { watchTheme } from "./theme.js";
import { bindTrend } from "./trend.js";

/**
 * @typedef {import("./model.js").CCTModel} CCTModel
 * @typedef {import("./model.js").Traits} Traits
 * @typedef {import("./renderer-api.js").TableLike} TableLike
 */

/** Room for the toolbar and status line in the first guess at the drawing's height. */
const CHROME_HEIGHT = 90;

/**
 * The anywidget module of cctviz.CCT, drawing with `deps`. Typed as anywidget's own types say
 * (@anywidget/types): the type checker thereby checks that anywidget's model fits `CCTModel`.
 * @template {TableLike} T
 * @param {import("./renderer-api.js").Deps<T>} deps
 * @returns {{ initialize: import("@anywidget/types").Initialize<Traits>,
 *   render: import("@anywidget/types").Render<Traits> }}
 */
export function createWidget(deps) {
  return {
    initialize: ({ model }) => releaseWhenClosed(model),
    render: ({ model, el }) => renderView(deps, model, el),
  };
}

/**
 * A model Python closed (`w.close()`) lets go of its node table. JupyterLab keeps a closed
 * model's object for as long as the page lives (its comm's close handler stays registered), and
 * with it the payload's buffers: a display cell run again after `w.close()` kept each run's
 * table. Its views are gone by then, and no view of a closed model can be made.
 * @param {CCTModel} model
 */
function releaseWhenClosed(model) {
  // after the views have gone (each lets go of the model at comm:close, see renderView); twice,
  // as a Backbone model keeps the value before its latest change (`_previousAttributes`)
  const release = () => {
    model.set("_payload", { released: true });
    model.set("_payload", {});
  };
  model.on("comm:close", () => setTimeout(release, 0));
}

/**
 * Draws the view of `model` into `el`.
 * @template {TableLike} T
 * @param {import("./renderer-api.js").Deps<T>} deps
 * @param {CCTModel} model
 * @param {HTMLElement} el
 * @returns {() => void} the cleanup: stops every listener, timer and observer, removes the view
 */
function renderView(deps, model, el) {
  el.classList.add("cctviz");
  const releaseKeys = keepKeys(el);
  /** @type {T | null} the table drawn now */
  let table = null;
  let started = false;
  let disposed = false;

  // what the user changes reaches Python after the frame showing it; every other message and
  // save goes through `messenger`, which sends what waits first (see createSaves)
  const win = el.ownerDocument.defaultView ?? window;
  // without a kernel the view says so, refuses requests and sends nothing (connection.js)
  const connectionNote = createConnectionNote(el);
  const connection = watchConnection(model, (live) => {
    connectionNote.show(live);
    if (!live) lod.cutOff();
    else paneBinding?.reload(); // the kernel is back: rows refused meanwhile load
  });
  const saves = createSaves(model, afterFrame(win), connection.model);
  const messenger = saves.messenger;
  const errors = createErrorReport(messenger, el);
  const stopRefusals = watchRefusals(model, (error) => errors.report(error, "trait"));
  const screen = createScreenReport(messenger);
  const lod = createLodClient(messenger, { live: () => connection.live, refused: connectionNote.flash });
  /** @returns {import("./renderer-api.js").ViewFigure<T> | null} */
  const current = () => {
    if (!table) return null;
    const [width, height] = stageSize();
    const options = {
      width,
      height,
      selection: renderer.selection,
      units: model.get("units") ?? {},
      transform: screen.zoomed,
    };
    return { table, state: renderer.state, options };
  };
  const snapshots = createSnapshots({
    model: messenger,
    el,
    current,
    figureSteps: deps.figureSteps,
    svgToPng: deps.svgToPng,
    picture: (scale) => renderer.picture?.(scale) ?? null,
  });
  // no picture is drawn for a Python that is gone
  const changed = () => {
    if (connection.live && el.dataset.cctStatic) snapshots.schedule();
  };
  const unmark = markStatic(model, el, changed);
  // a model anywidget gave up on missed Python's messages: the view hides its picture's note
  // itself, draws the picture, and gets its messages back (deafness.js)
  watchDeafness(connection.found, {
    deaf() {
      if (disposed || el.dataset.cctStatic || !followedByPicture(el)) return;
      el.dataset.cctStatic = "follows";
      changed();
    },
    recovered: () => {
      if (!disposed && started) onData(); // the whole state again, with what the view missed
    },
    lost: () => disposed || errors.report(new Error(DEAF_NOTE), "trait"),
  }).catch(() => {});
  const toTraits = traitWriter(model, changed, saves.save);
  // the tree and the table pane side by side (or the pane below, in narrow cells)
  const body = el.ownerDocument.createElement("div");
  body.className = "cct-body";
  el.append(body);
  /** @type {ReturnType<typeof bindPane> | null} */
  let paneBinding = null;
  const renderer = deps.createRenderer(body, {
    width: el.clientWidth || 800,
    height: model.get("height") - CHROME_HEIGHT, // a first guess: start() sizes it to the stage
    onSelect(ids) {
      toTraits.onSelect(ids);
      paneBinding?.treeSelected(ids);
    },
    onChange: toTraits.onChange,
    onZoom(t) {
      screen.zoomEnded(t);
      changed();
    },
    onDownload(format) {
      const figure = current();
      if (!figure) return;
      // an ensemble's trend pane goes below the tree, as in w.save (cctviz/figure/of_view.py)
      Object.assign(figure.options, { trend: model.get("_trend"), trendLog: model.get("trend_log") });
      download(format, figure, deps, el.ownerDocument).catch((error) =>
        errors.report(new Error(`the ${format.toUpperCase()} download failed: ${error?.message ?? error}`), "download"),
      );
    },
    onSpread: (node, metric) => lod.distribution(node, metric),
    onFind: (node, step) => lod.find(node, step),
    onReducer(reducer) {
      if (!connection.live) connectionNote.flash();
      // Python reduces the rows again and sends the new table
      messenger.set("reducer", /** @type {import("./model.js").Traits["reducer"]} */ (reducer));
      messenger.save_changes();
    },
    onLoadMore(node) {
      // the user opened a fold: load more of it. Errors are reported by the client; a request
      // cut short by closing the view is no news
      lod.loadMore(node).catch(() => {});
    },
  });
  // a handle for tests and the browser console: el.cctRenderer.screenPosition(id)
  Object.defineProperty(el, "cctRenderer", { value: renderer, configurable: true });
  /** the payload the renderer drew last (a newer one in the model is waiting for its onData) */
  let drawnPayload = /** @type {unknown} */ (null);
  const unbind = bindTraits(
    model,
    renderer,
    changed,
    (error) => errors.report(error, "trait"),
    () => started && model.get("_payload") !== drawnPayload,
  );
  // the host's theme outside JupyterLab; a live switch paints the canvas again
  const stopTheme = watchTheme(el, () => {
    renderer.refreshTheme?.();
    changed();
  });
  // an ensemble's changes: asked for once a tree is drawn; "compare runs" shows its compare view
  const changes = bindChanges({ model, el, body, client: lod, later: afterFrame(win) });
  const createPane = deps.createTablePane;
  if (createPane) paneBinding = bindPane({ model: messenger, body, client: lod, create: createPane, changes });
  paneBinding?.layout(el.clientWidth);
  // an ensemble's profile strip, first in the body: beside the tree, above it in narrow cells
  const strip = deps.createProfileStrip
    ? bindStrip({ model: messenger, body, client: lod, create: deps.createProfileStrip })
    : null;
  // under level of detail, Python's count of the search's matches; steps Python took
  const stopSearch = bindSearch({ model, renderer });
  // an ensemble's trend pane, below the body (the tree keeps the width); selects as the tree does
  const trend = deps.createTrendPane
    ? bindTrend({ model: messenger, el, renderer, create: deps.createTrendPane })
    : null;

  // the drawing fills the stage, below the toolbar (which wraps on narrow cells)
  /** @returns {[number, number]} */
  const stageSize = () => [renderer.stage.clientWidth, renderer.stage.clientHeight];

  /** @param {unknown} error */
  const showError = (error) => errors.report(error, "data", true);

  const onData = () => {
    if (!started) return;
    // the rings of an ensemble's changes came: the zoom the user set stays
    const zoom = ringsAdded(drawnPayload, model.get("_payload")) ? screen.zoomed : null;
    drawnPayload = model.get("_payload");
    try {
      table = deps.decodeTable(model.get("_payload"));
      if (body.parentNode !== el) {
        errors.clear();
        el.replaceChildren(body, ...(trend ? [trend.pane.element] : [])); // after an error
        connectionNote.show(connection.live);
      }
      // an expansion waiting for its reply: its node stays where it is on screen
      renderer.setData(table, viewState(model), { anchor: lod.anchor });
      renderer.setSelection(model.get("selection") ?? []);
      if (zoom) renderer.setTransform(zoom);
      changes.drawn();
    } catch (error) {
      table = null;
      showError(error);
    }
    changed();
  };
  model.on("change:_payload", onData);
  // a closed model's views are removed by the host; this one stops at once (see releaseWhenClosed)
  const onClosed = () => {
    saves.cancel(); // a closed model takes no message
    dispose();
  };
  model.on("comm:close", onClosed);

  let stopWatching = () => {};
  // Draw once the cell has its real width (the element is often not in the page yet when render
  // runs); drawing at a guessed width would lay out and draw everything twice.
  const start = () => {
    if (started) return;
    started = true;
    // measured once: drawing does not size the stage (CSS does), and reading it again after
    // drawing would lay the new drawing out at once; a later change comes to onResize
    const size = stageSize();
    renderer.resize(...size);
    onData();
    screen.sized(...size);
    stopWatching = watchRemoval(el, () => {
      rememberZoom(model.get("_payload"), screen.zoomed);
      dispose();
    });
    const zoom = replacedZoomOf(model.get("_payload"));
    if (zoom) renderer.setTransform(zoom);
  };

  let frame = 0;
  const onResize = () => {
    if (!started) {
      if (renderer.stage.clientWidth > 0) start();
      return;
    }
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      paneBinding?.layout(el.clientWidth);
      renderer.resize(...stageSize());
      screen.sized(...stageSize());
      changed();
    });
  };
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(onResize);
  observer?.observe(renderer.stage);

  try {
    renderer.setUnits(model.get("units") ?? {});
    renderer.setState(viewState(model));
    // with an observer, its first report starts (it comes with the next frame, also when the
    // element is in the page already): making the view and drawing it are two tasks, not one
    // long one, and reading the width here would lay the page out for nothing
    if (!observer) start();
  } catch (error) {
    showError(error);
  }

  function dispose() {
    if (disposed) return;
    disposed = true;
    saves.flush(); // what the user changed last still reaches Python
    releaseKeys();
    stopTheme();
    stopWatching();
    observer?.disconnect();
    cancelAnimationFrame(frame);
    model.off("change:_payload", onData);
    model.off("comm:close", onClosed);
    unbind();
    stopSearch();
    stopRefusals();
    paneBinding?.dispose();
    changes.dispose();
    strip?.dispose();
    trend?.dispose();
    lod.dispose();
    screen.dispose();
    snapshots.dispose();
    unmark();
    connection.dispose();
    renderer.destroy();
    // Jupyter may keep a removed view object alive as long as its model (ipywidgets keeps every
    // model until it is closed): let go of the tree and the drawing so only an empty element stays
    Reflect.deleteProperty(el, "cctRenderer");
    table = null;
  }
  return dispose;
}
