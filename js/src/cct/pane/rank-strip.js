// The table pane's Ranks tab: the rank strip of the selected node — its value of the colour
// metric per rank (Python's `ranks` reply, w.ranks_of with a rank's threads added up) as bars
// in rank order (or largest first), the outliers (beyond the quartiles ± 1.5 IQR) marked, the
// rank the tree shows (w.rank) pressed and said with its value; rank numbers under the bars, a
// value axis in the metric's unit and the mean's line (rank-axes.js). A click on a rank shows
// the tree of that rank alone (sets w.rank); a click on it again, or "All ranks", every rank.
// Cube's and hpcviewer's per-rank view, small.
import { append } from "../base/dom.js";
import { columnFormat } from "../base/format.js";
import { latestOnly } from "../base/latest.js";
import { displayText } from "../base/text.js";
import { rankTickPositions, summary, valueAxis } from "./rank-axes.js";

/** At most this many bars are drawn: more ranks are sampled along the sorted order (every
 * outlier and the rank shown kept). */
export const MAX_BARS = 256;

/**
 * Python's `ranks` (cctviz/contract.json, reply), checked.
 * @typedef {{ metric: string, over: string, rank: number[], values: (number | null)[],
 *   outliers: number[], count: number, selected: number | null }} Ranks
 */

/**
 * `value` as Ranks, or an Error saying what is wrong with it.
 * @param {unknown} value
 * @returns {Ranks | Error}
 */
export function asRanks(value) {
  if (typeof value !== "object" || value === null) return new Error("no ranks in Python's reply");
  const v = /** @type {Record<string, unknown>} */ (value);
  if (!Array.isArray(v.rank) || !Array.isArray(v.values) || v.rank.length !== v.values.length)
    return new Error("Python's ranks reply has no ranks or not one value per rank");
  const ints = (/** @type {unknown[]} */ xs) => xs.filter((x) => typeof x === "number" && Number.isInteger(x));
  const rank = ints(v.rank);
  if (rank.length !== v.rank.length) return new Error("Python's ranks reply has a rank that is not a whole number");
  return {
    metric: typeof v.metric === "string" ? v.metric : "",
    over: typeof v.over === "string" ? v.over : "rank",
    rank: /** @type {number[]} */ (rank),
    values: v.values.map((x) => (typeof x === "number" && Number.isFinite(x) ? x : null)),
    outliers: /** @type {number[]} */ (ints(Array.isArray(v.outliers) ? v.outliers : [])),
    count: typeof v.count === "number" ? v.count : rank.length,
    selected: typeof v.selected === "number" && Number.isInteger(v.selected) ? v.selected : null,
  };
}

/** The bars' order: by rank number (hpcviewer's and Cube's plots), or largest value first. @typedef {"rank" | "value"} Order */

/**
 * The bars drawn, in `order` (by value: largest first, missing last): every rank, or MAX_BARS of
 * them spread along that order with every outlier and the selected rank kept.
 * @param {Ranks} ranks @param {Order} [order]
 * @returns {{ rank: number, value: number | null, outlier: boolean }[]}
 */
export function barsOf(ranks, order = "value") {
  const out = new Set(ranks.outliers);
  const all = ranks.rank.map((rank, i) => ({ rank, value: ranks.values[i], outlier: out.has(rank) }));
  if (order === "value")
    all.sort(
      (a, b) => (b.value ?? Number.NEGATIVE_INFINITY) - (a.value ?? Number.NEGATIVE_INFINITY) || a.rank - b.rank,
    );
  else all.sort((a, b) => a.rank - b.rank);
  if (all.length <= MAX_BARS) return all;
  const step = all.length / MAX_BARS;
  return all.filter(
    (bar, i) => bar.outlier || bar.rank === ranks.selected || Math.floor(i / step) !== Math.floor((i - 1) / step),
  );
}

/** The width the bars are laid out for where the page has no layout (jsdom). */
const UNMEASURED_PX = 600;
/** The narrowest bar, pixels (more ranks scroll sideways). */
const BAR_PX = 5;

/**
 * @param {HTMLElement} parent the pane's element
 * @param {{ fetchRanks: (node: number) => Promise<unknown>, setRank: (rank: number | null) => void,
 *   unitOf?: (metric: string) => string | null }} handlers `unitOf`: a metric's unit (w.units), for
 *   the value axis and the values
 */
export function createRankStrip(parent, handlers) {
  const element = append(parent, "div", { className: "cct-ranks", attrs: { "aria-label": "Ranks" } });
  element.hidden = true;
  const head = append(element, "div", { className: "cct-ranks-head" });
  const about = append(head, "span", { className: "cct-ranks-about" });
  const orderButton = /** @type {HTMLButtonElement} */ (
    append(head, "button", { attrs: { type: "button", title: "Order the bars by rank number or by value" } })
  );
  const every = /** @type {HTMLButtonElement} */ (
    append(head, "button", { text: "All ranks", attrs: { type: "button", title: "Show every rank (w.rank = None)" } })
  );
  every.addEventListener("click", () => handlers.setRank(null));
  const chosen = append(element, "div", { className: "cct-ranks-chosen", attrs: { "aria-live": "polite" } });
  const plot = append(element, "div", { className: "cct-ranks-plot" });
  const axis = append(plot, "div", { className: "cct-ranks-axis", attrs: { "aria-hidden": "true" } });
  const bars = append(plot, "div", { className: "cct-ranks-bars", attrs: { role: "group" } });
  const latest = latestOnly();
  /** @type {Order} */
  let order = "rank";
  /** @type {Ranks | null} */
  let shown = null;

  const showOrder = () => {
    orderButton.textContent = order === "rank" ? "Order: by rank" : "Order: largest first";
  };
  showOrder();
  orderButton.addEventListener("click", () => {
    order = order === "rank" ? "value" : "rank";
    showOrder();
    if (shown) render(shown);
  });

  /** @param {string} text */
  const say = (text) => {
    shown = null;
    about.textContent = text;
    chosen.textContent = "";
    axis.replaceChildren();
    bars.replaceChildren();
  };

  /** @param {Ranks} ranks */
  function render(ranks) {
    shown = ranks;
    const unit = handlers.unitOf?.(ranks.metric) ?? null;
    const drawn = barsOf(ranks, order);
    const top = Math.max(0, ...drawn.map((b) => Math.abs(b.value ?? 0)));
    const stats = summary(ranks.values);
    const format = columnFormat(stats ? [stats.min, stats.max] : [], unit);
    const sampled = drawn.length < ranks.count ? ` (${drawn.length} of ${ranks.count} drawn)` : "";
    const outliers = ranks.outliers.length ? ` · ${ranks.outliers.length} outlier(s) marked` : "";
    about.textContent = `${displayText(ranks.metric)} per ${ranks.over}${sampled}${outliers}`;
    every.setAttribute("aria-pressed", String(ranks.selected === null));
    const at = ranks.selected === null ? -1 : ranks.rank.indexOf(ranks.selected);
    const range = stats ? `mean ${format(stats.mean)} · min ${format(stats.min)} · max ${format(stats.max)}` : "";
    const value = at < 0 ? null : ranks.values[at];
    chosen.textContent =
      ranks.selected === null
        ? `The tree shows every rank. ${range}`
        : `The tree shows rank ${ranks.selected}: ${value === null ? "missing" : format(value)}. ${range}`;
    const order_ = order === "rank" ? "in rank order" : "largest first";
    bars.setAttribute("aria-label", `${ranks.metric} per rank, ${order_}; click a rank to show its tree`);
    const height = (/** @type {number} */ v) => (top > 0 ? (100 * Math.abs(v)) / top : 0);
    const width = Math.max(bars.clientWidth - 12, UNMEASURED_PX);
    const labelled = new Set(
      rankTickPositions(
        drawn.map((b) => b.rank),
        Math.max(width, BAR_PX * drawn.length),
        drawn.findIndex((b) => b.rank === ranks.selected),
      ),
    );
    const area = append(bars, "div", { className: "cct-ranks-area" });
    area.style.minWidth = `${BAR_PX * drawn.length}px`;
    const marks = drawn.map(({ rank, value, outlier }, i) => {
      const b = /** @type {HTMLButtonElement} */ (bars.ownerDocument.createElement("button"));
      b.type = "button";
      b.className = "cct-rank";
      b.classList.toggle("cct-rank-outlier", outlier);
      const label = `rank ${rank}: ${value === null ? "missing" : format(value)}${outlier ? " (outlier)" : ""}`;
      b.title = label;
      b.setAttribute("aria-label", label);
      b.setAttribute("aria-pressed", String(rank === ranks.selected));
      b.dataset.rank = String(rank);
      const fill = append(b, "span", { className: "cct-rank-fill" });
      fill.style.height = `${value !== null && top > 0 ? Math.max(2, height(value)) : 0}%`;
      if (labelled.has(i)) append(b, "span", { className: "cct-rank-tick", text: String(rank) });
      b.addEventListener("click", () => handlers.setRank(rank === ranks.selected ? null : rank));
      return b;
    });
    /** @type {HTMLElement[]} the grid lines and the mean's, behind the bars */
    const lines = [];
    axis.replaceChildren();
    const unitLabel = append(axis, "div", { className: "cct-ranks-unit" });
    const scale = append(axis, "div", { className: "cct-ranks-scale" });
    if (top > 0) {
      const values = valueAxis(top, unit);
      unitLabel.textContent = values.unit ? `[${values.unit}]` : "";
      for (const t of values.ticks) {
        const tick = append(scale, "span", { className: "cct-ranks-ytick", text: t.text });
        tick.style.bottom = `${100 * t.at}%`;
        const grid = append(area, "span", { className: "cct-ranks-grid" });
        grid.style.bottom = `${100 * t.at}%`;
        lines.push(grid);
      }
    }
    if (stats && top > 0) {
      const mean = append(area, "span", { className: "cct-ranks-mean" });
      mean.style.bottom = `${height(stats.mean)}%`;
      mean.dataset.value = String(stats.mean);
      append(mean, "span", { className: "cct-ranks-mean-label", text: `mean ${format(stats.mean)}` });
      lines.push(mean);
    }
    area.replaceChildren(...lines, ...marks);
    bars.replaceChildren(area);
  }

  return {
    element,
    /** Whether the tab shows. @param {boolean} on */
    show(on) {
      element.hidden = !on;
    },
    /** The node whose ranks show (null: none selected). @param {number | null} node */
    async load(node) {
      if (node === null) {
        latest.cancel();
        say("Select a node in the tree to see its value per rank.");
        return;
      }
      say("Loading the ranks…");
      await latest.run(
        () => handlers.fetchRanks(node),
        (answer) => {
          const ranks = asRanks(answer);
          if (ranks instanceof Error) throw ranks;
          render(ranks);
        },
        (error) => say(error instanceof Error ? error.message : String(error)),
      );
    },
  };
}
