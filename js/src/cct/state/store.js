// The state store: the one mutable holder of what the user and Python change — the view state,
// the selection, the keyboard cursor and the undo history — all in full-tree node ids, so that
// nothing in it goes stale when a level-of-detail expansion or a data swap renumbers the rows of
// the table. `apply(change, { source })` decides what is recorded for undo and what is reported.
import { normalizeState, UNDOABLE, VIEW_DEFAULTS } from "../../contract.js";
import { createHistory } from "./history.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("../../contract.js").ViewKey} ViewKey */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/**
 * Who made a change: the user (reported to `onChange`), Python or a saved notebook (not
 * reported back: it came from there), or an undo/redo step (reported, not recorded again).
 * @typedef {"user" | "python" | "history"} Source
 */

/**
 * @param {{ onChange?: (change: Partial<ViewState>) => void, onSelect?: (ids: NodeId[]) => void }} [callbacks]
 */
export function createStore({ onChange = () => {}, onSelect = () => {} } = {}) {
  /** @type {ViewState} */
  let view = structuredClone(/** @type {ViewState} */ (VIEW_DEFAULTS));
  /** @type {NodeId[]} full-tree ids, in selection order */
  let selection = [];
  /** @type {NodeId | null} */
  let cursor = null;
  let history = createHistory();

  const undoable = () => Object.fromEntries(UNDOABLE.map((k) => [k, view[k]]));

  return {
    /** @returns {ViewState} */
    get view() {
      return view;
    },
    get selection() {
      return selection;
    },
    get cursor() {
      return cursor;
    },

    /**
     * Checks, normalises and applies a partial view state.
     * @param {Record<string, unknown>} partial
     * @param {{ source?: Source }} [how]
     * @returns {ViewKey[]} the keys whose value changed
     */
    apply(partial, { source = "user" } = {}) {
      const next = /** @type {ViewState} */ ({ ...view, ...normalizeState(partial) });
      const changed = /** @type {ViewKey[]} */ (Object.keys(partial)).filter(
        (k) => JSON.stringify(next[k]) !== JSON.stringify(view[k]),
      );
      view = next;
      if (source !== "history") history.record(undoable());
      if (changed.length && source !== "python") onChange(Object.fromEntries(changed.map((k) => [k, view[k]])));
      return changed;
    },

    /**
     * Sets a value without validation, recording or reporting: for a search pattern that is
     * not a valid expression (shown with its message, never sent).
     * @param {"search"} key
     * @param {string} value
     */
    keepTyped(key, value) {
      view = { ...view, [key]: value };
    },

    /**
     * @param {Iterable<NodeId>} ids full-tree ids
     * @param {{ source?: Source }} [how] the user's selections are reported to `onSelect`
     * @returns {boolean} whether it changed
     */
    select(ids, { source = "user" } = {}) {
      const next = [...new Set(ids)];
      const same = next.length === selection.length && next.every((id, i) => id === selection[i]);
      selection = next;
      if (source === "user") onSelect([...selection]);
      return !same;
    },

    /** @param {NodeId | null} id */
    setCursor(id) {
      cursor = id;
    },

    /**
     * Records the current state as a step; with `fresh`, as the first step of a new history
     * (other data: the old steps name nodes of another tree).
     * @param {{ fresh?: boolean }} [how]
     */
    record({ fresh = false } = {}) {
      if (fresh) history = createHistory();
      history.record(undoable());
    },

    /** @returns {Partial<ViewState> | null} the state one step back, or null */
    undo() {
      return history.undo();
    },
    /** @returns {Partial<ViewState> | null} */
    redo() {
      return history.redo();
    },
    canUndo: () => history.canUndo(),
    canRedo: () => history.canRedo(),
  };
}

/** @typedef {ReturnType<typeof createStore>} Store */
