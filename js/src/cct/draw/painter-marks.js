// What the painter marks on a drawn picture besides the tree (painter.js): the selection (rings
// on the selected nodes drawn, dashed ones on the glyphs that hide others, the pinned spread),
// the keyboard cursor, the highlights and the search's matches, with the status line that says
// where hidden selected nodes are and the breadcrumb of the focus path. Node ids in and out are
// full-tree ids; the backend works with item keys (scene.js).

import { NO_ROW } from "../data/ids.js";
import { hiddenSelectionText, placeSelection } from "../picture/hidden-selection.js";
import { statusText } from "../picture/status-text.js";
import { pathTo } from "../picture/view-tree.js";

/** @typedef {import("../picture/picture.js").Picture} Picture */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */

/**
 * @param {import("./view.js").View} view the view whose picture (`view.shown`) is marked
 * @param {{ backend: () => ReturnType<typeof import("./painter.js").createPainter>["backend"],
 *   pin: (table: import("../data/decode.js").Table, selection: NodeId[], colorBy: string) => void,
 *   labels: { placed: unknown[], update: () => void }, dispatch: import("../state/commands.js").Dispatch }} parts
 *   `backend`: the painter's, now; `pin`: the selected node's spread pinned; `labels.placed`:
 *   the labels placed last (none: none to place again); `dispatch`: a breadcrumb click focuses its node
 */
export function createPainterMarks(view, { backend, pin, labels, dispatch }) {
  const { store, chrome } = view;
  const state = () => store.view;
  const picture = () => view.shown;
  const keyOf = (/** @type {NodeId} */ id) => view.keyOf(id);
  const updateLabels = () => labels.update();
  const keysOf = (/** @type {Iterable<NodeId>} */ ids) => new Set([...ids].map(keyOf).filter((k) => k >= 0));
  /** @type {NodeId[]} the search's matches, labelled first */
  let matched = [];

  /** The selection's marks: on the selected nodes drawn, and on the glyphs that hide others,
   * which the status line names (hidden-selection.js). */
  function showSelection() {
    const pic = picture();
    const b = backend();
    if (!b || !pic) return;
    const { table, stats, tree } = pic;
    const placed = placeSelection(table, tree, store.selection);
    b.setSelected(placed.drawn);
    b.setHolding(placed.holders);
    pin(table, store.selection, state().colorBy);
    const hidden = hiddenSelectionText(table, stats, tree, placed);
    chrome.setStatus(statusText(table, stats, tree, state(), hidden));
    if (labels.placed.length) updateLabels(); // the selected nodes' labels come first
  }

  /** @param {NodeId | null} id */
  const cursor = (id) => {
    const key = id === null ? null : keyOf(id);
    backend()?.setCursor(key !== null && picture()?.tree.byKey.has(key) ? key : null);
  };

  return {
    /** the search's matches, labelled first (painter-labels.js) */
    matched: () => matched,
    /** Every mark of a picture just drawn (`pic`): selection, status line, cursor, highlights,
     * and the breadcrumb of the focus path. @param {Picture} pic */
    drawn(pic) {
      showSelection(); // with the status line, which says where hidden selected nodes are
      cursor(store.cursor);
      backend()?.setHighlighted(keysOf(state().highlighted));
      const focus = state().focus;
      const t = pic.table;
      const focusRow = focus === null ? NO_ROW : t.rowOf(focus);
      chrome.setBreadcrumb(
        focusRow < 0
          ? null
          : pathTo(t.parent, focusRow).map((row) => ({ id: t.idOf(row), name: t.names[t.nameCode[row]] })),
        (id) => dispatch({ type: "focus", id }),
      );
    },
    /** Marks of the selection, the cursor, the highlights and search matches (full-tree ids). */
    marks: {
      selection: showSelection,
      highlights: () => backend()?.setHighlighted(keysOf(state().highlighted)),
      cursor,
      /** Matches drawn are outlined; a glyph that hides some is outlined dashed, with their count. @param {NodeId[]} ids */
      matches(ids) {
        const pic = picture();
        const b = backend();
        if (!b || !pic) return;
        const placed = placeSelection(pic.table, pic.tree, ids);
        b.setMatches(placed.drawn, placed.holders);
        // the same matches after a new structure (its labels are placed): labelled first already
        const same = ids.length === matched.length && ids.every((id, i) => id === matched[i]);
        matched = ids;
        if (!same) updateLabels();
      },
    },
  };
}
