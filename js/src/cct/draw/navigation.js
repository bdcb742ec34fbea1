// Navigation on the drawing: where a node or a fold is on screen, and the camera moves that
// bring drawn nodes into view (at a readable zoom when asked), centre a fold, or keep a node
// where the user acted on it across a new layout. Reads the picture drawn now.

/**
 * @param {import("./view.js").View} view the view whose picture (`view.shown`) is navigated, with its camera
 * @param {() => void} updateLabels the painter's labels, placed again after a move
 */
export function createNavigation(view, updateLabels) {
  const { camera, D } = view;
  const picture = () => view.shown;
  const keyOf = (/** @type {import("../data/ids.js").NodeId} */ id) => view.keyOf(id);
  const screenOf = (/** @type {import("../data/ids.js").ItemKey} */ key) => view.screenOf(key);
  /** The fold item under node `parent` (-1: hidden roots), if drawn. @param {import("../data/ids.js").NodeId} parent */
  const foldUnder = (parent) => {
    const pic = picture();
    return pic?.tree.items.find((it) => it.fold && (it.id >= 0 ? pic.table.idOf(it.id) : -1) === parent);
  };
  return {
    /** Where node `id` is on screen, relative to the drawing surface; null if it is not drawn. @param {import("../data/ids.js").NodeId} id */
    screenPosition(/** @type {import("../data/ids.js").NodeId} */ id) {
      const key = keyOf(id);
      return key >= 0 && picture()?.tree.byKey.has(key) ? screenOf(key) : null;
    },
    /** Where the fold under node `parent` (-1: hidden roots) is on screen; null if there is none. @param {import("../data/ids.js").NodeId} parent */
    foldPosition(/** @type {import("../data/ids.js").NodeId} */ parent) {
      const fold = foldUnder(parent);
      return fold ? screenOf(fold.key) : null;
    },
    /**
     * Brings drawn nodes into view (navigation keeps its target in view); with `readable`, at
     * a zoom where rows are at least `minRowPx` apart.
     * @param {import("../data/ids.js").NodeId[]} ids full-tree ids (those not drawn are skipped)
     * @param {{ readable?: boolean, children?: boolean }} [how] `children`: their drawn children too
     */
    reveal(ids, { readable = false, children = false } = {}) {
      const pic = picture();
      if (!pic) return;
      const { tree, layout } = pic;
      const keys = ids.map(keyOf).filter((k) => k >= 0 && tree.byKey.has(k));
      if (children) {
        const parents = new Set(keys);
        for (const it of tree.items) if (parents.has(it.parentKey)) keys.push(it.key);
      }
      camera.reveal(
        keys.map((k) => ({ x: layout.x[k], y: layout.y[k] })),
        { minK: readable ? D.minRowPx / D.rowHeight : 0 },
      );
      updateLabels();
    },
    /** Pans (same zoom) so that the fold under node `parent` is in the middle of the view. @param {import("../data/ids.js").NodeId} parent */
    centerOnFold(/** @type {import("../data/ids.js").NodeId} */ parent) {
      const layout = picture()?.layout;
      const fold = foldUnder(parent);
      if (fold && layout) camera.centerOn(layout.x[fold.key], layout.y[fold.key]);
    },
    /**
     * Puts node `id` back at screen position `at` with the zoom `zoom` (an expansion keeps the
     * expanded node where the user clicked).
     * @param {import("../data/ids.js").NodeId} id @param {{ x: number, y: number }} at @param {{ x: number, y: number, k: number }} zoom
     */
    keepAt(id, at, zoom) {
      const layout = picture()?.layout;
      const key = keyOf(id);
      if (!layout || key < 0) return;
      camera.set(zoom);
      camera.keep(at, layout.x[key], layout.y[key]);
      updateLabels();
    },
  };
}
