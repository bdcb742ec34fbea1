// The trend pane of an ensemble: the node shown (the selected one) and its largest children as
// small multiples, one line each along a metadata axis chosen in the pane's menu, on one shared
// y scale, each titled with its share of its parent; a category axis draws one point per value
// with its spread. A click on a child's chart (or Enter on it) asks to select that child, a
// breadcrumb of the path from the root asks to select an ancestor: the handlers report it, the
// pane draws what comes in with `setData` (Python's pane for the new selection). Names are
// untrusted text: they go in as text, never as markup.
import { select } from "d3-selection";
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";
import { characters } from "../base/text.js";
import { asTrend, linePath, offersLog, scalesOf, shareText, xText } from "./trend-data.js";

/**
 * @typedef {import("./trend-data.js").Trend} Trend
 * @typedef {import("./trend-data.js").Series} Series
 * @typedef {object} TrendHandlers
 * @property {(id: number) => void} onSelect the user asked to show (select) node `id`
 * @property {(by: string) => void} onAxis the user chose another axis
 * @property {(log: boolean) => void} onLog the user switched log axes
 */

/** A chart's size (pixels) and margins inside it. */
export const CHART = { width: 176, height: 84, left: 42, right: 6, top: 4, bottom: 16 };
/** Pixels per character of an axis label (9 px text), to cut a category's name to its room. */
const CHAR = 5.2;
/** Ancestors the breadcrumb shows at most before the node (the root and the nearest ones). */
const CRUMBS = 4;

/**
 * `text` in at most `n` characters (whole ones), cut with an ellipsis.
 * @param {string} text @param {number} n
 */
function cut(text, n) {
  const chars = characters(text);
  return chars.length <= n ? text : `${chars.slice(0, n - 1).join("")}…`;
}

/**
 * @param {HTMLElement} parent
 * @param {TrendHandlers} handlers
 */
export function createTrendPane(parent, handlers) {
  const doc = parent.ownerDocument;
  const element = append(parent, "section", { className: "cct-trend", attrs: { "aria-label": "Trend" } });
  element.hidden = true;
  const head = append(element, "div", { className: "cct-trend-head" });
  const crumbs = append(head, "nav", { className: "cct-trend-path", attrs: { "aria-label": "Path to the node" } });
  const byBox = append(head, "label", { text: "by " });
  const by = /** @type {HTMLSelectElement} */ (append(byBox, "select", { attrs: { "aria-label": "Trend axis" } }));
  by.addEventListener("change", () => handlers.onAxis(by.value));
  const logBox = append(head, "label", { className: "cct-trend-log", text: " log" });
  const log = /** @type {HTMLInputElement} */ (doc.createElement("input"));
  log.type = "checkbox";
  log.setAttribute("aria-label", "Log axes");
  logBox.prepend(log);
  log.addEventListener("change", () => handlers.onLog(log.checked));
  const grid = append(element, "div", { className: "cct-trend-grid" });
  const note = append(element, "div", { className: "cct-trend-note", attrs: { "aria-live": "polite" } });

  /** @type {Trend | null} */
  let data = null;
  let logScale = false;

  const drawPath = (/** @type {Trend} */ d) => {
    crumbs.replaceChildren();
    const up = d.path.slice(0, -1);
    const shown = up.length > CRUMBS ? [up[0], null, ...up.slice(-(CRUMBS - 1))] : up;
    for (const step of shown) {
      if (step === null) {
        append(crumbs, "span", { className: "cct-trend-sep", text: "… ›" });
        continue;
      }
      const b = append(crumbs, "button", { text: step.name, attrs: { type: "button", title: `Show ${step.name}` } });
      b.addEventListener("click", () => handlers.onSelect(step.id));
      append(crumbs, "span", { className: "cct-trend-sep", text: "›" });
    }
    const here = d.path.at(-1);
    if (here) append(crumbs, "strong", { text: here.name, attrs: { "aria-current": "location" } });
  };

  /** One chart: its caption and plot; a child's is a button selecting it. */
  const drawChart = (
    /** @type {Trend} */ d,
    /** @type {Series} */ s,
    /** @type {boolean} */ first,
    /** @type {ReturnType<typeof scalesOf>} */ scales,
  ) => {
    const chart = append(grid, "div", { className: first ? "cct-trend-chart cct-trend-node" : "cct-trend-chart" });
    chart.dataset.id = String(s.id);
    if (!first) {
      chart.tabIndex = 0;
      chart.setAttribute("role", "button");
      chart.setAttribute("aria-label", `Select ${s.name}`);
      chart.addEventListener("click", () => handlers.onSelect(s.id));
      chart.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        handlers.onSelect(s.id);
      });
    }
    const caption = append(chart, "div", { className: "cct-trend-caption" });
    append(caption, "span", { className: "cct-trend-name", text: s.name });
    append(caption, "span", { className: "cct-trend-share", text: shareText(s.share) });
    chart.title = `${s.name}${s.share === null ? "" : ` (${shareText(s.share)})`}`;
    const { width: W, height: H, left: L, bottom: B } = CHART;
    const svg = select(chart).append("svg").attr("width", W).attr("height", H).attr("viewBox", `0 0 ${W} ${H}`);
    const { x, y } = scales;
    const [x0, x1] = x.range();
    const [y0, y1] = y.range();
    const axis = svg.append("g").attr("class", "cct-trend-axis");
    axis.append("path").attr("d", `M${L},${y1}V${y0}H${x1}`);
    const [lo, hi] = y.domain();
    for (const [v, at] of /** @type {const} */ ([
      [lo, y0],
      [hi, y1 + 8],
    ]))
      axis
        .append("text")
        .attr("x", L - 3)
        .attr("y", at)
        .attr("text-anchor", "end")
        .text(formatValue(Number(v.toPrecision(3))));
    const ends = d.kind === "category" ? d.categories.map((_, i) => i) : x.domain();
    const room = d.kind === "category" ? Math.max(3, Math.floor((x1 - x0) / ends.length / CHAR)) : 99;
    ends.forEach((v, i) => {
      const anchor = d.kind === "category" ? "middle" : i === 0 ? "start" : "end";
      const label = xText(d, v);
      axis
        .append("text")
        .attr("x", d.kind === "category" ? x(v) : i === 0 ? x0 : x1)
        .attr("y", H - B + 12)
        .attr("text-anchor", anchor)
        .text(cut(label, room))
        .append("title")
        .text(label);
    });
    const marks = svg.append("g").attr("class", "cct-trend-marks");
    if (d.kind === "category") {
      s.x.forEach((at, i) => {
        const low = s.low?.[i] ?? Number.NaN;
        const high = s.high?.[i] ?? Number.NaN;
        if (scales.defined(low) && scales.defined(high))
          marks
            .append("path")
            .attr("class", "cct-trend-spread")
            .attr("d", `M${x(at)},${y(low)}V${y(high)}`);
        if (!scales.defined(s.y[i])) return;
        marks
          .append("circle")
          .attr("class", "cct-trend-point")
          .attr("cx", x(at))
          .attr("cy", y(s.y[i]))
          .attr("r", 2.5)
          .append("title")
          .text(
            `${xText(d, at)}: ${formatValue(s.y[i])} (${s.count[i]} profiles; middle half ${formatValue(low)}–${formatValue(high)})`,
          );
      });
    } else {
      marks.append("path").attr("class", "cct-trend-line").attr("d", linePath(s, scales));
    }
  };

  const draw = () => {
    grid.replaceChildren();
    if (!data) return;
    const d = data;
    drawPath(d);
    by.replaceChildren(
      ...d.axes.map((a) => {
        const option = doc.createElement("option");
        option.value = a.name;
        option.textContent = a.name;
        return option;
      }),
    );
    by.value = d.by;
    logBox.hidden = !offersLog(d) && !logScale;
    log.checked = logScale;
    const { width: W, height: H, left: L, right: R, top: T, bottom: B } = CHART;
    const scales = scalesOf(d, logScale, [L + 4, W - R - 4], [H - B, T]);
    d.series.forEach((s, i) => {
      drawChart(d, s, i === 0, scales);
    });
    const over = Number.isFinite(d.profiles) ? ` over ${d.profiles} profiles` : "";
    const left = d.leftOut ? `; ${d.leftOut} smaller ${d.leftOut === 1 ? "child" : "children"} not shown` : "";
    const thin = d.thinned ? "; long series thinned to their shape" : "";
    const some = d.leftOut ? `${d.children - d.leftOut} of ${d.children} children` : `${d.children} children`;
    const kids = d.children > 1 ? ` · ${some}, largest first${left}` : d.children ? " · its one child" : "";
    note.textContent = `${d.metric} (${d.reducer}${over}) by ${d.by}${kids}${thin}; one y scale`;
  };

  return {
    element,
    /** Shows Python's pane ({} or null: hides it). @param {unknown} trend */
    setData(trend) {
      data = asTrend(trend);
      element.hidden = !data;
      draw();
    },
    /** Log axes on or off (`trend_log`). @param {boolean} on */
    setLog(on) {
      logScale = on;
      draw();
    },
    /** The charts, for tests and the figure: node ids in the order drawn. */
    get shown() {
      return data ? data.series.map((s) => s.id) : [];
    },
    destroy() {
      element.remove();
    },
  };
}
