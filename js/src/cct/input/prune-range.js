// The toolbar's prune range: two sliders over the colour metric's values (on its scale, linear
// or log) with the distribution drawn under them (a scented widget), the range and how many nodes
// it hides. It shows the view state's range (`setHistogram`) and dispatches the one the user sets.
import { bin } from "d3-array";
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";

/** @typedef {import("../../contract.js").ViewState} ViewState */

const SLIDER_STEPS = 1000;
const BINS = 40;

/**
 * @param {HTMLElement} group the toolbar's group the sliders go in
 * @param {import("../state/commands.js").Dispatch} dispatch
 */
export function createPruneRange(group, dispatch) {
  const doc = group.ownerDocument;
  append(group, "span", { text: "range" });
  const scented = append(group, "span", { className: "cct-prune" });
  const histogram = scented.appendChild(doc.createElementNS("http://www.w3.org/2000/svg", "svg"));
  histogram.setAttribute("class", "cct-histogram");
  histogram.setAttribute("aria-hidden", "true");
  const lowInput = /** @type {HTMLInputElement} */ (
    append(scented, "input", {
      attrs: { type: "range", min: "0", max: String(SLIDER_STEPS), value: "0", "aria-label": "lowest value kept" },
    })
  );
  const highInput = /** @type {HTMLInputElement} */ (
    append(scented, "input", {
      attrs: {
        type: "range",
        min: "0",
        max: String(SLIDER_STEPS),
        value: String(SLIDER_STEPS),
        "aria-label": "highest value kept",
      },
    })
  );
  const pruneInfo = append(group, "span", { className: "cct-prune-info" });
  const all = append(group, "button", {
    text: "All",
    attrs: { type: "button", title: "Clear the prune range", "aria-label": "Clear the prune range" },
  });
  all.addEventListener("click", () => dispatch({ type: "set", state: { prune: null } }));

  /** @type {{ lo: number, hi: number, log: boolean } | null} */
  let domain = null;
  /** @type {{ values: Float64Array, type: string, range: ViewState["prune"] } | null} what the
   * histogram shows */
  let drawnHistogram = null;
  /** The metric value at a slider position. @param {number} step */
  const toValue = (step) => {
    const t = Number(step) / SLIDER_STEPS;
    if (!domain) return 0;
    if (domain.log) return Math.exp(Math.log(domain.lo) + t * (Math.log(domain.hi) - Math.log(domain.lo)));
    return domain.lo + t * (domain.hi - domain.lo);
  };
  /** The slider position of a metric value. @param {number} v */
  const toStep = (v) => {
    if (!domain || domain.hi === domain.lo) return 0;
    const t = domain.log
      ? (Math.log(v) - Math.log(domain.lo)) / (Math.log(domain.hi) - Math.log(domain.lo))
      : (v - domain.lo) / (domain.hi - domain.lo);
    return Math.round(Math.max(0, Math.min(1, t)) * SLIDER_STEPS);
  };
  const onRange = () => {
    let a = Number(lowInput.value);
    let b = Number(highInput.value);
    if (a > b) [a, b] = [b, a];
    const full = a === 0 && b === SLIDER_STEPS;
    dispatch({ type: "set", state: { prune: full ? null : [toValue(a), toValue(b)] } });
  };
  lowInput.addEventListener("change", onRange);
  highInput.addEventListener("change", onRange);

  return {
    /**
     * The colour metric's distribution under the prune range sliders.
     * @param {Float64Array} values
     * @param {ViewState["colorScale"]} type
     * @param {ViewState["prune"]} range
     * @param {number} hiddenCount nodes outside the range
     */
    setHistogram(values, type, range, hiddenCount) {
      // a collapse or expand redraws the view, not the distribution: only the count changes
      const same =
        drawnHistogram &&
        drawnHistogram.values === values &&
        drawnHistogram.type === type &&
        drawnHistogram.range?.[0] === range?.[0] &&
        drawnHistogram.range?.[1] === range?.[1];
      drawnHistogram = { values, type, range };
      if (same && range && domain) {
        pruneInfo.textContent = `${formatValue(range[0])} – ${formatValue(range[1])} · ${hiddenCount} hidden`;
        return;
      }
      if (same) return;
      // passes over the typed array, counting, not lists of values: at 10^5 values spreading,
      // filtering, mapping and d3's bins (which hold every value) took ~20 ms of a first picture
      const drawable = (/** @type {number} */ v) => Number.isFinite(v) && (type !== "log" || v > 0);
      let count = 0;
      let lo = Infinity;
      let hi = -Infinity;
      for (let ix = 0; ix < values.length; ix++) {
        const v = values[ix];
        if (!drawable(v)) continue;
        count++;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (!count) lo = hi = 0;
      domain = count ? { lo, hi, log: type === "log" && lo > 0 && hi > lo } : null;
      const disabled = !domain || lo === hi;
      lowInput.disabled = disabled;
      highInput.disabled = disabled;
      lowInput.value = String(range ? toStep(range[0]) : 0);
      highInput.value = String(range ? toStep(range[1]) : SLIDER_STEPS);
      const w = 160;
      const h = 22;
      histogram.setAttribute("width", String(w));
      histogram.setAttribute("height", String(h));
      histogram.replaceChildren();
      if (!disabled) {
        const perStep = new Float64Array(SLIDER_STEPS + 1);
        for (let ix = 0; ix < values.length; ix++) {
          const v = values[ix];
          if (drawable(v)) perStep[toStep(v)]++;
        }
        // d3 chooses the bins (empty: only their bounds); a bin holds the slider steps from its
        // x0 up to its x1, the last one its x1 too (d3's rule)
        const edges = bin().domain([0, SLIDER_STEPS]).thresholds(BINS)([]);
        const counts = edges.map((b, i) => {
          let c = 0;
          const end = i === edges.length - 1 ? SLIDER_STEPS : Math.ceil(/** @type {number} */ (b.x1)) - 1;
          for (let k = Math.ceil(/** @type {number} */ (b.x0)); k <= end; k++) c += perStep[k];
          return c;
        });
        const top = Math.max(...counts);
        for (const [i, b] of edges.entries()) {
          // bins over a set domain always have both bounds
          const b0 = /** @type {number} */ (b.x0);
          const b1 = /** @type {number} */ (b.x1);
          const n = counts[i];
          const rect = histogram.appendChild(doc.createElementNS("http://www.w3.org/2000/svg", "rect"));
          const x0 = (b0 / SLIDER_STEPS) * w;
          const bh = n ? Math.max(1, (Math.log1p(n) / Math.log1p(top)) * h) : 0;
          rect.setAttribute("x", String(x0));
          rect.setAttribute("y", String(h - bh));
          rect.setAttribute("width", String(Math.max(1, ((b1 - b0) / SLIDER_STEPS) * w - 1)));
          rect.setAttribute("height", String(bh));
          const inside = !range || (toValue(b1) >= range[0] && toValue(b0) <= range[1]);
          rect.setAttribute("class", inside ? "cct-bin" : "cct-bin cct-bin-out");
        }
      }
      pruneInfo.textContent = range
        ? `${formatValue(range[0])} – ${formatValue(range[1])} · ${hiddenCount} hidden`
        : domain
          ? `${formatValue(lo)} – ${formatValue(hi)}`
          : "no values";
    },
  };
}
