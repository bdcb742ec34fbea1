// The thin widget layer: binds the Jupyter-agnostic renderer to the anywidget model.
import { decodeTable } from "./cct/decode.js";
import { figureSVG } from "./cct/figure.js";
import { svgToPng } from "./cct/rasterize.js";
import { createRenderer } from "./cct/renderer.js";
import { registerFallback } from "./fallback.js";
import { changeToIds, idMapping, rowsOf, stateToRows } from "./ids.js";

/** How long the view has to stay unchanged before its fallback image is drawn again. */
const SNAPSHOT_DELAY_MS = 1000;
/** Above this many rows the fallback image is not drawn: redrawing the whole tree as SVG after
 * every change would stall the page for seconds (level of detail keeps tables far smaller). */
const SNAPSHOT_MAX_ROWS = 20_000;
/** Zoom of views that JupyterLab replaced (see watchRemoval), for the view that replaces them;
 * keyed by the model's payload, the one object all views of a model share. */
const replacedZoom = new WeakMap();

/** Traits of cctviz.CCT (see cctviz/widget/cct.py) ⇄ keys of the renderer's view state. */
const STATE_TRAITS = {
  color_by: "colorBy",
  size_by: "sizeBy",
  color_scale: "colorScale",
  backend: "backend",
  palette: "palette",
  legend: "legend",
  collapsed: "collapsed",
  prune_range: "prune",
  focused: "focus",
  visible_roots: "roots",
  search: "search",
  search_regex: "searchRegex",
  search_case: "searchCase",
  highlighted: "highlighted",
};
const TRAIT_OF = Object.fromEntries(Object.entries(STATE_TRAITS).map(([t, k]) => [k, t]));

/** @param {{ model: any, el: HTMLElement }} context */
function render({ model, el }) {
  el.classList.add("cctviz");
  const renderer = createRenderer(el, {
    width: el.clientWidth || 800,
    height: model.get("height") - 90, // a first guess: start() sizes it to the stage
    // the renderer speaks rows of the table it has; traits hold ids of the full tree
    onSelect(rows) {
      model.set("selection", rows.map(ids.toId));
      model.save_changes();
      scheduleSnapshot();
    },
    onChange(state) {
      const change = changeToIds(ids, state, (key) => model.get(TRAIT_OF[key]));
      for (const [key, value] of Object.entries(change)) model.set(TRAIT_OF[key], value);
      model.save_changes();
      scheduleSnapshot();
    },
    onZoom(t) {
      // Python draws figures of what is on screen: it needs the zoom (null: fitted)
      zoomed = t;
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(() => {
        model.set("_view_transform", t ? [t.x, t.y, t.k] : null);
        model.save_changes();
      }, 200);
      scheduleSnapshot();
    },
    onDownload(format) {
      void download(format);
    },
    onExpand(row) {
      // a fold row of level of detail: ask Python for the next children of its parent
      const parentRow = table.parent[row];
      const node = parentRow >= 0 ? ids.toId(parentRow) : -1;
      const at = parentRow >= 0 ? renderer.screenPosition(parentRow) : null;
      const request = ++requests;
      pending.set(request, { node, at, zoom: renderer.transform });
      model.send({ type: "expand", id: request, node });
    },
  });
  /** the zoom the user set (null: fitted), and the timer that reports it to Python */
  let zoomed = null;
  let zoomTimer = 0;
  /** id ⇄ row mapping of the table drawn now (see ids.js) */
  let ids = idMapping({ size: 0, nodeId: null });
  // for tests and the console: el.cctIds.toRow(id), el.cctIds.toId(row)
  Object.defineProperty(el, "cctIds", { get: () => ids, configurable: true });
  let requests = 0;
  /** expansions sent to Python, by request id: where the expanded node was on screen */
  const pending = new Map();
  const onMessage = (message) => {
    if (message?.type !== "reply" || !pending.has(message.id)) return;
    pending.delete(message.id);
    if (!message.ok) console.warn(`cctviz: ${message.error}`);
  };
  // The height goes on our own element: ipywidgets' layout view may reset the style of `el`.
  const setHeight = () => {
    renderer.element.style.height = `${model.get("height")}px`;
  };
  setHeight();
  // a handle for tests and debugging in the browser console: el.cctRenderer.screenPosition(id)
  Object.defineProperty(el, "cctRenderer", { value: renderer, configurable: true });

  const traitState = (traits) =>
    stateToRows(ids, Object.fromEntries(traits.map((t) => [STATE_TRAITS[t], model.get(t) ?? null])));
  const showError = (error) => {
    const box = el.ownerDocument.createElement("div");
    box.className = "cct-error";
    box.textContent = `cctviz could not draw this profile: ${error.message}`;
    el.replaceChildren(box);
  };

  // JupyterLab renders an output again when its data change (the fallback image is written
  // at save): the new view takes this element's place without removing this view. A view whose
  // element left its parent is gone for good (a cell scrolled out of the window moves with its
  // parent), so it stops listening.
  let removal = null;
  function watchRemoval() {
    const parent = el.parentNode;
    if (!parent || typeof MutationObserver === "undefined") return;
    removal = new MutationObserver(() => {
      if (el.parentNode === parent || disposed) return;
      // only a zoom the user set carries over; a fitted view fits again
      if (zoomed) replacedZoom.set(model.get("_payload"), zoomed);
      else replacedZoom.delete(model.get("_payload"));
      dispose();
    });
    removal.observe(parent, { childList: true });
  }

  let started = false;
  /** @type {import("./cct/decode.js").Table | null} */
  let table = null;
  const onData = () => {
    if (!started) return;
    try {
      table = decodeTable(model.get("_payload"));
      ids = idMapping(table);
      // an expansion answered: keep the expanded node where it was on screen, at the same zoom
      const expanded = [...pending.values()].at(-1);
      renderer.setData(table, traitState(Object.keys(STATE_TRAITS)));
      renderer.setSelection(rowsOf(ids, model.get("selection")));
      if (expanded?.at) keepInPlace(expanded);
    } catch (error) {
      table = null;
      showError(error);
    }
    scheduleSnapshot();
  };
  // one listener per trait (anywidget's model contract has "change:<name>" events only)
  const stateListeners = Object.keys(STATE_TRAITS).map((trait) => [
    `change:${trait}`,
    () => {
      renderer.setState(traitState([trait]));
      scheduleSnapshot();
    },
  ]);
  const onSelection = () => {
    const rows = rowsOf(ids, model.get("selection"));
    const current = renderer.selection;
    if (rows.length !== current.length || rows.some((id, i) => id !== current[i])) {
      renderer.setSelection(rows);
      scheduleSnapshot();
    }
  };
  function keepInPlace({ node, at, zoom }) {
    const row = ids.toRow(node);
    if (row < 0) return;
    renderer.setTransform(zoom);
    const now = renderer.screenPosition(row);
    renderer.setTransform({ x: zoom.x + at.x - now.x, y: zoom.y + at.y - now.y, k: zoom.k });
  }
  const onUnits = () => {
    renderer.setUnits(model.get("units") ?? {});
    scheduleSnapshot();
  };
  // the drawing fills the stage, below the toolbar (which wraps on narrow cells)
  const stageSize = () => [renderer.stage.clientWidth, renderer.stage.clientHeight];
  const onHeight = setHeight;
  /** Python draws figures at the size the view has on screen (CCT.to_svg, CCT.save). */
  const reportSize = () => {
    const [w, h] = stageSize();
    const known = model.get("_stage_size") ?? [];
    if (w > 0 && h > 0 && (known[0] !== w || known[1] !== h)) {
      model.set("_stage_size", [w, h]);
      model.save_changes();
    }
  };

  /** The toolbar's SVG/PNG buttons: the figure of the view, saved by the browser. */
  async function download(format) {
    if (!table) return;
    const [width, height] = stageSize();
    const provenance = {
      generator: "cctviz (browser)",
      created: new Date().toISOString(),
      metrics: { color: renderer.state.colorBy, size: renderer.state.sizeBy },
      units: model.get("units") ?? {},
      state: changeToIds(ids, renderer.state, (key) => model.get(TRAIT_OF[key])), // node ids as in Python
    };
    const options = {
      width,
      height,
      selection: renderer.selection,
      units: provenance.units,
      provenance,
      transform: zoomed,
    };
    const { svg } = figureSVG(table, renderer.state, options);
    const blob =
      format === "svg"
        ? new Blob([svg], { type: "image/svg+xml" })
        : await (await fetch(`data:image/png;base64,${await svgToPng(svg, width, height, 2)}`)).blob();
    const link = el.ownerDocument.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `cctviz.${format}`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }

  // the static fallback image (see fallback.js): redrawn once the view has settled
  /** @type {import("./fallback.js").Snapshot | null} */
  let snapshot = null;
  let snapshotTimer = 0;
  let disposed = false;
  const fallback = registerFallback({ model, png: () => snapshot });
  function scheduleSnapshot() {
    clearTimeout(snapshotTimer);
    snapshotTimer = setTimeout(takeSnapshot, SNAPSHOT_DELAY_MS);
  }
  async function takeSnapshot() {
    if (disposed || !table || !renderer.state.colorBy || table.size > SNAPSHOT_MAX_ROWS) return;
    const [width, height] = stageSize();
    if (!(width > 0 && height > 0)) return;
    try {
      const options = {
        width,
        height,
        selection: renderer.selection,
        units: model.get("units") ?? {},
        transform: zoomed,
      };
      const { svg } = figureSVG(table, renderer.state, options);
      const scale = Math.min(2, Math.max(1, globalThis.devicePixelRatio || 1));
      snapshot = { data: await svgToPng(svg, width, height, scale), width, height };
      el.dataset.cctSnapshot = String(Date.now()); // tests wait for this
      fallback.refreshed();
    } catch (error) {
      console.warn("cctviz: no static image of this view", error);
    }
  }

  renderer.setUnits(model.get("units") ?? {});
  renderer.setState(traitState(Object.keys(STATE_TRAITS)));
  // Draw once the cell has its real width (the element is often not in the page yet when
  // render runs); drawing at a guessed width would lay out and draw everything twice.
  const start = () => {
    if (started) return;
    started = true;
    renderer.resize(...stageSize());
    onData();
    onSelection();
    reportSize();
    watchRemoval();
    const zoom = replacedZoom.get(model.get("_payload"));
    if (zoom) renderer.setTransform(zoom);
  };
  model.on("change:_payload", onData);
  for (const [event, listener] of stateListeners) model.on(event, listener);
  model.on("change:selection", onSelection);
  model.on("change:height", onHeight);
  model.on("change:units", onUnits);
  model.on("msg:custom", onMessage);

  let frame = 0;
  const onResize = () => {
    if (!started) {
      if (renderer.stage.clientWidth > 0) start();
      return;
    }
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      renderer.resize(...stageSize());
      reportSize();
      scheduleSnapshot();
    });
  };
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(onResize);
  observer?.observe(renderer.stage);
  if (!observer || renderer.stage.clientWidth > 0) start();

  function dispose() {
    if (disposed) return;
    disposed = true;
    removal?.disconnect();
    observer?.disconnect();
    cancelAnimationFrame(frame);
    clearTimeout(snapshotTimer);
    clearTimeout(zoomTimer);
    fallback.unregister();
    model.off("change:_payload", onData);
    for (const [event, listener] of stateListeners) model.off(event, listener);
    model.off("change:selection", onSelection);
    model.off("change:height", onHeight);
    model.off("change:units", onUnits);
    model.off("msg:custom", onMessage);
    renderer.destroy();
  }
  return dispose;
}

export default { render };
