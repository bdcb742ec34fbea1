// The profile strip of an ensemble: a small D3 scatter plot, one point per profile, of one
// metadata column (or a run's total of a metric) against another, chosen in two menus. Dragging
// over it brushes a range (x and y; a flat drag brushes x only, a tall one y only; a click
// clears it): the ranges are reported, and Python answers with the profiles that pass, drawn
// filled, the others grey. It holds no state of its own beyond the drag: what it shows comes
// in with `setData` (Python's strip: cctviz/widget/strip_payload.py). Text from the data (column
// names, profile ids) goes in as text, never as markup.
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";
import { displayText } from "../base/text.js";

/**
 * @typedef {{ name: string, label: string, kind: "date" | "number" }} Axis
 * @typedef {object} Strip what Python sends (cctviz/widget/strip_payload.py `payload`)
 * @property {Axis[]} axes
 * @property {string} x @property {string} y the axes shown (names of `axes`)
 * @property {number} profiles in the ensemble
 * @property {number} passing of them, passing `where`
 * @property {number} missing profiles without a value of x or y
 * @property {boolean} sampled whether the points are a sample of the profiles
 * @property {string} where
 * @property {{ x: [number, number] | null, y: [number, number] | null } | null} brush the ranges
 *   that made `where`, drawn as the brush
 * @property {string[]} ids @property {number[]} xs @property {number[]} ys
 * @property {number[]} pass 1: the profile passes `where`
 * @typedef {{ x: [number, number] | null, y: [number, number] | null }} Ranges a brush, in
 *   axis units (dates: ms since 1970)
 * @typedef {object} StripHandlers
 * @property {(x: string, y: string) => void} onAxes the user chose other axes
 * @property {(ranges: Ranges) => void} onBrush the user brushed (both null: cleared the brush)
 */

const WIDTH = 300;
const HEIGHT = 210;
const M = { left: 46, right: 10, top: 8, bottom: 26 };
/** A drag shorter than this (pixels) along an axis brushes no range of it. */
const MIN_DRAG = 4;

/** @param {number} ms */
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * The strip's value as text: a date or a number. Exported for tests.
 * @param {number} v @param {Axis | undefined} axis
 */
export const shown = (v, axis) => (axis?.kind === "date" && Number.isFinite(v) ? day(v) : formatValue(v));

/**
 * Checks Python's strip: arrays of the same length, names as text. Null when it is none.
 * @param {unknown} value
 * @returns {Strip | null}
 */
export function asStrip(value) {
  const v = /** @type {Record<string, any>} */ (value ?? {});
  if (!Array.isArray(v.axes) || !Array.isArray(v.ids)) return null;
  const n = v.ids.length;
  for (const k of ["xs", "ys", "pass"]) if (!Array.isArray(v[k]) || v[k].length !== n) return null;
  const num = (/** @type {unknown} */ x) => (typeof x === "number" ? x : Number.NaN);
  const range = (/** @type {unknown} */ r) =>
    Array.isArray(r) && r.length === 2 ? /** @type {[number, number]} */ ([num(r[0]), num(r[1])]) : null;
  return {
    axes: v.axes.map((/** @type {any} */ a) => ({
      name: String(a?.name),
      label: displayText(String(a?.label ?? a?.name)),
      kind: a?.kind === "date" ? "date" : "number",
    })),
    x: String(v.x),
    y: String(v.y),
    profiles: num(v.profiles),
    passing: num(v.passing),
    missing: num(v.missing) || 0,
    sampled: v.sampled === true,
    where: displayText(String(v.where ?? "")),
    brush: v.brush ? { x: range(v.brush.x), y: range(v.brush.y) } : null,
    ids: v.ids.map((/** @type {unknown} */ id) => displayText(String(id))),
    xs: v.xs.map(num),
    ys: v.ys.map(num),
    pass: v.pass.map((/** @type {unknown} */ p) => (p ? 1 : 0)),
  };
}

/**
 * A domain that shows every value with a margin (one value: around it).
 * @param {number[]} values
 * @returns {[number, number]}
 */
function domainOf(values) {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (!(lo <= hi)) return [0, 1];
  const pad = (hi - lo) * 0.05 || Math.abs(lo) * 0.05 || 1;
  return [lo - pad, hi + pad];
}

/**
 * @param {HTMLElement} parent
 * @param {StripHandlers} handlers
 */
export function createProfileStrip(parent, handlers) {
  const element = append(parent, "section", { className: "cct-profiles", attrs: { "aria-label": "Profiles" } });
  const head = append(element, "div", { className: "cct-profiles-head" });
  /** @param {string} label */
  const menu = (label) => {
    const box = append(head, "label", { text: `${label} ` });
    const sel = /** @type {HTMLSelectElement} */ (append(box, "select", { attrs: { "aria-label": `${label} axis` } }));
    sel.addEventListener("change", () => handlers.onAxes(xMenu.value, yMenu.value));
    return sel;
  };
  const yMenu = menu("y");
  const xMenu = menu("x");
  const svg = select(element)
    .append("svg")
    .attr("class", "cct-profiles-plot")
    .attr("viewBox", `0 0 ${WIDTH} ${HEIGHT}`)
    .attr("width", WIDTH)
    .attr("height", HEIGHT);
  const axes = svg.append("g").attr("class", "cct-profiles-axes");
  const dots = svg.append("g").attr("class", "cct-profiles-dots");
  const area = svg
    .append("rect")
    .attr("class", "cct-profiles-area")
    .attr("x", M.left)
    .attr("y", M.top)
    .attr("width", WIDTH - M.left - M.right)
    .attr("height", HEIGHT - M.top - M.bottom)
    .attr("fill", "transparent");
  const band = svg.append("rect").attr("class", "cct-profiles-brush").attr("display", "none");
  const note = append(element, "div", { className: "cct-profiles-note", attrs: { "aria-live": "polite" } });

  const x = scaleLinear().range([M.left, WIDTH - M.right]);
  const y = scaleLinear().range([HEIGHT - M.bottom, M.top]);
  /** @type {Strip | null} */
  let data = null;
  /** @type {string} an error to show, until the next strip */
  let error = "";

  /**
   * The band over pixel spans `xs` and `ys` (null: the whole axis), inside the plot.
   * @param {number[] | null} xs @param {number[] | null} ys @returns {number[]}
   */
  const bandOf = (xs, ys) => {
    const [a, b] = xs ?? x.range();
    const [c, e] = ys ?? y.range();
    const [l, r] = x.range();
    const [bottom, top] = y.range();
    return [
      Math.max(l, Math.min(a, b)),
      Math.min(r, Math.max(a, b)),
      Math.max(top, Math.min(c, e)),
      Math.min(bottom, Math.max(c, e)),
    ];
  };
  /** Draws the brush band [x0, x1, y0, y1] (pixels); null hides it. @param {number[] | null} px */
  const showBand = (px) => {
    band.attr("display", px ? null : "none");
    if (px)
      band
        .attr("x", px[0])
        .attr("y", px[2])
        .attr("width", px[1] - px[0])
        .attr("height", px[3] - px[2]);
  };

  const draw = () => {
    if (!data) return;
    const d = data;
    const byName = new Map(d.axes.map((a) => [a.name, a]));
    const ax = byName.get(d.x);
    const ay = byName.get(d.y);
    for (const [sel, value] of /** @type {const} */ ([
      [xMenu, d.x],
      [yMenu, d.y],
    ])) {
      sel.replaceChildren(
        ...d.axes.map((a) => {
          const option = element.ownerDocument.createElement("option");
          option.value = a.name;
          option.textContent = a.label;
          return option;
        }),
      );
      sel.value = value;
    }
    x.domain(domainOf(d.xs));
    y.domain(domainOf(d.ys));
    axes.selectAll("*").remove();
    const [x0, x1] = x.range();
    const [y0, y1] = y.range();
    axes.append("path").attr("d", `M${x0},${y1}V${y0}H${x1}`).attr("class", "cct-profiles-frame");
    for (const t of x.ticks(3))
      axes
        .append("text")
        .attr("x", x(t))
        .attr("y", y0 + 16)
        .attr("text-anchor", "middle")
        .text(shown(t, ax));
    for (const t of y.ticks(4))
      axes
        .append("text")
        .attr("x", x0 - 4)
        .attr("y", y(t) + 4)
        .attr("text-anchor", "end")
        .text(shown(t, ay));
    const order = d.ids.map((_, i) => i).sort((a, b) => d.pass[a] - d.pass[b]); // passing on top
    dots
      .selectAll("circle")
      .data(order)
      .join((enter) => enter.append("circle").call((c) => c.append("title")))
      .attr("cx", (i) => x(d.xs[i]))
      .attr("cy", (i) => y(d.ys[i]))
      .attr("r", 3)
      .attr("class", (i) => (d.pass[i] ? "cct-profiles-pass" : "cct-profiles-fail"))
      .select("title")
      .text((i) => `${d.ids[i]}\n${ax?.label}: ${shown(d.xs[i], ax)}\n${ay?.label}: ${shown(d.ys[i], ay)}`);
    const b = d.brush;
    const px = (/** @type {[number, number] | null} */ r, /** @type {typeof x} */ s) => (r ? r.map((v) => s(v)) : null);
    showBand(b && (b.x || b.y) ? bandOf(px(b.x, x), px(b.y, y)) : null);
    const some = d.sampled ? `a sample of ${d.ids.length} of ${d.profiles}` : `${d.profiles}`;
    const missing = d.missing ? ` (${d.missing} without values here)` : "";
    note.textContent =
      error ||
      (d.where
        ? `${d.passing} of ${d.profiles} profiles pass: ${d.where}`
        : `${some} profiles${missing}; drag to select some`);
    note.title = d.where;
  };

  // the brush: a drag over the plot
  /** @type {{ x: number, y: number } | null} */
  let start = null;
  /** @param {PointerEvent} event @returns {[number, number]} */
  const at = (event) => {
    const box = /** @type {SVGSVGElement} */ (svg.node()).getBoundingClientRect();
    const scale = box.width > 0 ? WIDTH / box.width : 1;
    return [(event.clientX - box.left) * scale, (event.clientY - box.top) * scale];
  };
  /** @param {PointerEvent} event */
  const move = (event) => {
    if (!start) return;
    const [px, py] = at(event);
    showBand(bandOf([start.x, px], [start.y, py]));
  };
  /** @param {PointerEvent} event */
  const end = (event) => {
    if (!start) return;
    const [px, py] = at(event);
    const [x0, x1, y0, y1] = bandOf([start.x, px], [start.y, py]);
    start = null;
    const wide = x1 - x0 >= MIN_DRAG;
    const tall = y1 - y0 >= MIN_DRAG;
    // a flat drag brushes x only, a tall one y only, a click neither: the band shows it
    showBand(wide || tall ? bandOf(wide ? [x0, x1] : null, tall ? [y0, y1] : null) : null);
    error = "";
    handlers.onBrush({
      x: wide ? [x.invert(x0), x.invert(x1)] : null,
      y: tall ? [y.invert(y1), y.invert(y0)] : null,
    });
  };
  const plot = /** @type {SVGSVGElement} */ (svg.node());
  plot.addEventListener("pointerdown", (event) => {
    if (!data || event.button !== 0) return;
    const [px, py] = at(event);
    start = { x: px, y: py };
    plot.setPointerCapture?.(event.pointerId);
    event.preventDefault();
  });
  plot.addEventListener("pointermove", move);
  plot.addEventListener("pointerup", end);
  plot.addEventListener("pointercancel", () => {
    start = null;
    draw();
  });
  area.lower();

  return {
    element,
    /** Shows Python's strip (null: hides the strip). @param {unknown} strip */
    setData(strip) {
      data = asStrip(strip);
      error = "";
      element.hidden = !data;
      draw();
    },
    /** Shows what went wrong with the last brush (the strip as Python had it). @param {string} text */
    setError(text) {
      error = displayText(text);
      draw();
    },
    destroy() {
      element.remove();
    },
  };
}
