// The renderer's API (renderer.js makes the parts it works with): new data and view state from
// Python, the selection, commands by name, where nodes are on screen, the live picture, resizing
// and teardown. A view's first big table is drawn in the tasks after the one that received it
// (later.js).

import { checkIds } from "../data/check-ids.js";
import { livePicture, svgPicture } from "../draw/live-picture.js";
import { LEGEND_BAND } from "../draw/view-legends.js";
import { foldsOverChanges } from "../picture/fit.js";
import { pictureSteps } from "../picture/picture.js";
import { commandOf } from "../state/commands.js";
import * as edits from "../state/tree-edits.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../picture/picture.js").Picture} Picture */

/**
 * The renderer's parts and what it does with them (see renderer.js).
 * @typedef {object} RendererParts
 * @property {Table | null} table the table the view has (drawn, or about to be)
 * @property {Picture | null} shown the picture drawn now (null: none of this table yet)
 * @property {Set<NodeId>} fitted nodes the last fold-to-fit collapsed (for the status line)
 * @property {import("../picture/sizes.js").Sizes} D
 * @property {ReturnType<typeof import("./later.js").createLater>} later
 * @property {ReturnType<typeof import("../draw/painter.js").createPainter>} painter
 * @property {import("../input/camera.js").Camera} camera
 * @property {import("../state/store.js").Store} store
 * @property {() => ViewState} view
 * @property {ReturnType<typeof import("../input/toolbar.js").createToolbar> | null} toolbar
 * @property {ReturnType<typeof import("../draw/chrome.js").createChrome>} chrome
 * @property {ReturnType<typeof import("../input/gestures.js").createGestures>} gestures
 * @property {HTMLElement} root
 * @property {{ legendsOnTop: boolean, topRoom: number }} frame
 * @property {ReturnType<typeof import("../state/commands.js").createCommands>} commands
 * @property {(partial: Record<string, unknown>) => void} checkMetrics
 * @property {() => void} foldFirstPicture
 * @property {(anchor?: NodeId | null) => void} rebuild
 * @property {() => void} updateSearch
 * @property {() => void} refreshToolbar
 * @property {(room: { width: number, height: number }) => void} spreadOver
 * @property {() => Picture | null} current
 * @property {(partial: Record<string, unknown>, how?: { source?: import("../state/store.js").Source, anchor?: NodeId | null }) => void} apply
 * @property {import("../state/commands.js").Dispatch} dispatch
 * @property {(w: number, h: number) => void} resizeTo
 * @property {() => boolean} ready
 * @property {(width: number) => boolean} onTop
 */

/** The renderer's API over its parts. @param {RendererParts} r */
export function createApi(r) {
  return {
    /**
     * New data, with the view state that goes with it (a widget swaps both at once: the new
     * metric names only make sense for the new table). `anchor`: a node id kept where it was
     * on screen, at the same zoom (a level-of-detail expansion).
     * @param {Table} data @param {Partial<ViewState>} [state] @param {{ anchor?: NodeId | null }} [how]
     */
    setData(data, state = {}, { anchor = null } = {}) {
      r.later.cancel();
      const at = anchor === null ? null : r.painter.screenPosition(anchor);
      const zoom = r.camera.transform;
      const previous = r.table;
      const otherTree = !previous || previous.tree !== data.tree || previous.total !== data.total;
      // what was drawn of the table before is not the view of this one: `rebuild` draws it
      r.table = data;
      r.shown = null;
      r.painter.newTable();
      r.checkMetrics(state);
      r.store.apply(state, { source: "python" });
      // ids beyond the full tree belong to other data
      const inTree = (/** @type {NodeId} */ id) => id < data.total;
      r.store.select(r.store.selection.filter(inTree), { source: "python" });
      if (r.view().collapsed.some((id) => !inTree(id)))
        r.store.apply({ collapsed: r.view().collapsed.filter(inTree) }, { source: "python" });
      // an ensemble's changes came (the same tree, now with rings): the first picture's folds
      // over the largest own changes open, so that their rings are in sight (the user's stay)
      if (!otherTree && !previous.changes && data.changes) {
        const open = foldsOverChanges(data, r.view().collapsed, r.fitted);
        if (open.size) r.apply({ collapsed: r.view().collapsed.filter((id) => !open.has(id)) }, { source: "user" });
      }
      r.toolbar?.setData(
        data,
        edits.rootIds(data).map((id) => ({
          id,
          name: data.names[data.nameCode[data.rowOf(id)]],
        })),
      );
      r.store.record({ fresh: otherTree });
      if (!r.view().colorBy) return r.refreshToolbar();
      // the folds of a first picture come from what would be drawn, not from its layout: the
      // whole tree is not laid out and drawn only to be folded (at 10^5 nodes that was 220 ms
      // of a 310 ms task)
      const fold = () => {
        r.fitted = new Set();
        r.foldFirstPicture();
      };
      const draw = () => {
        r.rebuild();
        if (at && anchor !== null && r.shown?.drawn(anchor)) {
          r.painter.keepAt(anchor, at, zoom);
          r.painter.reveal([anchor], { children: true }); // the newly loaded children are shown
        }
        r.updateSearch();
        r.refreshToolbar();
      };
      // put off too: a table drawn whole (no folding to fit) of more nodes than SVG draws, whose
      // layout and scene cost several times its walks (10k nodes: one task of ~100 ms)
      const whole = !r.view().foldToFit && data.size > r.D.canvasAbove;
      // the picture's long parts (its layout above all) in slices over several tasks
      const prepare = function* () {
        r.spreadOver(r.camera.room());
        const pic = /** @type {import("../picture/picture.js").Picture} */ (r.current());
        yield* pictureSteps(pic);
        yield;
        r.painter.histogram(pic);
      };
      // and a view's first table of more than a few thousand rows (a level of detail's default
      // 3,000: decoding it, folding and drawing in one task took 60-80 ms)
      const firstBig = !previous && data.size > r.D.firstDrawLaterAbove;
      if (otherTree && (data.size > r.D.drawLaterAbove || whole || firstBig)) {
        r.refreshToolbar();
        r.later.schedule([fold, prepare, draw]);
      } else {
        if (otherTree) fold();
        draw();
      }
    },
    /** Sets view state (from Python or a saved notebook): no `onChange` echo. Errors name the bad value (a node id
     * not in the tree too); nothing is applied then. @param {Partial<ViewState>} state */
    setState(state) {
      checkIds(r.table, state);
      if (state.collapsed) r.fitted = new Set(); // Python's folds are the user's, not the fit's
      const first = !r.view().colorBy && state.colorBy;
      r.apply(state, { source: "python" });
      if (first && r.table) {
        r.rebuild();
        r.updateSearch();
      }
    },
    /** @returns {ViewState} */
    get state() {
      return { ...r.view() };
    },
    /** Errors name an id not in the tree; nothing is applied then. @param {Iterable<NodeId>} ids */
    setSelection(ids) {
      checkIds(r.table, { selection: [...ids] });
      // the same selection again (the widget sets it after each new table, whose picture shows
      // it already) places no labels a second time; else the picture draws it if one is pending
      const changed = r.store.select(ids, { source: "python" });
      if (changed && !r.later.pending) r.painter.marks.selection();
    },
    get selection() {
      return [...r.store.selection];
    },
    /**
     * Runs a command by name, as the toolbar would (see state/commands.js `commandOf`): an
     * unknown name or a wrong value is refused. @param {string} name @param {unknown} [value]
     */
    command(name, value) {
      r.dispatch(commandOf(name, value));
    },
    dispatch: r.dispatch,
    /** The drawing backend in use: "svg" or "canvas". */
    get backend() {
      return r.painter.backend?.kind ?? "svg";
    },
    /** Ids of the search matches that are drawn, in tree order. */
    get matches() {
      return r.commands.matches;
    },
    /** How many nodes match a search in the full tree, as Python counted them (level of
     * detail: the browser has only some); used while that search is the view's. null: none.
     * @param {import("../state/search-commands.js").Counted | null} counted */
    setSearchCount(counted) {
      r.commands.setSearchCount(counted);
    },
    get cursor() {
      return r.store.cursor;
    },
    /** Where node `id` is on screen, relative to the drawing surface; null if it is not drawn. */
    screenPosition: r.painter.screenPosition,
    /** Where the fold under node `parent` (-1: hidden roots) is on screen; null if there is none. */
    foldPosition: r.painter.foldPosition,
    fitToView: () => r.painter.fitToView(),
    /**
     * Pans (at the same zoom) so that node `target` is in the middle of the view; `{ fold: id }`:
     * the level-of-detail fold under node `id`.
     * @param {NodeId | { fold: NodeId }} target
     */
    centerOn: (target) =>
      typeof target === "number" ? r.painter.centerOn(target) : r.painter.centerOnFold(target.fold),
    /** Paints again in the page's current colours (a theme switch), where it was. */
    refreshTheme() {
      const t = r.camera.transform;
      r.painter.draw();
      r.camera.set(t);
      r.painter.updateLabels();
    },
    /**
     * The view as drawn, as a PNG (base64) at `scale` device pixels per CSS pixel, made from
     * its drawing (see live-picture.js): the canvas backend's painted again, the SVG backend's
     * copied; null before the view is drawn or where the page cannot paint.
     * @param {number} scale
     */
    picture(scale) {
      const b = r.painter.backend;
      if (!b || !r.ready()) return null;
      const [size, k] = [r.camera.size, r.camera.transform.k];
      return "paintOn" in b
        ? livePicture({ backend: b, overlay: b.svg, size, k }, scale)
        : svgPicture({ svg: b.svg, size, k }, scale);
    },
    /** Zooms and pans to `t` as if the user had (a view drawn again keeps where it was). @param {{ x: number, y: number, k: number }} t */
    setTransform(t) {
      r.camera.set(t);
      r.painter.updateLabels();
    },
    /** A new size: narrow views put the legends on top and fold the toolbar into one row. */
    resize(/** @type {number} */ w, /** @type {number} */ h) {
      const top = r.onTop(w);
      r.toolbar?.setNarrow(w < r.D.narrowBelow);
      if (top !== r.frame.legendsOnTop) {
        r.frame.legendsOnTop = top;
        r.frame.topRoom = top ? LEGEND_BAND * r.D.legendScale : 0;
        r.resizeTo(w, h);
        if (r.ready()) r.rebuild(null); // the room changed: lay out and fit again
        return;
      }
      r.resizeTo(w, h);
    },
    /** The element the tree is drawn in: its size is the drawing's size. */
    stage: r.chrome.stage,
    /** The renderer's outermost element (toolbar, status line and stage). */
    element: r.root,
    /** The drawing's SVG element (with the canvas backend: the overlay above the canvas). */
    get svg() {
      return /** @type {NonNullable<typeof r.painter.backend>} */ (r.painter.backend).svg;
    },
    /** The zoom transform from layout to screen coordinates. */
    get transform() {
      return r.camera.transform;
    },
    get size() {
      return r.camera.size;
    },
    /** Units of metrics for the legend titles, e.g. `{ time: "s" }`. */
    setUnits: r.painter.setUnits,
    destroy() {
      r.later.cancel();
      r.toolbar?.destroy();
      r.gestures.destroy();
      r.camera.detach();
      r.painter.destroy();
      // a destroyed view keeps nothing of its tree (something may still hold the renderer)
      r.table = r.shown = null;
      r.root.remove();
    },
  };
}
