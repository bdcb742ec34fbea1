// The commands by name (the toolbar's, the keyboard's and Python's `command`) and the search
// (typing, updating the matches, stepping through them). Each turns the state into a change
// through the pure tree changes (changes.js) and hands it to the renderer's `change` (recorded and
// reported) or `apply` (undo/redo); node ids are full-tree ids.
import { valuesOf } from "../../contract.js";
import { statsOf } from "../picture/picture.js";
import * as changes from "./changes.js";
import { findMatches, matcher, matchSummary, revealMatches } from "./search.js";

/**
 * @typedef {object} CommandContext
 * @property {import("./store.js").Store} store
 * @property {() => Table | null} table the table the view has (drawn, or about to be)
 * @property {() => Picture | null} shown the picture drawn now
 * @property {Moves} painter the camera moves and marks on the drawing
 * @property {{ setSearchInfo: (text: string, error: boolean) => void } | null} toolbar
 * @property {(partial: Record<string, unknown> | null, anchor?: NodeId | null) => void} change
 * @property {(partial: Record<string, unknown>, how: { source: import("./store.js").Source }) => void} apply
 * @property {(ids: NodeId[]) => void} select
 * @property {(id: NodeId | null, reveal: boolean) => void} setCursor
 * @property {() => void} refreshToolbar
 * @property {((format: "svg" | "png") => void) | null} onDownload
 * @property {((reducer: string) => void) | null} onReducer the user chose how a node's rows combine
 * @property {() => void} toggleBrush
 * @property {() => void} foldFirstPicture folds the tree to fit, as its first picture
 */

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../picture/picture.js").Picture} Picture */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/**
 * What the commands do on the drawing (the painter): camera moves and marks. Node ids are
 * full-tree ids.
 * @typedef {object} Moves
 * @property {(ids: NodeId[], how?: { readable?: boolean, children?: boolean }) => void} reveal
 * @property {(id: NodeId) => void} centerOn
 * @property {() => void} fitToView
 * @property {{ matches: (ids: NodeId[]) => void }} marks
 */

/** @param {CommandContext} ctx */
export function createCommands({
  table: tableNow,
  shown,
  foldFirstPicture,
  store,
  painter,
  toolbar,
  change,
  apply,
  select,
  setCursor,
  refreshToolbar,
  onDownload,
  onReducer,
  toggleBrush,
}) {
  const REDUCERS = valuesOf("reducer");
  /** @type {NodeId[]} */
  let matches = [];
  let matchAt = -1;
  const view = () => store.view;

  /** Runs a toolbar command by name. @param {string} name @param {any} [value] */
  function command(name, value) {
    const table = tableNow();
    if (!table) return;
    const stats = statsOf(table);
    const v = view();
    const firstRoot = changes.rootIds(table, stats)[0] ?? null;
    switch (name) {
      case "expandAll":
        return change({ collapsed: [] });
      case "collapseToDepth":
        return change(changes.collapseToDepth(table, stats, value));
      case "hotPath": {
        const start = v.focus ?? store.cursor ?? firstRoot;
        if (start === null) return;
        const { change: next, path } = changes.hotPath(table, stats, v, start);
        setCursor(path.at(-1) ?? start, false);
        change(next); // another overview: drawn fitted, so the whole path is in view
        return painter.reveal(path);
      }
      case "focus":
        return change({
          focus: store.cursor ?? store.selection.at(-1) ?? v.focus ?? firstRoot,
        });
      case "toggleRoot":
        return change(changes.toggleRoot(table, stats, v, value));
      case "inclusive":
        return change(changes.inclusiveMetrics(table, v, value));
      case "brush":
        return toggleBrush();
      case "selectSubtree":
        return select(changes.withDescendants(table, stats, store.selection));
      case "clearSelection":
        return select([]);
      case "undo":
      case "redo": {
        const state = name === "undo" ? store.undo() : store.redo();
        if (state) apply(state, { source: "history" });
        return refreshToolbar();
      }
      case "reset":
        // the first picture again: the whole tree, folded to fit when that is on
        change(changes.RESET);
        foldFirstPicture();
        return painter.fitToView();
      case "fit":
        return painter.fitToView();
      case "search":
        return searchFor(value);
      case "match":
        return stepMatch(value);
      case "reducer":
        if (!REDUCERS.includes(String(value)))
          throw new RangeError(`reducer is one of ${REDUCERS.join(", ")}; got ${JSON.stringify(value)}`);
        return onReducer?.(String(value));
      case "download":
        if (value !== "svg" && value !== "png")
          throw new RangeError(`download format is "svg" or "png"; got ${JSON.stringify(value)}`);
        return onDownload?.(value);
      default:
        throw new RangeError(`unknown command ${JSON.stringify(name)}`);
    }
  }

  /** The search the user types: matches are revealed by expanding their collapsed ancestors. @param {string} pattern */
  function searchFor(pattern) {
    const table = tableNow();
    if (!table) return;
    const test = matcher(pattern, {
      regex: view().searchRegex,
      caseSensitive: view().searchCase,
    });
    if (test instanceof Error) {
      store.keepTyped("search", pattern);
      return toolbar?.setSearchInfo(test.message, true);
    }
    const opened = test ? revealMatches(table, view().collapsed, test) : null;
    change(opened ? { search: pattern, collapsed: opened } : { search: pattern });
  }
  function updateSearch() {
    const table = tableNow();
    const pic = shown();
    if (!table || !pic) return;
    const test = matcher(view().search, {
      regex: view().searchRegex,
      caseSensitive: view().searchCase,
    });
    matches = [];
    if (test instanceof Error) {
      painter.marks.matches([]);
      return toolbar?.setSearchInfo(test.message, true);
    }
    const found = test ? findMatches(table, test, (row) => pic.drawn(table.idOf(row))) : null;
    matches = found?.shown ?? [];
    matchAt = Math.min(matchAt, matches.length - 1);
    painter.marks.matches(matches);
    toolbar?.setSearchInfo(found ? matchSummary(found.shown.length, found.hidden) : "", false);
  }
  /** @param {number} step */
  function stepMatch(step) {
    if (!matches.length) return;
    matchAt = (matchAt + step + matches.length) % matches.length;
    const id = matches[matchAt];
    setCursor(id, false);
    painter.centerOn(id);
    painter.reveal([id], { readable: true }); // and at a zoom where it can be read
    toolbar?.setSearchInfo(`${matchAt + 1} of ${matches.length}`, false);
  }

  return {
    command,
    updateSearch,
    /** Ids of the search matches that are drawn, in tree order. */
    get matches() {
      return [...matches];
    },
  };
}
