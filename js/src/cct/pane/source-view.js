// The table pane's Source tab: the selected node's source file around its line (Python's
// `source` reply, w.source_text), the line marked, and in a gutter the colour metric's value of
// each line the profile measures (HPCToolkit's statements of the node's procedure), with a bar
// of its share of the largest shown — hpcviewer's source pane beside the tree. File names and
// source text are untrusted: set as text, never as HTML.
import { append } from "../base/dom.js";
import { formatValue } from "../base/format.js";
import { latestOnly } from "../base/latest.js";
import { displayText } from "../base/text.js";

/**
 * Python's `source` (cctviz/contract.json, reply), checked.
 * @typedef {object} Source
 * @property {string} path the file read
 * @property {string} recorded the file as the profile records it
 * @property {string} how where the path came from
 * @property {number} first the number of the first line
 * @property {number | null} line the node's line (null: none)
 * @property {string[]} lines
 * @property {(number | null)[]} values per line: the metric's value (null: not measured)
 * @property {string} metric
 * @property {boolean} truncated the file is larger than what Python reads
 */

/**
 * `value` as a Source, or an Error saying what is wrong with it.
 * @param {unknown} value
 * @returns {Source | Error}
 */
export function asSource(value) {
  if (typeof value !== "object" || value === null) return new Error("no source in Python's reply");
  const v = /** @type {Record<string, unknown>} */ (value);
  const lines = Array.isArray(v.lines) ? v.lines : null;
  const first = v.first;
  if (!lines || typeof first !== "number" || !Number.isInteger(first) || first < 1)
    return new Error("Python's source reply has no lines or no first line number");
  const values = Array.isArray(v.values) ? v.values : [];
  const text = (/** @type {unknown} */ x) => (typeof x === "string" ? x : "");
  return {
    path: text(v.path),
    recorded: text(v.recorded),
    how: text(v.how),
    first,
    line: typeof v.line === "number" && Number.isInteger(v.line) ? v.line : null,
    lines: lines.map(text),
    values: lines.map((_, i) => (typeof values[i] === "number" && Number.isFinite(values[i]) ? values[i] : null)),
    metric: text(v.metric),
    truncated: v.truncated === true,
  };
}

/**
 * @param {HTMLElement} parent the pane's element
 * @param {{ fetchSource: (node: number) => Promise<unknown> }} handlers
 */
export function createSourceView(parent, handlers) {
  const element = append(parent, "div", { className: "cct-source", attrs: { "aria-label": "Source" } });
  element.hidden = true;
  const head = append(element, "div", { className: "cct-source-head" });
  const body = append(element, "div", { className: "cct-source-body", attrs: { role: "list", tabindex: "0" } });
  const latest = latestOnly();
  /** @type {number | null} */
  let shownNode = null;

  /** @param {string} text */
  const say = (text) => {
    head.textContent = text;
    head.removeAttribute("title");
    body.replaceChildren();
  };

  /** @param {Source} source */
  function render(source) {
    head.replaceChildren();
    const where = source.line === null ? "" : `:${source.line}`;
    append(head, "span", { className: "cct-source-path", text: `${displayText(source.path)}${where}` });
    const measured = source.values.some((v) => v !== null);
    // no value to show: the lines take the gutter's room (a narrow pane cuts them less)
    body.classList.toggle("cct-source-unmeasured", !measured);
    append(head, "span", {
      className: "cct-source-about",
      text: measured ? ` · ${displayText(source.metric)} per line` : " · no line of it is measured",
    });
    if (source.truncated) append(head, "span", { className: "cct-source-about", text: " · file cut (too large)" });
    head.title = `${source.how}; recorded as ${source.recorded}`;
    const top = Math.max(0, ...source.values.map((v) => (v === null ? 0 : Math.abs(v))));
    /** @type {HTMLElement | null} */
    let marked = null;
    const rows = source.lines.map((text, i) => {
      const number = source.first + i;
      const value = source.values[i];
      const row = /** @type {HTMLElement} */ (body.ownerDocument.createElement("div"));
      row.className = "cct-source-line";
      row.setAttribute("role", "listitem");
      row.dataset.line = String(number);
      const gutter = append(row, "span", { className: "cct-source-value" });
      if (value !== null) {
        const bar = append(gutter, "span", { className: "cct-source-bar" });
        bar.style.width = `${top > 0 ? (100 * Math.abs(value)) / top : 0}%`;
        append(gutter, "span", { text: formatValue(value) });
        row.classList.add("cct-source-measured");
      }
      append(row, "span", { className: "cct-source-number", text: String(number) });
      append(row, "span", { className: "cct-source-text", text: displayText(text) });
      if (number === source.line) {
        row.classList.add("cct-source-marked");
        row.setAttribute("aria-current", "true");
        marked = row;
      }
      return row;
    });
    body.replaceChildren(...rows);
    const at = /** @type {HTMLElement | null} */ (marked);
    // the marked line a third of the way down (offsets taken on screen: the body is no offsetParent)
    if (at) body.scrollTop += at.getBoundingClientRect().top - body.getBoundingClientRect().top - body.clientHeight / 3;
  }

  return {
    element,
    /** Whether the tab shows. @param {boolean} on */
    show(on) {
      element.hidden = !on;
    },
    /** The node whose source shows (null: none selected). @param {number | null} node */
    async load(node) {
      shownNode = node;
      if (node === null) {
        latest.cancel();
        say("Select a node in the tree to see its source.");
        return;
      }
      say("Loading the source…");
      await latest.run(
        () => handlers.fetchSource(node),
        (answer) => {
          const source = asSource(answer);
          if (source instanceof Error) throw source;
          render(source);
        },
        (error) => say(error instanceof Error ? error.message : String(error)),
      );
    },
    /** The node shown now (for the pane and tests). */
    get node() {
      return shownNode;
    },
  };
}
