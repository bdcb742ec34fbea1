// A compare view's series in a tooltip: one node's value in each run, in run order, as a small
// line with a dot per run (a run without the context leaves a gap), its first and last values
// written under it. Built from text nodes and SVG elements only (labels are untrusted text).
import { extent } from "d3-array";
import { scaleLinear, scalePoint } from "d3-scale";
import { formatValue } from "../../base/format.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SIZE = { width: 180, height: 34, pad: 4 };

/**
 * @param {Document} doc
 * @param {import("../../data/decode.js").Table} table a compare view's table (`table.series` set)
 * @param {number} row
 * @returns {HTMLElement | null} null: not a compare view of three runs or more (two runs' values
 *   and their difference are in the tooltip's rows)
 */
export function seriesContent(doc, table, row) {
  if (table.series.length < 3) return null;
  const runs = table.series.map(({ label, metric }) => ({
    label,
    value: table.metrics.find((m) => m.name === metric)?.values[row] ?? Number.NaN,
  }));
  const box = doc.createElement("div");
  box.className = "cct-tooltip-series";
  const svg = /** @type {SVGSVGElement} */ (box.appendChild(doc.createElementNS(SVG_NS, "svg")));
  svg.setAttribute("width", String(SIZE.width));
  svg.setAttribute("height", String(SIZE.height));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", runs.map((r) => `${r.label}: ${formatValue(r.value)}`).join(", "));
  const x = scalePoint()
    .domain(runs.map((_, i) => String(i)))
    .range([SIZE.pad, SIZE.width - SIZE.pad]);
  const [low = 0, high = 1] = extent(
    runs.filter((r) => !Number.isNaN(r.value)),
    (r) => r.value,
  );
  const y = scaleLinear()
    .domain(low === high ? [low - 1, high + 1] : [low, high])
    .range([SIZE.height - SIZE.pad, SIZE.pad]);
  let path = "";
  runs.forEach((r, i) => {
    if (Number.isNaN(r.value)) return;
    const gap = i === 0 || Number.isNaN(runs[i - 1].value);
    path += `${gap ? "M" : "L"}${x(String(i))},${y(r.value)}`;
    const dot = svg.appendChild(doc.createElementNS(SVG_NS, "circle"));
    dot.setAttribute("class", "cct-series-dot");
    dot.setAttribute("cx", String(x(String(i))));
    dot.setAttribute("cy", String(y(r.value)));
    dot.setAttribute("r", "2.5");
  });
  const line = svg.insertBefore(doc.createElementNS(SVG_NS, "path"), svg.firstChild);
  line.setAttribute("class", "cct-series-line");
  line.setAttribute("d", path);
  const first = runs[0];
  const last = runs[runs.length - 1];
  const note = box.appendChild(doc.createElement("div"));
  note.className = "cct-tooltip-series-ends";
  note.textContent = `${first.label}: ${formatValue(first.value)} … ${last.label}: ${formatValue(last.value)} (${runs.length} runs)`;
  return box;
}
