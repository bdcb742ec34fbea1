// The CCT renderer: wires the state store, the commands and search, the picture of its table in
// the view state (picture/picture.js: view tree, layout, scene), the painter that draws it, the
// camera, the gestures and the chrome. It knows nothing about
// Jupyter: give it a container, a decoded table and a view state; it reports what the user
// changes through `onChange` (view state) and `onSelect` (selection). Every node it takes or
// reports is a full-tree node id; rows of the table are the decoder's business (`table.rowOf`,
// `table.idOf`). Tested in jsdom.
import { keysRedrawing } from "../../contract.js";
import { append } from "../base/dom.js";
import { checkIds } from "../data/check-ids.js";
import { metricByName } from "../data/decode.js";
import { createChrome } from "../draw/chrome.js";
import { livePicture } from "../draw/live-picture.js";
import { createPainter } from "../draw/painter.js";
import { LEGEND_BAND } from "../draw/view-legends.js";
import { createCamera } from "../input/camera.js";
import { createGestures } from "../input/gestures.js";
import { createToolbar } from "../input/toolbar.js";
import { foldsOfPicture } from "../picture/fit.js";
import { picture, pictureSteps, statsOf } from "../picture/picture.js";
import { DEFAULT_SIZES } from "../picture/sizes.js";
import * as changes from "../state/changes.js";
import { commandOf, createCommands } from "../state/commands.js";
import { createStore } from "../state/store.js";
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
 *   onExpand?: (node: NodeId) => void, onDownload?: ((format: "svg" | "png") => void) | null,
 *   onFind?: ((node: NodeId, step: 1 | -1 | 0) => Promise<NodeId | null>) | null,
 *   onReducer?: ((reducer: string) => void) | null,
 *   onSpread?: ((node: NodeId, metric: string) => Promise<import("../draw/tooltip-content.js").Spread>) | null,
 *   onZoom?: (t: { x: number, y: number, k: number } | null) => void,
 *   width?: number, height?: number, toolbar?: boolean, layout?: Partial<Sizes> }} [options]
 *   `onExpand(node)`: the user opened a level-of-detail fold; `node` is the full-tree id of the
 *   node whose hidden children should load (-1: hidden roots). `onDownload`: the toolbar shows
 *   SVG/PNG buttons. `onFind`: under level of detail, loads the search match after (before) a
 *   node, or (step 0) the matches, and gives the match. `onZoom`: a zoom or pan ended (null: the view is fitted, not moved by hand).
 *   `layout` overrides sizes in DEFAULT_SIZES (picture/sizes.js) (figures set their font size and legend placement).
 */
export function createRenderer(container, options = {}) {
  const {
    onSelect = () => {},
    onChange = () => {},
    onExpand = () => {},
    onFind = null,
    onDownload = null,
    onReducer = null,
    onSpread = null,
    onZoom = () => {},
  } = options;
  const D = { ...DEFAULT_SIZES, ...options.layout };
  /** Where the legends go, for a view `width` pixels wide. @param {number} width */
  const onTop = (width) => D.legendPosition === "top" || (D.legendPosition === "auto" && width < D.narrowBelow);
  const legendsOnTop = onTop(options.width ?? 800);
  const root = append(container, "div", { className: "cct-root" });
  const toolbar = options.toolbar === false ? null : createToolbar(root, dispatch, { downloads: !!onDownload });
  const chrome = createChrome(root);
  const store = createStore({ onChange, onSelect });
  let brushing = false;
  const view = () => store.view;
  const later = createLater(container.ownerDocument.defaultView, D.sliceMs);
  /** @type {Table | null} the table the view has (drawn, or about to be) */
  let table = null;
  /** @type {import("../picture/picture.js").Picture | null} the picture drawn now (null: none of this table yet) */
  let shown = null;
  /** @type {import("../picture/picture.js").PictureSizes} the sizes pictures are made with, with
   * the room their levels were last spread over (at a new structure, and at a new size unless the
   * user moved the view) */
  let sizes = { ...D, room: null };
  /** The picture of the table in the view state now (not drawn yet, maybe). */
  const current = () => (table ? picture(table, view(), sizes) : null);
  const ready = () => !!shown && !!view().colorBy;
  /** Pictures from now on spread their levels over `room`. @param {{ width: number, height: number }} room */
  const spreadOver = (room) => {
    if (sizes.room?.width !== room.width || sizes.room?.height !== room.height) sizes = { ...D, room };
  };

  /** The frame the camera fits into; the legends' place follows the view's width. */
  const frame = { ...D, legendsOnTop, topRoom: legendsOnTop ? LEGEND_BAND * D.legendScale : 0 };
  const camera = createCamera(frame, {
    onMove: (t, moving) => painter.setTransform(t, moving),
    onEnd: (t) => {
      painter.settle();
      onZoom(t);
    },
    allow: () => !brushing,
  });
  // made in this order: the gestures before the painter (which attaches them to each surface
  // it draws on) and the commands after it (they move its camera and marks); `dispatch` (the
  // commands') and the gestures' `pointer` (the painter) are read when the user acts, not before
  const gestures = createGestures({
    stage: chrome.stage,
    backend: () => painter.backend,
    picture: () => shown,
    store,
    dispatch,
    pointer: () => painter,
    toolbar,
    brushing: () => brushing,
  });
  const painter = createPainter({
    D,
    picture: () => shown,
    legendsOnTop: () => frame.legendsOnTop,
    store,
    camera,
    chrome,
    toolbar,
    onBackend: (svg) => gestures.attach(svg),
    dispatch,
    onSpread,
  });
  /** The picture of the view state now, drawn (a new structure or table: laid out again).
   * @param {NodeId | null} [anchor] a node id kept where it is on screen */
  const rebuild = (anchor = null) => {
    gestures.forgetHover();
    const at = anchor === null ? null : painter.screenPosition(anchor); // in the picture drawn so far
    spreadOver(camera.room());
    shown = current();
    painter.rebuild(at && anchor !== null ? { id: anchor, at } : null);
    showFitNote();
  };
  /** The picture of the view state now, restyled or (`backend`) drawn again on its backend. */
  const redraw = (/** @type {boolean} */ backend) => {
    shown = current();
    if (backend) painter.redrawBackend();
    else painter.restyle();
  };
  /** A new size: the picture's levels spread over the new room (unless the user moved the view). @param {number} w @param {number} h */
  function resizeTo(w, h) {
    if (!(w > 0 && h > 0)) return;
    painter.resize(w, h);
    if (shown && ready() && !camera.userMoved) {
      const before = shown.layout;
      spreadOver(camera.room());
      shown = current();
      if (shown?.layout !== before) painter.moved();
    }
    painter.settleSize();
  }
  /** @type {Set<NodeId>} nodes the last fold-to-fit collapsed (for the status line) */
  let fitted = new Set();

  /** Folds a first picture to fit, as a change of the user's (undoable, reported). */
  function foldFirstPicture() {
    if (!view().foldToFit || view().collapsed.length) return;
    const pic = current();
    const ids = pic ? foldsOfPicture(pic, camera.room(), view().sizeBy) : [];
    if (!ids.length) return;
    fitted = new Set(ids);
    change({ collapsed: ids });
  }
  function showFitNote() {
    const tree = shown?.tree;
    let n = 0;
    if (tree && table && fitted.size) {
      for (const it of tree.items) if (it.kind === "collapsed" && fitted.has(table.idOf(it.id))) n++;
    }
    chrome.setFitNote(n, () => dispatch({ type: "expandAll" }));
  }

  /** @param {Record<string, unknown>} partial */
  function checkMetrics(partial) {
    for (const key of /** @type {const} */ (["colorBy", "sizeBy"])) {
      const name = partial[key];
      if (table && typeof name === "string" && name && !metricByName(table, name)) {
        throw new RangeError(`unknown ${key === "colorBy" ? "colour" : "size"} metric ${JSON.stringify(name)}`);
      }
    }
  }

  /**
   * The one path for Python, the toolbar, gestures and undo: apply, then redraw what changed.
   * @param {Record<string, unknown>} partial
   * @param {{ source?: import("../state/store.js").Source, anchor?: NodeId | null }} [how]
   */
  function apply(partial, { source = "user", anchor = null } = {}) {
    later.flush();
    checkMetrics(partial);
    const changed = store.apply(partial, { source });
    const has = (/** @type {string[]} */ keys) => changed.some((k) => keys.includes(k));
    if (changed.length && ready()) {
      if (has(STRUCTURE) || (view().prune && changed.includes("colorBy"))) rebuild(anchor);
      else if (changed.includes("backend")) redraw(true);
      else if (has(STYLE)) redraw(false);
      if (has(SEARCH) || has(STRUCTURE)) updateSearch();
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
    table: () => table,
    shown: () => shown,
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
    requests: { download: onDownload, reducer: onReducer, loadMore: onExpand, find: onFind },
    toolbar,
  });
  const { updateSearch } = commands;
  function refreshToolbar() {
    if (!toolbar || !table) return;
    const stats = statsOf(table);
    toolbar.update(view(), {
      canUndo: store.canUndo(),
      canRedo: store.canRedo(),
      brush: brushing,
      rootCount: changes.rootIds(table, stats).length,
      incChecked: metricByName(table, view().colorBy)?.kind === "inclusive",
    });
  }

  resizeTo(options.width ?? 800, options.height ?? 500);
  // what reads or changes the view finds its picture drawn (see later.js); these need no picture
  const immediate = new Set(["setData", "setSelection", "state", "selection", "stage", "element", "size", "destroy"]);
  return flushedFirst(createApi(), later.flush, immediate);

  function createApi() {
    return {
      /**
       * New data, with the view state that goes with it (a widget swaps both at once: the new
       * metric names only make sense for the new table). `anchor`: a node id kept where it was
       * on screen, at the same zoom (a level-of-detail expansion).
       * @param {Table} data @param {Partial<ViewState>} [state] @param {{ anchor?: NodeId | null }} [how]
       */
      setData(data, state = {}, { anchor = null } = {}) {
        later.cancel();
        const at = anchor === null ? null : painter.screenPosition(anchor);
        const zoom = camera.transform;
        const previous = table;
        const otherTree = !previous || previous.tree !== data.tree || previous.total !== data.total;
        // what was drawn of the table before is not the view of this one: `rebuild` draws it
        table = data;
        shown = null;
        painter.newTable();
        checkMetrics(state);
        store.apply(state, { source: "python" });
        // ids beyond the full tree belong to other data
        const inTree = (/** @type {NodeId} */ id) => id < data.total;
        store.select(store.selection.filter(inTree), { source: "python" });
        if (view().collapsed.some((id) => !inTree(id)))
          store.apply({ collapsed: view().collapsed.filter(inTree) }, { source: "python" });
        const stats = statsOf(data);
        toolbar?.setData(
          data,
          changes.rootIds(data, stats).map((id) => ({
            id,
            name: data.names[data.nameCode[data.rowOf(id)]],
          })),
        );
        store.record({ fresh: otherTree });
        if (!view().colorBy) return refreshToolbar();
        // the folds of a first picture come from what would be drawn, not from its layout: the
        // whole tree is not laid out and drawn only to be folded (at 10^5 nodes that was 220 ms
        // of a 310 ms task)
        const fold = () => {
          fitted = new Set();
          foldFirstPicture();
        };
        const draw = () => {
          rebuild();
          if (at && anchor !== null && shown?.drawn(anchor)) {
            painter.keepAt(anchor, at, zoom);
            painter.reveal([anchor], { children: true }); // the newly loaded children are shown
          }
          updateSearch();
          refreshToolbar();
        };
        // put off too: a table drawn whole (no folding to fit) of more nodes than SVG draws, whose
        // layout and scene cost several times its walks (10k nodes: one task of ~100 ms)
        const whole = !view().foldToFit && data.size > D.canvasAbove;
        // the picture's long parts (its layout above all) in slices over several tasks
        const prepare = function* () {
          spreadOver(camera.room());
          const pic = /** @type {import("../picture/picture.js").Picture} */ (current());
          yield* pictureSteps(pic);
          yield;
          painter.histogram(pic);
        };
        // and a view's first table of more than a few thousand rows (a level of detail's default
        // 3,000: decoding it, folding and drawing in one task took 60-80 ms)
        const firstBig = !previous && data.size > D.firstDrawLaterAbove;
        if (otherTree && (data.size > D.drawLaterAbove || whole || firstBig)) {
          refreshToolbar();
          later.schedule([fold, prepare, draw]);
        } else {
          if (otherTree) fold();
          draw();
        }
      },
      /** Sets view state (from Python or a saved notebook): no `onChange` echo. Errors name the bad value (a node id
       * not in the tree too); nothing is applied then. @param {Partial<ViewState>} state */
      setState(state) {
        checkIds(table, state);
        const first = !view().colorBy && state.colorBy;
        apply(state, { source: "python" });
        if (first && table) {
          rebuild();
          updateSearch();
        }
      },
      /** @returns {ViewState} */
      get state() {
        return { ...view() };
      },
      /** Errors name an id not in the tree; nothing is applied then. @param {Iterable<NodeId>} ids */
      setSelection(ids) {
        checkIds(table, { selection: [...ids] });
        // the same selection again (the widget sets it after each new table, whose picture shows
        // it already) places no labels a second time; else the picture draws it if one is pending
        const changed = store.select(ids, { source: "python" });
        if (changed && !later.pending) painter.marks.selection();
      },
      get selection() {
        return [...store.selection];
      },
      /**
       * Runs a command by name, as the toolbar would (see state/commands.js `commandOf`): an
       * unknown name or a wrong value is refused. @param {string} name @param {unknown} [value]
       */
      command(name, value) {
        dispatch(commandOf(name, value));
      },
      dispatch,
      /** The drawing backend in use: "svg" or "canvas". */
      get backend() {
        return painter.backend?.kind ?? "svg";
      },
      /** Ids of the search matches that are drawn, in tree order. */
      get matches() {
        return commands.matches;
      },
      /** How many nodes match a search in the full tree, as Python counted them (level of
       * detail: the browser has only some); used while that search is the view's. null: none.
       * @param {import("../state/search-commands.js").Counted | null} counted */
      setSearchCount(counted) {
        commands.setSearchCount(counted);
      },
      get cursor() {
        return store.cursor;
      },
      /** Where node `id` is on screen, relative to the drawing surface; null if it is not drawn. */
      screenPosition: painter.screenPosition,
      /** Where the fold under node `parent` (-1: hidden roots) is on screen; null if there is none. */
      foldPosition: painter.foldPosition,
      fitToView: () => painter.fitToView(),
      /**
       * Pans (at the same zoom) so that node `target` is in the middle of the view; `{ fold: id }`:
       * the level-of-detail fold under node `id`.
       * @param {NodeId | { fold: NodeId }} target
       */
      centerOn: (target) => (typeof target === "number" ? painter.centerOn(target) : painter.centerOnFold(target.fold)),
      /** Paints again in the page's current colours (a theme switch), where it was. */
      refreshTheme() {
        const t = camera.transform;
        painter.draw();
        camera.set(t);
        painter.updateLabels();
      },
      /**
       * The view as drawn, as a PNG (base64) at `scale` device pixels per CSS pixel, made from
       * the canvas backend's drawing (see live-picture.js); null for a view drawn as SVG (a
       * figure draws those) or where the page cannot paint.
       * @param {number} scale
       */
      picture(scale) {
        const b = painter.backend;
        if (!b || !("paintOn" in b) || !ready()) return null;
        return livePicture({ backend: b, overlay: b.svg, size: camera.size, k: camera.transform.k }, scale);
      },
      /** Zooms and pans to `t` as if the user had (a view drawn again keeps where it was). @param {{ x: number, y: number, k: number }} t */
      setTransform(t) {
        camera.set(t);
        painter.updateLabels();
      },
      /** A new size: narrow views put the legends on top and fold the toolbar into one row. */
      resize(/** @type {number} */ w, /** @type {number} */ h) {
        const top = onTop(w);
        toolbar?.setNarrow(w < D.narrowBelow);
        if (top !== frame.legendsOnTop) {
          frame.legendsOnTop = top;
          frame.topRoom = top ? LEGEND_BAND * D.legendScale : 0;
          resizeTo(w, h);
          if (ready()) rebuild(null); // the room changed: lay out and fit again
          return;
        }
        resizeTo(w, h);
      },
      /** The element the tree is drawn in: its size is the drawing's size. */
      stage: chrome.stage,
      /** The renderer's outermost element (toolbar, status line and stage). */
      element: root,
      /** The drawing's SVG element (with the canvas backend: the overlay above the canvas). */
      get svg() {
        return /** @type {NonNullable<typeof painter.backend>} */ (painter.backend).svg;
      },
      /** The zoom transform from layout to screen coordinates. */
      get transform() {
        return camera.transform;
      },
      get size() {
        return camera.size;
      },
      /** Units of metrics for the legend titles, e.g. `{ time: "s" }`. */
      setUnits: painter.setUnits,
      destroy() {
        later.cancel();
        toolbar?.destroy();
        gestures.destroy();
        camera.detach();
        painter.destroy();
        // a destroyed view keeps nothing of its tree (something may still hold the renderer)
        table = shown = null;
        root.remove();
      },
    };
  }
}
