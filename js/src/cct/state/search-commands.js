// The search's commands: typing a pattern (which opens nothing), the matches counted and marked
// (drawn ones outlined, hidden ones on the glyph that holds them), stepping to the next or the
// previous match (opening only its ancestors and bringing it into view) and showing all of them
// (opening every match's ancestors, on request). What a step or "show all" opens is an ordinary
// collapse change: undoable and reported. Node ids are full-tree ids.
import { metricByName } from "../data/decode.js";
import { placeSelection } from "../picture/hidden-selection.js";
import { statsOf } from "../picture/picture.js";
import { matcher, matchIds, matchSummary, nextMatch, nodesOpened, openAncestors } from "./search.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../picture/picture.js").Picture} Picture */

/**
 * What the search shows beside its box: its outcome (or an invalid pattern's message), and how
 * many nodes "show all" would open (null: every match is drawn, nothing to show).
 * @typedef {object} SearchBox
 * @property {(text: string, error: boolean) => void} setSearchInfo
 * @property {(opens: number | null) => void} setShowAll
 */

/**
 * Python's count of a search's matches over the full tree (level of detail), and the search.
 * @typedef {{ search: string, regex: boolean, caseSensitive: boolean, count: number }} Counted
 */

/**
 * @param {{ store: import("./store.js").Store, table: () => Table | null, shown: () => Picture | null,
 *   screen: import("./commands.js").Screen, toolbar: SearchBox | null,
 *   change: (partial: Record<string, unknown> | null, anchor?: NodeId | null) => void,
 *   setCursor: (id: NodeId | null, reveal: boolean) => void,
 *   find: ((node: NodeId, step: 1 | -1 | 0) => Promise<NodeId | null>) | null }} parts
 *   `find`: under level of detail, Python loads the match after (before) a node, or the matches
 */
export function createSearch({ store, table: tableNow, shown, screen, toolbar, change, setCursor, find }) {
  /** @type {NodeId[]} every match the table has, ascending */
  let ids = [];
  /** @type {NodeId[]} the matches a step can reach: drawn, or inside a collapsed subtree */
  let reachable = [];
  /** @type {NodeId | null} the match the last step went to */
  let at = null;
  /** @type {Counted | null} Python's count (level of detail) */
  let python = null;
  /** Matches Python counted over the full tree, when it counted the view's search; else null. */
  const counted = () => {
    const v = state();
    const same = python && python.search === v.search && python.regex === v.searchRegex;
    return same && python?.caseSensitive === v.searchCase ? python.count : null;
  };
  const state = () => store.view;
  const test = () => matcher(state().search, { regex: state().searchRegex, caseSensitive: state().searchCase });

  /** The pattern the user typed: matches are counted and marked, nothing opens. @param {string} pattern */
  function type(pattern) {
    const t = matcher(pattern, { regex: state().searchRegex, caseSensitive: state().searchCase });
    if (t instanceof Error) {
      store.keepTyped("search", pattern);
      return toolbar?.setSearchInfo(t.message, true);
    }
    at = null;
    change({ search: pattern });
  }

  /** The matches of the view state now: found, marked and counted. */
  function update() {
    const table = tableNow();
    const pic = shown();
    if (!table || !pic) return;
    const t = test();
    ids = reachable = [];
    if (t instanceof Error || !t) {
      screen.marks.matches([]);
      toolbar?.setShowAll(null);
      return toolbar?.setSearchInfo(t ? t.message : "", !!t);
    }
    ids = matchIds(table, t);
    const placed = placeSelection(table, pic.tree, ids);
    const inGlyphs = new Set();
    for (const [key, held] of placed.holders) {
      if (pic.tree.byKey.get(key)?.kind === "collapsed") for (const id of held) inGlyphs.add(id);
    }
    reachable = ids.filter((id) => inGlyphs.has(id) || pic.drawn(id));
    if (at !== null && !ids.includes(at)) at = null;
    screen.marks.matches(ids);
    const hidden = ids.length - placed.drawn.size - placed.outside;
    const notLoaded = Math.max(0, (counted() ?? 0) - ids.length);
    toolbar?.setSearchInfo(
      matchSummary({ total: ids.length + notLoaded, hidden, outside: placed.outside, notLoaded }),
      false,
    );
    toolbar?.setShowAll(inGlyphs.size ? opens(table) : null);
  }

  /** How many nodes opening every reachable match's ancestors draws. @param {Table} table */
  function opens(table) {
    const open = openAncestors(table, state().collapsed, reachable);
    if (!open) return 0;
    const values = state().prune ? (metricByName(table, state().colorBy)?.values ?? null) : null;
    return nodesOpened(table, statsOf(table), state(), open, values);
  }

  /** Whether Python counted matches this table has not got (level of detail): it finds them. */
  const askPython = () => !!find && (counted() ?? 0) > ids.length;

  /** To the next (1) or previous (-1) match: its ancestors open, it comes into view. @param {1 | -1} step */
  function stepTo(step) {
    if (askPython() && find) {
      const from = at ?? /** @type {NodeId} */ (-1);
      find(from, step).then((id) => id !== null && show(id), noAnswer);
      return;
    }
    const id = nextMatch(reachable, at, step);
    if (id !== null) show(id);
  }

  /** Shows match `id`: its collapsed ancestors open, the cursor goes to it, in view and readable. @param {NodeId} id */
  function show(id) {
    const table = tableNow();
    if (!table || table.rowOf(id) < 0) return;
    at = id;
    const open = openAncestors(table, state().collapsed, [id]);
    change(open && { collapsed: open }, id);
    setCursor(id, false);
    screen.centerOn(id);
    screen.reveal([id], { readable: true });
    const index = reachable.indexOf(id);
    const total = Math.max(ids.length, counted() ?? 0);
    if (index >= 0) toolbar?.setSearchInfo(`${index + 1} of ${total.toLocaleString("en-US")}`, false);
  }

  /** Every reachable match's ancestors open (on request): under level of detail, once Python
   * loaded them. */
  function showAll() {
    if (askPython() && find) find(/** @type {NodeId} */ (-1), 0).then(openAll, noAnswer);
    else openAll();
  }
  /** Opens the ancestors of every reachable match the table has; the view fits what opened. */
  function openAll() {
    const table = tableNow();
    const pic = shown();
    if (!table || !pic) return;
    const n = opens(table);
    const open = openAncestors(table, state().collapsed, reachable);
    change(open && { collapsed: open });
    screen.reveal(reachable);
    const notLoaded = Math.max(0, (counted() ?? 0) - ids.length);
    const summary = matchSummary({ total: ids.length + notLoaded, hidden: 0, outside: 0, notLoaded });
    toolbar?.setSearchInfo(`${summary}; opened ${n.toLocaleString("en-US")} nodes`, false);
  }

  /** Python could not answer (its error is reported by the widget): the search stays as it is. */
  const noAnswer = () => {};

  return {
    type,
    update,
    stepTo,
    show,
    showAll,
    /** Python's count of a search over the full tree (level of detail; null: none). @param {Counted | null} c */
    setCounted(c) {
      python = c;
      update();
    },
    /** Ids of the search matches that are drawn, in tree order. */
    get drawn() {
      const pic = shown();
      return pic ? ids.filter((id) => pic.drawn(id)) : [];
    },
  };
}
