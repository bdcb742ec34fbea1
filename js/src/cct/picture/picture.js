// The picture of a table in a view state, as one value: the table's subtree statistics, the view
// tree (what is drawn), its layout (where, its levels spread over the room the view has) and the
// scene (how: marks, scales, legends). `picture(table, state, sizes)` is pure and memoised by
// reference: the same table, state and sizes give the identical picture; a part is computed when
// it is first read, and the next picture of the same table shares each part whose inputs have
// not changed (a new colour keeps the tree and the layout, a collapse the statistics). No DOM.
import { keysRedrawing } from "../../contract.js";
import { metricByName } from "../data/decode.js";
import { forestOf, forestSteps, layoutSteps, layoutTree, levelSpread, spreadLayout } from "./layout.js";
import { linkSegmentSteps, linkSegments } from "./links.js";
import { computeMarkSteps, computeMarks } from "./scene.js";
import { subtreeStats } from "./subtree-stats.js";
import { buildViewTree, keyOfRow, rowState, viewTreeSteps } from "./view-tree.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */
/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {ReturnType<typeof subtreeStats>} Stats */
/** @typedef {import("./view-tree.js").ViewTree} ViewTree */
/** @typedef {ReturnType<typeof layoutTree>} Layout */
/** @typedef {ReturnType<typeof computeMarks>} Scene */
/**
 * @typedef {import("./sizes.js").Sizes & { room: { width: number, height: number } | null }} PictureSizes
 *   `room`: the screen pixels the levels are spread over (the camera's room; null: not spread)
 */

/**
 * @typedef {object} Picture
 * @property {Table} table
 * @property {ViewState} state the view state it was made for
 * @property {PictureSizes} sizes
 * @property {Stats} stats the table's subtree statistics
 * @property {ViewTree} tree what is drawn: nodes, collapsed glyphs, aggregates, folds
 * @property {Layout} layout where, by item key
 * @property {Scene} scene how: marks by item key, the colour and size scales, the legends
 * @property {import("./links.js").Links} links the parent → child links, in layout units
 * @property {(id: NodeId) => ItemKey} keyOf the key of the item of node `id` (its row; -1: not in
 *   the table)
 * @property {(id: NodeId) => boolean} drawn whether node `id` is drawn (as a node or a collapsed glyph)
 */

/** The view state a scene is made from: its structure and its style. */
const SCENE_KEYS = [...keysRedrawing("structure"), ...keysRedrawing("style")];

/** @type {WeakMap<Table, Stats>} */
const statsMemo = new WeakMap();
/** The subtree statistics of `table`, computed once per table. @param {Table} table */
export function statsOf(table) {
  let stats = statsMemo.get(table);
  if (!stats) {
    stats = subtreeStats(table);
    statsMemo.set(table, stats);
  }
  return stats;
}

/** @typedef {(a: unknown, b: unknown) => boolean} Same */
/** The same value of view state: lists of ids and ranges by their contents, the rest by reference. @type {Same} */
const same = (a, b) => a === b || (Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b));
/** @type {Same} */
const identical = (a, b) => a === b;
/** @type {Same} */
const near = (a, b) => a === b || (typeof a === "number" && typeof b === "number" && Math.abs(a - b) < 1e-9);

/**
 * One remembered value per owner (a table, a view tree, a layout): the last one made, kept
 * while what it was made from is the same.
 * @template {object} O @template V
 */
function lastPer() {
  /** @type {WeakMap<O, { key: unknown[], value: V }>} */
  const memo = new WeakMap();
  /** Whether the value for `owner` and `key` is remembered. @param {O} owner @param {unknown[]} key @param {Same} [eq] */
  const has = (owner, key, eq = same) => {
    const last = memo.get(owner);
    return !!last && last.key.length === key.length && last.key.every((v, i) => eq(v, key[i]));
  };
  /** @param {O} owner @param {unknown[]} key @param {() => V} make @param {Same} [eq] @returns {V} */
  const remembered = (owner, key, make, eq = same) => {
    if (has(owner, key, eq)) return /** @type {{ value: V }} */ (memo.get(owner)).value;
    const value = make();
    memo.set(owner, { key, value });
    return value;
  };
  remembered.has = has;
  return remembered;
}

/** @type {ReturnType<typeof lastPer<Table, ViewTree>>} */
const treeMemo = lastPer();
/** @type {ReturnType<typeof lastPer<ViewTree, Layout>>} */
const layoutMemo = lastPer();
/** @type {ReturnType<typeof lastPer<Layout, Layout>>} */
const spreadMemo = lastPer();
/** @type {ReturnType<typeof lastPer<Layout, Scene>>} */
const sceneMemo = lastPer();
/** @type {ReturnType<typeof lastPer<Layout, import("./links.js").Links>>} */
const linksMemo = lastPer();
/** @type {ReturnType<typeof lastPer<Table, Picture>>} */
const pictureMemo = lastPer();

/**
 * What the view tree of `state` is made from (the state's collapsed nodes, prune range, focus
 * and roots, in rows) and remembered by.
 * @param {Table} table @param {ViewState} state
 */
function treeInput(table, state) {
  const { collapsed, prune, focus, roots } = state;
  // a prune range is over the colour metric's values
  const values = prune ? (metricByName(table, state.colorBy)?.values ?? null) : null;
  const stats = statsOf(table);
  return {
    stats,
    key: [stats, collapsed, prune, focus, roots, values],
    rows: () => rowState(table, { collapsed, prune, focus, roots, values }),
  };
}

/** The view tree: what is drawn for the state. @param {Table} table @param {ViewState} state */
function treeOf(table, state) {
  const { stats, key, rows } = treeInput(table, state);
  return treeMemo(table, key, () => buildViewTree(table, stats, rows()));
}

/**
 * The layout of `tree`, its levels spread over `sizes.room` (the same layout while the spread is).
 * @param {ViewTree} tree @param {PictureSizes} sizes
 */
function layoutOf(tree, sizes) {
  const laid = layoutMemo(tree, [sizes.rowHeight], () => {
    const forest = forestOf(tree.items);
    return layoutTree(forest, sizes, forest.keyCount);
  });
  if (!sizes.room) return laid;
  const spread = levelSpread(laid, sizes.room, sizes);
  return spreadMemo(laid, [spread.levelWidth, spread.gap, spread.head], () => spreadLayout(laid, spread), near);
}

/** What the scene of `pic` is remembered by (per layout). @param {Picture} pic */
function sceneKey({ table, tree, state, sizes: { rMin, rMax, aggregateFill } }) {
  return [table, tree, rMin, rMax, aggregateFill, ...SCENE_KEYS.map((k) => state[k])];
}
/** What the scene of `pic` is made from. @param {Picture} pic */
function sceneInput({ table, stats, tree, layout, state, sizes }) {
  return { table, stats, tree, layout, view: state, sizes };
}

/**
 * Makes the parts of `pic` that a big tree takes long to make, in slices (yielding between
 * them: see view/later.js): the table's statistics, its view tree, its layout (the tidy walks in
 * slices), its scene, its links.
 * Reading them afterwards finds them made.
 * @param {Picture} pic
 */
export function* pictureSteps(pic) {
  const { table, state, sizes } = pic;
  yield;
  const { stats, key, rows } = treeInput(table, state); // the statistics: a slice of their own
  yield;
  if (!treeMemo.has(table, key)) {
    const made = yield* viewTreeSteps(table, stats, rows());
    treeMemo(table, key, () => made);
    yield;
  }
  const { tree } = pic;
  if (!layoutMemo.has(tree, [sizes.rowHeight])) {
    const forest = yield* forestSteps(tree.items);
    yield;
    const laid = yield* layoutSteps(forest, sizes, forest.keyCount);
    layoutMemo(tree, [sizes.rowHeight], () => laid);
    yield;
  }
  const { layout } = pic; // spread over the room
  yield;
  if (!sceneMemo.has(layout, sceneKey(pic))) {
    const made = yield* computeMarkSteps(sceneInput(pic));
    sceneMemo(layout, sceneKey(pic), () => made);
  }
  if (linksMemo.has(layout, [tree])) return;
  yield;
  const links = yield* linkSegmentSteps(tree, layout);
  linksMemo(layout, [tree], () => links);
}

/**
 * The picture of `table` in `state` with `sizes`: the identical object for the same three.
 * @param {Table} table @param {ViewState} state @param {PictureSizes} sizes
 * @returns {Picture}
 */
export function picture(table, state, sizes) {
  return pictureMemo(table, [state, sizes], make, identical);

  function make() {
    /** @type {ViewTree | null} */ let tree = null;
    /** @type {Layout | null} */ let layout = null;
    /** @type {Scene | null} */ let scene = null;
    /** @type {import("./links.js").Links | null} */ let links = null;
    const keyOf = (/** @type {NodeId} */ id) => keyOfRow(table.rowOf(id));
    return Object.freeze({
      table,
      state,
      sizes,
      get stats() {
        return statsOf(table);
      },
      get tree() {
        tree ??= treeOf(table, state);
        return tree;
      },
      get layout() {
        layout ??= layoutOf(this.tree, sizes);
        return layout;
      },
      get scene() {
        scene ??= sceneMemo(this.layout, sceneKey(this), () => computeMarks(sceneInput(this)));
        return scene;
      },
      get links() {
        links ??= linksMemo(this.layout, [this.tree], () => linkSegments(this.tree, this.layout));
        return links;
      },
      keyOf,
      drawn(/** @type {NodeId} */ id) {
        const kind = this.tree.byKey.get(keyOf(id))?.kind;
        return kind === "node" || kind === "collapsed";
      },
    });
  }
}
