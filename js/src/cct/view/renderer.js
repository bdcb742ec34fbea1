// The CCT renderer: wires the view (draw/view.js: the state store, the picture of its table in
// the view state, the camera, the chrome and the painter that draws the picture), the commands
// and search, and the gestures. It knows nothing about
// Jupyter: give it a container, a decoded table and a view state; it reports what the user
// changes through `onChange` (view state) and `onSelect` (selection). Every node it takes or
// reports is a full-tree node id; rows of the table are the decoder's business (`table.rowOf`,
// `table.idOf`). Its API (setData, setState, commands, where nodes are…) is api.js's.
// Tested in jsdom.
import { keysRedrawing } from "../../contract.js";
import { append } from "../base/dom.js";
import { metricByName } from "../data/decode.js";
import { createChrome } from "../draw/chrome.js";
import { View } from "../draw/view.js";
import { createCamera } from "../input/camera.js";
import { createGestures } from "../input/gestures.js";
import { createToolbar } from "../input/toolbar.js";
import { foldsOfPicture, roomFor } from "../picture/fit.js";
import { DEFAULT_SIZES } from "../picture/sizes.js";
import { createCommands } from "../state/commands.js";
import { createStore } from "../state/store.js";
import * as edits from "../state/tree-edits.js";
import { createApi } from "./api.js";
import { createLater, flushedFirst } from "./later.js";

export { VIEW_DEFAULTS } from "../../contract.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../state/commands.js").Dispatch} Dispatch */

/** @typedef {import("../picture/sizes.js").Sizes} Sizes */
const STRUCTURE = keysRedrawing("structure");
const STYLE = keysRedrawing("style");
const SEARCH = keysRedrawing("search");

/**
 * @param {HTMLElement} container
 * @param {{ onSelect?: (ids: NodeId[]) => void, onChange?: (state: Partial<ViewState>) => void,
 *   onLoadMore?: (node: NodeId) => void, onDownload?: ((format: "svg" | "png") => void) | null,
 *   onFind?: ((node: NodeId, step: 1 | -1 | 0) => Promise<NodeId | null>) | null,
 *   onReducer?: ((reducer: string) => void) | null,
 *   onSpread?: ((node: NodeId, metric: string) => Promise<import("../draw/tooltip/tooltip-content.js").Spread>) | null,
 *   onZoom?: (t: { x: number, y: number, k: number } | null) => void,
 *   width?: number, height?: number, toolbar?: boolean, layout?: Partial<Sizes> }} [options]
 *   `onLoadMore(node)`: the user opened a level-of-detail fold; `node` is the full-tree id of the
 *   node whose hidden children should load (-1: hidden roots). `onDownload`: the toolbar shows
 *   SVG/PNG buttons. `onFind`: under level of detail, loads the search match after (before) a
 *   node, or (step 0) the matches, and gives the match. `onZoom`: a zoom or pan ended (null: the view is fitted, not moved by hand).
 *   `layout` overrides sizes in DEFAULT_SIZES (picture/sizes.js) (figures set their font size and legend placement).
 */
export function createRenderer(container, options = {}) {
  const {
    onSelect = () => {},
    onChange = () => {},
    onLoadMore = () => {},
    onFind = null,
    onDownload = null,
    onReducer = null,
    onSpread = null,
    onZoom = () => {},
  } = options;
  const D = { ...DEFAULT_SIZES, ...options.layout };
  const root = append(container, "div", { className: "cct-root" });
  const toolbar = options.toolbar === false ? null : createToolbar(root, dispatch, { downloads: !!onDownload });
  const chrome = createChrome(root);
  const store = createStore({ onChange, onSelect });
  let brushing = false;
  const later = createLater(container.ownerDocument.defaultView, D.sliceMs);

  /** The frame the camera fits into; the legends' place follows the view's width (the view sets it). */
  const frame = { ...D, legendsOnTop: false, topRoom: 0 };
  const camera = createCamera(frame, {
    onMove: (t, moving) => view.painter.setTransform(t, moving),
    onEnd: (t) => {
      view.painter.settle();
      onZoom(t);
    },
    allow: () => !brushing,
  });
  // made in this order: the gestures before the view's painter (which attaches them to each
  // surface it draws on) and the commands after it (they move its camera and marks); `dispatch`
  // (the commands') and the gestures' `pointer` (the painter) are read when the user acts
  const gestures = createGestures({
    stage: chrome.stage,
    backend: () => view.painter.backend,
    picture: () => view.shown,
    store,
    dispatch,
    pointer: () => view.painter,
    toolbar,
    brushing: () => brushing,
  });
  const view = new View(
    { D, store, camera, chrome, toolbar, root, frame, width: options.width ?? 800 },
    { onBackend: (svg) => gestures.attach(svg), dispatch, onSpread },
  );
  const { painter } = view;
  /** The picture of the view state now, drawn (a new structure or table: laid out again).
   * @param {NodeId | null} [anchor] a node id kept where it is on screen */
  const rebuild = (anchor = null) => {
    gestures.forgetHover();
    const at = anchor === null ? null : painter.screenPosition(anchor); // in the picture drawn so far
    view.spreadOver(camera.room());
    view.shown = view.current();
    painter.rebuild(at && anchor !== null ? { id: anchor, at } : null);
    showFitNote();
  };
  /** The picture of the view state now, restyled or (`backend`) drawn again on its backend. */
  const redraw = (/** @type {boolean} */ backend) => {
    view.shown = view.current();
    if (backend) painter.redrawBackend();
    else painter.restyle();
  };
  /** A new size: the picture's levels spread over the new room (unless the user moved the view). @param {number} w @param {number} h */
  function resizeTo(w, h) {
    if (!(w > 0 && h > 0)) return;
    painter.resize(w, h);
    if (view.shown && view.ready() && !camera.userMoved) {
      const before = view.shown.layout;
      view.spreadOver(camera.room());
      view.shown = view.current();
      if (view.shown?.layout !== before) painter.moved();
    }
    painter.settleSize();
  }

  /** Folds a first picture to fit, as a change of the user's (undoable, reported). */
  function foldFirstPicture() {
    const state = view.state;
    if (!state.foldToFit || state.collapsed.length) return;
    const pic = view.current();
    const ids = pic ? foldsOfPicture(pic, camera.room(), state.sizeBy) : [];
    if (!ids.length) return;
    view.fitted = new Set(ids);
    change({ collapsed: ids });
  }
  /**
   * Folds what is open now further, until the picture fits the room at readable spacing (a
   * figure of a view the user opened wide), keeping the ancestors of `shown` open; returns how
   * many drawn nodes it folded away (0: it fitted).
   * @param {Iterable<NodeId>} shown
   */
  function foldToRoom(shown) {
    const pic = view.current();
    if (!pic || !view.table) return 0;
    // only rows that cannot be told apart fold: a deep chain that fits its rows stays as it is
    const parents = new Set(pic.tree.items.map((it) => it.parentKey));
    const leaves = pic.tree.items.filter((it) => !parents.has(it.key)).length;
    if (leaves <= roomFor(camera.room(), { rowPx: D.minRowPx, levelPx: D.minLevelWidth }).rows) return 0;
    const nodes = () => (view.current()?.tree.items ?? []).filter((it) => it.kind === "node").length;
    const before = new Set(view.state.collapsed);
    const more = foldsOfPicture(pic, camera.room(), view.state.sizeBy, shown).filter((id) => !before.has(id));
    if (!more.length) return 0;
    const drawn = nodes();
    apply({ collapsed: [...before, ...more] }, { source: "python" });
    return drawn - nodes();
  }
  function showFitNote() {
    const { shown, table, fitted } = view;
    const tree = shown?.tree;
    let n = 0;
    if (tree && table && fitted.size) {
      for (const it of tree.items) if (it.kind === "collapsed" && fitted.has(table.idOf(it.id))) n++;
    }
    chrome.setFitNote(n, () => dispatch({ type: "expandAll" }));
  }

  /**
   * The one path for Python, the toolbar, gestures and undo: apply, then redraw what changed.
   * @param {Record<string, unknown>} partial
   * @param {{ source?: import("../state/store.js").Source, anchor?: NodeId | null }} [how]
   */
  function apply(partial, { source = "user", anchor = null } = {}) {
    later.flush();
    view.checkMetrics(partial);
    const changed = store.apply(partial, { source });
    const has = (/** @type {string[]} */ keys) => changed.some((k) => keys.includes(k));
    if (changed.length && view.ready()) {
      if (has(STRUCTURE) || (view.state.prune && changed.includes("colorBy"))) rebuild(anchor);
      else if (changed.includes("backend")) redraw(true);
      else if (has(STYLE)) redraw(false);
      if (has(SEARCH) || has(STRUCTURE)) commands.updateSearch();
      if (changed.includes("highlighted")) painter.marks.highlights();
    }
    refreshToolbar();
  }
  /** A change the user made: applied, recorded, reported. @param {Record<string, unknown> | null} partial */
  function change(partial) {
    if (partial) apply(partial, { source: "user" });
  }
  /** What the user asks for, from the toolbar, the gestures, the breadcrumb and the API. @type {Dispatch} */
  function dispatch(command) {
    commands.dispatch(command);
  }

  const commands = createCommands({
    store,
    table: () => view.table,
    shown: () => view.shown,
    screen: {
      reveal: painter.reveal,
      centerOn: painter.centerOn,
      fitToView: painter.fitToView,
      fitted: () => !camera.userMoved,
      marks: painter.marks,
      announce: chrome.announce,
    },
    view: {
      apply,
      refreshToolbar,
      foldFirstPicture,
      toggleBrush() {
        brushing = !brushing;
        refreshToolbar();
      },
      leave: () => chrome.stage.blur(),
    },
    requests: { download: onDownload, reducer: onReducer, loadMore: onLoadMore, find: onFind },
    toolbar,
  });
  function refreshToolbar() {
    const { table, state } = view;
    if (!toolbar || !table) return;
    toolbar.update(state, {
      canUndo: store.canUndo(),
      canRedo: store.canRedo(),
      brush: brushing,
      rootCount: edits.rootIds(table).length,
      incChecked: metricByName(table, state.colorBy)?.kind === "inclusive",
    });
  }

  resizeTo(options.width ?? 800, options.height ?? 500);
  // what reads or changes the view finds its picture drawn (see later.js); these need no picture
  const immediate = new Set(["setData", "setSelection", "state", "selection", "stage", "element", "size", "destroy"]);
  const api = createApi(view, {
    later,
    gestures,
    commands,
    apply,
    rebuild,
    resizeTo,
    foldFirstPicture,
    foldToRoom,
    refreshToolbar,
  });
  return flushedFirst(api, later.flush, immediate);
}
