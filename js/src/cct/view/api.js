// The renderer's API, over its view (draw/view.js) and what the renderer does (renderer.js): new
// data and view state from Python, the selection, commands by name, where nodes are on screen,
// the live picture, resizing and teardown. A view's first big table is drawn in the tasks after the one that received it
// (later.js).

import { checkIds } from "../data/check-ids.js";
import { livePicture, svgPicture } from "../draw/live-picture.js";
import { foldsOverChanges } from "../picture/fit.js";
import { pictureSteps } from "../picture/picture.js";
import { commandOf } from "../state/commands.js";
import * as edits from "../state/tree-edits.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../picture/picture.js").Picture} Picture */

/**
 * What the renderer does besides its view (see renderer.js).
 * @typedef {object} RendererActions
 * @property {ReturnType<typeof import("./later.js").createLater>} later the tasks a big table is drawn in
 * @property {ReturnType<typeof import("../input/gestures.js").createGestures>} gestures
 * @property {ReturnType<typeof import("../state/commands.js").createCommands>} commands
 * @property {(partial: Record<string, unknown>, how?: { source?: import("../state/store.js").Source, anchor?: NodeId | null }) => void} apply
 *   the one path for every change: applied, then what changed drawn again
 * @property {(anchor?: NodeId | null) => void} rebuild the picture of the view state now, drawn
 * @property {(w: number, h: number) => void} resizeTo a new size
 * @property {() => void} foldFirstPicture folds a first picture to fit
 * @property {(shown: Iterable<NodeId>) => number} foldToRoom folds what is open to fit (a figure's)
 * @property {() => void} refreshToolbar
 */

/**
 * The renderer's API over its view and what the renderer does.
 * @param {import("../draw/view.js").View} view @param {RendererActions} r
 */
export function createApi(view, r) {
  const { painter, camera, store, toolbar, D } = view;
  const { later, commands } = r;
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
      const previous = view.table;
      const otherTree = !previous || previous.tree !== data.tree || previous.total !== data.total;
      // what was drawn of the table before is not the view of this one: `rebuild` draws it
      view.table = data;
      view.shown = null;
      painter.newTable();
      view.checkMetrics(state);
      store.apply(state, { source: "python" });
      // ids beyond the full tree belong to other data
      const inTree = (/** @type {NodeId} */ id) => id < data.total;
      store.select(store.selection.filter(inTree), { source: "python" });
      if (view.state.collapsed.some((id) => !inTree(id)))
        store.apply({ collapsed: view.state.collapsed.filter(inTree) }, { source: "python" });
      // an ensemble's changes came (the same tree, now with rings): the first picture's folds
      // over the largest own changes open, so that their rings are in sight (the user's stay)
      if (!otherTree && !previous.changes && data.changes) {
        const open = foldsOverChanges(data, view.state.collapsed, view.fitted);
        if (open.size) r.apply({ collapsed: view.state.collapsed.filter((id) => !open.has(id)) }, { source: "user" });
      }
      toolbar?.setData(
        data,
        edits.rootIds(data).map((id) => ({
          id,
          name: data.names[data.nameCode[data.rowOf(id)]],
        })),
      );
      store.record({ fresh: otherTree });
      if (!view.state.colorBy) return r.refreshToolbar();
      // the folds of a first picture come from what would be drawn, not from its layout: the
      // whole tree is not laid out and drawn only to be folded (at 10^5 nodes that was 220 ms
      // of a 310 ms task)
      const fold = () => {
        view.fitted = new Set();
        r.foldFirstPicture();
      };
      const draw = () => {
        r.rebuild();
        if (at && anchor !== null && view.shown?.drawn(anchor)) {
          painter.keepAt(anchor, at, zoom);
          painter.reveal([anchor], { children: true }); // the newly loaded children are shown
        }
        commands.updateSearch();
        r.refreshToolbar();
      };
      // put off too: a table drawn whole (no folding to fit) of more nodes than SVG draws, whose
      // layout and scene cost several times its walks (10k nodes: one task of ~100 ms)
      const whole = !view.state.foldToFit && data.size > D.canvasAbove;
      // the picture's long parts (its layout above all) in slices over several tasks
      const prepare = function* () {
        view.spreadOver(camera.room());
        const pic = /** @type {import("../picture/picture.js").Picture} */ (view.current());
        yield* pictureSteps(pic);
        yield;
        painter.histogram(pic);
      };
      // and a view's first table of more than a few thousand rows (a level of detail's default
      // 3,000: decoding it, folding and drawing in one task took 60-80 ms)
      const firstBig = !previous && data.size > D.firstDrawLaterAbove;
      if (otherTree && (data.size > D.drawLaterAbove || whole || firstBig)) {
        r.refreshToolbar();
        later.schedule([fold, prepare, draw]);
      } else {
        if (otherTree) fold();
        draw();
      }
    },
    /** Sets view state (from Python or a saved notebook): no `onChange` echo. Errors name the bad value (a node id
     * not in the tree too); nothing is applied then. @param {Partial<ViewState>} state */
    setState(state) {
      checkIds(view.table, state);
      if (state.collapsed) view.fitted = new Set(); // Python's folds are the user's, not the fit's
      const first = !view.state.colorBy && state.colorBy;
      r.apply(state, { source: "python" });
      if (first && view.table) {
        r.rebuild();
        commands.updateSearch();
      }
    },
    /** @returns {ViewState} */
    get state() {
      return { ...view.state };
    },
    /** Errors name an id not in the tree; nothing is applied then. @param {Iterable<NodeId>} ids */
    setSelection(ids) {
      checkIds(view.table, { selection: [...ids] });
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
      commands.dispatch(commandOf(name, value));
    },
    dispatch: commands.dispatch,
    /**
     * Folds what is open further until the picture fits its room at readable spacing (smallest
     * subtrees by the size metric first; the hot path and the ancestors of `shown` stay open), as
     * a figure does with a view the user opened wide; returns how many drawn nodes it folded away.
     * @param {Iterable<NodeId>} [shown] full-tree ids
     */
    foldToRoom: (shown = []) => r.foldToRoom(shown),
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
     * its drawing (see live-picture.js): the canvas backend's painted again, the SVG backend's
     * copied; null before the view is drawn or where the page cannot paint.
     * @param {number} scale
     */
    picture(scale) {
      const b = painter.backend;
      if (!b || !view.ready()) return null;
      const [size, k] = [camera.size, camera.transform.k];
      return "paintOn" in b
        ? livePicture({ backend: b, overlay: b.svg, size, k }, scale)
        : svgPicture({ svg: b.svg, size, k }, scale);
    },
    /** Zooms and pans to `t` as if the user had (a view drawn again keeps where it was). @param {{ x: number, y: number, k: number }} t */
    setTransform(t) {
      camera.set(t);
      painter.updateLabels();
    },
    /** A new size: narrow views put the legends on top and fold the toolbar into one row. */
    resize(/** @type {number} */ w, /** @type {number} */ h) {
      const top = view.onTop(w);
      toolbar?.setNarrow(w < D.narrowBelow);
      if (top !== view.legendsOnTop) {
        view.setLegendsOnTop(top);
        r.resizeTo(w, h);
        if (view.ready()) r.rebuild(null); // the room changed: lay out and fit again
        return;
      }
      r.resizeTo(w, h);
    },
    /** The element the tree is drawn in: its size is the drawing's size. */
    stage: view.chrome.stage,
    /** The renderer's outermost element (toolbar, status line and stage). */
    element: view.root,
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
      r.gestures.destroy();
      camera.detach();
      painter.destroy();
      // a destroyed view keeps nothing of its tree (something may still hold the renderer)
      view.table = view.shown = null;
      view.root.remove();
    },
  };
}
