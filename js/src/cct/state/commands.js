// The commands: every change the user asks for (toolbar, pointer, keyboard, breadcrumb) and the
// renderer's API's `command`, as one typed union (`Command`) run by one `dispatch`. Each turns the
// state into a change through the pure tree edits (tree-edits.js) and applies it through the view
// (recorded and reported, or stepped through the history); node ids are full-tree ids. The search
// (typing, stepping through the matches, showing them all) runs in search-commands.js.
import { valuesOf } from "../../contract.js";
import { metricByName } from "../data/decode.js";
import { statsOf } from "../picture/picture.js";
import { createSearch } from "./search-commands.js";
import * as edits from "./tree-edits.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../picture/picture.js").Picture} Picture */
/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("./store.js").Source} Source */

/**
 * What the user asks for. `set`: view state as chosen in a menu; `collapse`: collapse or expand
 * a node; `loadMore`: open a level-of-detail fold (`parent` -1: the hidden roots); `focus`: root
 * the view at a node (no `id`: the cursor's or the last selected; null: the whole tree again);
 * `cursor`: the keyboard cursor (`reveal`: pan to it near an edge); `escape`: clear the selection
 * and the search, or leave the view when there is none.
 * @typedef {{ type: "set", state: Partial<ViewState> }
 *   | { type: "expandAll" } | { type: "collapseToDepth", depth: number }
 *   | { type: "collapse", id: NodeId } | { type: "loadMore", parent: NodeId }
 *   | { type: "hotPath" } | { type: "focus", id?: NodeId | null }
 *   | { type: "toggleRoot", id: NodeId } | { type: "inclusive", on: boolean }
 *   | { type: "select", ids: NodeId[] } | { type: "selectSubtree" } | { type: "clearSelection" }
 *   | { type: "cursor", id: NodeId | null, reveal: boolean } | { type: "escape" } | { type: "brush" }
 *   | { type: "undo" } | { type: "redo" } | { type: "reset" } | { type: "fit" }
 *   | { type: "search", pattern: string } | { type: "match", step: 1 | -1 }
 *   | { type: "showMatch", id: NodeId } | { type: "showMatches" }
 *   | { type: "reducer", reducer: string } | { type: "download", format: "svg" | "png" }} Command
 */
/** @typedef {(command: Command) => void} Dispatch */

/**
 * What the commands do on the drawing (the painter): camera moves, marks and the screen
 * reader's announcements. Node ids are full-tree ids.
 * @typedef {object} Screen
 * @property {(ids: NodeId[], how?: { readable?: boolean, children?: boolean }) => void} reveal
 * @property {(id: NodeId) => void} centerOn
 * @property {(glide?: boolean) => void} fitToView `glide`: animated, as navigation
 * @property {() => boolean} fitted the view is fitted (the user has not zoomed or panned it)
 * @property {{ matches: (ids: NodeId[]) => void, selection: () => void, cursor: (id: NodeId | null) => void }} marks
 * @property {(text: string) => void} announce
 */
/**
 * The renderer, as the commands see it.
 * @typedef {object} View
 * @property {(partial: Record<string, unknown>, how: { source: Source, anchor?: NodeId | null }) => void} apply
 *   the one path of a change: applied to the store, then what changed is drawn again
 * @property {() => void} refreshToolbar
 * @property {() => void} foldFirstPicture folds the tree to fit, as its first picture
 * @property {() => void} toggleBrush the brush tool on or off
 * @property {() => void} leave the keyboard leaves the view (the host's own keys take over)
 */
/**
 * What the commands ask of the host (the widget): the renderer's options.
 * @typedef {object} Requests
 * @property {((format: "svg" | "png") => void) | null} download
 * @property {((reducer: string) => void) | null} reducer how a node's rows combine
 * @property {(node: NodeId) => void} loadMore the hidden children of `node` (-1: hidden roots)
 * @property {((node: NodeId, step: 1 | -1 | 0) => Promise<NodeId | null>) | null} [find] level of
 *   detail: loads the search match after (`step` 1) or before (-1) `node` (-1: none), or (0) the
 *   matches, and gives the match
 */

/**
 * The command of a name and a value (the renderer's `command(name, value)`, from untyped code):
 * an unknown name or a value of the wrong type is refused with a RangeError.
 * @param {string} name @param {unknown} [value] @returns {Command}
 */
export function commandOf(name, value) {
  const bare = /** @type {const} */ ([
    "expandAll",
    "hotPath",
    "focus",
    "brush",
    "selectSubtree",
    "clearSelection",
    "undo",
    "redo",
    "reset",
    "fit",
    "showMatches",
  ]);
  const simple = bare.find((b) => b === name);
  if (simple) return { type: simple };
  const wrong = () => new RangeError(`command ${JSON.stringify(name)} takes no ${JSON.stringify(value)}`);
  switch (name) {
    case "collapseToDepth":
      return { type: name, depth: Number(value) };
    case "toggleRoot":
      if (typeof value !== "number") throw wrong();
      return { type: name, id: /** @type {NodeId} */ (value) };
    case "inclusive":
      return { type: name, on: !!value };
    case "search":
      return { type: name, pattern: String(value ?? "") };
    case "match":
      if (value !== 1 && value !== -1) throw wrong();
      return { type: name, step: value };
    case "showMatch":
      if (!Number.isInteger(value) || Number(value) < 0) throw wrong();
      return { type: name, id: /** @type {NodeId} */ (value) };
    case "select": // as a click: the view marks the nodes and reports them (onSelect)
      if (!Array.isArray(value) || !value.every((id) => Number.isInteger(id) && id >= 0)) throw wrong();
      return { type: name, ids: /** @type {NodeId[]} */ (value) };
    case "reducer":
      return { type: name, reducer: String(value) };
    case "download":
      return { type: name, format: /** @type {"svg" | "png"} */ (value) }; // checked by dispatch
    default:
      throw new RangeError(`unknown command ${JSON.stringify(name)}`);
  }
}

/**
 * @param {{ store: import("./store.js").Store, table: () => Table | null, shown: () => Picture | null,
 *   screen: Screen, view: View, requests: Requests,
 *   toolbar: import("./search-commands.js").SearchBox | null }} parts
 *   `table`: the table the view has (drawn, or about to be); `shown`: the picture drawn now
 */
export function createCommands({ store, table: tableNow, shown, screen, view, requests, toolbar }) {
  const REDUCERS = valuesOf("reducer");
  const state = () => store.view;
  /** A change the user made: applied, recorded, reported. @param {Record<string, unknown> | null} partial */
  const change = (partial, anchor = /** @type {NodeId | null} */ (null)) => {
    if (partial) view.apply(partial, { source: "user", anchor });
  };

  /** Runs a command. @type {Dispatch} */
  function dispatch(command) {
    if (command.type === "set") return change(command.state);
    const table = tableNow();
    if (!table) return;
    const stats = statsOf(table);
    const v = state();
    const firstRoot = edits.rootIds(table)[0] ?? null;
    switch (command.type) {
      case "expandAll":
        return change({ collapsed: [] });
      case "collapseToDepth":
        return change(edits.collapseToDepth(table, stats, command.depth));
      case "collapse": {
        const fitted = screen.fitted();
        change(edits.toggleCollapse(table, stats, v, command.id), command.id);
        // a collapse: a fitted view refits the smaller tree; a zoomed one keeps the node in place
        if (state().collapsed.includes(command.id)) return fitted ? screen.fitToView(true) : undefined;
        return screen.reveal([command.id], { children: true }); // what opened is in view
      }
      case "loadMore":
        return requests.loadMore(command.parent);
      case "hotPath": {
        const start = v.focus ?? store.cursor ?? firstRoot;
        if (start === null) return;
        const { change: next, path } = edits.hotPath(table, stats, v, start);
        setCursor(path.at(-1) ?? start, false);
        change(next); // another overview: drawn fitted, so the whole path is in view
        return screen.reveal(path);
      }
      case "focus":
        return change({
          focus:
            command.id !== undefined ? command.id : (store.cursor ?? store.selection.at(-1) ?? v.focus ?? firstRoot),
        });
      case "toggleRoot":
        return change(edits.toggleRoot(table, v, command.id));
      case "inclusive":
        return change(edits.inclusiveMetrics(table, v, command.on));
      case "brush":
        return view.toggleBrush();
      case "select":
        return select(command.ids);
      case "selectSubtree":
        return select(edits.withDescendants(table, stats, store.selection));
      case "clearSelection":
        return select([]);
      case "cursor":
        return setCursor(command.id, command.reveal);
      case "escape":
        // the first Escape clears the selection and the search; one more leaves the view (the
        // host's own Escape, e.g. the notebook's command mode, takes over from there)
        if (!store.selection.length && !v.search) return view.leave();
        select([]);
        if (v.search) change({ search: "" });
        return;
      case "undo":
      case "redo": {
        const back = command.type === "undo" ? store.undo() : store.redo();
        if (back) view.apply(back, { source: "history" });
        return view.refreshToolbar();
      }
      case "reset":
        // the first picture again: the whole tree, folded to fit when that is on
        change(edits.RESET);
        view.foldFirstPicture();
        return screen.fitToView();
      case "fit":
        return screen.fitToView();
      case "search":
        return search.type(command.pattern);
      case "match":
        return search.stepTo(command.step);
      case "showMatch":
        return search.show(command.id);
      case "showMatches":
        return search.showAll();
      case "reducer":
        if (!REDUCERS.includes(command.reducer))
          throw new RangeError(`reducer is one of ${REDUCERS.join(", ")}; got ${JSON.stringify(command.reducer)}`);
        return requests.reducer?.(command.reducer);
      case "download":
        if (command.format !== "svg" && command.format !== "png")
          throw new RangeError(`download format is "svg" or "png"; got ${JSON.stringify(command.format)}`);
        return requests.download?.(command.format);
      default:
        throw new RangeError(`unknown command ${JSON.stringify(/** @type {{ type: unknown }} */ (command).type)}`);
    }
  }

  /** The user's selection: stored, drawn, reported. @param {NodeId[]} ids */
  function select(ids) {
    store.select(ids, { source: "user" });
    screen.marks.selection();
  }
  /** @param {NodeId | null} id @param {boolean} reveal pan to it if it is near the edge */
  function setCursor(id, reveal) {
    store.setCursor(id);
    screen.marks.cursor(id);
    const table = tableNow();
    const row = id === null || !table ? -1 : table.rowOf(id);
    if (!table || row < 0) return;
    const colorBy = state().colorBy;
    screen.announce(`${table.names[table.nameCode[row]]}, ${colorBy} ${metricByName(table, colorBy)?.values[row]}`);
    if (reveal && id !== null) screen.reveal([id], { readable: true });
  }

  const search = createSearch({
    store,
    table: tableNow,
    shown,
    screen,
    toolbar,
    change,
    setCursor,
    find: requests.find ?? null,
  });

  return {
    dispatch,
    updateSearch: search.update,
    /** Python's count of a search's matches over the full tree (level of detail). */
    setSearchCount: search.setCounted,
    /** Ids of the search matches that are drawn, in tree order. */
    get matches() {
      return search.drawn;
    },
  };
}
