// The scene: what the backends draw, as plain data computed from the table, the view tree, the
// layout and the view state — node marks (position, radius, colour, shape), the colour and size
// scales and label texts (the links are links.js's, the status line's text status-text.js's).
// Pure: no DOM; the one thing it keeps is a table's latest scales (scalesOf), which give the same
// results as making them again.
//
// Marks are indexed by their item key (see view-tree.js: a row of the table for a node or a fold,
// `table.size + n` for a prune aggregate); each mark also says how the DOM names it: `data-id`
// with the full-tree id for a node, `data-fold` / `data-aggregate` with its parent's id. Their
// fields are kept in columns (mark-columns.js), each mark a small object reading its entry.

import { runAll, SLICE_ITEMS } from "../base/steps.js";
import { metricByName, withoutFolds } from "../data/decode.js";
import { asRow, NO_ID } from "../data/ids.js";
import { judged, judgedMax, SMALL_FILL } from "./judge.js";
import { shortenName } from "./label-text.js";
import { MarkColumns } from "./mark-columns.js";
import { colorScale, sizeScale } from "./scales.js";
import { glyphRadius } from "./shapes.js";
import { hiddenMax, hiddenNodes, hiddenSum, MAX_KINDS } from "./subtree-stats.js";

/** @typedef {import("../data/decode.js").Table} Table */
/** @typedef {import("../data/ids.js").NodeId} NodeId */
/** @typedef {import("../data/ids.js").Row} Row */
/** @typedef {import("../data/ids.js").ItemKey} ItemKey */
/** @typedef {import("../../contract.js").ViewState} ViewState */
/** @typedef {import("./view-tree.js").ViewItem} ViewItem */
/** @typedef {ReturnType<typeof import("./view-tree.js").buildViewTree>} ViewTree */
/** @typedef {ReturnType<typeof import("./subtree-stats.js").subtreeStats>} Stats */
/** @typedef {{ x: Float64Array, y: Float64Array }} Positions */
/** @typedef {import("./scales.js").ColorScale} ColorScale */
/** @typedef {import("./mark-columns.js").Mark} NodeMark a drawn item's mark (its fields in mark-columns.js) */
/** @typedef {{ tree: string | null, scale: ColorScale }} LegendEntry tree: the root's name, or null for all */

/** A compare view's node shapes by presence code (0: in both runs, drawn as circles). */
const PRESENCE_SHAPES = /** @type {const} */ ([null, "square", "hexagon"]);

/** Marks made between two yields of computeMarkSteps. */
const SLICE_MARKS = SLICE_ITEMS;

/**
 * @typedef {{ table: Table, stats: Stats, tree: ViewTree, layout: Positions, view: ViewState,
 *   sizes: { rMin: number, rMax: number, aggregateFill: string, smallFill?: string } }} SceneInput
 * @typedef {{ marks: NodeMark[], list: NodeMark[], color: ColorScale, size: ReturnType<typeof sizeScale>, legends: LegendEntry[] }} Scene
 *   `marks` by item key, `list` the same marks in the tree's order (made with them: a list from
 *   the keys took 20 ms of a 10^5-item view's drawing task)
 *   marks indexed by item key (sparse)
 */

/** The scene: a mark per drawn item, the scales, the legends. @param {SceneInput} scene @returns {Scene} */
export const computeMarks = (scene) => runAll(computeMarkSteps(scene));

/**
 * computeMarks in slices (yielding between them: 10^5 items take ~50 ms).
 * @param {SceneInput} scene @returns {Generator<void, Scene, void>}
 */
export function* computeMarkSteps({ table, stats, tree, layout, view, sizes }) {
  const colorMetric = metricByName(table, view.colorBy);
  const sizeMetric = metricByName(table, view.sizeBy);
  if (!colorMetric) throw new RangeError(`unknown colour metric ${JSON.stringify(view.colorBy)}`);
  if (!sizeMetric) throw new RangeError(`unknown size metric ${JSON.stringify(view.sizeBy)}`);
  const judging = judged(table, view);
  const small = judging?.small ?? null;
  const { colors, size, fills } = scalesOf(table, stats, tree, view, colorMetric, sizeMetric, sizes, small);
  yield;
  const aggregate = aggregateColorValue(stats, colorMetric, judging);
  const smallFill = sizes.smallFill ?? SMALL_FILL;
  /** a node's own colour (a row's value on its tree's scale), worked out once per scale */
  const fillOf = (/** @type {number} */ row) => {
    let fill = fills[row];
    if (fill === undefined)
      fill = fills[row] = small?.[row] ? smallFill : colors.of(row).color(colorMetric.values[row]);
    return fill;
  };
  // each mark written into the columns from one literal with every property (a short-lived
  // object: the young generation drops it), and an indexed loop (a cold loop's iterator made an
  // object per item): at 10^5 marks, objects kept per mark were a fifth of what a first picture
  // allocates, and copying them in its collections a long task
  /** @type {NodeMark[]} */
  const marks = [];
  /** @type {NodeMark[]} */
  const list = [];
  const { items } = tree;
  const columns = new MarkColumns(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i && i % SLICE_MARKS === 0) yield;
    const item = items[i];
    const { key } = item;
    if (item.kind === "aggregate") {
      const n = hiddenNodes(stats, item);
      marks[key] = columns.set(i, {
        key,
        x: layout.x[key],
        y: layout.y[key],
        id: NO_ID,
        attr: item.fold ? "data-fold" : "data-aggregate",
        ref: item.id >= 0 ? table.idOf(item.id) : NO_ID,
        r: sizes.rMin + 2,
        // coloured by the aggregate its tooltip states, on the same scale (no value: grey)
        fill: colorOf(colors, item, aggregate(item)) ?? sizes.aggregateFill,
        negative: false,
        noSize: undefined,
        small: undefined,
        shape: "diamond",
        label: item.fold ? `${n} more nodes, not loaded: click to load` : `${n} hidden nodes`,
      });
      list.push(marks[key]);
      continue;
    }
    const row = item.id;
    const s = sizeMetric.values[row];
    const id = table.idOf(row);
    const shape = item.kind === "collapsed" ? "triangle" : (PRESENCE_SHAPES[table.presence?.[row] ?? 0] ?? "circle");
    marks[key] = columns.set(i, {
      key,
      x: layout.x[key],
      y: layout.y[key],
      id,
      attr: "data-id",
      ref: id,
      r: glyphRadius(shape, size.radius(s)),
      fill: item.kind === "collapsed" && !small?.[row] ? colorOf(colors, item, aggregate(item)) : fillOf(row),
      negative: size.negative(s),
      noSize: size.missing(s),
      small: small?.[row] === 1,
      shape,
      label: table.names[table.nameCode[row]] + (item.kind === "collapsed" ? " (collapsed)" : ""),
    });
    list.push(marks[key]);
  }
  return { marks, list, color: colors.shared, size, legends: colors.list };
}

/**
 * @typedef {object} Scales a table's colour and size scales for some view settings
 * @property {unknown[]} key what they were made from
 * @property {ReturnType<typeof colorScales>} colors
 * @property {ReturnType<typeof sizeScale>} size
 * @property {(string | null)[]} fills node colours by row, filled as marks ask for them
 */
/** @type {WeakMap<Table, Scales>} the latest scales of each table */
const latestScales = new WeakMap();

/**
 * The colour and size scales, the same objects as last time while what they are made from holds:
 * a collapse or an expand draws other nodes on the same scales (their domains span the tree),
 * so the scales and the nodes' colours are not worked out again for 10^4 marks. Colours over the
 * nodes in view (`colorDomain: "view"`) change with the view tree, and are.
 * @param {Table} table @param {Stats} stats @param {ViewTree} tree @param {ViewState} view
 * @param {import("../data/decode.js").Metric} colorMetric @param {import("../data/decode.js").Metric} sizeMetric
 * @param {{ rMin: number, rMax: number }} sizes
 * @param {Uint8Array | null} small rows too small to judge: not on the colour scale
 * @returns {Scales}
 */
function scalesOf(table, stats, tree, view, colorMetric, sizeMetric, sizes, small) {
  const { colorScale: type, palette, colorDomain: domain, legend } = view;
  const key = [
    colorMetric.values,
    sizeMetric.values,
    stats,
    type,
    palette,
    String(domain),
    legend,
    sizes.rMin,
    sizes.rMax,
    small,
  ];
  const last = latestScales.get(table);
  if (last && domain !== "view" && last.key.every((v, i) => v === key[i])) return last;
  const size = sizeScale(withoutFolds(table, sizeMetric.values), { rMin: sizes.rMin, rMax: sizes.rMax });
  const made = { key, colors: colorScales(table, stats, tree, view, colorMetric.values, small), size, fills: [] };
  latestScales.set(table, made);
  return made;
}

/**
 * The value a glyph stands for: a collapsed node the sum of an exclusive metric over its
 * subtree (its own value for an inclusive one), a prune aggregate the sum over what it hides
 * (of the hidden subtrees' inclusive values for an inclusive metric), a fold the sum Python sent.
 * Other metrics have no sum: NaN. A ratio or a maximum: the largest value hidden, of the nodes
 * that are not too small to judge (judge.js) when some are.
 * @param {Stats} stats @param {import("../data/decode.js").Metric} metric
 * @param {import("./judge.js").Judged | null} judging
 * @returns {(item: ViewItem) => number}
 */
function aggregateColorValue(stats, metric, judging) {
  const sums = stats.sums.get(metric.name);
  return (item) => {
    if (item.fold) return metric.values[item.key];
    if (MAX_KINDS.has(metric.kind)) return judging ? judgedMax(judging, item) : hiddenMax(stats, item, metric.name);
    if (metric.kind === "exclusive" && sums) {
      if (item.kind === "collapsed") return sums[item.id];
      return hiddenSum(stats, item, metric.name);
    }
    if (metric.kind === "inclusive") {
      if (item.kind === "collapsed") return metric.values[item.id];
      let total = Number.NaN;
      for (const h of item.hidden) {
        const v = metric.values[h];
        if (!Number.isNaN(v)) total = Number.isNaN(total) ? v : total + v;
      }
      return total;
    }
    return item.kind === "collapsed" ? metric.values[item.id] : Number.NaN;
  };
}

/**
 * The colour of an item's value on its tree's scale.
 * @param {ReturnType<typeof colorScales>} colors @param {ViewItem} item @param {number} value
 */
function colorOf(colors, item, value) {
  return colors.of(item.kind === "aggregate" && item.id < 0 ? -1 : item.id).color(value);
}

/** How far apart (a ratio) the trees' largest colour values are for `legend: "auto"` to give each
 * tree its own scale: three orders of magnitude, where a shared linear scale colours the smaller
 * tree's nodes all alike (RAJAPerf's `Base_Seq` ≈ 2e3 beside `RAJAPerf` ≈ 1.9e12). */
export const FAR_APART = 1000;
/** Nodes a tree needs to count for `FAR_APART` (the tiny one-node roots MPI programs have beside
 * main do not make a view's legends one per tree). */
const MIN_TREE = 3;

/**
 * Whether the trees' largest absolute colour values are more than `FAR_APART` times apart (trees
 * of fewer than `MIN_TREE` nodes, with no value, or none but zeros, left out).
 * @param {Map<number, number[]>} byRoot root row → its rows
 * @param {(rows: number[]) => Float64Array} valuesOf
 */
function farApart(byRoot, valuesOf) {
  if (byRoot.size < 2) return false;
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const rowsOfRoot of byRoot.values()) {
    if (rowsOfRoot.length < MIN_TREE) continue; // a lone MPI_Finalized has no structure to colour
    let top = 0;
    for (const v of valuesOf(rowsOfRoot)) if (Math.abs(v) > top) top = Math.abs(v);
    if (!(top > 0) || !Number.isFinite(top)) continue;
    lo = Math.min(lo, top);
    hi = Math.max(hi, top);
  }
  return hi > FAR_APART * lo;
}

/**
 * Colour scales: one for everything, or one per tree ("per-root"; "auto": when the trees' values
 * are far apart, see `FAR_APART`). The domain spans every node
 * of the tree ("tree": colours keep their meaning across collapse, focus and prune), the nodes
 * drawn now ("view"), or the given [low, high].
 * @param {Table} table @param {Stats} stats @param {ViewTree} tree @param {ViewState} view
 * @param {Float64Array} values @param {Uint8Array | null} small rows left out (too small to judge)
 */
function colorScales(table, stats, tree, view, values, small) {
  const opts = { type: view.colorScale, palette: view.palette };
  const domain = view.colorDomain;
  /** @type {Row[]} */
  let rows;
  if (domain === "view") rows = tree.items.filter((it) => it.kind !== "aggregate").map((it) => it.id);
  else {
    rows = [];
    for (let n = 0; n < table.size; n++) if (table.idOf(asRow(n)) >= 0) rows.push(asRow(n));
  }
  const valuesOf = (/** @type {number[]} */ list) => {
    if (Array.isArray(domain)) return Float64Array.from(domain);
    // a loop, not Float64Array.from with a map function: at 10^5 rows that took ~7 ms
    const out = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) out[i] = small?.[list[i]] ? Number.NaN : values[list[i]];
    return out;
  };
  const shared = () => {
    const s = colorScale(valuesOf(rows), opts);
    return { shared: s, of: (/** @type {number} */ _row) => s, list: [{ tree: null, scale: s }] };
  };
  if (view.legend === "shared") return shared();
  /** @type {Map<number, number[]>} */
  const byRoot = new Map();
  for (const row of rows) {
    const r = stats.rootOf[row];
    const list = byRoot.get(r);
    if (list) list.push(row);
    else byRoot.set(r, [row]);
  }
  if (view.legend === "auto" && (view.colorScale === "log" || !farApart(byRoot, valuesOf))) return shared();
  const list = [...byRoot].map(([r, rowsOfRoot]) => ({ rootRow: r, scale: colorScale(valuesOf(rowsOfRoot), opts) }));
  const of = new Map(list.map((e) => [e.rootRow, e.scale]));
  const fallback = list[0]?.scale ?? colorScale(new Float64Array(0), opts);
  return {
    shared: fallback,
    of: (/** @type {number} */ row) => (row < 0 ? fallback : (of.get(stats.rootOf[row]) ?? fallback)),
    list: list.map((e) => ({ tree: table.names[table.nameCode[e.rootRow]], scale: e.scale })),
  };
}

/**
 * The label of one drawn item: its shortened name; a collapsed node says how many it hides,
 * a fold or an aggregate how many nodes it stands for.
 * @param {Table} table @param {Stats} stats @param {ViewItem} item @param {NodeMark | undefined} mark
 * @param {{ rMin: number }} sizes
 */
export function labelMark(table, stats, item, mark, sizes) {
  const name = item.kind === "aggregate" ? "" : shortenName(table.names[table.nameCode[item.id]]);
  let text = name;
  if (item.kind === "collapsed") text = `${name} (+${hiddenNodes(stats, item)})`;
  if (item.kind === "aggregate") {
    const n = hiddenNodes(stats, item).toLocaleString("en-US");
    text = item.fold ? `${n} more` : `${n} hidden`;
  }
  return {
    key: item.key,
    attr: mark?.attr ?? "data-id",
    ref: mark?.ref ?? -1,
    x: mark?.x ?? 0,
    y: mark?.y ?? 0,
    r: mark?.r ?? sizes.rMin,
    text,
  };
}
