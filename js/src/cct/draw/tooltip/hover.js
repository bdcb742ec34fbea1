// Hover: the tooltip and the label of the item under the pointer, and the spread of a node's
// rows (ranks…) once Python has answered for it. Reads the picture drawn now; changes nothing
// but the tooltip and the hover label.

import { metricByName } from "../../data/decode.js";
import { judged } from "../../picture/judge.js";
import { labelMark } from "../../picture/scene.js";
import { focusTotals } from "../../picture/shares.js";
import { hiddenMax, hiddenNodes, hiddenSum, MAX_KINDS } from "../../picture/subtree-stats.js";
import { metricUnit } from "../legend/view-legends.js";
import { aggregateContent, spreadContent, tooltipContent } from "./tooltip-content.js";

/**
 * @param {import("../view.js").View} view the picture drawn (`view.shown`), its state and screen
 * @param {{ spreads: ReturnType<typeof import("./spreads.js").createSpreads>,
 *   backend: () => { setHovered: (key: import("../../data/ids.js").ItemKey | null) => void,
 *     drawHoverLabel: (mark: import("../../picture/label-layout.js").LabelMark | null) => void } | null,
 *   units?: () => Record<string, string> }} parts
 *   `backend`: the painter's, now; `units`: the metrics' units now (w.units)
 * @returns {(key: import("../../data/ids.js").ItemKey | null, event: MouseEvent | null) => void}
 */
export function createHover(view, { spreads, backend: backendNow, units = () => ({}) }) {
  const { doc, chrome, camera, D } = view;
  /** @type {import("../../data/ids.js").ItemKey | null} the hovered item's key, while its tooltip shows */
  let hovered = null;
  return (key, event) => {
    const picture = view.shown;
    const backend = backendNow();
    const state = view.state;
    hovered = key;
    backend?.setHovered(key);
    const item = key === null ? null : picture?.tree.byKey.get(key);
    if (key === null || !item || !event || !picture) {
      chrome.tooltip.hide();
      backend?.drawHoverLabel(null);
      return;
    }
    const { table, stats, scene } = picture;
    const opts = {
      colorBy: state.colorBy,
      sizeBy: state.sizeBy,
      colorWhy: scene.color.why,
      judged: judged(table, state),
      focus: focusTotals(table, state.focus === null ? -1 : table.rowOf(state.focus)),
      units: units(),
    };
    // what a glyph stands for: sums of what adds up, the largest value of a ratio or maximum;
    // a collapsed node's sums beside its own inclusive values (the data's subtree totals)
    const sums = table.metrics
      .filter((m) => m.kind === "exclusive" || MAX_KINDS.has(m.kind))
      .map((m) =>
        m.kind === "exclusive"
          ? {
              name: `Σ ${m.name}`,
              kind: m.kind,
              value: hiddenSum(stats, item, m.name),
              over: inclusiveOf(table, m, item),
              unit: metricUnit(m, opts.units),
            }
          : {
              name: `max ${m.name}`,
              kind: m.kind,
              value: hiddenMax(stats, item, m.name),
              unit: metricUnit(m, opts.units),
            },
      );
    const content =
      item.kind === "node"
        ? tooltipContent(doc, table, item.id, opts)
        : aggregateContent(doc, table, item, { count: hiddenNodes(stats, item), sums }, opts);
    chrome.tooltip.show(content, event, camera.size.width);
    if (table.reducer && item.kind !== "aggregate") {
      spreads.attach(
        content,
        table.idOf(item.id),
        state.colorBy,
        () => hovered === key,
        opts.units[state.colorBy] ?? null,
      );
    }
    backend?.drawHoverLabel(labelMark(table, stats, item, scene.marks[key], D));
  };
}

/**
 * The selected node's spread over its rows (ranks…), pinned in a corner of the stage while it
 * is selected: the last node selected, for data with several rows per node; `place` puts it in
 * its corner once shown.
 * @param {{ doc: Document, chrome: ReturnType<typeof import("../chrome.js").createChrome>,
 *   spreads: ReturnType<typeof import("./spreads.js").createSpreads>, place: () => void,
 *   units?: () => Record<string, string> }} parts `units`: the metrics' units now
 * @returns {(table: import("../../data/decode.js").Table | null, selection: import("../../data/ids.js").NodeId[], metric: string) => void}
 */
export function createPin({ doc, chrome, spreads, place, units = () => ({}) }) {
  let shown = "";
  /** @type {WeakMap<object, number>} a number per table: new data (another reducer) pins afresh */
  const tables = new WeakMap();
  let count = 0;
  return (table, selection, metric) => {
    if (table && !tables.has(table)) tables.set(table, ++count);
    const id = selection.at(-1);
    const row = table && id !== undefined ? table.rowOf(id) : -1;
    const spread =
      table?.reducer && row >= 0 ? spreads.of(/** @type {import("../../data/ids.js").NodeId} */ (id), metric) : null;
    const key = spread && table ? `${id} ${metric} ${tables.get(table)} ${table.reducer}` : "";
    if (key === shown) return;
    shown = key;
    if (!spread || !table) {
      chrome.setPinned(null, null);
      return;
    }
    const name = table.names[table.nameCode[row]];
    spread
      .then((s) => {
        if (shown !== key) return;
        chrome.setPinned(name, spreadContent(doc, s, metric, units()[metric] ?? null));
        place();
      })
      .catch(() => {
        if (shown === key) chrome.setPinned(null, null);
      });
  };
}

/**
 * A collapsed node's value of exclusive metric `m`'s inclusive partner (its share base), which its
 * subtree's sum of `m` should not exceed; null for other items or without one.
 * @param {import("../../data/decode.js").Table} table @param {import("../../data/decode.js").Metric} m
 * @param {{ kind: string, id: import("../../data/ids.js").Row }} item
 * @returns {{ name: string, value: number } | null}
 */
function inclusiveOf(table, m, item) {
  if (item.kind !== "collapsed" || m.share === null) return null;
  const base = metricByName(table, m.share);
  const value = base?.kind === "inclusive" ? base.values[item.id] : Number.NaN;
  return base && !Number.isNaN(value) ? { name: base.name, value } : null;
}
