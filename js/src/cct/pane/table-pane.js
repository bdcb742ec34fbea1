// The table pane beside the tree: calling contexts as expandable rows, the flat list of functions,
// the bottom-up callers tree, one function's callers and callees (the sandwich) and, for an
// ensemble, its changes along the runs (changes-list.js); the selected node's source
// (source-view.js) and value per rank (rank-strip.js). Rows come
// from `fetchRows` (Python computes them over the full tree) and are drawn virtualised: only
// the rows in view are in the page, so 100,000 rows scroll like 100. It holds no view state: a
// pick, a focus, a sandwich or a search is reported, and the shared state comes back in.
import { append } from "../base/dom.js";
import { matcher } from "../state/search.js";
import { columnFormats, columnUnit, headerText } from "./cells.js";
import { createChangesList } from "./changes-list.js";
import { createPaneHead } from "./pane-head.js";
import { createRankStrip } from "./rank-strip.js";
import { bindRowInput } from "./row-input.js";
import { createSourceView } from "./source-view.js";
import { createTableBody } from "./table-body.js";
import { layoutColumns } from "./table-layout.js";
import { drawHeaders, ROW_HEIGHT, rowElement } from "./table-lines.js";
import { findRow, firstSort, partOf, rowsFrom, visibleRows } from "./table-rows.js";

/** @typedef {import("./table-rows.js").Row} Row */
/** @typedef {import("./table-rows.js").RowMode} RowMode */
/** @typedef {import("./table-rows.js").Columns} Columns */
/** @typedef {import("./table-rows.js").Sort} Sort */
/** @typedef {import("./pane-head.js").PaneMode} PaneMode */
/**
 * @typedef {{ mode: RowMode, node?: number | null, path?: string[], part?: number, itself?: boolean }} RowsRequest
 *   `part`: how many of the path's last names are loops or lines of its function
 */
/**
 * @typedef {object} PaneHandlers
 * @property {(request: RowsRequest) => Promise<unknown>} fetchRows Python's rows for a request
 * @property {(request: { mode: RowMode, node: number, path: string[], part?: number, add: boolean }) => void} pick
 *   the user picked a row (Python selects the nodes it stands for)
 * @property {(node: import("../data/ids.js").NodeId) => void} focus the user asked to focus a calling context
 * @property {(name: string) => void} sandwich the user asked for a function's callers and callees
 * @property {(mode: PaneMode) => void} setMode the user chose another table
 * @property {(text: string) => void} search the user typed in the filter box
 * @property {Omit<import("./changes-list.js").ChangesHandlers, "pick">} changes an ensemble's
 *   changes (the Changes tab, shown by `setChanges(true)`)
 * @property {(node: number) => Promise<unknown>} fetchSource Python's source of a node (Source tab)
 * @property {(node: number) => Promise<unknown>} fetchRanks Python's values per rank of a node (Ranks tab)
 * @property {(rank: number | null) => void} setRank the user clicked a rank in the strip (null: every rank)
 * @property {(names: string[]) => void} [setColumns] the user chose the value columns (Columns menu)
 */

export { ROW_HEIGHT };

/** Which kind of column sorts each table at first: inclusive for trees of contexts, exclusive for lists. */
const FIRST_SORT = /** @type {const} */ ({
  contexts: "inclusive",
  functions: "exclusive",
  callers: "exclusive",
  sandwich: "inclusive",
  changes: "exclusive",
  source: "exclusive",
  ranks: "exclusive",
  off: "inclusive",
});
/** The tabs that show the selected node, not rows. */
const OF_NODE = new Set(["source", "ranks"]);

/** @param {HTMLElement} parent @param {PaneHandlers} handlers */
export function createTablePane(parent, handlers) {
  const doc = parent.ownerDocument;
  const element = append(parent, "section", { className: "cct-pane", attrs: { "aria-label": "Table of the profile" } });
  element.hidden = true;
  const { filter, chooser, ...tabs } = createPaneHead(element, {
    setMode: handlers.setMode,
    search: handlers.search,
    choose: (names) => handlers.setColumns?.(names),
  });
  /** @type {string[]} the metrics the Columns menu lists */
  let metricNames = [];
  const note = append(element, "div", { className: "cct-pane-note" });
  const columnsRow = append(element, "div", { className: "cct-pane-row cct-pane-columns", attrs: { role: "row" } });
  // (what a row looks like and whether it is marked: isSelected and test, below)
  const matches = (/** @type {Row} */ row) => !!test && row.section === null && test(row.label);
  const rows = createTableBody(element, {
    line: (row, index) =>
      rowElement(doc, row, index, {
        selected: isSelected(row),
        match: matches(row),
        count: mode !== "contexts",
        formats,
        totals: columns.totals,
      }),
    mark: (el, row) => {
      el.classList.toggle("cct-row-selected", isSelected(row));
      el.classList.toggle("cct-row-match", matches(row));
    },
  });

  const changes = createChangesList(element, {
    ...handlers.changes,
    pick: (node, add) => handlers.pick({ mode: "contexts", node, path: [], add }),
  });
  tabs.showTab("changes", false); // an ensemble's only
  const source = createSourceView(element, { fetchSource: handlers.fetchSource });
  const strip = createRankStrip(element, {
    fetchRanks: handlers.fetchRanks,
    setRank: handlers.setRank,
    unitOf: (metric) => (Object.hasOwn(units, metric) ? units[metric] : null),
  });
  /** @type {number | null} the first selected node (what the Source and Ranks tabs show) */
  let firstSelected = null;

  /** @type {PaneMode} */
  let mode = "off";
  let sandwichOf = "";
  /** @type {Row[]} */
  let roots = [];
  /** @type {Columns} */
  let columns = { names: [], totals: [], kinds: [] };
  /** @type {import("./cells.js").ColumnFormat[]} how each value column prints (drawColumns) */
  let formats = [];
  /** @type {Record<string, string>} metric name → unit (w.units) */
  let units = {};
  /** @type {Sort | null} null: the table's first sort (FIRST_SORT), once its columns are known */
  let sort = null;
  let generation = 0;
  let pickedKey = "";
  /** @type {Set<number>} */
  let selectedIds = new Set();
  /** @type {Set<string>} */
  let selectedNames = new Set();
  /** @type {((name: string) => boolean) | null} */
  let test = null;

  /** @param {string} text */
  const say = (text) => {
    note.textContent = text;
    note.hidden = !text;
  };

  /** Rows of a request, made rows below `parent`; stale answers (a newer load began) are dropped. */
  const load = async (/** @type {RowsRequest} */ request, /** @type {Row | null} */ below) => {
    const mine = generation;
    const reply = await handlers.fetchRows(request);
    if (mine !== generation) return null;
    const made = rowsFrom(reply, below, request.mode);
    // other columns (table_metrics changed): the sort by a column that moved starts again
    if (made.columns.names.join("\n") !== columns.names.join("\n")) sort = null;
    columns = made.columns;
    return made.rows;
  };

  const reload = async () => {
    generation += 1;
    roots = [];
    draw();
    changes.show(mode === "changes");
    source.show(mode === "source");
    strip.show(mode === "ranks");
    columnsRow.hidden = rows.body.hidden = mode === "changes" || OF_NODE.has(mode);
    if (mode === "off") return;
    if (mode === "changes") return changes.load();
    if (mode === "source") return source.load(firstSelected);
    if (mode === "ranks") return strip.load(firstSelected);
    try {
      if (mode === "sandwich") {
        if (!sandwichOf) {
          say("Select a node in the tree, or double-click a function in a table, to see its callers and callees.");
          return;
        }
        const up = await load({ mode: "callers", path: [sandwichOf], itself: true }, null);
        const down = await load({ mode: "callees", path: [sandwichOf], itself: true }, null);
        if (!up || !down) return;
        up[0].section = `callers of ${sandwichOf} ▲`;
        down[0].section = `${sandwichOf} calls ▼`;
        roots = [up[0], down[0]];
        await Promise.all(roots.map((r) => toggle(r, true)));
      } else {
        const top = await load(mode === "contexts" ? { mode, node: null } : { mode, path: [] }, null);
        if (!top) return;
        roots = top;
      }
      say("");
      draw();
    } catch (error) {
      say(error instanceof Error ? error.message : String(error));
    }
  };

  /** Opens (loading its children) or closes a row. @param {Row} row @param {boolean} [open] */
  async function toggle(row, open = !row.open) {
    if (!row.more) return;
    if (open && row.children === null) {
      const request =
        row.mode === "contexts"
          ? { mode: row.mode, node: row.node }
          : { mode: row.mode, path: row.path, ...partOf(row) };
      const kids = await load(request, row);
      if (!kids) return;
      row.children = kids;
    }
    row.open = open;
    draw();
  }

  /** @returns {Sort} */
  const sortNow = () => sort ?? firstSort(columns, FIRST_SORT[mode]);

  const sorted = () => {
    const keep =
      test && (mode === "functions" || mode === "callers") ? (/** @type {Row} */ r) => test?.(r.label) ?? true : null;
    return visibleRows(roots, sortNow(), keep);
  };

  function drawColumns() {
    const counted = mode !== "contexts";
    // one prefix per column, from its total and its top rows (rows opened below keep it)
    formats = columnFormats(
      columns.names.map((_, i) => [columns.totals[i], ...roots.map((r) => r.values[i])]),
      columns.names.map((name, i) => columnUnit(name, columns.kinds[i], units)),
    );
    const heads = columns.names.map((name, i) => headerText(name, formats[i]));
    chooser.element.hidden = !handlers.setColumns || mode === "changes" || OF_NODE.has(mode);
    chooser.set(metricNames, columns.names);
    const names = ["name", ...heads, ...(counted ? ["contexts"] : [])];
    const shared = columns.totals.map((t) => t !== null);
    // the Source, Ranks and Changes tabs show no columns: the pane keeps the calling contexts'
    // width there, so that the tree does not move when the tab changes
    layoutColumns(element, shared, counted, counted && mode !== "changes" && !OF_NODE.has(mode));
    drawHeaders(
      columnsRow,
      names,
      sortNow(),
      (next) => {
        sort = next;
        draw();
      },
      shared,
    );
  }

  /** @param {Row} row */
  const isSelected = (row) =>
    row.key === pickedKey ||
    (row.node >= 0 && selectedIds.has(row.node)) ||
    (row.depth === 0 && row.section === null && row.node < 0 && selectedNames.has(row.label) && pickedKey === "");

  function draw() {
    tabs.select(mode);
    drawColumns();
    rows.show(sorted());
  }

  bindRowInput(rows.body, {
    shown: () => rows.shown,
    picked: {
      get key() {
        return pickedKey;
      },
      set key(k) {
        pickedKey = k;
      },
    },
    handlers,
    toggle: (row, open) => toggle(row, open).catch((e) => say(String(e))),
    refresh: rows.refresh,
    scrollTo: rows.scrollTo,
  });

  return {
    element,
    /** The rows that show now, top to bottom (for tests and the console). */
    get rows() {
      return rows.shown;
    },
    /** The rows that are in the page now. */
    get drawn() {
      return rows.drawn;
    },
    /**
     * Shows a table (or hides the pane: "off"), for the sandwich of `of`.
     * @param {PaneMode} next @param {string} of
     */
    show(next, of) {
      if (next === mode && of === sandwichOf && (mode !== "sandwich" || roots.length)) return Promise.resolve();
      if (next !== mode) sort = null;
      mode = next;
      sandwichOf = of;
      element.hidden = mode === "off";
      pickedKey = "";
      return reload();
    },
    /** The value columns of the rows shown: metric names, totals (null: no share), kinds. */
    get columns() {
      return columns;
    },
    /** What is shown changed (scope, reducer, metrics, columns): the rows load again. */
    reload,
    /**
     * The tree's selection: rows holding it are marked; in the contexts table, the first one's
     * path opens and scrolls into view.
     * @param {number[]} ids @param {string[]} names @param {number[][]} paths
     */
    async setSelection(ids, names, paths) {
      selectedIds = new Set(ids);
      selectedNames = new Set(names);
      const first = ids.length ? ids[0] : null;
      if (first !== firstSelected) {
        firstSelected = first;
        if (mode === "source") await source.load(first);
        if (mode === "ranks") await strip.load(first);
      }
      changes.setSelection(ids);
      if (!ids.some((id) => findRow(roots, `contexts:${id}`)?.key === pickedKey)) pickedKey = "";
      rows.refresh();
      if (mode !== "contexts" || !paths.length) return;
      for (const id of paths[0].slice(0, -1)) {
        const row = findRow(roots, `contexts:${id}`);
        if (row && !row.open) await toggle(row, true);
      }
      const at = rows.shown.findIndex((r) => r.node === paths[0].at(-1));
      if (at >= 0 && !rows.inView(at)) rows.scrollTo(at);
    },
    /**
     * The tree's search: the filter box shows it; the flat tables keep matching rows only.
     * @param {string} text @param {{ regex: boolean, caseSensitive: boolean }} options
     */
    setSearch(text, options) {
      if (doc.activeElement !== filter) filter.value = text;
      const made = matcher(text, options);
      test = made instanceof Error ? null : made;
      draw();
    },
    /** The metrics' units (w.units): the value columns print in them. @param {Record<string, string>} map */
    setUnits(map) {
      units = { ...map };
      draw();
    },
    /** The metrics the Columns menu lists. @param {string[]} names */
    setMetrics(names) {
      metricNames = [...names];
      chooser.set(metricNames, columns.names);
    },
    /** The Columns menu (for tests and the console). */
    chooser,
    /** Whether the data is an ensemble: the Changes tab shows. @param {boolean} on */
    setChanges(on) {
      tabs.showTab("changes", on);
    },
    /** The Changes tab's list (for tests and the console). */
    changes,
    /** The Source tab and the Ranks tab's strip (for tests and the console). */
    source,
    strip,
    destroy() {
      generation += 1;
      rows.destroy();
      element.remove();
    },
  };
}
