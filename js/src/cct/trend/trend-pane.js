// The trend pane of an ensemble: the node shown (the selected one) and its largest children as
// small multiples, one line each along a metadata axis chosen in the pane's menu, on one shared
// y scale, each titled with its share of its parent; a category axis draws one point per value
// with its spread. A click on a child's chart (or Enter on it) asks to select that child, a
// breadcrumb of the path from the root asks to select an ancestor: the handlers report it, the
// pane draws what comes in with `setData` (Python's pane for the new selection). Names are
// untrusted text: they go in as text, never as markup.
import { select } from "d3-selection";
import { append } from "../base/dom.js";
import { elidePath } from "../base/elide-path.js";
import { CHART, PAGE_LOOK, plotChart } from "./trend-chart.js";
import { asTrend, offersLog, scalesOf, shareText } from "./trend-data.js";

export { CHART };

/**
 * @typedef {import("./trend-data.js").Trend} Trend
 * @typedef {import("./trend-data.js").Series} Series
 * @typedef {object} TrendHandlers
 * @property {(id: number) => void} onSelect the user asked to show (select) node `id`
 * @property {(by: string) => void} onAxis the user chose another axis
 * @property {(log: boolean) => void} onLog the user switched log axes
 */

/** Nearest ancestors a long path shows before the node, after its root (base/elide-path.js). */
const NEAREST = 3;

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

  /** the whole path shown: the user opened the ellipsis (until another node comes) */
  let wholePath = false;
  const drawPath = (/** @type {Trend} */ d) => {
    crumbs.replaceChildren();
    const up = d.path.slice(0, -1);
    const { shown, left } = wholePath ? { shown: up, left: [] } : elidePath(up, NEAREST);
    for (const step of shown) {
      if (step === null) {
        // the ancestors left out, behind a button that shows them (no dead end)
        const hidden = left.length;
        const more = append(crumbs, "button", {
          className: "cct-trend-more",
          text: "…",
          attrs: { type: "button", title: `Show the ${hidden} ancestor${hidden === 1 ? "" : "s"} left out` },
        });
        more.addEventListener("click", () => {
          wholePath = true;
          drawPath(d);
          /** @type {HTMLElement | null} */ (crumbs.querySelector("button:nth-of-type(2)"))?.focus();
        });
        append(crumbs, "span", { className: "cct-trend-sep", text: "›" });
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
    const { width: W, height: H } = CHART;
    const svg = select(chart).append("svg").attr("width", W).attr("height", H).attr("viewBox", `0 0 ${W} ${H}`);
    plotChart(svg, d, s, scales, PAGE_LOOK);
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
      const before = data?.path.at(-1)?.id;
      data = asTrend(trend);
      if (data?.path.at(-1)?.id !== before) wholePath = false; // another node: its path short again
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
