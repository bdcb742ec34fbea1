// The table pane's Ranks tab: the rank strip of the selected node — its value of the colour
// metric per rank (Python's `ranks` reply, w.ranks_of with a rank's threads added up) as bars
// sorted largest first, the outliers (beyond the quartiles ± 1.5 IQR) marked, the rank the tree
// shows (w.rank) pressed. A click on a rank shows the tree of that rank alone (sets w.rank); a
// click on it again, or "All ranks", every rank. Cube's and hpcviewer's per-rank view, small.
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";
import { displayText } from "../base/text.js";

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

/**
 * The bars drawn, largest value first (missing values last): every rank, or MAX_BARS of them
 * spread along that order with every outlier and the selected rank kept.
 * @param {Ranks} ranks
 * @returns {{ rank: number, value: number | null, outlier: boolean }[]}
 */
export function barsOf(ranks) {
  const out = new Set(ranks.outliers);
  const all = ranks.rank.map((rank, i) => ({ rank, value: ranks.values[i], outlier: out.has(rank) }));
  all.sort((a, b) => (b.value ?? Number.NEGATIVE_INFINITY) - (a.value ?? Number.NEGATIVE_INFINITY) || a.rank - b.rank);
  if (all.length <= MAX_BARS) return all;
  const step = all.length / MAX_BARS;
  return all.filter(
    (bar, i) => bar.outlier || bar.rank === ranks.selected || Math.floor(i / step) !== Math.floor((i - 1) / step),
  );
}

/**
 * @param {HTMLElement} parent the pane's element
 * @param {{ fetchRanks: (node: number) => Promise<unknown>, setRank: (rank: number | null) => void }} handlers
 */
export function createRankStrip(parent, handlers) {
  const element = append(parent, "div", { className: "cct-ranks", attrs: { "aria-label": "Ranks" } });
  element.hidden = true;
  const head = append(element, "div", { className: "cct-ranks-head" });
  const about = append(head, "span", { className: "cct-ranks-about" });
  const every = /** @type {HTMLButtonElement} */ (
    append(head, "button", { text: "All ranks", attrs: { type: "button", title: "Show every rank (w.rank = None)" } })
  );
  every.addEventListener("click", () => handlers.setRank(null));
  const bars = append(element, "div", { className: "cct-ranks-bars", attrs: { role: "group" } });
  let generation = 0;

  /** @param {string} text */
  const say = (text) => {
    about.textContent = text;
    bars.replaceChildren();
  };

  /** @param {Ranks} ranks */
  function render(ranks) {
    const drawn = barsOf(ranks);
    const top = Math.max(0, ...drawn.map((b) => Math.abs(b.value ?? 0)));
    const sampled = drawn.length < ranks.count ? ` (${drawn.length} of ${ranks.count} drawn)` : "";
    const outliers = ranks.outliers.length ? ` · ${ranks.outliers.length} outlier(s) marked` : "";
    about.textContent = `${displayText(ranks.metric)} per ${ranks.over}${sampled}${outliers}`;
    every.setAttribute("aria-pressed", String(ranks.selected === null));
    bars.setAttribute("aria-label", `${ranks.metric} per rank, largest first; click a rank to show its tree`);
    bars.replaceChildren(
      ...drawn.map(({ rank, value, outlier }) => {
        const b = /** @type {HTMLButtonElement} */ (bars.ownerDocument.createElement("button"));
        b.type = "button";
        b.className = "cct-rank";
        b.classList.toggle("cct-rank-outlier", outlier);
        const label = `rank ${rank}: ${value === null ? "missing" : formatValue(value)}${outlier ? " (outlier)" : ""}`;
        b.title = label;
        b.setAttribute("aria-label", label);
        b.setAttribute("aria-pressed", String(rank === ranks.selected));
        b.dataset.rank = String(rank);
        const fill = append(b, "span", { className: "cct-rank-fill" });
        fill.style.height = `${top > 0 && value !== null ? Math.max(2, (100 * Math.abs(value)) / top) : 0}%`;
        b.addEventListener("click", () => handlers.setRank(rank === ranks.selected ? null : rank));
        return b;
      }),
    );
  }

  return {
    element,
    /** Whether the tab shows. @param {boolean} on */
    show(on) {
      element.hidden = !on;
    },
    /** The node whose ranks show (null: none selected). @param {number | null} node */
    async load(node) {
      generation += 1;
      const mine = generation;
      if (node === null) {
        say("Select a node in the tree to see its value per rank.");
        return;
      }
      say("Loading the ranks…");
      try {
        const ranks = asRanks(await handlers.fetchRanks(node));
        if (mine !== generation) return;
        if (ranks instanceof Error) throw ranks;
        render(ranks);
      } catch (error) {
        if (mine === generation) say(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
